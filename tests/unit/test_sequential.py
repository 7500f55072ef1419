"""The confidence sequence of `--until-decided` and its rounds."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from rulesdsl.reason.sequence import half_width, sequence_estimate
from rulesdsl.reason.sequential import round_ends
from rulesdsl.reason.sim import CHUNK, Estimate

ENDS = round_ends(2_000, 60_000)


def covered_at_every_round(values: np.ndarray, mean: float, level: float) -> bool:
    """Whether the sequence holds `mean` at the end of every round of `values`."""
    totals, squares = np.cumsum(values), np.cumsum(values * values)
    for end in ENDS:
        e = sequence_estimate(end, int(totals[end - 1]), int(squares[end - 1]), level, 2_000)
        if not e.low <= mean <= e.high:
            return False
    return True


def test_the_sequence_holds_the_mean_at_every_round_in_at_least_1_minus_alpha_of_runs():
    rng = np.random.default_rng(7)
    runs = 300
    misses = 0
    for _ in range(runs):
        # paired differences of two shares of 0.3: -1, 0 or +1
        values = (rng.random(ENDS[-1]) < 0.3).astype(np.int64) - (
            rng.random(ENDS[-1]) < 0.3
        ).astype(np.int64)
        misses += not covered_at_every_round(values, 0.0, 0.05)
    assert misses / runs <= 0.05 + 2 * (0.05 * 0.95 / runs) ** 0.5


def test_the_sequence_narrows_as_hands_are_played():
    widths = [half_width(n, 0, n // 2, 0.05, 2_000) for n in ENDS]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < widths[0] / 3


def test_the_sequence_is_wider_than_the_interval_of_a_fixed_run():
    for n in (250, 2_000, 100_000):
        fixed = Estimate.of(n, n // 10, n // 2)
        sequence = sequence_estimate(n, n // 10, n // 2, 0.05, 2_000)
        assert sequence.low < fixed.low and fixed.high < sequence.high
        assert sequence.mean == fixed.mean


def test_a_smaller_level_widens_the_sequence():
    assert half_width(5_000, 100, 2_000, 0.005, 2_000) > half_width(5_000, 100, 2_000, 0.05, 2_000)


def test_rounds_end_on_whole_chunks_grow_and_stop_at_the_cap():
    ends = round_ends(2_000, 20_100)
    assert ends[0] == 2_000 and ends[-1] == 20_100
    assert all(end % CHUNK == 0 for end in ends[:-1])
    assert all(b > a for a, b in pairwise(ends))
    assert all(b <= 1.25 * a + CHUNK for a, b in pairwise(ends))
    assert round_ends(2_000, 500) == [500]
    assert round_ends(250, 750) == [250, 500, 750]


def test_a_measure_equal_on_every_deal_still_gets_an_interval():
    e = sequence_estimate(2_000, 0, 0, 0.05, 2_000)
    assert e.low < 0 < e.high
    assert e.high < 0.01
