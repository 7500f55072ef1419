"""Control characters and bidirectional controls ("Trojan source") are refused in both
syntaxes, where they are written: raw anywhere in the file (a comment, a title, a note, a
value), or as a YAML escape in a double-quoted text.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.read.profile import load_file, shipped_files
from rulesdsl.read.syntax.dsl import read_dsl
from rulesdsl.read.syntax.writer import write
from rulesdsl.read.syntax.yamlform import read_yaml
from rulesdsl.surfaces.main import main

_serial = itertools.count()
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
BIDI += ["\u200e", "\u200f", "\u061c"]
CONTROL_ESCAPES = ["\\e", "\\a", "\\x1b", "\\u001b", "\\0", "\\b", "\\v", "\\f", "\\r"]
CONTROL_ESCAPES += ["\\N", "\\L", "\\P", "\\x7f", "\\x9b"]
BIDI_ESCAPES = ["\\u202e", "\\u2066", "\\U0000200F", "\\u061C", "\\u202A"]


def shipped_texts() -> list[tuple[str, str]]:
    """Every shipped profile in both syntaxes, as (suffix, text)."""
    texts = []
    for path in shipped_files():
        if path.suffix != ".rules":
            continue
        text = path.read_text(encoding="utf-8")
        texts += [(".rules", text), (".yaml", write(read_dsl(str(path), text), "yaml"))]
    return texts


TEXTS = shipped_texts()
# The YAML texts with a double-quoted value, and where each such value's text starts.
QUOTED = [
    (text, [m.end() for m in re.finditer(r'^ *\w+: "', text, re.MULTILINE)])
    for suffix, text in TEXTS
    if suffix == ".yaml" and ': "' in text
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hostile")


def located(folder: Path, suffix: str, text: str) -> list[tuple[str, int, int]]:
    path = folder / f"p{next(_serial)}{suffix}"
    path.write_text(text, encoding="utf-8")
    return [(d.code, d.line, d.column) for d in load_file(path).diagnostics if d.is_error]


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


@settings(max_examples=examples(200), deadline=None)
@given(case=st.sampled_from(TEXTS), char=st.sampled_from(BIDI), data=st.data())
def test_a_bidirectional_control_anywhere_is_an_error_where_it_is(folder, case, char, data):
    suffix, text = case
    offset = data.draw(st.integers(0, len(text)))
    hostile = text[:offset] + char + text[offset:]
    line, column = line_and_column(text, offset)
    assert ("bidi-control", line, column) in located(folder, suffix, hostile)


@settings(max_examples=examples(200), deadline=None)
@given(
    case=st.sampled_from(QUOTED),
    escape=st.sampled_from(CONTROL_ESCAPES + BIDI_ESCAPES),
    data=st.data(),
)
def test_a_yaml_escape_of_a_control_is_an_error_at_the_escape(folder, case, escape, data):
    text, starts = case
    start = data.draw(st.sampled_from(starts))
    offset = data.draw(st.integers(start, text.index('"', start)))
    hostile = text[:offset] + escape + text[offset:]
    line, column = line_and_column(text, offset)
    code = "bidi-control" if escape in BIDI_ESCAPES else "control-character"
    assert located(folder, ".yaml", hostile) == [(code, line, column)], hostile


@pytest.mark.parametrize(
    ("name", "text", "line", "column"),
    [
        ("t.rules", 'profile "x" {\n    # a comment \u202e with a twist\n}\n', 2, 17),
        ("t.rules", 'profile "x" {\n    title "access \u2066level"\n}\n', 2, 19),
        ("t.rules", 'profile "x" {\n    trump none "a note\u200f"\n}\n', 2, 23),
        ("t.yaml", "profile: x\ntrump:\n  value: none\n  note: x\u2067y\n", 4, 10),
        ("t.yaml", "profile: x\n# \u202dcomment\n", 2, 3),
    ],
)
def test_bidirectional_controls_fail_validate_even_without_strict(
    tmp_path, capsys, name, text, line, column
):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert f"{path}:{line}:{column}: error[bidi-control]" in capsys.readouterr().out


def test_an_escape_after_a_byte_order_mark_is_located():
    doc = read_yaml("bom.yaml", '\ufeffprofile: x\ntitle: "x\\e"\n')
    assert [(d.code, d.line, d.column) for d in doc.diagnostics] == [("control-character", 2, 10)]
