"""The fast path, specialised as the simulator calls it, plays exactly the games of the
reference engine and of the driver as written: the same HandResult, field for field."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import BOT_NAMES, same_game, settings_strategy

from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.play.engine.fast import compile_hand, play_plain
from rulesdsl.read.profile import load, shipped_names
from rulesdsl.reason.sim import Spec, _play_hands, empty_result


# Each example compiles a hand of its own (a fraction of a second): the sizes are counts
# of distinct compiled hands, each played from several deals.
@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(
    settings_strategy,
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.lists(st.sampled_from(BOT_NAMES), min_size=6, max_size=6),
)
def test_compiled_hands_equal_the_reference(options, players, seed, bots):
    rules = Rules().with_options({**options, "players": "2..6"})
    try:
        rules.check_players(players)
    except RulesError:
        return
    for dealer in range(min(players, 3)):
        same_game(rules, players, dealer, seed + dealer, tuple(bots[:players]))


def test_thousands_of_default_hands_agree():
    rules = Rules()
    for seed in range(1500):
        same_game(rules, 4, seed % 4, seed, ("random", "random", "heuristic", "random"))


@pytest.mark.parametrize(("specialise_from", "driver"), [(3, "compile_hand"), (4, "play_plain")])
def test_the_simulator_plays_the_compiled_hands_it_is_tested_on(
    monkeypatch, specialise_from, driver
):
    """The functions the equivalence tests call are those the simulator plays: the
    specialised loop from SPECIALISE_FROM hands, the driver as written below it."""
    called = []
    real = {"compile_hand": compile_hand, "play_plain": play_plain}

    def spy(name):
        def played(rules, players, bots):
            called.append((name, rules, players, bots))
            return real[name](rules, players, bots)

        return played

    for name in real:
        monkeypatch.setattr(f"rulesdsl.reason.sim.{name}", spy(name))
    monkeypatch.setattr("rulesdsl.reason.sim.SPECIALISE_FROM", specialise_from)
    spec = Spec(profiles=(("default", Rules()),), units=3, skill=False)
    _play_hands(spec, range(3), empty_result(spec))
    assert called == [(driver, Rules(), 4, ("random",) * 4)]


def test_the_specialised_hand_keeps_only_the_rules_it_has():
    """Branches of rules the profile does not have, and tracing, are gone from the code."""
    plain = compile_hand(Rules(), 4, ("random",) * 4).source
    immediate = compile_hand(Rules().with_options({"elimination": "immediate"}), 4, ("random",) * 4)
    reshuffle = compile_hand(Rules().with_options({"exhaustion": "reshuffle"}), 4, ("random",) * 4)
    assert "trace" not in plain and "log" not in plain and ".take(" not in plain
    assert ".take(" in reshuffle.source  # the reshuffle draws from its stream
    assert plain != immediate.source


INTERESTING = [
    {
        "exhaustion": "reshuffle",
        "elimination": "immediate",
        "deck": "A K Q J 10 9",
        "hand_size": "4",
    },
    {"exhaustion": "most_tricks", "must_head": "yes", "follow": "suit_or_trump"},
    {"exhaustion": "play_out", "draw": "0", "all_out": "no_winner"},
    {"trump": "stock_turnup", "opening_lead": "trump_if_able", "when_void": "trump_if_able"},
    {"trump": "none", "draw": "per_card_in_trick", "exhaustion": "play_out"},
    {"draw_by": "everyone", "elimination": "after_draw", "deck": "A K Q J 10 9", "hand_size": "3"},
    {"draw_by": "everyone", "elimination": "immediate", "exhaustion": "play_out", "draw": "2"},
    {"draw_by": "everyone", "exhaustion": "most_tricks", "next_lead": "opening_leader"},
    {"trump": "stock_bottom", "follow": "any", "next_lead": "left_of_winner"},
    {"trump": "stock_bottom", "exhaustion": "reshuffle", "deck": "A K Q J 10 9", "hand_size": "4"},
]


def test_rare_rule_combinations_agree():
    for options in INTERESTING:
        rules = Rules().with_options(options)
        for seed in range(150):
            players = 3 + seed % 3
            bots = ("heuristic",) + ("random",) * (players - 1)
            same_game(rules, players, seed % players, seed, bots)


HOUSE_PROFILES = tuple(n for n in shipped_names() if load(n).rules.house_rules)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(
    settings_strategy,
    st.lists(st.sampled_from(HOUSE_PROFILES), min_size=1, max_size=6, unique=True),
    st.integers(3, 6),
    st.integers(0, 2**32),
    st.lists(st.sampled_from(BOT_NAMES), min_size=6, max_size=6),
)
def test_rules_a_profile_states_play_alike_on_every_path(options, names, players, seed, bots):
    """Any options with any of the shipped stated rules, in any order."""
    stated = tuple(r for name in names for r in load(name).rules.house_rules)
    rules = dataclasses.replace(Rules().with_options(options), house_rules=stated)
    try:
        rules.check_players(players)
    except RulesError:
        return
    same_game(rules, players, seed % players, seed, tuple(bots[:players]))
