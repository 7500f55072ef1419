"""The kernel (rulesdsl.play.kernel) plays the hands the other engines play: in CPython, the
same HandResult as the fast path's driver and the reference engine for the same deal and
bots' stream, on random option combinations and every bot; compiled by numba, the same
numbers as in CPython for every deal of a chunk, with and without the skill seat; a hand
dealt on a state other hands left plays as on a new one. The rules a profile states play
alike: every shipped profile's, and random rules drawn from the vocabulary of the rules'
language."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import settings_strategy

from rulesdsl.model.language.rule import RuleKind, Target
from rulesdsl.model.language.vocab import (
    AGGREGATE_TYPES,
    ATTRIBUTES,
    CALLS,
    ELEMENTS,
    FUNCTIONS,
    NAMES,
    SEAT_ONLY,
    SETS,
    Type,
    Where,
)
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.model.units import Step
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.fast import int_deck, play_plain
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel import build, deals, rules, state
from rulesdsl.play.kernel.compiled import STATE, plan_record, search_rows
from rulesdsl.play.kernel.hands import hand_player
from rulesdsl.play.kernel.machine import RETURN
from rulesdsl.play.kernel.plan import kernel_plan
from rulesdsl.play.kernel.rows import search_rows as cpython_rows
from rulesdsl.play.kernel.state import State
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.language.checker import COMPARISONS, MAYBE
from rulesdsl.read.language.compile import TARGET_WHERE
from rulesdsl.read.profile import load, load_text, shipped_names

MIXED = ("random", "heuristic", "lowest", "highest", "playout")
HOUSE_PROFILES = [n for n in shipped_names() if load(n).rules.house_rules]


def assert_same_hands(rules: Rules, players: int, bots: tuple[str, ...], hands: int) -> None:
    kernel, plain = hand_player(rules, players, bots), play_plain(rules, players, bots)
    by_int = dict(zip(int_deck(rules), rules.cards, strict=True))
    for number in range(hands):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(number))
        dealer = number % players
        played = kernel(list(deck), number, Stream(number + 1), dealer)
        assert played == plain(list(deck), number, Stream(number + 1), dealer)
        if "playout" not in bots:
            shared = Stream(number + 1)
            seats = [RandomBot(shared) if b == "random" else make_bot(b) for b in bots]
            order = [by_int[c] for c in deck]
            hand = Hand.deal(rules, players, dealer, order=order, seed=number)
            assert play_hand(hand, seats) == played


@settings(
    max_examples=examples(40, 400),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(settings_strategy, st.integers(2, 6), st.sampled_from(MIXED))
def test_random_option_combinations_play_the_same_hands_in_the_kernel(options, players, bot):
    rules = Rules().with_options({**options, "players": "2..6"})
    try:
        rules.check_players(players)
    except RulesError:
        return
    bots = (bot, *MIXED)[:players]
    assert_same_hands(rules, players, bots, 12)


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_profile_plays_the_same_hands_in_the_kernel(name):
    assert_same_hands(load(name).rules, 4, MIXED[:4], 60)


def test_the_build_refuses_a_name_that_is_not_the_kernels():
    (node,) = ast.parse("def f(s):\n    return open(s)\n").body
    with pytest.raises(build.BuildError, match="reads open"):
        build.check(build.definition(node, {}), {"f"})


def deal(s, winner):
    """Another function of the kernel's name `deal`."""
    return 1


SEATS = 11  # another value of the kernel's name SEATS


def seats_score(s, winner):
    return SEATS


@pytest.mark.parametrize(
    ("function", "refused"),
    [(deal, "two functions named deal"), (seats_score, "two values named SEATS")],
)
def test_the_build_refuses_two_functions_or_values_of_one_name(monkeypatch, function, refused):
    monkeypatch.setitem(rules.AT, Step.SCORE, (*rules.AT[Step.SCORE], function))
    with pytest.raises(build.BuildError, match=refused):
        build.source()


def play_chunk(
    rules: Rules,
    skill: bool,
    native: bool,
    count: int,
    rotate: bool = False,
    left: State | None = None,
) -> np.ndarray:
    """Two chunks of `count` deals, on the compiled kernel or in CPython (there on the state
    `left`, where given)."""
    plan = kernel_plan(rules)
    table = deals.table_of(rules, 4)
    chunk = ([11, 12], [21, 22], [0, count], [count, count])
    out = np.zeros((2 * count, deals.COLUMNS), np.int64)
    if native:
        module = build.kernel()
        s, p = np.zeros(1, STATE)[0], plan_record(plan)[0]
        arrays = [np.array(a, np.uint64 if k < 2 else np.int64) for k, a in enumerate(chunk)]
        seats = np.zeros(state.SEATS, np.int64)
        rows = search_rows(False)
        module.play_deals(s, p, *rows, np.array(table), seats, seats, skill, *arrays, rotate, out)
    else:
        seats = [0] * state.SEATS
        rows = cpython_rows()
        s = State() if left is None else left
        deals.play_deals(s, plan, *rows, table, seats, seats, skill, *chunk, rotate, out)
    return out


def left_over(rng: random.Random) -> State:
    """A state holding arbitrary numbers, as the hands played on it before may leave it."""
    s = State()
    for field in state.FIELDS:
        held = getattr(s, field.name)
        numbers = [rng.randrange(-1, 52) for _ in held] if field.size else rng.randrange(-1, 52)
        setattr(s, field.name, numbers)
    return s


@pytest.mark.parametrize("name", shipped_names())
def test_a_hand_dealt_on_a_state_other_hands_left_plays_as_on_a_new_one(name):
    """Every number of the state a hand reads is given its value as the hand is dealt
    (`state.Field.dealt`, `steps.deal`), whatever the state held: the kernel plays every
    deal of a chunk on one state."""
    rules = load(name).rules
    left = play_chunk(rules, True, False, 20, left=left_over(random.Random(name)))
    assert (left == play_chunk(rules, True, False, 20)).all()


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@pytest.mark.parametrize(
    "name", ["equal-hands", "bicycle", "denexa", "instant-elimination", *HOUSE_PROFILES]
)
@pytest.mark.parametrize("skill", [False, True], ids=["bots", "skill"])
@pytest.mark.parametrize("rotate", [False, True], ids=["deals", "rotated"])
def test_the_compiled_kernel_gives_the_numbers_cpython_gives(name, skill, rotate):
    rules = load(name).rules
    native = play_chunk(rules, skill, True, 152, rotate)
    assert (native == play_chunk(rules, skill, False, 152, rotate)).all()


# -- random rules a profile states, drawn from the vocabulary of the rules' language --------

SET_TYPES = tuple(ELEMENTS)
CARD_SETS = [n for n, name in NAMES.items() if name.type == Type.CARDS]
ATTRIBUTE_SETS = [a for a in ATTRIBUTES.values() if a.type in SET_TYPES]
CARD_NAMES = [f"{rank}{suit}" for rank in ("2", "3", "7", "10", "J", "Q", "A") for suit in "CDHS"]
"""Cards a rule may name: some of them no short deck holds (a rule naming one never acts)."""
PARTS = 3
"""How deep a random expression nests."""


def fits(actual: Type, wanted: Type) -> bool:
    return actual == wanted or (
        wanted in MAYBE.values() and (actual == Type.NONE or MAYBE.get(actual) == wanted)
    )


EQUAL = (Type.SUIT, Type.SEAT, Type.MAYBE_SEAT, Type.CARD, Type.MAYBE_CARD, Type.BOOL)
"""The types `==` compares (besides numbers, ranks and tricks, which `compare` draws)."""
ORDERED = (Type.INT, Type.RANK)
"""The types `<` compares."""


def named(kind: Type, where: Where) -> list[str]:
    """The names of values of `kind` at `where`."""
    return [
        n
        for n, name in NAMES.items()
        if where in name.where and fits(name.type, kind) and name.type not in SET_TYPES
    ]


@st.composite
def expression(
    draw,
    wanted: Type,
    where: Where,
    scope: tuple[tuple[str, Type], ...],
    depth: int = 0,
    path: bool = False,
):
    """The text of an expression of the `wanted` type at `where`, the variables of `scope`
    bound: any name, attribute, operation, call and aggregate (with a filter or without)
    of the language; with `path`, a name, a variable or an attribute of one (what an
    attribute is of)."""

    def values(kind: Type, path: bool = path) -> list[str]:
        bound = [v for v, t in scope if fits(t, kind)]
        if path:
            names = [n for n in named(kind, where) if NAMES[n].type != Type.NONE]
            return names + bound + functions(kind)
        numbers = [str(draw(st.integers(0, 12)))] if kind == Type.INT else []
        cards = [draw(st.sampled_from(CARD_NAMES))] if fits(Type.CARD, kind) else []
        return named(kind, where) + bound + numbers + cards + functions(kind)

    def functions(kind: Type) -> list[str]:
        """A call of each function of the kind, its arguments names or variables."""
        found = []
        for function in (f for f in FUNCTIONS.values() if fits(f.type, kind)):
            args = [values(param, True) for param in function.params]
            if all(args):
                said = ", ".join(draw(st.sampled_from(arg)) for arg in args)
                found.append(f"{function.name}({said})")
        return found

    leaves = values(wanted)
    forms = ["leaf"] * bool(leaves)
    if depth < PARTS:
        attributes = [
            a
            for a in ATTRIBUTES.values()
            if where in a.where and fits(a.type, wanted) and values(a.owner, True)
        ]
        forms += ["attribute"] * bool(attributes)
        if not path:
            forms += ["if"]
            forms += {
                Type.INT: ["arith", "negate", "call", "aggregate"],
                Type.BOOL: ["logic", "not", "compare", "equal", "aggregate"],
                Type.MAYBE_SEAT: ["aggregate"],
            }.get(wanted, [])
    form = draw(st.sampled_from(forms))

    def part(kind: Type, bound: tuple[tuple[str, Type], ...] = scope, path: bool = False) -> str:
        return draw(expression(kind, where, bound, depth + 1, path))

    if form == "leaf":
        return draw(st.sampled_from(leaves))
    if form == "attribute":
        attribute = draw(st.sampled_from(attributes))
        return f"{part(attribute.owner, path=True)}.{attribute.name}"
    if form == "if":
        plain = [k for k, maybe in MAYBE.items() if maybe == wanted and values(k)]
        kind = draw(st.sampled_from(plain)) if plain else wanted
        return f"({part(kind)} if {part(Type.BOOL)} else {part(wanted)})"
    if form == "arith":
        return f"({part(Type.INT)} {draw(st.sampled_from('+-*'))} {part(Type.INT)})"
    if form == "negate":
        return f"-{part(Type.INT)}"
    if form == "call":
        count = draw(st.integers(2, 3))
        return f"{draw(st.sampled_from(CALLS))}({', '.join(part(Type.INT) for _ in range(count))})"
    if form == "logic":
        return f"({part(Type.BOOL)} {draw(st.sampled_from(['and', 'or']))} {part(Type.BOOL)})"
    if form == "not":
        return f"not {part(Type.BOOL)}"
    if form == "compare":
        kind = draw(st.sampled_from([k for k in ORDERED if values(k)]))
        return f"({part(kind)} {draw(st.sampled_from(COMPARISONS))} {part(kind)})"
    if form == "equal":
        kind = draw(st.sampled_from([k for k in EQUAL if values(k, True)]))
        nullable = kind in (Type.SUIT, *MAYBE.values())
        right = "none" if nullable and draw(st.booleans()) else part(kind)
        return f"({part(kind, path=True)} {draw(st.sampled_from(['==', '!=']))} {right})"
    kinds = [k for k, (body, result) in AGGREGATE_TYPES.items() if fits(result, wanted)]
    kind = draw(st.sampled_from(kinds))
    sets = [n for n in SETS if where in NAMES[n].where]
    if kind in SEAT_ONLY:
        sets = [n for n in sets if NAMES[n].type == Type.SEATS]
    else:
        sets += [n for n in CARD_SETS if where in NAMES[n].where]
        sets += [a for a in ATTRIBUTE_SETS if where in a.where and values(a.owner, True)]
    over = draw(st.sampled_from(sets))
    if isinstance(over, str):
        member = ELEMENTS[NAMES[over].type]
    else:
        member = ELEMENTS[over.type]
        over = f"{part(over.owner, path=True)}.{over.name}"
    var = f"v{depth}"
    within = (*scope, (var, member))
    filtered = f" where {part(Type.BOOL, within)}" if draw(st.booleans()) else ""
    body = part(AGGREGATE_TYPES[kind][0], within)
    return f"{kind}({var} in {over}{filtered}: {body})"


@st.composite
def stated_rule(draw, index: int) -> str:
    """The text of a random rule of any kind."""
    kind = draw(st.sampled_from(list(RuleKind)))
    if kind == RuleKind.REFUSE:
        target = draw(st.sampled_from(list(Target)))
        condition = draw(expression(Type.BOOL, TARGET_WHERE[target], ()))
        return f"rule r{index} {{ refuse {target} if {condition} }}"
    if kind == RuleKind.END:
        condition = draw(expression(Type.BOOL, Where.END, ()))
        winner = draw(expression(Type.MAYBE_SEAT, Where.END, ()))
        return f"rule r{index} {{ end when {condition}\n winner {winner} }}"
    if kind == RuleKind.LEAD:
        return f"rule r{index} {{ lead {draw(expression(Type.MAYBE_SEAT, Where.DEAL, ()))} }}"
    if kind == RuleKind.ALSO_DRAWS:
        who = draw(expression(Type.MAYBE_SEAT, Where.ALSO_DRAWS, ()))
        return f"rule r{index} {{ also_draws {who} }}"
    if kind == RuleKind.OUT:
        return f"rule r{index} {{ out if {draw(expression(Type.BOOL, Where.OUT, ()))} }}"
    where = Where.DRAW if kind == RuleKind.DRAW else Where.SCORE
    return f"rule r{index} {{ {kind} {draw(expression(Type.INT, where, ()))} }}"


@st.composite
def stating(draw) -> Rules:
    """Random options with random rules of their own (one draw and one score at most)."""
    options = draw(settings_strategy)
    rules = Rules().with_options({**options, "players": "2..6"})
    texts = [draw(stated_rule(i)) for i in range(draw(st.integers(1, 3)))]
    body = "\n".join(f"    {text}" for text in texts)
    read = load_text(Path("/stated.rules"), f'profile "stated" {{\n{body}\n}}\n')
    assume(read.ok)
    own = read.rules.house_rules
    single = [r for r in own if {Step.DRAW_COUNT, Step.SCORE} & set(r.step_names)]
    assume(len({r.step_names for r in single}) == len(single))
    return dataclasses.replace(rules, house_rules=own)


@settings(
    max_examples=examples(30, 300),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(stating(), st.integers(2, 6), st.sampled_from(MIXED))
def test_random_stated_rules_play_the_same_hands_in_the_kernel(rules, players, bot):
    try:
        rules.check_players(players)
    except RulesError:
        return
    assert_same_hands(rules, players, (bot, *MIXED)[:players], 8)


REMEMBERING = """
    rule hearts-broken {
        refuse lead if card.suit == hearts and not any(c in hand.played: c.suit == hearts)
    }
    rule no-queen { refuse card if trick.number == 1 and card == QS }
    rule no-two { refuse card if card == 2C or card.rank == three }
    rule previous-suit { refuse lead if card.suit == previous.led }
    rule beaten { refuse follow if any(p in seats: p.played.rank > card.rank and p != me) }
    rule ace-two { draw 2 if trick.best.rank == ace else 1 }
    rule three {
        end when trick.winner.streak >= 3 or count(t in hand.tricks: t.winner == trick.leader) > 4
        winner trick.winner
    }
    rule greedy { refuse lead if card.trump and count(c in me.won: c.trump) > 2 }
    rule kings { score count(c in hand.last_trick.cards: c.rank > jack) + hand.winner.streak }
    rule own-suit { refuse card if card.suit == card_of(me, previous).suit }
"""
"""Rules that name ranks and cards and read the hand's memory (some name cards a short deck
lacks: there they never act)."""


FILTERING = """
    rule overtake {
        refuse follow if any(p in active where p != me: p.played.rank > card.rank)
    }
    rule keep-hearts {
        refuse lead if card.suit == hearts and all(c in held where c != card: c.trump)
    }
    rule pairs { draw min(2, count(c in trick.winner.won where c.suit == trump: c.rank > ten)) }
    rule others { score sum(p in seats where p != hand.winner and p.active: p.cards) + 1 }
    rule spread {
        end when max(p in active where p != trick.winner: p.cards) >= 2 + trick.size
        winner least(p in active where p != trick.winner: p.played.strength)
    }
    rule short {
        end when min(p in active where p.cards > 1: p.cards) == 2
        winner most(p in active where p.played.suit == led: p.played.strength)
    }
    rule first { lead most(p in seats where count(c in p.hand where c.trump: true) > 0: p.cards) }
"""
"""Rules whose aggregates of every kind take a filter: any, all, count, sum, max, min, most
and least over the members for which a condition holds (none at all, at times)."""


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rules_with_filters_play_the_same_hands_in_the_kernel(players):
    read = load_text(Path("/filters.rules"), f'profile "filters" {{\n{FILTERING}\n}}\n')
    assert read.ok, [d.text() for d in read.diagnostics]
    rules = read.rules.with_options({"players": "3..5"})
    assert_same_hands(rules, players, MIXED[:players], 30)
    if importlib.util.find_spec("numba") is not None and players == 4:
        assert (play_chunk(rules, True, True, 40) == play_chunk(rules, True, False, 40)).all()


def profile_rules(text: str) -> Rules:
    read = load_text(Path("/stated.rules"), f'profile "stated" {{\n{text}\n}}\n')
    assert read.ok, [d.text() for d in read.diagnostics]
    return read.rules


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@settings(
    max_examples=examples(100, 1000),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(st.one_of(stating(), st.sampled_from([FILTERING, REMEMBERING]).map(profile_rules)))
def test_every_program_the_compiler_lays_out_is_written_as_nested_python(rules):
    """The native code of random rules is structured (`native.programs.structured`): not
    one program is left to the interpreter for ways the text cannot follow."""
    from rulesdsl.play.kernel.machine import WIDTH
    from rulesdsl.play.native.programs import function_text

    plan = kernel_plan(rules)
    text = function_text(plan.program[: plan.program_len * WIDTH])
    assert text.count("    if pc == ") == plan.program[: plan.program_len * WIDTH : WIDTH].count(
        RETURN
    )


def remembering(deck: str = "standard") -> Rules:
    """The rules of REMEMBERING, with `deck`, for 3 to 5 players."""
    read = load_text(Path("/memory.rules"), f'profile "memory" {{\n{REMEMBERING}\n}}\n')
    assert read.ok, [d.text() for d in read.diagnostics]
    return read.rules.with_options({"deck": deck, "players": "3..5"})


@pytest.mark.parametrize("deck", ["standard", "A K Q J 10 9 8 7", "A 10 K Q J 9 8 7"])
def test_rules_reading_the_hands_memory_play_the_same_hands_in_the_kernel(deck):
    rules = remembering(deck)
    for players in (3, 4, 5):
        assert_same_hands(rules, players, MIXED[:players], 20)
    if importlib.util.find_spec("numba") is not None:
        assert (play_chunk(rules, True, True, 40) == play_chunk(rules, True, False, 40)).all()


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@settings(
    max_examples=examples(30, 300),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(stating(), st.booleans())
def test_random_stated_rules_give_the_numbers_cpython_gives_when_compiled(rules, skill):
    try:
        rules.check_players(4)
    except RulesError:
        return
    native = play_chunk(rules, skill, True, 20)
    assert (native == play_chunk(rules, skill, False, 20)).all()
