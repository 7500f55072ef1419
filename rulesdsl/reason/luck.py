"""The luck index: of the wins the heuristic seat leaves to the others, the share that the
seat that sees everything still cannot take, 1 - (W_all - W_heuristic) / (1 - W_heuristic),
both seats against three heuristic bots on the same deals. It is 1 where seeing every card
and the stock's order gains nothing, 0 where that seat wins every hand; normalised by what
was left to gain, it reads alike across versions whatever their number of seats or how
often their hands have a winner.

Its data are clusters of deals (a deal, or under seat rotation the deals of one deck),
each counted by its wins of the seat that sees everything and of the heuristic seat; its
interval is the delta method's for a ratio of means over the clusters, of one profile or of
the difference between two on the same deals."""

from __future__ import annotations

import math
from collections.abc import Mapping

from rulesdsl.reason.estimate import Z95, Estimate

LUCK = "luck"
"""The luck index's measurement, counted by cluster (`Cluster`)."""

Cluster = tuple[int, int]
"""A cluster's wins of the seat that sees everything and of the heuristic seat."""


def luck_index(clusters: Mapping[Cluster, int], size: int) -> Estimate:
    """The index over `clusters` (how many of each) of `size` deals, kept within 0..1."""
    ratio, room, count = _ratio(clusters, size)
    if count < 2 or room == 0:
        return Estimate(math.nan, math.nan, math.nan, count * size)
    spread = _spread({c: _residual(c, ratio, size) for c in clusters}, clusters, count)
    half = Z95 * spread / (room / count)
    index = 1 - ratio
    return Estimate(index, max(0.0, index - half), min(1.0, index + half), count * size)


def luck_difference(pairs: Mapping[tuple[Cluster, Cluster], int], size: int) -> Estimate:
    """The index of B less A's on the same clusters, `pairs` of (A's, B's) clusters."""
    a, b = _sides(pairs, 0), _sides(pairs, 1)
    ratio_a, room_a, count = _ratio(a, size)
    ratio_b, room_b, _ = _ratio(b, size)
    if count < 2 or room_a == 0 or room_b == 0:
        return Estimate(math.nan, math.nan, math.nan, count * size)
    influence = {
        (ca, cb): _residual(ca, ratio_a, size) / (room_a / count)
        - _residual(cb, ratio_b, size) / (room_b / count)
        for ca, cb in pairs
    }
    half = Z95 * _spread(influence, pairs, count)
    difference = ratio_a - ratio_b
    return Estimate(difference, difference - half, difference + half, count * size)


def _ratio(clusters: Mapping[Cluster, int], size: int) -> tuple[float, int, int]:
    """The seat that sees everything's gain over what was left to win, that room, and the
    clusters."""
    count = sum(clusters.values())
    gain = sum(n * (top - heuristic) for (top, heuristic), n in clusters.items())
    room = sum(n * (size - heuristic) for (_, heuristic), n in clusters.items())
    return (gain / room if room else math.nan), room, count


def _residual(cluster: Cluster, ratio: float, size: int) -> float:
    top, heuristic = cluster
    return (top - heuristic) - ratio * (size - heuristic)


def _spread(values: Mapping, counts: Mapping, count: int) -> float:
    """The standard error of the mean of `values` (each of mean zero), weighted by `counts`."""
    variance = sum(counts[key] * value * value for key, value in values.items()) / (count - 1)
    return math.sqrt(variance / count)


def _sides(pairs: Mapping[tuple[Cluster, Cluster], int], side: int) -> dict[Cluster, int]:
    found: dict[Cluster, int] = {}
    for pair, n in pairs.items():
        found[pair[side]] = found.get(pair[side], 0) + n
    return found
