"""Timing on a shared machine: the best of a few rounds, every work timed once a round."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(works: dict[str, Callable[[], object]], repeats: int = 3) -> dict[str, float]:
    """The least seconds of each work over `repeats` rounds, each round running every work
    once, so that a change in the machine's load falls on all of them alike."""
    best = dict.fromkeys(works, float("inf"))
    for _ in range(repeats):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
