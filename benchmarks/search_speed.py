"""How fast the search bots play: `pimc:50` at all four seats on the default profile, hands
per second on one core, in the compiled search kernel (`rulesdsl.native.search`: every
decision in compiled code) and on the Python path, beside the hand-written numba pimc of
the same rules (benchmarks/pimc_yardstick.py) and as a ratio to it (the targets are
>= 500 hands/s and a ratio >= 0.3), all in one run.

    .venv/bin/python benchmarks/search_speed.py [--hands 200] [--python-hands 10]
        [--yardstick-hands 1000] [--worlds 50]
"""

from __future__ import annotations

import argparse
import os
import time

import pimc_yardstick

from rulesdsl.bots import make_bot
from rulesdsl.engine import Hand, play_hand
from rulesdsl.engine.fast import int_deck
from rulesdsl.native import ENV
from rulesdsl.native import search as native_search
from rulesdsl.profile import load
from rulesdsl.search import rollout
from rulesdsl.seeds import derive, shuffle
from rulesdsl.stream import Stream

PROFILE = "equal-hands"
PLAYERS = 4


def compiled_hands(hands: int, worlds: int) -> float:
    """Hands per second of `pimc:worlds` at every seat in the search kernel, one call."""
    rules = load(PROFILE).rules
    bots = (f"pimc:{worlds}",) * PLAYERS
    kernel = native_search.search_kernel(rules, PLAYERS, bots)
    if kernel is None:
        raise SystemExit("the search kernel does not run here: is numba installed?")
    deals, seeds = [], []
    for game in range(hands):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(derive(1, "deal", game)))
        deals.append((deck, derive(1, "hand", game), game % PLAYERS))
        seeds.append(native_search.seeds_of(bots, deals[-1][1]))
    native_search.play_in(kernel, rules, bots, deals[:1], seeds[:1])  # warm
    start = time.perf_counter()
    native_search.play_in(kernel, rules, bots, deals, seeds)
    return hands / (time.perf_counter() - start)


def python_hands(hands: int, worlds: int) -> float:
    """Hands per second of `pimc:worlds` at every seat on the reference engine, with the
    Python sampler and the pure-Python playouts."""
    os.environ[ENV] = "0"
    rollout.playout_kernel.cache_clear()  # it read the setting before
    rules = load(PROFILE).rules
    bots = [make_bot(f"pimc:{worlds}", derive(1, "bot", seat)) for seat in range(PLAYERS)]
    start = time.perf_counter()
    for game in range(hands):
        play_hand(Hand.deal(rules, PLAYERS, game % PLAYERS, seed=game + 1), bots)
    os.environ[ENV] = "1"
    return hands / (time.perf_counter() - start)


def yardstick_hands(hands: int, worlds: int) -> float:
    """Hands per second of the hand-written numba pimc."""
    pimc_yardstick.play_hands(4, 1, 2, pimc_yardstick.SUIT_MASKS)  # compile
    start = time.perf_counter()
    pimc_yardstick.play_hands(hands, 7, worlds, pimc_yardstick.SUIT_MASKS)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--python-hands", type=int, default=10)
    parser.add_argument("--yardstick-hands", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=50)
    args = parser.parse_args()
    native = compiled_hands(args.hands, args.worlds)
    written = yardstick_hands(args.yardstick_hands, args.worlds)
    python = python_hands(args.python_hands, args.worlds)
    print(f"pimc:{args.worlds} at all four seats, {PROFILE}, one core")
    print(f"  compiled search kernel:  {native:8.1f} hands/s (target >= 500)")
    print(f"  Python path:             {python:8.1f} hands/s")
    print(f"  hand-written numba pimc: {written:8.1f} hands/s")
    print(f"  ratio to it: {native / written:.3f} (target >= 0.3)")


if __name__ == "__main__":
    main()
