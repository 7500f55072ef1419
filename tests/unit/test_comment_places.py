"""A comment at the end of any line of a profile in canonical layout stays at the end of
that line through `fmt`, for every line of every shipped profile in both syntaxes: the
lines of a YAML option written out in full (`value:`, `note:`, `assumed:`) are one
statement, whose comment goes on its first line."""

import pytest

from rulesdsl.read.profile import shipped_files
from rulesdsl.surfaces.main import main

SHIPPED = shipped_files()


def canonical(tmp_path, shipped, syntax: str) -> str:
    out = tmp_path / f"canonical.{'rules' if syntax == 'dsl' else 'yaml'}"
    assert main(["convert", str(shipped), "--to", syntax, "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


DETAIL = ("  value:", "  note:", "  assumed:")


def code_lines(text: str) -> list[int]:
    """The lines that start a statement: not blank, not a comment, not a detail line."""
    return [
        i
        for i, line in enumerate(text.split("\n"))
        if line.strip() and not line.lstrip().startswith("#") and not line.startswith(DETAIL)
    ]


@pytest.mark.parametrize("syntax", ["dsl", "yaml"])
def test_a_comment_ending_any_line_stays_on_it(tmp_path, capsys, syntax):
    for shipped in SHIPPED:
        text = canonical(tmp_path, shipped, syntax)
        lines = text.split("\n")
        for index in code_lines(text):
            if "#" in lines[index]:
                continue  # a line that already has a comment (or a '#' in a string)
            marked = [*lines]
            marked[index] += f"  # at {index}"
            path = tmp_path / f"{shipped.stem}-{index}.{'rules' if syntax == 'dsl' else 'yaml'}"
            path.write_text("\n".join(marked), encoding="utf-8")
            assert main(["fmt", "--check", str(path)]) == 0, (shipped.name, index, lines[index])
    capsys.readouterr()
