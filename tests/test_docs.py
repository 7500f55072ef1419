"""The README's example runs, and its options table is the registry's."""

import re
from pathlib import Path

from rulesdsl.model.rules import options_table
from rulesdsl.read.profile import load_file, shipped_names

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_python_example_runs(capsys):
    (code,) = re.findall(r"```python\n(.*?)```", README, re.S)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "trump:" in out
    assert "2 all_out" in out


def test_readme_options_table_matches_the_registry():
    assert options_table() in README


def test_readme_opens_with_the_two_make_commands():
    head = README.split("## ")[0]
    assert "make run" in head and "make test" in head


def indented_block(first_line: str) -> str:
    """The README's indented code block that starts with `first_line`."""
    start = README.index("    " + first_line)
    lines = []
    for line in README[start:].splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).strip() + "\n"


def test_readme_profile_examples_validate_and_agree(tmp_path):
    dsl = tmp_path / "house.rules"
    dsl.write_text(indented_block("# house.rules"))
    yaml = tmp_path / "house.yaml"
    yaml.write_text(indented_block("# yaml-language-server"))
    first, second = load_file(dsl), load_file(yaml)
    assert first.ok and second.ok
    assert first.diagnostics == [] and second.diagnostics == []
    assert first.rules == second.rules
    assert first.settings["exhaustion"].assumed and second.settings["exhaustion"].assumed
    assert first.settings["exhaustion"].note == second.settings["exhaustion"].note


def test_readme_names_every_shipped_profile():
    for name in shipped_names():
        assert f"`{name}`" in README
