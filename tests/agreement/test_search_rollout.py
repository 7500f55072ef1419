"""The search bots' playouts: the native path plays each position out as the pure-Python
path does (the same policy drawing the same numbers), so a search decides the same on
either."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.native import ENV
from rulesdsl.play.players.registry import make_bot
from rulesdsl.play.players.search import adapter, rollout
from rulesdsl.read.profile import load

PROFILES = ("equal-hands", "bicycle", "profiles/house/time-limit.rules")
"""A profile with reshuffles and eliminations, one whose lead rules read what has been
played, and one whose end reads the tricks played."""


@pytest.fixture
def on_native(monkeypatch):
    monkeypatch.setenv(ENV, "1")
    rollout.playout_kernel.cache_clear()
    yield
    rollout.playout_kernel.cache_clear()


def positions(profile: str, count: int) -> list[Hand]:
    """Hands of `profile` at four players, random cards played to a random point of each
    (mid-trick and between tricks alike)."""
    rules = load(profile).rules
    found = []
    for game in range(count):
        hand = Hand.deal(rules, 4, game % 4, seed=game)
        draws = Stream(game + 1000)
        for _ in range(int(draws.random() * 24)):
            if hand.outcome is not None:
                break
            legal = hand.legal_moves()
            hand.play(legal[int(draws.random() * len(legal))])
        if hand.outcome is None:
            found.append(hand)
    return found


@pytest.mark.parametrize("profile", PROFILES)
def test_native_playouts_win_as_the_python_playouts_do(profile, on_native):
    """Each legal card tried in each position, as pimc tries them."""
    rules = load(profile).rules
    assert rollout.playout_kernel(rules, 4) is not None
    hands = positions(profile, 120)
    worlds = [adapter.position_state(h, {}, h.stock, k) for k, h in enumerate(hands)]
    streams = [Stream(k + 7) for k in range(len(worlds))]
    moves = [[h.codes.of[c] for c in h.legal_moves()] for h in hands]
    winners = {
        native: rollout.trials(rules, worlds, streams, moves, on_native=native)
        for native in (True, False)
    }
    assert len(hands) >= 60
    assert winners[True] == winners[False]
    assert len(set(winners[True])) > 1  # the playouts differ


@pytest.mark.parametrize("profile", PROFILES)
def test_a_native_rollout_draws_what_the_python_one_draws(profile, on_native):
    rules = load(profile).rules
    for k, hand in enumerate(positions(profile, 30)):
        results = []
        for native in (True, False):
            stream = Stream(k)
            s = adapter.position_state(hand, {}, hand.stock, k)
            results.append((rollout.rollout(rules, s, stream, on_native=native), stream))
        assert results[0] == results[1]


@pytest.mark.parametrize("name", ["pimc:4", "ismcts:30"])
def test_a_search_bot_decides_the_same_on_both_engines(name, monkeypatch):
    rules = load("equal-hands").rules
    events = []
    for setting in ("1", "0"):
        monkeypatch.setenv(ENV, setting)
        rollout.playout_kernel.cache_clear()
        hand = Hand.deal(rules, 4, 2, seed=5)
        play_hand(hand, [make_bot(name, derive(3, "bot", seat)) for seat in range(4)])
        events.append(hand.events)
    rollout.playout_kernel.cache_clear()
    assert events[0] == events[1]
