"""`fmt` and `convert` write about as much as they read: a profile of many comments, blank
lines, nested rules or strings full of escapes grows by at most a line's indentation per
line (and strings by their escapes), never by a comment copied per statement; a result a
profile file could not hold is refused, and the file is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.read.profile import read_document, shipped_files
from rulesdsl.read.sources import MAX_BYTES
from rulesdsl.read.syntax.writer import write
from rulesdsl.surfaces.main import main

SUFFIX = {"dsl": ".rules", "yaml": ".yaml"}
INDENT = 8  # the deepest indentation the layout gives a line: a rule's clause


def canonical_texts() -> list[tuple[str, str]]:
    """Every shipped profile in both syntaxes, as (syntax, text)."""
    texts = []
    for path in shipped_files():
        doc = read_document(path, path.read_text(encoding="utf-8"))
        texts += [(syntax, write(doc, syntax)) for syntax in SUFFIX]
    return texts


CANONICAL = canonical_texts()
# What goes between the lines of a profile: comments of every width, blank lines, lines of
# spaces; and what ends a line: nothing, or a comment.
BETWEEN = st.sampled_from(["#", "# a note", "  #", "", "   ", "#" * 3, "# \\ \" ' ##"])
ENDING = st.sampled_from(["", " #", "  # why", ' # "quoted" \\ # again'])


@st.composite
def commented(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped profile with comments and blank lines drawn between and after its lines."""
    syntax, text = draw(st.sampled_from(CANONICAL))
    out = []
    for line in text.split("\n"):
        out += draw(st.lists(BETWEEN, max_size=6))
        out.append(line + (draw(ENDING) if line.strip() else ""))
    return syntax, "\n".join(out)


def bound(text: str) -> int:
    """The most a rewrite of `text` may be: twice its size (a string's escapes), plus the
    layout's indentation on every line, plus a few lines the layout adds."""
    return 2 * len(text) + INDENT * (text.count("\n") + 1) + 64


@settings(max_examples=examples(200), deadline=None)
@given(drawn=commented())
def test_a_rewrite_is_at_most_a_bounded_multiple_of_what_it_reads(drawn):
    syntax, text = drawn
    doc = read_document(Path("x" + SUFFIX[syntax]), text)
    assert doc.ok, doc.diagnostics[:1]
    for target in SUFFIX:
        out = write(doc, target)
        assert len(out) <= bound(text)
        again = write(read_document(Path("y" + SUFFIX[target]), out), target)
        assert again == out
    same = write(doc, syntax)
    assert len(same) <= len(text) + INDENT * (text.count("\n") + 1) + 64


@pytest.mark.parametrize(
    ("syntax", "body", "count"),
    [
        ("dsl", "    # comment {}\n", 20_000),
        ("dsl", "#\n", 50_000),
        ("yaml", "# comment {}\n", 20_000),
        ("yaml", "\n#\n", 50_000),
    ],
)
def test_fmt_of_a_file_of_many_comments_writes_as_much_again(tmp_path, capsys, syntax, body, count):
    comments = "".join(body.format(i) for i in range(count))
    if syntax == "dsl":
        text = f'profile "x" extends "equal-hands" {{\n    rule r {{\n{comments}'
        text += "        refuse lead if card.trump\n    }\n}\n"
    else:
        text = f"profile: x\nextends: equal-hands\nrules:\n  r:\n{comments}"
        text += "    refuse: lead if card.trump\n"
    path = tmp_path / f"many{SUFFIX[syntax]}"
    path.write_text(text, encoding="utf-8")
    code = main(["fmt", str(path)])
    capsys.readouterr()
    assert code == 0
    out = path.read_text(encoding="utf-8")
    assert out.count("#") == text.count("#")
    assert len(out) <= bound(text)
    assert main(["fmt", "--check", str(path)]) == 0


@pytest.mark.parametrize(("syntax", "count"), [("dsl", 110_000), ("yaml", 180_000)])
def test_fmt_refuses_a_layout_larger_than_a_profile_may_be(tmp_path, capsys, syntax, count):
    # A bare `#` in a rule takes the indentation of its clauses: 2 bytes become 10 (or 6).
    comments = "#\n" * count
    if syntax == "dsl":
        text = f'profile "x" {{\n    rule r {{\n{comments}        refuse lead if card.trump\n'
        text += "    }\n}\n"
    else:
        text = f"profile: x\nrules:\n  r:\n{comments}    refuse: lead if card.trump\n"
    assert len(text) < MAX_BYTES / 2
    path = tmp_path / f"big{SUFFIX[syntax]}"
    path.write_text(text, encoding="utf-8")
    for command in (["fmt"], ["fmt", "--diff"]):
        code = main([*command, str(path)])
        out, err = capsys.readouterr()
        assert code == 1 and out == ""
        assert "in the canonical layout it would be 1." in err
        assert "and a profile is 1 MB at most; it is left as it is" in err
        assert len(err) < 500
    assert path.read_text(encoding="utf-8") == text
    if syntax == "yaml":  # in the profile language, the comments take 8 columns each
        assert main(["convert", str(path), "--to", "dsl"]) == 2
        assert "a profile is 1 MB at most" in capsys.readouterr().err
