"""House rules at speed: each shipped profile that states rules of its own against the
profile it extends, in hands per second on the native path (the compiled kernel).

    .venv/bin/python benchmarks/house_speed.py [--hands 50000]

In one run, on one core, random bots at 4 players: every profile's hands are played by
its compiled kernel (`rulesdsl.play.kernel.compiled`, loaded or compiled once before the
timing), best of 3 rounds, each round timing every profile once so that the load of a
shared machine falls on all alike. Prints hands per second of each and of its parent, and
how many times slower the profile plays than its parent (the target: at most 2), by hands
and by tricks: a rule that makes hands longer (lowest-follower-draws about doubles their
tricks) plays fewer hands a second at the same speed per trick, which the second ratio
shows.

It needs numba (`pip install -e '.[fast]'`).
"""

from __future__ import annotations

import argparse
from functools import partial

from timing import best_of
from yardstick_numba import PLAYERS

from rulesdsl.play.kernel.compiled import chunks, compiled_profile
from rulesdsl.play.kernel.deals import TRICKS
from rulesdsl.read.profile import load, shipped_names

TARGET = 2.0
"""The most times slower a profile with rules of its own may play than its parent."""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=50_000)
    hands = parser.parse_args().hands
    house = [n for n in shipped_names() if load(n).rules.house_rules]
    parents = sorted({load(n).extends or "" for n in house} - {""})
    played = chunks([1], [2], [0], [hands])
    works = {}
    tricks = {}
    for name in (*parents, *house):
        profile = compiled_profile(load(name).rules, PLAYERS, ("random",) * PLAYERS)
        works[name] = partial(profile.chunks, played)
        tricks[name] = float(works[name]()[:, TRICKS].mean())
    seconds = best_of(works)
    rate = {name: hands / seconds[name] for name in works}
    print(
        f"{'profile':32} {'hands/s':>10} {'tricks':>6} {'parent':>12} {'hands/s':>10}"
        f" {'tricks':>6} {'slower':>7} {'per trick':>9}"
    )
    for name in house:
        parent = load(name).extends or ""
        slower = rate[parent] / rate[name]
        per_trick = slower * tricks[parent] / tricks[name]
        mark = "" if slower <= TARGET else f"  (over {TARGET:g}x by hands)"
        print(
            f"{name:32} {rate[name]:10,.0f} {tricks[name]:6.2f} {parent:>12}"
            f" {rate[parent]:10,.0f} {tricks[parent]:6.2f} {slower:6.2f}x {per_trick:8.2f}x{mark}"
        )


if __name__ == "__main__":
    main()
