"""The kernel (rulesdsl.play.kernel) plays the hands the other engines play: in CPython, the
same HandResult as the fast path's driver and the reference engine for the same deal and
bots' stream, on random option combinations and every bot; compiled by numba, the same
numbers as in CPython for every deal of a chunk, with and without the skill seat."""

from __future__ import annotations

import ast
import importlib.util

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import settings_strategy

from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.model.units import Step
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.fast import int_deck, play_plain
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel import build, deals, rules, state
from rulesdsl.play.kernel.compiled import search_rows
from rulesdsl.play.kernel.hands import hand_player
from rulesdsl.play.kernel.plan import NotNative, kernel_plan, plan_record
from rulesdsl.play.kernel.rows import search_rows as cpython_rows
from rulesdsl.play.kernel.state import STATE, State
from rulesdsl.play.native import driver
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import load, shipped_names

MIXED = ("random", "heuristic", "lowest", "highest", "playout")


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


@pytest.mark.parametrize("name", [n for n in shipped_names() if not load(n).rules.house_rules])
def test_every_shipped_profile_plays_the_same_hands_in_the_kernel(name):
    assert_same_hands(load(name).rules, 4, MIXED[:4], 60)


def test_a_profile_stating_rules_of_its_own_is_not_the_kernels_yet():
    with pytest.raises(NotNative, match="rules of its own"):
        kernel_plan(load("must-overtrump").rules)


def test_the_build_refuses_a_name_that_is_not_the_kernels():
    (node,) = ast.parse("def f(s):\n    return open(s)\n").body
    with pytest.raises(build.BuildError, match="reads open"):
        build.check(node, {"f"})


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


def play_chunk(rules: Rules, skill: bool, native: bool, count: int) -> np.ndarray:
    plan = kernel_plan(rules)
    table = deals.table_of(rules, 4)
    chunk = ([11, 12], [21, 22], [0, count], [count, count])
    out = np.zeros((2 * count, len(driver.FIELDS)), np.int64)
    if native:
        module = build.kernel()
        s, p = np.zeros(1, STATE)[0], plan_record(plan)[0]
        arrays = [np.array(a, np.uint64 if k < 2 else np.int64) for k, a in enumerate(chunk)]
        seats = np.zeros(state.SEATS, np.int64)
        rows = search_rows(False)
        module.play_deals(s, p, *rows, np.array(table), seats, seats, skill, *arrays, out)
    else:
        seats = [0] * state.SEATS
        deals.play_deals(State(), plan, *cpython_rows(), table, seats, seats, skill, *chunk, out)
    return out


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@pytest.mark.parametrize("name", ["equal-hands", "bicycle", "denexa", "instant-elimination"])
@pytest.mark.parametrize("skill", [False, True], ids=["bots", "skill"])
def test_the_compiled_kernel_gives_the_numbers_cpython_gives(name, skill):
    rules = load(name).rules
    native = play_chunk(rules, skill, True, 150)
    assert (native == play_chunk(rules, skill, False, 150)).all()
