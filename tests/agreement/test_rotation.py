"""Seat rotation (`--rotate-seats`): each deck is played from every seat in turn, the
tallies keep each cluster's totals, and the intervals read the clusters, not the hands."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import run_cli

from rulesdsl.play.engine.fast import deal_hands
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sequential import stopping_for
from rulesdsl.reason.sim import Spec, Tally, deal_keys, rotated, run


def spec_of(*names: str, **options) -> Spec:
    return Spec(profiles=tuple((n, load(n).rules) for n in names), rotate=True, **options)


@given(
    players=st.integers(2, 6),
    hand=st.integers(1, 7),
    stock=st.integers(0, 10),
    order=st.randoms(use_true_random=False),
)
def test_a_deal_turned_gives_each_seat_every_hand_once_and_keeps_the_stock(
    players, hand, stock, order
):
    dealt = players * hand
    deck = list(range(dealt + stock))
    order.shuffle(deck)
    by_turn = []
    for turn in range(players):
        played = rotated(deck, dealt, turn)
        assert played[dealt:] == deck[dealt:]
        hands = deal_hands(played, turn, players, dealt)
        by_turn.append([hands[(turn + 1 + p) % players] for p in range(players)])
    for turn, relative in enumerate(by_turn):
        assert relative == [by_turn[0][(p - turn) % players] for p in range(players)]


def hand_values(keys: np.ndarray, key: str, players: int) -> np.ndarray:
    """A measurement on each hand of `deal_keys` rows (winner, reason, NUMBERS)."""
    if key.startswith("win_seat_"):
        return (keys[:, 0] == int(key.removeprefix("win_seat_"))).astype(np.int64)
    return keys[:, 2 + sim.NUMBERS.index(key)]


@pytest.mark.parametrize("players", [3, 4])
def test_the_tallies_keep_the_squares_of_each_clusters_totals(players):
    spec = spec_of("equal-hands", "instant-elimination", players=players, units=players * 90)
    spec = Spec(spec.profiles, players, spec.units, skill=False, seed=5, rotate=True)
    result = run(spec, 1)
    keys = deal_keys(spec)
    for key in ("win_seat_0", "win_seat_1", "tricks", "stock_left"):
        values = [hand_values(k, key, players) for k in keys]
        for tally, found in [
            (result.profiles[0], values[0]),
            (result.pairs[0], values[1] - values[0]),
        ]:
            totals = found.reshape(-1, players).sum(axis=1)
            assert tally.cluster_squares[key] == int(totals @ totals)
            assert tally.total(key) == int(found.sum())


def test_an_interval_reads_the_clusters_means():
    tally = Tally(4, cluster=4, n=8)
    tally.sums["tricks"], tally.squares["tricks"] = 40, 210
    tally.cluster_squares["tricks"] = 16**2 + 24**2  # two clusters: totals 16 and 24
    found = tally.estimate("tricks")
    half = 1.959964 * math.sqrt(((16**2 + 24**2) / 16 - 2 * 5**2) / 1 / 2)
    assert found.n == 8 and found.mean == 5
    assert found.high - found.mean == pytest.approx(half)


def test_a_share_equal_in_every_cluster_still_has_an_interval():
    tally = Tally(4, cluster=4, n=8)
    tally.outcomes[(0, None, frozenset(), 5, 20, 0, 0, 0)] = 2
    tally.outcomes[(1, None, frozenset(), 5, 20, 0, 0, 0)] = 6
    tally.cluster_squares["win_seat_0"] = 1 + 1  # one dealer's win in each cluster
    share = tally.estimate("win_seat_0", share=True)
    assert share.mean == 0.25 and share.n == 8
    assert share.low < 0.25 < share.high < 1


def compare_json(capsys, *args: object) -> dict:
    code, out, err = run_cli(capsys, "compare", "equal-hands", "instant-elimination", *args)
    assert code == 0, err
    return json.loads(out)


def test_rotated_runs_are_byte_identical_for_any_workers_and_differ_from_plain(capsys):
    args = ("--hands", 1_200, "--rotate-seats", "--json", "--players", 3)
    one = compare_json(capsys, *args, "-j", 1)
    assert compare_json(capsys, *args, "-j", 2) == one
    assert one["rotate_seats"] is True and one["units"] == 1_200
    plain = compare_json(capsys, "--hands", 1_200, "--json", "--players", 3)
    assert plain["rotate_seats"] is False
    assert plain["profiles"] != one["profiles"]


def test_until_decided_rotates_in_rounds_of_whole_rotations(capsys):
    args = ("--until-decided", "--metrics", "tricks", "--rotate-seats", "--json", "--players", 3)
    found = compare_json(capsys, *args)
    stopping = found["stopping"]
    assert stopping["hands"] % (3 * 84) == 0 and stopping["decided"]


def test_attribution_plays_its_deals_apart_under_rotation(capsys):
    args = ("--hands", 800, "--attribute", "--no-skill", "--json")
    rotated_run = compare_json(capsys, *args, "--rotate-seats")
    assert rotated_run["attribution"] == compare_json(capsys, *args)["attribution"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "1001"], "multiple of 4: 1,000 or 1,004, not 1,001"),
        (["no-trumps", "--until-decided", "--max-hands", "999"], "996 or 1,000, not 999"),
        (["--matches", "10"], "give --hands, not --matches"),
    ],
)
def test_rotation_refuses_hands_that_split_a_deals_turns(capsys, args, message):
    command = "compare" if "--until-decided" in args else "simulate"
    code, _, err = run_cli(capsys, command, "equal-hands", "--rotate-seats", *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_the_default_cap_of_until_decided_is_whole_rotations():
    spec = spec_of("equal-hands", "no-trumps", players=3)
    stopping: Stopping = stopping_for(spec, 0.05, None, ("tricks",))
    assert stopping.max_units % 3 == 0 and stopping.first % 3 == 0 and spec.chunk == 252
