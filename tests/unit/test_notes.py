"""Notes: an inherited note names the profile it comes from, and shipped notes state facts
about their sources, not claims about play that the tool can check."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulesdsl.read.profile import load_file, shipped_files
from rulesdsl.surfaces.main import main

PARENT_NOTE = "the parent's reason"
CHILD_NOTE = "the child's own reason"
PARENTS = {
    "dsl": f'profile "parent" {{\n    draw 2 "{PARENT_NOTE}"\n}}\n',
    "yaml": f"profile: parent\ndraw:\n  value: 2\n  note: {PARENT_NOTE}\n",
}
CHILDREN = {
    "dsl": f'profile "child" extends "PARENT" {{\n    follow suit_or_trump "{CHILD_NOTE}"\n}}\n',
    "yaml": f"profile: child\nextends: PARENT\nfollow:\n  value: suit_or_trump\n"
    f"  note: {CHILD_NOTE}\n",
}
EXT = {"dsl": "rules", "yaml": "yaml"}


@pytest.fixture(params=[(p, c) for p in PARENTS for c in CHILDREN], ids="-".join)
def child(request, tmp_path: Path) -> Path:
    """A child profile that inherits a noted `draw` and states a noted `follow`."""
    parent, kid = request.param
    (tmp_path / f"parent.{EXT[parent]}").write_text(PARENTS[parent], encoding="utf-8")
    path = tmp_path / f"child.{EXT[kid]}"
    path.write_text(CHILDREN[kid].replace("PARENT", f"parent.{EXT[parent]}"), encoding="utf-8")
    assert load_file(path).ok
    return path


def run(capsys, *args: str) -> str:
    main(list(args))
    return " ".join(capsys.readouterr().out.split())


def test_the_resolved_value_knows_where_its_note_comes_from(child):
    settings = load_file(child).settings
    assert (settings["draw"].note, settings["draw"].note_from) == (PARENT_NOTE, "parent")
    assert (settings["follow"].note, settings["follow"].note_from) == (CHILD_NOTE, None)


def test_show_marks_an_inherited_note(capsys, child):
    out = run(capsys, "show", str(child))
    assert f"(note from parent: {PARENT_NOTE})" in out
    assert f"(note: {CHILD_NOTE})" in out


def test_show_json_gives_the_note_and_its_profile(capsys, child):
    main(["show", str(child), "--json"])
    options = json.loads(capsys.readouterr().out)["options"]
    assert (options["draw"]["note"], options["draw"]["note_from"]) == (PARENT_NOTE, "parent")
    assert (options["follow"]["note"], options["follow"]["note_from"]) == (CHILD_NOTE, None)


@pytest.mark.parametrize(
    ("lang", "inherited", "own"),
    [
        ("en", "(note from parent: {})", "(note: {})"),
        ("pt", "(nota de parent: {})", "(nota: {})"),
        ("uk", "(примітка з parent: {})", "(примітка: {})"),
    ],
)
def test_explain_marks_an_inherited_note(capsys, child, lang, inherited, own):
    out = run(capsys, "explain", str(child), "--lang", lang)
    assert inherited.format(PARENT_NOTE) in out
    assert own.format(CHILD_NOTE) in out


def test_explain_marks_an_inherited_assumed_note(capsys, tmp_path):
    path = tmp_path / "kid.rules"
    path.write_text('profile "kid" extends "bicycle" {\n    draw 2\n}\n', encoding="utf-8")
    out = run(capsys, "explain", str(path))
    assert "(assumed; note from bicycle: the manual says 4 or more" in out


def test_diff_marks_an_inherited_note(capsys, child):
    out = run(capsys, "diff", str(child), "equal-hands")
    assert f"(note from parent: {PARENT_NOTE})" in out
    assert f"(note: {CHILD_NOTE})" in out
    main(["diff", str(child), "equal-hands", "--format", "json"])
    sides = {d["option"]: d["a"] for d in json.loads(capsys.readouterr().out)}
    assert (sides["draw"]["note"], sides["draw"]["note_from"]) == (PARENT_NOTE, "parent")
    assert sides["follow"]["note_from"] is None


# Words that claim what happens in play (whether a case is reachable, whether a hand
# ends, whether the stock lasts): facts the tool can compute, so a note must not assert them.
CLAIMS = re.compile(
    r"\b(cannot|can't|can ?not|never|always|impossible|unreachable|not possible|"
    r"can (now )?(happen|arise|empty|end|run)|may (happen|arise)|"
    r"every hand (can|will|ends))\b",
    re.IGNORECASE,
)


def claims(note: str) -> list[str]:
    return [m.group() for m in CLAIMS.finditer(note)]


@pytest.mark.parametrize(
    "note",
    [
        "cannot happen in this profile: a trick winner always holds a card",
        "?; cannot arise here: the winner can always draw",
        "the sheet is silent; every hand can now empty in one trick",
        "the stock never runs out",
        "this case is unreachable",
    ],
)
def test_the_claim_check_catches_claims_about_play(note):
    assert claims(note)


@pytest.mark.parametrize("path", shipped_files(), ids=lambda p: p.name)
def test_no_shipped_note_claims_what_the_tool_can_check(path):
    # Every file, so equal-hands is checked in both its syntaxes.
    notes = {s.name: s.note for s in load_file(path).settings.values() if s.origin == "set"}
    assert {option: claims(n) for option, n in notes.items() if n and claims(n)} == {}
