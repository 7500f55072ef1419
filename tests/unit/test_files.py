"""`validate` and `fmt` over files and folders, and the profile examples of the README and docs/."""

from __future__ import annotations

import re
import subprocess
import textwrap
from pathlib import Path

import pytest
import yaml

from rulesdsl.surfaces.main import main

README = Path(__file__).parents[2] / "README.md"
PAGES = [README, *sorted((README.parent / "docs").glob("*.md"))]
UNFORMATTED = "profile x {\n  draw 1   # one\n}"
FORMATTED = 'profile "x" {\n    draw 1  # one\n}\n'


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("form", ["text", "json", "github"])
def test_validate_says_a_folder_holds_no_profiles(tmp_path, capsys, form):
    (tmp_path / "notes.txt").write_text("not a profile")
    code, _, err = run(capsys, "validate", "--format", form, tmp_path)
    assert code == 0
    assert f"rulesdsl: warning: {tmp_path}: no profile files here" in err
    code, _, err = run(capsys, "validate", "--format", form, "--strict", tmp_path)
    assert code == 1 and "no profile files here" in err


def test_validate_names_the_empty_folder_among_others(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.rules").write_text(FORMATTED)
    code, _, err = run(capsys, "validate", tmp_path / "full", tmp_path / "empty")
    assert code == 0
    assert f"{tmp_path / 'empty'}: no profile files here" in err
    assert f"{tmp_path / 'full'}:" not in err
    assert "1 file(s) checked" in err


def test_validate_says_a_pattern_matches_nothing(tmp_path, capsys):
    pattern = tmp_path / "*.rules"
    code, out, err = run(capsys, "validate", pattern)
    assert (code, out) == (0, "")
    assert f"rulesdsl: warning: {pattern}: matches no file\n" in err
    code, _, _ = run(capsys, "validate", "--strict", pattern)
    assert code == 1


def test_a_pattern_the_shell_passed_on_is_matched(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.rules").write_text('profile "a" {\n    trump hart\n}\n')
    (tmp_path / "b.rules").write_text(FORMATTED)
    code, out, err = run(capsys, "validate", tmp_path / "**" / "*.rules")
    assert code == 1
    assert "a.rules:2:11: error[bad-value]" in out
    assert "2 file(s) checked" in err


def test_a_path_that_is_not_there_is_a_usage_error(tmp_path, capsys):
    code, out, err = run(capsys, "validate", tmp_path / "missing.rules")
    assert (code, out) == (2, "")
    assert err == f"rulesdsl: error: {tmp_path / 'missing.rules'}: no such file or folder\n"


def test_fmt_check_says_which_files_would_change(tmp_path, capsys):
    changed, clean = tmp_path / "a.rules", tmp_path / "b.rules"
    changed.write_text(UNFORMATTED)
    clean.write_text(FORMATTED)
    assert run(capsys, "fmt", "--check", tmp_path) == (1, f"would reformat {changed}\n", "")
    assert changed.read_text() == UNFORMATTED


def test_fmt_diff_prints_a_unified_diff_and_changes_nothing(tmp_path, capsys):
    path = tmp_path / "a.rules"
    path.write_text(UNFORMATTED)
    code, out, _ = run(capsys, "fmt", "--diff", path)
    assert code == 1
    assert path.read_text() == UNFORMATTED
    assert out == (
        f"--- {path}\n+++ {path}\n@@ -1,3 +1,3 @@\n"
        "-profile x {\n-  draw 1   # one\n-}\n\\ No newline at end of file\n"
        '+profile "x" {\n+    draw 1  # one\n+}\n'
    )


def test_fmt_diff_applies_as_a_patch(tmp_path, capsys):
    path = tmp_path / "a.rules"
    path.write_text(UNFORMATTED)
    patch = run(capsys, "fmt", "--diff", path)[1]
    if subprocess.run(["patch", "--version"], capture_output=True).returncode != 0:
        pytest.skip("needs patch")
    subprocess.run(["patch", "-s", "-p0"], input=patch, text=True, cwd="/", check=True)
    assert path.read_text() == FORMATTED


def test_fmt_diff_of_formatted_files_is_empty(tmp_path, capsys):
    (tmp_path / "b.rules").write_text(FORMATTED)
    assert run(capsys, "fmt", "--diff", tmp_path) == (0, "", "")


def test_fmt_says_a_folder_holds_no_profiles(tmp_path, capsys):
    code, out, err = run(capsys, "fmt", tmp_path)
    assert (code, out) == (0, "")
    assert "no profile files here" in err


def documented_profiles() -> list[tuple[str, str]]:
    """Every profile example in README.md and docs/*.md: indented or fenced code blocks that
    read as a profile in the DSL or in YAML, each with a file name for it."""
    examples = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        blocks = re.findall(r"(?:^|\n\n)((?:(?: {4}.*)?\n)+)", text)
        blocks = [textwrap.dedent(b).strip("\n") + "\n" for b in blocks]
        blocks += re.findall(r"```(?:rules|yaml)\n(.*?)```", text, re.S)
        for number, block in enumerate(blocks):
            if re.match(r"(?:#.*\n)*profile\s", block):
                examples.append((f"{page.stem}{number}.rules", block))
            elif _is_yaml_profile(block):
                examples.append((f"{page.stem}{number}.yaml", block))
    return examples


def _is_yaml_profile(block: str) -> bool:
    try:
        data = yaml.safe_load(block)
    except yaml.YAMLError:
        return False
    return isinstance(data, dict) and "profile" in data


def test_the_docs_show_a_profile_in_each_syntax():
    suffixes = sorted(Path(name).suffix for name, _ in documented_profiles())
    assert set(suffixes) == {".rules", ".yaml"}


@pytest.mark.parametrize(("name", "text"), documented_profiles())
def test_the_documented_profile_examples_validate_and_are_formatted(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert run(capsys, "validate", "--strict", path)[0] == 0
    assert run(capsys, "fmt", "--check", path) == (0, "", "")
