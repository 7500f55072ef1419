"""The search bots' playouts: the native path plays each position out as the pure-Python
path does (the same policy drawing the same numbers), so a search decides the same on
either."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

from rulesdsl.bots import make_bot
from rulesdsl.engine import Hand, play_hand
from rulesdsl.native import ENV
from rulesdsl.profile import load
from rulesdsl.search import adapter, rollout
from rulesdsl.seeds import derive
from rulesdsl.stream import Stream

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
    rules = load(profile).rules
    assert rollout.playout_kernel(rules, 4) is not None
    hands = positions(profile, 120)
    winners = {}
    for native in (True, False):
        states, streams = [], []
        for k, hand in enumerate(hands):
            s, stream = adapter.position_state(hand, {}, hand.stock, k), Stream(k + 7)
            rollout.finish_trick(rules, s, stream)
            states.append(s)
            streams.append(stream)
        winners[native] = rollout.play_out(rules, states, streams, on_native=native)
    assert len(hands) >= 60
    assert winners[True] == winners[False]
    assert len(set(winners[True])) > 1  # the playouts differ


def test_a_pimc_bot_decides_the_same_on_both_engines(monkeypatch):
    rules = load("equal-hands").rules
    events = []
    for setting in ("1", "0"):
        monkeypatch.setenv(ENV, setting)
        rollout.playout_kernel.cache_clear()
        hand = Hand.deal(rules, 4, 2, seed=5)
        play_hand(hand, [make_bot("pimc:4", derive(3, "bot", seat)) for seat in range(4)])
        events.append(hand.events)
    rollout.playout_kernel.cache_clear()
    assert events[0] == events[1]
