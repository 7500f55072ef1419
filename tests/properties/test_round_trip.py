"""Every option value survives every reader and writer with its meaning whole.

A value is drawn from what its kind means (a word, a count, an expression, a player range,
a rank order, a match rule) and written as a user might write it. It is then read through
the profile language, YAML, `--set`, `fmt`, `convert` both ways and `show --json`; the Rules
read back must mean what was drawn, and what is played must follow from it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, rank_text
from rulesdsl.model.expr import Expr
from rulesdsl.model.kinds import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.model.rules import OPTIONS, Rules, RulesError, parse_assignments
from rulesdsl.model.stream import Stream
from rulesdsl.model.units.base import same_value
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.fast import compile_hand, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import Profile, load_file, read_document
from rulesdsl.read.syntax.writer import write
from rulesdsl.surfaces.cli.common import build_rules
from rulesdsl.surfaces.main import main

PLAYER_COUNTS = range(2, 11)


@dataclass(frozen=True)
class Drawn:
    """A value as written, and a test of whether a value read back means it."""

    text: str
    means: Callable[[Any], bool]


# -- values drawn from what each kind means ------------------------------------------------


def _spaced(draw: Any, parts: list[str]) -> str:
    return "".join(part + draw(st.sampled_from(["", " ", "  "])) for part in parts).strip()


@st.composite
def expressions(draw: Any, depth: int = 0) -> tuple[str, Callable[[int], int]]:
    """An expression's text and its meaning, a function of the player count."""
    leaf = depth >= 2 or draw(st.booleans())
    if leaf:
        if draw(st.booleans()):
            return "players", lambda p: p
        n = draw(st.integers(0, 20))
        return str(n), lambda p: n
    op = draw(st.sampled_from(["+", "-", "*", "neg", "min", "max", "()"]))
    a, fa = draw(expressions(depth + 1))
    if op == "neg":
        return _spaced(draw, ["-", f"({a})"]), lambda p: -fa(p)
    if op == "()":
        return f"({a})", fa
    b, fb = draw(expressions(depth + 1))
    if op in ("min", "max"):
        f = min if op == "min" else max
        return _spaced(draw, [op, "(", a, ",", b, ")"]), lambda p: f(fa(p), fb(p))
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}
    return _spaced(draw, [f"({a})", op, f"({b})"]), lambda p: ops[op](fa(p), fb(p))


def _same_function(expr: Any, meaning: Callable[[int], int]) -> bool:
    return isinstance(expr, Expr) and all(expr.eval(p) == meaning(p) for p in PLAYER_COUNTS)


@st.composite
def _choice(draw: Any, kind: Choice) -> Drawn:
    word = draw(st.sampled_from(kind.words()))
    return Drawn(word, lambda v: same_value(v, kind.values[word]))


@st.composite
def _count_or_word(draw: Any, kind: CountOrWord) -> Drawn:
    if draw(st.booleans()):
        word = draw(st.sampled_from(kind.words()))
        return Drawn(word, lambda v: v == word)
    n = draw(st.integers(kind.minimum, 60))
    zeros = "0" * draw(st.integers(0, 2))
    return Drawn(zeros + str(n), lambda v: same_value(v, n))


@st.composite
def _int_expr(draw: Any, kind: IntExpr) -> Drawn:
    text, meaning = draw(expressions())
    return Drawn(text, lambda v: _same_function(v, meaning))


@st.composite
def _player_range(draw: Any, kind: PlayerRange) -> Drawn:
    low = draw(st.integers(kind.lowest, kind.highest))
    high = draw(st.integers(low, kind.highest))
    text = (
        str(low)
        if low == high and draw(st.booleans())
        else _spaced(draw, [str(low), "..", str(high)])
    )
    return Drawn(text, lambda v: same_value(v, (low, high)))


RANK_SPELLINGS = {
    10: ["10", "T", "t"],
    11: ["J", "j"],
    12: ["Q", "q"],
    13: ["K", "k"],
    14: ["A", "a"],
}


@st.composite
def _deck(draw: Any, kind: DeckRanks) -> Drawn:
    if draw(st.integers(0, 5)) == 0:
        return Drawn("standard", lambda v: same_value(v, RANKS_HIGH_TO_LOW))
    ranks = draw(st.permutations(RANKS_HIGH_TO_LOW))[: draw(st.integers(2, 13))]
    spelt = [draw(st.sampled_from(RANK_SPELLINGS.get(r, [rank_text(r)]))) for r in ranks]
    separator = draw(st.sampled_from([" ", ", ", ",", "  "]))
    order = tuple(ranks)
    return Drawn(separator.join(spelt), lambda v: same_value(v, order))


@st.composite
def _match(draw: Any, kind: MatchKind) -> Drawn:
    word = draw(st.sampled_from(kind.words()))
    text, meaning = draw(expressions())
    return Drawn(
        f"{word}{draw(st.sampled_from([' ', '  ']))}{text}",
        lambda v: v.kind == word and _same_function(v.count, meaning),
    )


STRATEGIES = {
    Choice: _choice,
    CountOrWord: _count_or_word,
    IntExpr: _int_expr,
    PlayerRange: _player_range,
    DeckRanks: _deck,
    MatchKind: _match,
}


def test_every_kind_has_a_strategy():
    assert {type(opt.kind) for opt in OPTIONS.values()} <= set(STRATEGIES)


def drawn_values(name: str) -> st.SearchStrategy[Drawn]:
    kind = OPTIONS[name].kind
    return STRATEGIES[type(kind)](kind)


PROFILES = st.dictionaries(
    st.sampled_from(list(OPTIONS)), st.none(), min_size=1, max_size=5
).flatmap(lambda names: st.fixed_dictionaries({name: drawn_values(name) for name in names}))


# -- notes, assumptions and metadata: text that must come back exactly ----------------------

REMARKS = st.text(st.sampled_from("ab Z9#:,'\"\\\t-{}[]é✓"), max_size=12)


@dataclass(frozen=True)
class Statement:
    """An option's value as written, with its mark and note."""

    value: Drawn
    assumed: bool
    note: str | None


@dataclass(frozen=True)
class Written:
    """A profile as written: its statements and its metadata."""

    statements: dict[str, Statement]
    title: str | None
    source: str | None


WRITTEN = st.builds(
    Written,
    PROFILES.flatmap(
        lambda values: st.fixed_dictionaries(
            {
                name: st.builds(Statement, st.just(d), st.booleans(), st.none() | REMARKS)
                for name, d in values.items()
            }
        )
    ),
    st.none() | REMARKS,
    st.none() | REMARKS,
)


# -- the readers and writers ---------------------------------------------------------------

FILES = itertools.count()
FLAG_WORDS = ("true", "yes", "on", "y", "false", "no", "off", "n")


def dsl_string(text: str) -> str:
    """A string of the profile language: a backslash escapes the next character."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dsl_text(written: Written) -> str:
    lines = [f"    {key} {dsl_string(text)}" for key, text in _metadata(written)]
    for name, stated in written.statements.items():
        mark = "assumed " if stated.assumed else ""
        note = f" {dsl_string(stated.note)}" if stated.note is not None else ""
        lines.append(f"    {mark}{name} {stated.value.text}{note}")
    return 'profile "house" {\n' + "".join(line + "\n" for line in lines) + "}\n"


def yaml_text(written: Written, rng: random.Random) -> str:
    lines = ["profile: house"]
    lines += [f"{key}: {json.dumps(text)}" for key, text in _metadata(written)]
    for name, stated in written.statements.items():
        text = stated.value.text
        if name == "deck" and text != "standard" and rng.random() < 0.5:
            value = f"[{', '.join(json.dumps(r) for r in text.replace(',', ' ').split())}]"
        else:
            value = json.dumps(text)
        if not stated.assumed and stated.note is None:
            lines.append(f"{name}: {value}")
            continue
        lines += [f"{name}:", f"  value: {value}"]
        reason = stated.note is not None and stated.note.lower() not in FLAG_WORDS
        if stated.assumed and reason and rng.random() < 0.3:
            lines.append(f"  assumed: {json.dumps(stated.note)}")  # the reason is the note
            continue
        flags = (
            ("true", "yes", '"on"', "y") if stated.assumed else ("false", "no", "off", "n", None)
        )
        flag = rng.choice(flags)
        lines += [f"  assumed: {flag}"] if flag is not None else []
        lines += [f"  note: {json.dumps(stated.note)}"] if stated.note is not None else []
    return "\n".join(lines) + "\n"


def _metadata(written: Written) -> list[tuple[str, str]]:
    pairs = [("title", written.title), ("source", written.source)]
    return [(key, text) for key, text in pairs if text is not None]


def read(folder: Path, text: str, suffix: str) -> tuple[Profile, Path]:
    path = folder / f"house-{next(FILES)}{suffix}"  # a new file: the profile cache knows none
    path.write_text(text, encoding="utf-8")
    profile = load_file(path)
    assert profile.document.ok, profile.diagnostics
    return profile, path


def rewritten(path: Path, syntax: str) -> Profile:
    doc = read_document(path, path.read_text(encoding="utf-8"))
    suffix = ".rules" if syntax == "dsl" else ".yaml"
    return read(path.parent, write(doc, syntax), suffix)[0]


@dataclass(frozen=True)
class ReadBack:
    """What one reader or writer gives: the rules, each option's mark and note, metadata."""

    rules: Rules
    marks: dict[str, tuple[bool, str | None]]
    title: str | None
    source: str | None

    @classmethod
    def of(cls, profile: Profile) -> ReadBack:
        marks = {name: (s.assumed, s.note) for name, s in profile.settings.items()}
        return cls(profile.rules, marks, profile.title, profile.source)


def shown(capsys, path: Path) -> ReadBack:
    assert main(["show", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    options = data["options"]
    rules = Rules().with_options({name: o["value"] for name, o in options.items()})
    marks = {name: (o["assumed"], o["note"]) for name, o in options.items()}
    return ReadBack(rules, marks, data["title"], data["source"])


def routes(capsys, folder: Path, written: Written, rng: random.Random) -> dict[str, ReadBack]:
    """What each reader and writer gives for the profile written."""
    dsl, dsl_path = read(folder, dsl_text(written), ".rules")
    yml, yaml_path = read(folder, yaml_text(written, rng), ".yaml")
    found = {
        "dsl": ReadBack.of(dsl),
        "yaml": ReadBack.of(yml),
        "fmt dsl": ReadBack.of(rewritten(dsl_path, "dsl")),
        "fmt yaml": ReadBack.of(rewritten(yaml_path, "yaml")),
        "convert to yaml": ReadBack.of(rewritten(dsl_path, "yaml")),
        "convert to dsl": ReadBack.of(rewritten(yaml_path, "dsl")),
    }
    if dsl.ok:  # show refuses what validate refuses
        found["show --json"] = shown(capsys, dsl_path)
    return found


def set_routes(written: Written, ok: bool) -> dict[str, Rules]:
    """The rules `--set` gives for the values written: on the defaults, and on a profile."""
    settings = [f"{name}={s.value.text}" for name, s in written.statements.items()]
    found = {"--set": Rules().with_options(parse_assignments(settings))}
    if ok:  # the command line refuses what validate refuses
        found["--set on a profile"] = build_rules("equal-hands", settings)
    return found


# -- what is played ------------------------------------------------------------------------


def played(rules: Rules, players: int, seed: int) -> list[tuple]:
    """A few hands with the lowest bot, in both engines: what each reports."""
    games = []
    for dealer in range(2):
        order = list(rules.cards)
        random.Random(seed + dealer).shuffle(order)
        hand = Hand.deal(rules, players, dealer, order=order, seed=seed)
        legal = hand.legal_moves()
        play_hand(hand, [make_bot("lowest") for _ in range(players)])
        fast = compile_hand(rules, players, ("lowest",) * players)
        got = fast([to_int(c) for c in order], seed, Stream(0), dealer)
        expected = hand.outcome
        assert (got.winner, got.trick_winners) == (expected.winner, expected.trick_winners)
        # The lowest bot leads the smallest card by the order the deck was written in.
        first = next(e.card for e in hand.events if type(e).__name__ == "Play")
        strength = {rank: -i for i, rank in enumerate(rules.deck)}
        assert first == min(legal, key=lambda c: (strength[c.rank], c.suit))
        games.append((expected.winner, expected.trick_winners, expected.reason))
    return games


@settings(
    max_examples=examples(50),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(WRITTEN, st.integers(0, 2**16))
def test_every_value_means_the_same_through_every_reader_and_writer(
    capsys, tmp_path, written, seed
):
    found = routes(capsys, tmp_path, written, random.Random(seed))
    every_rules = {route: back.rules for route, back in found.items()}
    every_rules |= set_routes(written, "show --json" in found)
    for route, rules in every_rules.items():
        for name, s in written.statements.items():
            value = getattr(rules, name)
            assert s.value.means(value), f"{route}: {name} {s.value.text!r} read as {value!r}"
        for name, opt in OPTIONS.items():
            assert same_value(opt.parse(opt.text(getattr(rules, name))), getattr(rules, name))
    for route, back in found.items():
        for name, s in written.statements.items():
            assert back.marks[name] == (s.assumed, s.note), f"{route}: {name}"
        assert (back.title, back.source) == (written.title, written.source), route
    first = found["dsl"].rules
    assert all(rules == first for rules in every_rules.values())
    players = next((n for n in PLAYER_COUNTS if _playable(first, n)), None)
    if players is not None:
        assert played(first, players, seed) == played(every_rules["--set"], players, seed)


def _playable(rules: Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except RulesError:
        return False
    return True


def test_fmt_keeps_a_tab_in_a_note(tmp_path, capsys):
    path = tmp_path / "house.rules"
    path.write_text('profile "house" {\n    draw 2 "two\tcards"\n}\n', encoding="utf-8")
    assert main(["fmt", str(path)]) == 0
    assert load_file(path).settings["draw"].note == "two\tcards"


def test_a_reason_in_assumed_and_a_note_are_not_both_kept(tmp_path):
    path = tmp_path / "house.yaml"
    text = "profile: house\ndraw:\n  value: 2\n  assumed: not stated\n  note: ours\n"
    path.write_text(text, encoding="utf-8")
    (problem,) = [d for d in load_file(path).diagnostics if d.is_error]
    assert (problem.line, problem.code) == (4, "two-notes")
    assert "a reason in `assumed` and a `note`" in problem.message


@pytest.mark.parametrize(
    ("name", "text", "code", "line"),
    [
        ("a.rules", 'profile "a" {\n    assumed title "T"\n}\n', "metadata-assumed", 2),
        (
            "b.rules",
            'profile "b" {\n    draw 2\n    assumed source "S"\n}\n',
            "metadata-assumed",
            3,
        ),
        ("c.yaml", "profile: c\ntitle:\n  value: T\n  assumed: true\n", "yaml-shape", 3),
        ("d.yaml", "profile:\n  value: d\n  note: mine\n", "yaml-shape", 2),
        (
            "e.yaml",
            "profile: e\nextends:\n  value: equal-hands\n  assumed: true\n",
            "yaml-shape",
            3,
        ),
    ],
)
def test_a_mark_nothing_would_keep_is_refused(tmp_path, name, text, code, line):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    (problem,) = [d for d in load_file(path).diagnostics if d.is_error]
    assert (problem.code, problem.line) == (code, line)


@pytest.mark.parametrize(
    ("name", "text", "code"),
    [
        ("a.rules", 'profile "a" {\n    title\n}\n', "missing-value"),
        ("b.yaml", "profile: b\nsource:\n", "yaml-type"),
    ],
)
def test_a_title_or_source_without_text_is_refused(tmp_path, name, text, code):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    (problem,) = [d for d in load_file(path).diagnostics if d.is_error]
    assert (problem.code, problem.line) == (code, 2)
