"""`Rules` checks every field on construction, whatever the route, so nothing unchecked
reaches the engines (the compiled path writes the rules into Python source)."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.expr import Expr, number
from rulesdsl.model.kinds import MatchEnd, OptionError
from rulesdsl.model.rules import OPTIONS, Rules, RulesError
from rulesdsl.play.engine.fast import compile_hand

INJECTION = "x); import os; os.system('true'"

# For every option: values no reader could have produced (wrong types, out of range,
# strings where the option holds a parsed value, and code).
HOSTILE: dict[str, list[object]] = {
    "players": [(6, 3), (1, 4), (3, 11), (3.0, 6), [3, 6], "3..6", (3, 6, 9), (True, 6), None],
    "deck": [
        (14, 14),
        (14,),
        (15, 14),
        (14, 1),
        (14.0, 13),
        [14, 13],
        "standard",
        (),
        ("A", "K"),
    ],
    "hand_size": [
        "players",
        5,
        Expr("number", (INJECTION,)),
        Expr("number", (-5,)),
        Expr("number", (True,)),
        Expr("exec", ()),
        Expr("+", (number(1),)),
        Expr("min", (number(1),)),
    ],
    "trump": [INJECTION, "Hearts", "", None, 0],
    "opening_lead": ["ANY", INJECTION, True],
    "follow": ["suit ", "suit_or_trump;", None],
    "when_void": ["none", 1],
    "must_head": [1, 0, "yes", "no", None],
    "draw": [-1, "1", True, 1.0, INJECTION, "per_card", 10**400],
    "draw_by": ["Everyone", "winner,everyone", INJECTION, 1],
    "elimination": ["immediately", INJECTION],
    "exhaustion": ["reshuffle\n", INJECTION],
    "all_out": ["no winner"],
    "scoring": ["one per hand"],
    "match": [
        "target 3",
        MatchEnd("target; import os", number(3)),
        MatchEnd("hands", Expr("number", (INJECTION,))),
        MatchEnd("target", 3),
        ("target", number(3)),
    ],
    "next_lead": ["left", "opening leader", INJECTION, None],
    "next_dealer": ["right", INJECTION],
}


def test_every_option_has_hostile_values():
    assert set(HOSTILE) == set(OPTIONS)


@pytest.mark.parametrize(
    ("name", "value"), [(name, value) for name, values in HOSTILE.items() for value in values]
)
def test_a_value_no_reader_could_produce_is_refused(name, value):
    with pytest.raises(OptionError, match=f"^{name}: "):
        Rules(**{name: value})
    with pytest.raises(OptionError, match=f"^{name}: "):
        dataclasses.replace(Rules(), **{name: value})


def test_code_never_reaches_the_compiled_path():
    with pytest.raises(OptionError, match=r"^trump: "):
        compile_hand(Rules(trump=INJECTION), 4, ("lowest",) * 4)


def test_values_any_reader_could_produce_are_accepted():
    aces_low = (13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 14)
    assert Rules(deck=aces_low).deck == aces_low  # unsorted ranks are an order, kept
    assert Rules(must_head=True, draw=0, players=(2, 2)).must_head is True
    assert Rules(hand_size=Expr("neg", (number(5),))).hand_size_for(4) == -5
    assert Rules(match=MatchEnd("hands", Expr("players"))).match_count_for(5) == 5


OPTION_TEXT = {
    "players": st.sampled_from(["2", "3..6", "2..10"]),
    "deck": st.sampled_from(["standard", "A K Q J 10 9 8 7", "K Q J 10 9 8 7 6 5 4 3 2 A"]),
    "hand_size": st.sampled_from(["1", "players", "min(players, 5)", "2 * players - 3"]),
    "draw": st.sampled_from(["0", "1", "2", "per_card_in_trick"]),
    "match": st.sampled_from(["target 3", "hands players"]),
}


@st.composite
def any_rules(draw) -> Rules:
    values = {
        name: draw(OPTION_TEXT.get(name, st.sampled_from(opt.kind.words())))
        for name, opt in OPTIONS.items()
    }
    return Rules().with_options(values)


@settings(max_examples=examples(60), deadline=None)
@given(any_rules(), st.integers(2, 10))
def test_the_compiled_hand_holds_only_numbers_and_the_engine_s_own_objects(rules, players):
    """The specialised code's literals are numbers and truth values; every other object it
    names is the engine's own (a function, a table), never a value read from a profile."""
    try:
        rules.check_players(players)
    except RulesError:
        return
    play = compile_hand(rules, players, ("lowest",) * players)
    literals = [n.value for n in ast.walk(ast.parse(play.source)) if isinstance(n, ast.Constant)]
    flat = [v for value in literals for v in (value if isinstance(value, tuple) else (value,))]
    assert all(type(v) in (int, bool, type(None)) for v in flat)
    named = [v for k, v in play.__globals__.items() if k != "__builtins__"]
    assert not any(isinstance(v, str) for v in named)
