"""How fast the search bots play: `pimc:50` at all four seats on the default profile, hands
per second on one core, on the compiled kernel (`rulesdsl.play.kernel.search`: every
decision in compiled code, the one kernel of every profile) and on the Python path (the
same search in CPython), beside the hand-written numba pimc of the same rules
(benchmarks/pimc_yardstick.py) and as a ratio to it (the targets are >= 1000 hands/s and a
ratio >= 0.3), all in one run. The kernel and the hand-written pimc
are timed as `native_speed.py` times its works: the best of 3 rounds, each round timing
both once; the Python path, slow, once.

    .venv/bin/python benchmarks/search_speed.py [--hands 200] [--python-hands 10]
        [--yardstick-hands 1000] [--worlds 50]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import pimc_yardstick
from timing import best_of

from rulesdsl.model.seeds import derive
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.compiled import chunks, compiled_profile
from rulesdsl.play.native import ENV
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import load

PROFILE = "equal-hands"
PLAYERS = 4
SEARCH_HANDS = 200
YARDSTICK_HANDS = 1000


def compiled_work(hands: int, worlds: int) -> Callable[[], object]:
    """`hands` hands of `pimc:worlds` at every seat on the compiled kernel, in one call
    (`CompiledProfile.chunks`); the kernel compiled (or read from the cache) first."""
    os.environ[ENV] = "1"  # the native path, whatever the works timed before chose
    rules = load(PROFILE).rules
    profile = compiled_profile(rules, PLAYERS, (f"pimc:{worlds}",) * PLAYERS)
    played = chunks([derive(1, "deal")], [derive(1, "bots")], [0], [hands])
    return lambda: profile.chunks(played)


def python_hands(hands: int, worlds: int) -> float:
    """Hands per second of `pimc:worlds` at every seat on the reference engine, each
    decision by the kernel's search in CPython."""
    rules = load(PROFILE).rules
    bots = [make_bot(f"pimc:{worlds}", derive(1, "bot", seat)) for seat in range(PLAYERS)]
    start = time.perf_counter()
    for game in range(hands):
        play_hand(Hand.deal(rules, PLAYERS, game % PLAYERS, seed=game + 1), bots)
    return hands / (time.perf_counter() - start)


def yardstick_work(hands: int, worlds: int) -> Callable[[], object]:
    """`hands` hands of the hand-written numba pimc, compiled first."""
    pimc_yardstick.play_hands(4, 1, 2, pimc_yardstick.SUIT_MASKS)
    return lambda: pimc_yardstick.play_hands(hands, 7, worlds, pimc_yardstick.SUIT_MASKS)


def report(hands: int, yardstick_hands: int, worlds: int) -> float:
    """Print the kernel's and the hand-written pimc's hands per second (the best of 3
    rounds) and their ratio; the kernel's."""
    works = {
        "kernel": compiled_work(hands, worlds),
        "yardstick": yardstick_work(yardstick_hands, worlds),
    }
    seconds = best_of(works)
    native, written = hands / seconds["kernel"], yardstick_hands / seconds["yardstick"]
    print(f"\npimc:{worlds} at all four seats, {PROFILE}, one core (best of 3 rounds)")
    print(f"  compiled kernel:         {native:8.1f} hands/s (target >= 1000)")
    print(f"  hand-written numba pimc: {written:8.1f} hands/s")
    print(f"  ratio to it: {native / written:.3f} (target >= 0.3)")
    return native


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=SEARCH_HANDS)
    parser.add_argument("--python-hands", type=int, default=10)
    parser.add_argument("--yardstick-hands", type=int, default=YARDSTICK_HANDS)
    parser.add_argument("--worlds", type=int, default=50)
    args = parser.parse_args()
    native = report(args.hands, args.yardstick_hands, args.worlds)
    python = python_hands(args.python_hands, args.worlds)
    print(f"  Python path:             {python:8.1f} hands/s (the kernel: {native / python:.0f}x)")


if __name__ == "__main__":
    main()
