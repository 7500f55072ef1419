"""The README's example runs, and its options table is the registry's."""

import re
from pathlib import Path

from rulesdsl.rules import options_table

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
