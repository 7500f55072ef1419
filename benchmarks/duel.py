"""Bots against three heuristic bots on the same deals: each bot's win share at the seat
`skill` studies, and the first bot's paired gain over each of the others.

    .venv/bin/python benchmarks/duel.py [--profile equal-hands] [--deals 20000]
        [--bots solver:50,pimc:50] [--seed 0]

Every bot plays every deal `simulate --seed` deals, at the same seat, the three others
heuristic bots, on the native path where numba is installed, on every core. This is how
`solver:N`'s design was chosen (docs/skill.md): run it before and after a change to a bot.
"""

from __future__ import annotations

import argparse
import time

from rulesdsl.play.engine.fast import int_deck
from rulesdsl.play.kernel import build
from rulesdsl.play.kernel.deals import skill_seat
from rulesdsl.play.players.search.table import NO_RANDOM, search_hand
from rulesdsl.read.profile import load
from rulesdsl.reason.estimate import Estimate
from rulesdsl.reason.executors import default_workers, results
from rulesdsl.reason.ladder import against
from rulesdsl.reason.sim import deals_of
from rulesdsl.reason.skill import mean_of

PLAYERS = 4
TASK = 100
"""Deals a task plays."""


def wins(task: tuple[str, tuple[str, ...], int, range]) -> list[tuple[int, ...]]:
    """For each deal of `units`, whether each bot won at the deal's skill seat."""
    profile, bots, seed, units = task
    rules = load(profile).rules
    hands = [
        [search_hand(rules, PLAYERS, against(bot, seat, PLAYERS)) for seat in range(PLAYERS)]
        for bot in bots
    ]
    found = []
    for unit, (deck, hand_seed) in zip(units, deals_of(seed, int_deck(rules), units), strict=True):
        dealer, seat = unit % PLAYERS, skill_seat(unit, PLAYERS)
        found.append(
            tuple(int(h[seat](deck, hand_seed, NO_RANDOM, dealer).winner == seat) for h in hands)
        )
    return found


def points(estimate: Estimate) -> str:
    return f"{100 * estimate.mean:+.2f} ({100 * estimate.low:+.2f}..{100 * estimate.high:+.2f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="equal-hands")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--bots", default="solver:50,pimc:50")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bots = tuple(b.strip() for b in args.bots.split(","))
    build.kernel()  # compiled or loaded once, here: forked workers inherit it
    tasks = [
        (args.profile, bots, args.seed, range(k, min(k + TASK, args.deals)))
        for k in range(0, args.deals, TASK)
    ]
    start = time.perf_counter()
    rows = [row for part in results(wins, tasks, default_workers()) for row in part]
    seconds = time.perf_counter() - start
    print(f"{args.profile}, {len(rows):,} deals, seed {args.seed}, {seconds:.0f} s")
    for k, bot in enumerate(bots):
        share = Estimate.share(sum(row[k] for row in rows), len(rows))
        print(f"  {bot:<16} {share.mean:.1%} ({share.low:.1%}..{share.high:.1%})")
    for k in range(1, len(bots)):
        gain = mean_of([row[0] - row[k] for row in rows])
        print(f"  {bots[0]} - {bots[k]}: {points(gain)} points, paired")


if __name__ == "__main__":
    main()
