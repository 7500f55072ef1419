"""YAML mistakes get diagnostics as good as the profile language's: one per mistake, at the
culprit, in plain words, with a hint; and the same for a file in the other syntax.

The plain words are checked with libyaml's loader and with PyYAML's own, whose messages
differ; the property test draws broken YAML (the shipped profiles with tabs, dropped quotes,
stray colons, extra documents and wrong indentation) and checks every diagnostic.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.read.diagnostics import Diagnostic
from rulesdsl.read.profile import load_file, shipped_files
from rulesdsl.read.syntax import yamlform
from rulesdsl.read.syntax.dsl import read_dsl
from rulesdsl.read.syntax.writer import write
from rulesdsl.read.syntax.yamlform import read_yaml
from rulesdsl.read.syntax.yamltypes import core_loader

LOADERS = {"libyaml": getattr(yaml, "CSafeLoader", None), "pyyaml": yaml.SafeLoader}
# Words of PyYAML's and libyaml's own messages, which a diagnostic must not repeat.
RAW_WORDS = re.compile(
    r"while (scanning|parsing)|expected <|<block|<document|but found|could not find|"
    r"did not find|in this context|cannot start any token|YAML syntax:|simple key|"
    r"stream|scalar|token"
)


@pytest.fixture(params=[name for name, loader in LOADERS.items() if loader is not None])
def loader(request, monkeypatch):
    """Read with libyaml's loader, then with PyYAML's pure-Python one."""
    base = LOADERS[request.param]
    monkeypatch.setattr(yamlform, "FAST_LOADER", base)
    monkeypatch.setattr(yamlform, "CoreLoader", core_loader(base))
    return request.param


def check_diagnostic(d: Diagnostic, text: str) -> None:
    """A position inside the text, the source line quoted, and no raw parser words."""
    lines = text.splitlines()
    assert 1 <= d.line <= max(1, len(lines)), d
    line = lines[d.line - 1] if lines else ""
    assert d.source_line == line, d
    assert 1 <= d.column <= len(line) + 1, d
    assert d.message and not RAW_WORDS.search(d.message), d.message
    assert not RAW_WORDS.search(d.hint), d.hint


BROKEN_YAML = [
    # (text, line, column, words of the message, words of the hint)
    ("profile: x\n\ttitle: a\n", 2, 1, "tab", "does not allow tabs for indentation; use spaces"),
    ('profile: x\ntitle: "abc\ntrump: none\n', 2, 8, "not closed", 'end it with "'),
    ("profile: x\ntitle: 'abc\n", 2, 8, "not closed", "end it with '"),
    ("profile: x\ntrump: none\n---\nprofile: y\n", 3, 1, "second YAML document", "own"),
    ("profile: x\ntitle: a: b\n", 2, 9, "`: ` inside a value", 'title: "a: b"'),
    ("profile: x\nexhaustion:\n  value play_out\n  assumed: true\n", 3, 3, "no `:`", "key: "),
    ("profile: x\n  trump: none\n", 2, 3, "indented further", "line up"),
    ("profile: x\ntrump: none\n follow: suit\n", 3, 2, "indented further", "line up"),
    ("profile: x\nall_out:\n  value: none\n    note: a\n", 4, 5, "indented further", "line up"),
    ("profile: x\ndeck: [A, K\ntrump: none\n", 2, 7, "`[` is not closed", "`]`"),
    ('profile: x\ntitle: "a\\qb"\n', 2, 10, "`\\q` is not an escape", "single quotes"),
    ("profile: x\ntrump: none\n...\ndraw: 2\n", 4, 1, "goes on after", "`...`"),
    ("profile: x\ntitle: @home\n", 2, 8, "`@` cannot start", "quotes"),
    ("profile: x\ntitle: 'it's\n", 2, 12, "after the closing quote", "written ''"),
    ('profile: x\ntitle: "a" b\n', 2, 12, "after the closing quote", 'as \\"'),
    ("profile: x\n- a\n", 2, 1, "list item", "`key: value`"),
    ('profile: x\ntitle: "\\U00110000"\n', 2, 9, "writes no character", "\\U 8"),
]


@pytest.mark.parametrize(("text", "line", "column", "message", "hint"), BROKEN_YAML)
def test_a_yaml_mistake_is_one_diagnostic_at_its_culprit(loader, text, line, column, message, hint):
    diagnostics = read_yaml("p.yaml", text).diagnostics
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("yaml-syntax", line, column)]
    assert message in diagnostics[0].message
    assert hint in diagnostics[0].hint
    check_diagnostic(diagnostics[0], text)


@pytest.mark.parametrize(
    ("name", "text", "message", "hint"),
    [
        (
            "house.rules",
            "# house rules\nprofile: x\nextends: equal-hands\ntrump: none\n",
            "this looks like YAML",
            "name the file .yaml, or write `name value` lines",
        ),
        (
            "house.yaml",
            'profile "x" extends "equal-hands" {\n    trump none\n}\n',
            "this looks like the profile language",
            "name the file .rules",
        ),
        (
            "house.yaml",
            'profile "x" {\n    title "a: b"\n}\n',
            "this looks like the profile language",
            "name the file .rules",
        ),
    ],
)
def test_a_file_in_the_other_syntax_is_one_diagnostic(tmp_path, name, text, message, hint):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    diagnostics = load_file(path).diagnostics
    assert [d.code for d in diagnostics] == ["wrong-syntax"]
    assert message in diagnostics[0].message and hint in diagnostics[0].hint
    assert diagnostics[0].line == (2 if text.startswith("#") else 1)


def test_a_second_profile_in_a_yaml_file_is_one_diagnostic():
    text = "profile: a\ntrump: none\ndraw: 2\nprofile: b\ntrump: hearts\ndraw: 1\n"
    diagnostics = read_yaml("two.yaml", text).diagnostics
    assert [(d.line, d.column) for d in diagnostics] == [(4, 1)]
    assert "second profile" in diagnostics[0].message


def test_a_second_profile_in_a_rules_file_is_one_diagnostic():
    text = 'profile "a" {\n    trump none\n}\nprofile "b" {\n    trump none\n}\n'
    diagnostics = read_dsl("two.rules", text).diagnostics
    assert [(d.line, d.column) for d in diagnostics] == [(4, 1)]
    assert "second profile" in diagnostics[0].message


@pytest.mark.parametrize(
    ("name", "text", "line", "column", "hint"),
    [
        ("a.rules", 'profile "x" {\n    asumed exhaustion play_out\n}\n', 2, 5, "'assumed'"),
        ("a.yaml", "profile: x\ndraw:\n  value: 1\n  asumed: true\n", 4, 3, "'assumed'"),
        ("a.yaml", "profile: x\nexhaustion:\n  vlaue: play_out\n", 3, 3, "'value'"),
        ("a.yaml", "profile: x\nelimination: IMMEDIATE\n", 2, 14, "'immediate'"),
        ("a.rules", 'profile "x" {\n    elimination Immediate\n}\n', 2, 17, "'immediate'"),
        ("a.rules", 'profile "x" {\n    TRUMP none\n}\n', 2, 5, "'trump'"),
        ("a.yaml", "profil: x\ntrump: none\n", 1, 1, "'profile'"),
    ],
)
def test_misspellings_and_wrong_case_get_a_did_you_mean(tmp_path, name, text, line, column, hint):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    diagnostics = [d for d in load_file(path).diagnostics if d.is_error]
    assert [(d.line, d.column) for d in diagnostics] == [(line, column)]
    assert f"did you mean {hint}?" in diagnostics[0].hint


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("profile: x\ntrump:\n  value: none\n  value: hearts\n", "`trump` has `value` twice", 4),
        ("profile: x\ntrump:\n  value: none\n  note: a\n  note: b\n", "has `note` twice", 5),
        ("profile: x\ntrump: {value: none, assumed: true, assumed: false}\n", "`assumed`", 2),
        ("profile: x\ntrump: none\ntrump: hearts\n", "`trump` is set twice", 3),
    ],
)
def test_a_key_given_twice_is_reported_at_every_level(text, message, line):
    diagnostics = read_yaml("p.yaml", text).diagnostics
    assert [(d.code, d.line) for d in diagnostics] == [("duplicate-key", line)]
    assert message in diagnostics[0].message


def test_a_reason_in_assumed_and_a_note_are_not_both_kept():
    text = "profile: x\ntrump:\n  value: none\n  assumed: the manual is silent\n  note: a\n"
    assert [d.code for d in read_yaml("p.yaml", text).diagnostics] == ["two-notes"]


# --- broken YAML, drawn ---------------------------------------------------------------------


def yaml_texts() -> list[str]:
    """Every shipped profile in YAML: the one written so, and the others converted."""
    texts = []
    for path in shipped_files():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".yaml":
            texts.append(text)
        elif path.suffix == ".rules":
            texts.append(write(read_dsl(str(path), text), "yaml"))
    return texts


YAML_TEXTS = yaml_texts()


def _line(draw, lines: list[str]) -> int:
    return draw(st.integers(0, len(lines) - 1))


def _tab(draw, lines: list[str]) -> None:
    i = _line(draw, lines)
    indent = len(lines[i]) - len(lines[i].lstrip(" "))
    lines[i] = lines[i][: draw(st.integers(0, indent))] + "\t" + lines[i].lstrip(" ")


def _drop_quote(draw, lines: list[str]) -> None:
    quoted = [i for i, line in enumerate(lines) if '"' in line or "'" in line]
    if quoted:
        i = draw(st.sampled_from(quoted))
        quote = '"' if '"' in lines[i] else "'"
        where = draw(st.sampled_from(["first", "last"]))
        at = lines[i].index(quote) if where == "first" else lines[i].rindex(quote)
        lines[i] = lines[i][:at] + lines[i][at + 1 :]


def _stray_colon(draw, lines: list[str]) -> None:
    i = _line(draw, lines)
    at = draw(st.integers(0, len(lines[i])))
    lines[i] = lines[i][:at] + draw(st.sampled_from([": ", ":", " : x: "])) + lines[i][at:]


def _drop_colon(draw, lines: list[str]) -> None:
    keyed = [i for i, line in enumerate(lines) if ": " in line]
    if keyed:
        i = draw(st.sampled_from(keyed))
        lines[i] = lines[i].replace(": ", " ", 1)


def _extra_document(draw, lines: list[str]) -> None:
    at = draw(st.integers(1, len(lines)))
    lines[at:at] = draw(st.sampled_from([["---"], ["---", "profile: other"], ["...", "a: b"]]))


def _indent(draw, lines: list[str]) -> None:
    i = _line(draw, lines)
    if draw(st.booleans()):
        lines[i] = " " * draw(st.sampled_from([1, 2, 3, 4])) + lines[i]
    else:
        lines[i] = lines[i].lstrip(" ")


MISTAKES = [_tab, _drop_quote, _stray_colon, _drop_colon, _extra_document, _indent]


@st.composite
def broken_yaml(draw) -> tuple[str, int]:
    """A shipped profile with one to three mistakes, and how many were made."""
    lines = draw(st.sampled_from(YAML_TEXTS)).split("\n")
    count = draw(st.integers(1, 3))
    for _ in range(count):
        draw(st.sampled_from(MISTAKES))(draw, lines)
    return "\n".join(lines), count


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=broken_yaml())
def test_broken_yaml_gets_located_plain_diagnostics(tmp_path_factory, case):
    text, mistakes = case
    folder = tmp_path_factory.mktemp("broken")
    path = Path(folder) / "p.yaml"
    path.write_text(text, encoding="utf-8")
    diagnostics = load_file(path).diagnostics
    for d in diagnostics:
        check_diagnostic(d, text)
    errors = [d for d in diagnostics if d.is_error]
    assert len([d for d in errors if d.code == "yaml-syntax"]) <= 1
    # One mistake, one error (a syntax error stops the reading: nothing else follows it).
    if mistakes == 1 or any(d.code == "yaml-syntax" for d in errors):
        assert len(errors) <= 1, [d.text() for d in diagnostics]
