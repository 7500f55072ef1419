"""The luck index of a profile and of the difference between two: its value from the
clusters' wins, and an interval that covers the index as often as it says."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from rulesdsl.reason.luck import luck_difference, luck_index


def test_the_index_is_the_share_of_the_heuristic_seats_losses_no_line_wins():
    top = [1, 1, 0, 0, 1, 0, 0, 0, 1, 0]
    heuristic = [1, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    luck = luck_index(Counter(zip(top, heuristic, strict=True)), 1)
    assert luck.mean == pytest.approx(1 - 2 / 8)
    assert luck.low < luck.mean < luck.high
    assert luck.n == 10


def test_clusters_of_deals_give_the_ratio_of_their_totals():
    clusters = Counter({(2, 1): 3, (0, 0): 2, (4, 2): 1})  # four deals each
    gain = 3 * (2 - 1) + 1 * (4 - 2)
    room = 3 * (4 - 1) + 2 * 4 + 1 * (4 - 2)
    luck = luck_index(clusters, 4)
    assert luck.mean == pytest.approx(1 - gain / room)
    assert luck.n == 24


def test_the_difference_is_b_less_a_on_the_same_deals():
    rng = random.Random(3)
    pairs = Counter(
        ((int(rng.random() < 0.5), int(rng.random() < 0.25)), (int(rng.random() < 0.4), 0))
        for _ in range(500)
    )
    a = Counter()
    b = Counter()
    for (ca, cb), n in pairs.items():
        a[ca] += n
        b[cb] += n
    difference = luck_difference(pairs, 1)
    assert difference.mean == pytest.approx(luck_index(b, 1).mean - luck_index(a, 1).mean)
    assert difference.low < difference.mean < difference.high
    same = luck_difference(Counter({(c, c): n for c, n in a.items()}), 1)
    assert same.mean == 0 and same.low == same.high == 0


def test_nothing_left_to_gain_gives_no_index():
    luck = luck_index(Counter({(1, 1): 5}), 1)
    assert math.isnan(luck.mean) and luck.n == 5


def draw(rng: random.Random, deals: int, top: float, heuristic: float, size: int) -> Counter:
    """Clusters of `size` deals: the heuristic seat wins with `heuristic`, and the seat
    that sees everything wins where it does and, else, with `top`."""
    found = Counter()
    for _ in range(deals // size):
        t = h = 0
        for _ in range(size):
            won = rng.random() < heuristic
            h += won
            t += won or rng.random() < top
        found[(t, h)] += 1
    return found


@pytest.mark.parametrize("size", [1, 4])
def test_the_interval_covers_the_index_about_95_times_in_100(size):
    rng = random.Random(size)
    truth = 1 - 0.3  # of the heuristic seat's losses, the seat that sees everything wins 30%
    runs = 400
    covered = sum(
        luck.low <= truth <= luck.high
        for luck in (luck_index(draw(rng, 400, 0.3, 0.25, size), size) for _ in range(runs))
    )
    assert 0.91 * runs <= covered <= 0.99 * runs


def test_the_interval_of_a_difference_covers_it_about_95_times_in_100():
    """Where the heuristic seat loses, A's seat that sees everything wins 30% and B's 45%
    of the deals (B's wins those A's does, and more): indexes 0.70 and 0.55."""
    rng = random.Random(7)
    runs, covered = 400, 0
    for _ in range(runs):
        pairs = Counter()
        for _ in range(400):
            h, u = int(rng.random() < 0.25), rng.random()
            pairs[((max(h, int(u < 0.3)), h), (max(h, int(u < 0.45)), h))] += 1
        difference = luck_difference(pairs, 1)
        covered += difference.low <= 0.55 - 0.70 <= difference.high
    assert 0.91 * runs <= covered <= 0.99 * runs
