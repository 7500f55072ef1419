"""The compiled search kernel (`rulesdsl.play.native.search`) plays the hands the Python search
plays: every decision of every `pimc:N` seat the same card, the random bots drawing the same
numbers, the same HandResult, so a seed gives the same games on either engine.

Each kernel compiled here takes half a minute the first time, and a second or two once it is
in the on-disk cache. `make test` compiles one: pimc, random and heuristic seats together
(any N: the budget is an argument) under two stated rules, one that restricts follows and
one that restricts leads (so the kernel asks each world whether it allows a lead). A
thorough run (HYPOTHESIS_PROFILE=thorough) compiles four: also the default profile with
pimc at every seat, a profile with the follow rule (leads taken as free) with the mixed
seats, and the lead rule with pimc at every seat."""

from __future__ import annotations

import ast
import dataclasses

import pytest

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

import numpy as np
from sizing import sized

from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.events import Play
from rulesdsl.play.engine.fast import int_deck, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.state_in_locals import drop_dead_fields
from rulesdsl.play.native import ENV
from rulesdsl.play.native import search as native_search
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.play.players.search.table import came_back
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.reason.sim import Spec, run
from rulesdsl.words import report

ALL_PIMC = ("pimc:6",) * 4
MIXED = ("pimc:5", "random", "heuristic", "pimc:3")


@pytest.fixture
def on_native(monkeypatch):
    monkeypatch.setenv(ENV, "1")


def deals(rules, count: int, players: int) -> list[tuple[list[int], int, int]]:
    found = []
    for game in range(count):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(game + 500))
        found.append((deck, 9000 + game, game % players))
    return found


def python_hand(rules, bots, deck, hand_seed, dealer, rng):
    """The hand on the reference engine with the Python search, and its cards played."""
    cards = {to_int(c): c for c in rules.cards}
    hand = Hand.deal(rules, len(bots), dealer, order=[cards[c] for c in deck], seed=hand_seed)
    seeds = native_search.seeds_of(bots, hand_seed)
    seats = [
        RandomBot(rng) if name == "random" else make_bot(name, seed)
        for name, seed in zip(bots, seeds, strict=True)
    ]
    result = play_hand(hand, seats)
    moves = [e.card for e in hand.events if isinstance(e, Play)]
    return result, moves, came_back(hand.events, result.winner) if result.winner is not None else 0


BOTH = ("profiles/house/must-overtrump.rules", "profiles/house/trumps-broken.rules")
KERNELS = [
    (BOTH, MIXED),
    *sized(
        [],
        [
            (("equal-hands",), ALL_PIMC),
            (("profiles/house/must-overtrump.rules",), MIXED),
            (("profiles/house/trumps-broken.rules",), ALL_PIMC),  # a lead rule: leads are checked
        ],
    ),
]
"""The profiles whose stated rules the kernels compiled here play, and the seats: the first
also plays for any number of workers."""


def rules_of(profiles: tuple[str, ...]) -> Rules:
    """The first profile's rules with every profile's stated rules."""
    stated = tuple(r for p in profiles for r in load(p).rules.house_rules)
    return dataclasses.replace(load(profiles[0]).rules, house_rules=stated)


@pytest.mark.parametrize(("profiles", "bots"), KERNELS, ids=lambda p: "+".join(p))
def test_the_compiled_search_plays_every_hand_as_the_python_search(profiles, bots, on_native):
    rules = rules_of(profiles)
    kernel = native_search.search_kernel(rules, 4, bots)
    assert kernel is not None
    assert kernel.module.play_worlds.targetoptions["_nrt"] is False  # compiled uncounted
    played_deals = deals(rules, 8, 4)
    streams = np.array([[70 + k, 0] for k in range(len(played_deals))], np.uint64)
    seeds = [native_search.seeds_of(bots, hand_seed) for _, hand_seed, _ in played_deals]
    played = native_search.play_in(kernel, rules, bots, played_deals, seeds, streams)
    for k, (deck, hand_seed, dealer) in enumerate(played_deals):
        rng = Stream(70 + k)
        result, moves, comeback = python_hand(rules, bots, deck, hand_seed, dealer, rng)
        assert played.moves[k] == moves
        assert played.results[k] == result
        assert played.comebacks[k] == int(comeback)
        assert int(streams[k, 1]) == rng.drawn


def test_search_bots_in_the_kernel_give_the_same_figures_for_any_number_of_workers(
    monkeypatch, on_native
):
    monkeypatch.setattr(sim, "CHUNK", 2)
    profiles, bots = KERNELS[0]
    spec = Spec(profiles=(("both", rules_of(profiles)),), units=4, bots=bots)
    one, two = run(spec, 1), run(spec, 2)
    assert report.to_json(one) == report.to_json(two)
    monkeypatch.setenv(ENV, "0")  # and the Python path gives the same figures
    assert report.to_json(run(spec, 1)) == report.to_json(one)


def test_the_kernel_leaves_reshuffles_and_other_bots_to_the_python_search():
    assert not native_search.supported(load("denexa").rules, ALL_PIMC)
    assert not native_search.supported(load("equal-hands").rules, ("ismcts:5",) * 4)
    assert native_search.supported(load("equal-hands").rules, MIXED)


def test_an_augmented_update_of_a_field_nothing_reads_goes_with_its_field():
    """`x |= bit` reads x: dropping `x = ...` alone left a name numba could not type."""
    (function,) = ast.parse("def f(a):\n    x = a\n    x |= 4\n    return a\n").body
    drop_dead_fields(function, {"x"})
    namespace: dict = {}
    exec(compile(ast.fix_missing_locations(ast.Module([function], [])), "f", "exec"), namespace)
    assert namespace["f"](3) == 3
    assert "x" not in ast.unparse(function)


@pytest.mark.parametrize(
    "profile",
    ["equal-hands", "profiles/house/must-overtrump.rules", "profiles/house/trumps-broken.rules"],
)
def test_where_the_kernel_takes_leads_as_free_every_lead_allows_every_card_held(profile):
    """The kernel asks no world whether it allows a lead when `free_leads`; the reference
    engine must then allow every card at every lead of random hands."""
    rules = load(profile).rules
    free = native_search.free_leads(rules)
    assert free == (profile != "profiles/house/trumps-broken.rules")
    refused = 0
    for game in range(40):
        hand = Hand.deal(rules, 4, game % 4, seed=game + 1)
        bot = RandomBot(Stream(game))
        while not hand.is_over:
            legal = hand.legal_moves()
            if not hand.trick:
                refused += len(hand.hands[hand.to_move]) - len(legal)
            hand.play(bot.choose(hand, legal))
    assert (refused == 0) == free


def test_the_legality_cache_spreads_hands_that_differ_in_their_high_cards_alone():
    """`search_loop.cache_slot` places a hand by bits that every card moves: hands alike
    below card 34 do not pile up in one run of rows (a slow probe for each question)."""
    from rulesdsl.play.native import search_loop

    cache = np.full(((1 << 14) + 1, 3), -1, np.int64)
    rng = np.random.default_rng(3)
    low = (1 << 3) | (1 << 17)
    slots = {
        search_loop.cache_slot(7, low | int(high) << 34, cache)
        for high in rng.choice(1 << 18, 500, replace=False)
    }
    assert len(slots) > 450
