"""Profiles read from unsaved texts (as an editor holds them), and the fixes diagnostics carry."""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.kinds import Choice
from rulesdsl.model.language.rule import LANGUAGES, Target
from rulesdsl.model.language.vocab import (
    AGGREGATE_TYPES,
    ATTRIBUTES,
    CALLS,
    DURING,
    ELEMENTS,
    NAMES,
    Aggregate,
    Attribute,
    Type,
    Where,
)
from rulesdsl.model.rules import OPTIONS
from rulesdsl.model.text import Pos
from rulesdsl.read.diagnostics import Located
from rulesdsl.read.edits import fix_edit
from rulesdsl.read.language.checker import CHAINED
from rulesdsl.read.language.compile import compile_rule
from rulesdsl.read.profile import load_file, load_text, shipped_names
from rulesdsl.read.syntax.document import Entry, RuleBlock


def test_the_text_given_is_checked_not_the_file(tmp_path):
    path = tmp_path / "p.rules"
    path.write_text('profile "p" {\n    draw lots\n}\n')
    profile = load_text(path, 'profile "p" {\n    draw 2\n}\n')
    assert profile.diagnostics == [] and profile.settings["draw"].value == 2
    assert [d.code for d in load_file(path).diagnostics] == ["bad-value"]


def test_a_text_needs_no_file_on_disk(tmp_path):
    profile = load_text(tmp_path / "new.rules", 'profile "new" extends "bicycle" {\n}\n')
    assert profile.ok and profile.chain == ("equal-hands", "bicycle", "new")


def test_parents_are_read_from_the_texts_given_else_from_disk(tmp_path):
    parent, child = tmp_path / "parent.rules", tmp_path / "child.rules"
    parent.write_text('profile "parent" {\n    draw 2\n}\n')
    child_text = 'profile "child" extends "parent.rules" {\n}\n'
    assert load_text(child, child_text).settings["draw"].value == 2
    unsaved = {parent.resolve(): 'profile "parent" {\n    draw 3\n}\n'}
    assert load_text(child, child_text, unsaved).settings["draw"].value == 3
    # What was read from a text is not remembered as the file's.
    child.write_text(child_text)
    assert load_file(child).settings["draw"].value == 2


def test_a_cycle_through_unsaved_texts_is_reported(tmp_path):
    a, b = tmp_path / "a.rules", tmp_path / "b.rules"
    a.write_text('profile "a" {\n}\n')
    b.write_text('profile "b" {\n}\n')
    texts = {b.resolve(): 'profile "b" extends "a.rules" {\n}\n'}
    profile = load_text(a, 'profile "a" extends "b.rules" {\n}\n', texts)
    assert [d.code for d in profile.diagnostics] == ["extends-cycle"]


def test_unsaved_bytes_get_the_checks_files_get(tmp_path):
    (problem,) = load_text(tmp_path / "nul.rules", 'profile "x" {\n\0}\n').diagnostics
    assert problem.code == "binary"
    (problem,) = load_text(tmp_path / "empty.rules", "  \n").diagnostics
    assert problem.code == "empty-file"
    # A lone surrogate, which JSON can carry but no file holds.
    (problem,) = load_text(tmp_path / "odd.rules", 'profile "\ud800" {\n}\n').diagnostics
    assert (problem.code, problem.line, problem.column) == ("encoding", 1, 10)


# Every place a did-you-mean can come from, in both syntaxes: a statement with `{}` where
# the misspelt word goes, and the word.
CHOICES = [(n, w) for n, o in OPTIONS.items() if isinstance(o.kind, Choice) for w in o.kind.words()]
SITES = [
    *[("{}", OPTIONS[n].text(OPTIONS[n].default), n) for n in OPTIONS],
    *[(n, "{}", w) for n, w in CHOICES],
    ("draw", "{}", "per_card_in_trick"),
    ("hand_size", "{} + 1", "players"),
    ("hand_size", "min({}, 7)", "players"),
    ("hand_size", "{}(players, 7)", "max"),
    ("match", "{} 3", "target"),
    ("match", "{} players", "hands"),
]


def _text(syntax: str, key: str, value: str, parent: str) -> str:
    if syntax == "dsl":
        return f'profile "p" extends "{parent}" {{\n    {key} {value}\n}}\n'
    return f'profile: p\nextends: "{parent}"\n{key}: "{value}"\n'


def _misspelt(word: str, at: int, how: int) -> str:
    at %= len(word)
    if how == 0 and len(word) > 3:
        return word[:at] + word[at + 1 :]
    if how == 1 and at + 1 < len(word):
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    return word[:at] + word[at] + word[at:]


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["dsl", "yaml"]),
    st.sampled_from([*SITES, ("extends", None, None)]),
    st.integers(0, 30),
    st.integers(0, 2),
)
def test_every_did_you_mean_carries_its_fix_and_the_fix_mends_it(syntax, site, at, how):
    key, value, word = site
    if key == "extends":
        word = shipped_names()[at % len(shipped_names())]
        text = _text(syntax, "draw", "1", _misspelt(word, at, how))
    else:
        wrong = _misspelt(word, at, how)
        text = _text(syntax, key.format(wrong), value.format(wrong), "equal-hands")
    assert_every_fix_mends(syntax, text)


def assert_every_fix_mends(syntax: str, text: str) -> None:
    """Each did-you-mean of the text carries the word it suggests as its fix, and the text
    with the fix made no longer has that problem on that line, nor any error it did not
    have, but for errors after the fix on its line that have fixes of their own."""
    path = Path(f"/nonexistent/p.{'rules' if syntax == 'dsl' else 'yaml'}")
    lines = text.splitlines()
    before = load_text(path, text).diagnostics
    had = {(d.line, d.code) for d in before if d.is_error}
    for problem in before:
        if "did you mean" not in problem.hint:
            continue
        suggested = problem.hint.removeprefix("did you mean '").removesuffix("'?")
        assert suggested in re.findall(r"[\w.-]+", problem.replacement), problem.text()
        edit = fix_edit(problem, lines)
        mended = list(lines)
        line = mended[edit.start.line]
        mended[edit.start.line] = line[: edit.start.column] + edit.text + line[edit.end.column :]
        after = load_text(path, "\n".join(mended) + "\n").diagnostics
        assert not [d for d in after if d.line == problem.line and d.code == problem.code], (
            problem.text(),
            mended,
        )
        new = [d for d in after if d.is_error and (d.line, d.code) not in had]
        past = edit.start.column + len(edit.text) + 1
        left = [d for d in new if d.line != problem.line or d.column < past or not d.replacement]
        assert not left, (problem.text(), mended, [d.text() for d in left])


# Every place of a profile-stated rule a did-you-mean can come from: a clause with `{}`
# where the misspelt word goes, and the word.
RULE_SITES = [
    ("{}", "lead if card.trump", "refuse"),
    ("{}", "2", "draw"),
    ("{}", "2", "score"),
    ("{}", "after trick 3", "end"),
    *[("refuse", "{} if card.trump", str(t)) for t in Target],
    *[("refuse", "lead if {}", n) for n in NAMES],
    *[("draw", "{}", n) for n in NAMES],
    *[("score", "{}", n) for n in NAMES],
    ("refuse", "lead if me == {}", "drawer"),
    *[("refuse", "lead if card.{}", a) for owner, a in ATTRIBUTES if owner == Type.CARD],
    *[("score", "hand.winner.{}", a) for owner, a in ATTRIBUTES if owner == Type.SEAT],
    *[("draw", "{}(p in active: p.cards)", str(a)) for a in Aggregate],
    *[("draw", "{}(1, 2)", fn) for fn in CALLS],
    *[("say", "{}", lang) for lang in LANGUAGES],
    ("removed", None, "must-overtrump"),
]


def _rule_text(syntax: str, key: str, value: str | None, name: str = "r") -> str:
    """A profile stating one rule of one clause (a sentence after `say`)."""
    if syntax == "dsl":
        said = {"say": f'say {value} "A sentence."', "removed": "removed"}
        clause = said.get(key, f"{key} {value}")
        body = f"    rule {name} {{\n        {clause}\n    }}\n"
        return f'profile "p" extends "must-overtrump" {{\n{body}}}\n'
    said = {"say": f"say:\n      {value}: A sentence.", "removed": ""}
    clause = said.get(key, f'{key}: "{value}"')
    rule = f"  {name}: removed\n" if key == "removed" else f"  {name}:\n    {clause}\n"
    return f"profile: p\nextends: must-overtrump\nrules:\n{rule}"


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["dsl", "yaml"]),
    st.sampled_from(RULE_SITES),
    st.integers(0, 30),
    st.integers(0, 2),
)
def test_every_did_you_mean_in_a_stated_rule_carries_its_fix(syntax, site, at, how):
    key, value, word = site
    wrong = _misspelt(word, at, how)
    if key == "removed":
        text = _rule_text(syntax, key, value, wrong)
    else:
        text = _rule_text(syntax, key.format(wrong), value.format(wrong))
    assert_every_fix_mends(syntax, text)


@pytest.mark.parametrize(
    ("syntax", "text"),
    [
        ("yaml", "profle: p\ndraw: 2\n"),
        ("yaml", "profile: p\ndraw:\n  vaule: 2\n"),
        ("yaml", '"prof ile": p\ndraw: 2\n'),
        ("yaml", 'profile: p\n"exte nds": bicycle\n'),
    ],
)
def test_a_did_you_mean_of_a_yaml_key_carries_its_fix(syntax, text):
    path = Path("/nonexistent/p.yaml")
    assert [d.replacement for d in load_text(path, text).diagnostics if d.replacement]
    assert_every_fix_mends(syntax, text)


def test_a_yaml_key_said_already_is_not_offered_as_a_fix():
    """`profile` written in for `prof ile` would be said twice: no did-you-mean offers it."""
    text = 'profile: p\n"prof ile": p\n'
    (problem,) = load_text(Path("/nonexistent/p.yaml"), text).diagnostics
    assert (problem.code, problem.replacement) == ("yaml-shape", "")


def test_a_diagnostic_keeps_its_hint_and_fix_when_copied_or_pickled():
    path = Path("/nonexistent/p.rules")
    (problem,) = load_text(path, 'profile "p" {\n    elimination immediat\n}\n').diagnostics
    for again in (copy.deepcopy(problem), pickle.loads(pickle.dumps(problem))):
        assert again == problem
        assert (again.hint, again.replacement) == ("did you mean 'immediate'?", "immediate")


# Every word of the rule language misspelt at every place it has a value: each did-you-mean
# offered, written in, leaves no error where it was, and following the did-you-means one
# after another ends in a clause that checks.


def _clause(where: Where, number: str) -> tuple[str, str]:
    """A clause acting at the place, of a number: its word and its text."""
    condition = f"{number} >= 0"
    forms = {
        Where.LEAD: ("refuse", f"lead if {condition}"),
        Where.FOLLOW: ("refuse", f"follow if {condition}"),
        Where.PLAY: ("refuse", f"card if {condition}"),
        Where.DRAW: ("draw", number),
        Where.SCORE: ("score", number),
        Where.END: ("end", f"when {condition}"),
        Where.DEAL: ("lead", f"none if {condition} else none"),
        Where.ALSO_DRAWS: ("also_draws", f"none if {condition} else none"),
        Where.OUT: ("out", f"if {condition}"),
    }
    return forms[where]


# A number made of a value of each type; `{}` is the value.
AS_NUMBER = {
    Type.INT: "{}",
    Type.BOOL: "(1 if {} else 0)",
    Type.SUIT: "(1 if {} == trump else 0)",
    Type.CARD: "{}.strength",
    Type.MAYBE_CARD: "{}.strength",
    Type.RANK: "(1 if {} >= queen else 0)",
    Type.TRICK: "{}.number",
    Type.SEAT: "{}.cards",
    Type.MAYBE_SEAT: "(1 if {} == none else 0)",
    Type.NONE: "(1 if trump == {} else 0)",
    Type.CARDS: "count(x in {}: x.trump)",
    Type.SEATS: "count(x in {}: x.active)",
    Type.TRICKS: "count(x in {}: x.number > 1)",
}


def _numbers_of(owner: Type, attribute: Attribute, where: Where) -> list[str]:
    """Numbers made of the attribute (`{}` where its name goes) of a value of the type at
    the place: of a name of that type, or of a letter bound over a set of it."""
    number = AS_NUMBER[attribute.type]
    names = [n for n, name in NAMES.items() if name.type == owner and where in name.where]
    found = [number.format(f"{n}.{{}}") for n in names[:2]]
    sets = [n for n, name in NAMES.items() if ELEMENTS.get(name.type) == owner]
    # `y`, as the number may range over `x` (`count(x in y.cards: x.trump)`)
    found += [f"sum(y in {s}: {number.format('y.{}')})" for s in sets if where in NAMES[s].where][
        :1
    ]
    return found


def _word_sites() -> list[tuple[Where, str, str]]:
    """(place, number with `{}` for the word, the word) for every word at every place."""
    sites = []
    for where in Where:
        for n, name in NAMES.items():
            if where in name.where:
                sites.append((where, AS_NUMBER[name.type], n))
        for (owner, name), attribute in ATTRIBUTES.items():
            if where in attribute.where:
                sites += [(where, n, name) for n in _numbers_of(owner, attribute, where)]
        for aggregate, (body, result) in AGGREGATE_TYPES.items():
            over = f"{{}}(x in seats: {'x.active' if body == Type.BOOL else 'x.cards'})"
            sites.append((where, AS_NUMBER[result].format(over), str(aggregate)))
        sites += [(where, "{}(1, trick.size)" if where in DURING else "{}(1, 2)", f) for f in CALLS]
    return sites


def _misspellings(word: str) -> list[tuple[str, bool]]:
    """Misspellings of the word (a letter dropped, two swapped, one doubled, one changed),
    each with whether it is close enough that a fix must be offered."""
    found = []
    for at in sorted({0, len(word) // 2, len(word) - 1}):
        for how in range(3):
            wrong = _misspelt(word, at, how)
            found.append((wrong, how == 1 and len(word) >= 5 and "." not in word))
        found.append((word[:at] + "q" + word[at + 1 :], False))
    return [(w, must) for w, must in dict(found).items() if w != word]


def _first_problem(kind: str, text: str):
    """The first problem of a clause of the kind (an end rule's winner is `none`)."""
    entries = [Entry(kind, text, Pos(1, 1), Pos(1, 1))]
    if kind == "end":
        entries.append(Entry("winner", "none", Pos(2, 1), Pos(2, 1)))
    _, found = compile_rule(RuleBlock("r", Pos(3, 1), tuple(entries), 4), Located("x", ""))
    return next((d for d in found if d.is_error), None)


WORD_SITES = _word_sites()


@pytest.mark.parametrize(
    ("where", "number", "word"), WORD_SITES, ids=[f"{w.name}-{n}" for w, _, n in WORD_SITES]
)
def test_every_did_you_mean_of_a_clause_leads_to_a_clause_that_checks(where, number, word):
    kind, right = _clause(where, number.format(word))
    assert _first_problem(kind, right) is None, right
    for wrong, must in _misspellings(word):
        kind, text = _clause(where, number.format(wrong))
        problem = _first_problem(kind, text)
        assert problem is not None, text
        assert not must or problem.replacement, (text, problem.text())
        if not problem.replacement:
            continue
        for _ in range(CHAINED):
            start = problem.column - 1
            text = text[:start] + problem.replacement + text[start + problem.length :]
            after = start + len(problem.replacement)
            problem = _first_problem(kind, text)
            if problem is None:
                break
            # What is left lies after the fix, and has a fix of its own.
            assert problem.column - 1 >= after and problem.replacement, (text, problem.text())
        assert problem is None, (text, problem.text())
