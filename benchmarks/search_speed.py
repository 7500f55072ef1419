"""How fast the search bots play: `pimc:50` at all four seats on the default profile,
hands per second on one core, beside the hand-written numba pimc of the same rules
(benchmarks/pimc_yardstick.py) and as a ratio to it (the target is >= 500 hands/s and a
ratio >= 0.3). Playouts run on the native path when numba is installed.

    .venv/bin/python benchmarks/search_speed.py [--hands 20] [--worlds 50]
"""

from __future__ import annotations

import argparse
import os
import time

import pimc_yardstick

from rulesdsl.bots import make_bot
from rulesdsl.engine import Hand, play_hand
from rulesdsl.native import ENV
from rulesdsl.profile import load
from rulesdsl.search import rollout
from rulesdsl.seeds import derive

PROFILE = "equal-hands"
PLAYERS = 4


def pimc_hands(hands: int, worlds: int, native: bool) -> float:
    """Hands per second of `pimc:worlds` at every seat, the native playouts on or off."""
    os.environ[ENV] = "1" if native else "0"
    rollout.playout_kernel.cache_clear()  # it read the setting before
    rules = load(PROFILE).rules
    bots = [make_bot(f"pimc:{worlds}", derive(1, "bot", seat)) for seat in range(PLAYERS)]
    play_hand(Hand.deal(rules, PLAYERS, 0, seed=0), bots)  # compile or load the kernel
    start = time.perf_counter()
    for game in range(hands):
        play_hand(Hand.deal(rules, PLAYERS, game % PLAYERS, seed=game + 1), bots)
    return hands / (time.perf_counter() - start)


def yardstick_hands(hands: int, worlds: int) -> float:
    """Hands per second of the hand-written numba pimc."""
    pimc_yardstick.play_hands(4, 1, 2, pimc_yardstick.SUIT_MASKS)  # compile
    start = time.perf_counter()
    pimc_yardstick.play_hands(hands, 7, worlds, pimc_yardstick.SUIT_MASKS)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--yardstick-hands", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=50)
    args = parser.parse_args()
    native = pimc_hands(args.hands, args.worlds, native=True)
    python = pimc_hands(args.hands, args.worlds, native=False)
    written = yardstick_hands(args.yardstick_hands, args.worlds)
    print(f"pimc:{args.worlds} at all four seats, {PROFILE}, one core")
    print(f"  native playouts:      {native:8.1f} hands/s (target >= 500)")
    print(f"  pure-Python playouts: {python:8.1f} hands/s")
    print(f"  hand-written numba pimc: {written:,.0f} hands/s")
    print(f"  ratio to it: {native / written:.3f} (target >= 0.3)")


if __name__ == "__main__":
    main()
