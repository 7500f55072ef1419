"""The README is a door and the reference in docs/ holds: its Python example runs, its options
table is the registry's, its profile examples validate."""

import re
from pathlib import Path

from rulesdsl.model.rules import options_table
from rulesdsl.read.profile import load_file, shipped_names

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
PROFILES = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
EVERY_PAGE = "\n".join(
    [README, *(page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").glob("*.md")))]
)


def test_the_python_example_of_docs_api_runs(capsys):
    (code,) = re.findall(r"```python\n(.*?)```", API, re.S)
    exec(compile(code, "docs/api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "trump:" in out
    assert "2 all_out" in out


def test_the_options_table_of_docs_profiles_matches_the_registry():
    assert options_table() in PROFILES


def test_readme_opens_with_the_two_make_commands():
    head = README.split("## ")[0]
    assert "make run" in head and "make test" in head


def test_the_readme_is_a_door_of_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def indented_block(first_line: str) -> str:
    """The indented code block of docs/profiles.md that starts with `first_line`."""
    start = PROFILES.index("    " + first_line)
    lines = []
    for line in PROFILES[start:].splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).strip() + "\n"


def test_the_profile_examples_of_docs_profiles_validate_and_agree(tmp_path):
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


def test_the_docs_name_every_shipped_profile():
    for name in shipped_names():
        assert f"`{name}`" in EVERY_PAGE
