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

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.bots import make_bot
from rulesdsl.cards import RANKS_HIGH_TO_LOW, rank_text
from rulesdsl.cli import main
from rulesdsl.cli.common import build_rules
from rulesdsl.engine import Hand, play_hand
from rulesdsl.engine.compiled import compile_hand, outcome, to_int
from rulesdsl.expr import Expr
from rulesdsl.options import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.profile import Profile, load_file, read_document
from rulesdsl.rules import OPTIONS, Rules, RulesError, parse_assignments, same_value
from rulesdsl.syntax.writer import write

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


# -- the readers and writers ---------------------------------------------------------------

FILES = itertools.count()


def dsl_text(values: dict[str, Drawn]) -> str:
    lines = "".join(f"    {name} {d.text}\n" for name, d in values.items())
    return f'profile "house" {{\n{lines}}}\n'


def yaml_text(values: dict[str, Drawn], rng: random.Random) -> str:
    lines = ["profile: house"]
    for name, d in values.items():
        if name == "deck" and d.text != "standard" and rng.random() < 0.5:
            ranks = d.text.replace(",", " ").split()
            lines.append(f"deck: [{', '.join(json.dumps(r) for r in ranks)}]")
        else:
            lines.append(f"{name}: {json.dumps(d.text)}")
    return "\n".join(lines) + "\n"


def read(folder: Path, text: str, suffix: str) -> tuple[Profile, Path]:
    path = folder / f"house-{next(FILES)}{suffix}"  # a new file: the profile cache knows none
    path.write_text(text, encoding="utf-8")
    profile = load_file(path)
    assert profile.document.ok, profile.diagnostics
    return profile, path


def rewritten(path: Path, syntax: str) -> tuple[Profile, Path]:
    doc = read_document(path, path.read_text(encoding="utf-8"))
    suffix = ".rules" if syntax == "dsl" else ".yaml"
    return read(path.parent, write(doc, syntax), suffix)


def shown(capsys, path: Path) -> Rules:
    assert main(["show", str(path), "--json"]) == 0
    options = json.loads(capsys.readouterr().out)["options"]
    return Rules().with_options({name: o["value"] for name, o in options.items()})


def routes(capsys, folder: Path, values: dict[str, Drawn], rng: random.Random) -> dict[str, Rules]:
    """The Rules each reader and writer gives for the values written."""
    dsl, dsl_path = read(folder, dsl_text(values), ".rules")
    yml, yaml_path = read(folder, yaml_text(values, rng), ".yaml")
    settings = [f"{name}={d.text}" for name, d in values.items()]
    found = {
        "dsl": dsl.rules,
        "yaml": yml.rules,
        "set": Rules().with_options(parse_assignments(settings)),
        "fmt dsl": rewritten(dsl_path, "dsl")[0].rules,
        "fmt yaml": rewritten(yaml_path, "yaml")[0].rules,
        "convert to yaml": rewritten(dsl_path, "yaml")[0].rules,
        "convert to dsl": rewritten(yaml_path, "dsl")[0].rules,
    }
    if dsl.ok:  # these refuse what validate refuses
        found["show --json"] = shown(capsys, dsl_path)
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
        fast = compile_hand(rules, players, ("lowest",) * players, trace=True)
        got = outcome(fast([to_int(c) for c in order], seed, random.Random(0), dealer))
        expected = hand.outcome
        assert (got.winner, got.trick_winners) == (expected.winner, expected.trick_winners)
        # The lowest bot leads the smallest card by the order the deck was written in.
        first = next(e.card for e in hand.events if type(e).__name__ == "Play")
        strength = {rank: -i for i, rank in enumerate(rules.deck)}
        assert first == min(legal, key=lambda c: (strength[c.rank], c.suit))
        games.append((expected.winner, expected.trick_winners, expected.reason))
    return games


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(PROFILES, st.integers(0, 2**16))
def test_every_value_means_the_same_through_every_reader_and_writer(capsys, tmp_path, values, seed):
    found = routes(capsys, tmp_path, values, random.Random(seed))
    for route, rules in found.items():
        for name, d in values.items():
            value = getattr(rules, name)
            assert d.means(value), f"{route}: {name} {d.text!r} read as {value!r}"
        for name, opt in OPTIONS.items():
            assert same_value(opt.parse(opt.text(getattr(rules, name))), getattr(rules, name))
    first = found["dsl"]
    assert all(rules == first for rules in found.values())
    players = next((n for n in PLAYER_COUNTS if _playable(first, n)), None)
    if players is not None:
        assert played(first, players, seed) == played(found["set"], players, seed)


def _playable(rules: Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except RulesError:
        return False
    return True
