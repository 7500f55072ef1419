"""How long `rulesdsl analyze` takes on each shipped profile, in-process (best of 3), and
how long the quick check `validate` runs (`dead_rules`, the count model only).

The goal is under a second per profile for the whole analysis, every player count.

Run: .venv/bin/python benchmarks/analyze_speed.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rulesdsl.read.profile import load, shipped_names
from rulesdsl.reason.analysis.counts import forget
from rulesdsl.reason.analysis.report import analyse, dead_rules


def best_of(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        forget()  # each run builds its count models afresh
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print(f"{'profile':<26} {'analyze s':>10} {'dead_rules s':>13}  counts")
    for name in shipped_names():
        rules = load(name).rules
        full = best_of(3, lambda: analyse(name, rules))  # noqa: B023
        quick = best_of(3, lambda: dead_rules(rules))  # noqa: B023
        low, high = rules.players
        print(f"{name:<26} {full:>10.3f} {quick:>13.4f}  {low}..{high}")


if __name__ == "__main__":
    main()
