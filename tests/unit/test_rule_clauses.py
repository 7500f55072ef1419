"""A clause said twice in a rule is a reading error at the second one, as an option set
twice is: `validate`, `convert` and `fmt` name it, and nothing is rewritten."""

from pathlib import Path

import pytest

from rulesdsl.read.profile import shipped_files
from rulesdsl.surfaces.main import main

HOUSE = [p for p in shipped_files() if p.parent.name == "house"]


def rule_lines(text: str) -> list[int]:
    """The indexes of the clause lines inside the rule block."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("rule "))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "}")
    return list(range(start + 1, end))


CASES = [(path, index) for path in HOUSE for index in rule_lines(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("path", "index"), CASES, ids=[f"{p.stem}-{i}" for p, i in CASES])
def test_every_clause_said_twice_is_named_by_every_command(tmp_path, capsys, path, index):
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(index + 1, lines[index])
    copy = tmp_path / path.name
    text = "\n".join(lines) + "\n"
    copy.write_text(text, encoding="utf-8")
    where = f"{copy}:{index + 2}:9: error[duplicate-key]"
    for command in (["validate"], ["convert", "--to", "yaml"], ["fmt"]):
        assert main([*command, str(copy)]) != 0
        out = capsys.readouterr()
        said = out.out + out.err
        assert where in said, (command, said)
        assert "please report" not in said
    assert copy.read_text(encoding="utf-8") == text
    assert not (tmp_path / Path(path.name).with_suffix(".yaml")).exists()
