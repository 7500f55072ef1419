"""Titles, sources and notes keep their text exactly through YAML -> DSL -> YAML and `fmt`,
or are refused with a clear diagnostic.

The profile language holds one line of text without control characters, so a YAML text
that does not fit (a line break, from a block scalar's final newline or an escape; a
control character or a bidirectional control, written raw or as an escape) is refused
where it is written; everything else is kept as YAML means it, and no `#` in a text
becomes a comment. What YAML means is read with the test's own YAML 1.2 loader.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import Yaml12Loader

from rulesdsl.model.units.base import METADATA
from rulesdsl.read.profile import read_document, read_source
from rulesdsl.read.syntax.chars import BIDI, CONTROL
from rulesdsl.read.syntax.document import Document
from rulesdsl.read.syntax.writer import write
from rulesdsl.surfaces.main import main

_serial = itertools.count()
COMMON = [*"abcXYZ019 #\"':\\{}[]&*!|>%@`,-?~=.", "\t", "é", "♠", "🂡", "中", "\u00a0"]
RARE = ["\n", "\x1b", "\x07", "\x00", "\u202e", "\u2066", "\u200f", "\u061c", "\r", "\x85"]
TEXTS = st.text(
    st.integers(0, 20).flatmap(
        lambda i: st.sampled_from(RARE) if i == 0 else st.sampled_from(COMMON)
    ),
    max_size=24,
)
STYLES = st.sampled_from(["plain", "single", "double", "escape", "|", "|-", ">", ">-"])
# Clear refusals: of what the profile language cannot hold, and of YAML that a plain text
# written plain turns into something else (a tag, an alias, a number, broken YAML).
FOR_CHARACTERS = {"multi-line", "control-character", "bidi-control"}
REFUSALS = {*FOR_CHARACTERS, "yaml-syntax", "yaml-type", "yaml-tag", "yaml-alias"}


def fragment(text: str, style: str) -> str:
    """What follows `key:` to write `text` in `style` (which may not mean `text` at all)."""
    if style == "plain":
        return f" {text}"
    if style == "single":
        return " '" + text.replace("'", "''") + "'"
    if style in ("double", "escape"):
        quoted = json.dumps(text, ensure_ascii=style == "escape")
        return " " + (quoted.replace("\\u001b", "\\e") if style == "escape" else quoted)
    return f" {style}" + "".join(f"\n    {line}" for line in text.split("\n"))


def profile_text(key: str, text: str, note: str) -> str:
    return (
        "# a comment\n"
        "profile: house\n"
        f"{key}:{text}\n"
        "trump:  # trailing\n"
        "  value: none\n"
        f"  note:{note}\n"
    )


def clean(value: object) -> bool:
    """Text the profile language can hold: one line without control characters."""
    return (
        isinstance(value, str)
        and "\n" not in value
        and "\r" not in value
        and not CONTROL.search(value)
        and not BIDI.search(value)
    )


def meaning(source: str) -> tuple | None:
    """The metadata text and the note as YAML reads them, or None where YAML reads no such
    thing."""
    try:
        data = yaml.load(source, Loader=Yaml12Loader)
    except yaml.YAMLError:
        return None
    trump = data.get("trump") if isinstance(data, dict) else None
    keys = set(data) - {"profile", "trump"} if isinstance(data, dict) else set()
    if not isinstance(trump, dict) or len(keys) != 1 or not keys <= set(METADATA):
        return None
    return data[keys.pop()], trump.get("note")


def texts(doc: Document) -> tuple:
    note = next((e.note for e in doc.entries if e.key == "trump"), None)
    text = next((e.value for e in doc.entries if e.key in METADATA), None)
    return text, note, sorted(c.text for c in doc.comments)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("texts")


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(METADATA),
    text=TEXTS,
    text_style=STYLES,
    note=TEXTS,
    note_style=STYLES,
)
def test_texts_are_kept_exactly_or_refused(folder, key, text, text_style, note, note_style):
    source = profile_text(key, fragment(text, text_style), fragment(note, note_style))
    path = folder / f"p{next(_serial)}.yaml"
    path.write_text(source, encoding="utf-8", newline="")
    read, problems = read_source(path)
    if read is None:  # a control character written raw, refused before reading
        assert [d.code for d in problems] in (["control-character"], ["binary"])
        assert CONTROL.search(source)
        return
    doc = read_document(path, read)
    meant = meaning(source)
    if not doc.ok:
        codes = {d.code for d in doc.diagnostics if d.is_error}
        assert codes <= REFUSALS
        if codes <= FOR_CHARACTERS:  # refused for its characters: a text cannot be held, or
            # the character stands raw elsewhere (in a comment)
            held = meant is not None and all(map(clean, meant))
            assert not held or BIDI.search(source), [d.text() for d in doc.diagnostics]
        return
    expected = texts(doc)
    if meant is not None:  # else YAML reads other keys than those written: keep what it reads
        # A plain text that runs on to a line starting `#` ends there, and that line is a
        # comment of its own.
        assert expected[:2] == meant
        assert {"# a comment", "# trailing"} <= set(expected[2])
    # YAML -> DSL -> YAML keeps every text.
    dsl = write(doc, "dsl")
    in_dsl = read_document(path.with_suffix(".rules"), dsl)
    assert in_dsl.ok and texts(in_dsl) == expected, dsl
    back = read_document(path, write(in_dsl, "yaml"))
    assert back.ok and texts(back) == expected
    # fmt rewrites the file in place with every text and comment kept, and nothing added.
    assert main(["fmt", str(path)]) == 0
    formatted = read_document(path, path.read_text(encoding="utf-8"))
    assert formatted.ok and texts(formatted) == expected


@pytest.mark.parametrize(
    ("title", "code", "line", "column"),
    [
        (" |\n  A block title", "multi-line", 2, 8),
        (' "\\e]0;owned\\a"', "control-character", 2, 9),
        (' "a\\x1b[31mred"', "control-character", 2, 10),
        (' "a\\u202eb"', "bidi-control", 2, 10),
        (" a\u2066b", "bidi-control", 2, 9),
    ],
)
def test_what_the_profile_language_cannot_hold_is_refused_where_written(
    folder, title, code, line, column
):
    source = f"profile: house\ntitle:{title}\n"
    doc = read_document(folder / "refused.yaml", source)
    assert [(d.code, d.line, d.column) for d in doc.diagnostics] == [(code, line, column)]


def test_a_one_line_block_title_with_a_hash_converts_and_formats(folder, capsys):
    path = folder / "block.yaml"
    path.write_text("profile: house\ntitle: |-\n  A # block title\n", encoding="utf-8")
    assert main(["convert", str(path), "--to", "dsl"]) == 0
    assert 'title "A # block title"' in capsys.readouterr().out
    assert main(["fmt", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == 'profile: house\ntitle: "A # block title"\n'


def test_a_comment_on_the_closing_brace_stays_on_it(folder, capsys):
    path = folder / "closing.rules"
    text = 'profile "x" {  # head\n    trump none\n}  # end\n'
    path.write_text(text, encoding="utf-8")
    assert main(["fmt", "--check", str(path)]) == 0
    assert main(["convert", str(path), "--to", "yaml"]) == 0
    assert capsys.readouterr().out == "profile: x  # head\ntrump: none\n# end\n"


@pytest.mark.parametrize(
    ("name", "text", "code", "line", "column"),
    [
        ("t.rules", 'profile "x" {\n    title\n}\n', "missing-value", 2, 5),
        ("t.rules", 'profile "x" {\n    assumed source "s"\n}\n', "metadata-assumed", 2, 13),
        ("t.yaml", "profile: x\nhand size: 5\n", "yaml-shape", 2, 1),
        ("t.yaml", "profile: x\nwh\\en_void: any\n", "yaml-shape", 2, 1),
        ("t.yaml", "# only a comment\n", "missing-name", 1, 1),
        ("t.yaml", 'profile: x\nmust_head: no"\n', "bad-value", 2, 12),
        ("t.yaml", "profile: x\ndeck: [A, 'K#']\n", "bad-value", 2, 7),
    ],
)
def test_what_the_other_syntax_cannot_say_is_refused_on_reading(name, text, code, line, column):
    doc = read_document(Path(name), text)
    assert [(d.code, d.line, d.column) for d in doc.diagnostics] == [(code, line, column)]


@pytest.mark.parametrize(
    "text",
    [
        "profile: house\ntrump:  # trailing\n  value: none\n  note: a #\n",
        "profile: house  # one\nextends: equal-hands  # two\n",
        "profile: house\ndraw:  # one\n  value: 2  # two\n  note: n  # three\n",
    ],
)
def test_comments_that_end_lines_of_one_statement_are_each_kept(folder, capsys, text):
    path = folder / f"trailing{next(_serial)}.yaml"
    path.write_text(text, encoding="utf-8")
    dsl = folder / f"{path.stem}.rules"
    assert main(["convert", str(path), "--to", "dsl", "-o", str(dsl)]) == 0
    back = folder / f"{path.stem}-back.yaml"
    assert main(["convert", str(dsl), "--to", "yaml", "-o", str(back)]) == 0
    comments = sorted(c.text for c in read_document(path, path.read_text()).comments)
    for written in (dsl, back):
        assert sorted(c.text for c in read_document(written, written.read_text()).comments) == (
            comments
        )
    capsys.readouterr()
