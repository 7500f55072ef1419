"""What a transposition table could save the open-game solver: the share of the positions
one question visits that it had visited before in the same question.

    .venv/bin/python benchmarks/solver_repeats.py [--deals 4] [--budget 60000]
        [--profiles equal-hands,seven-card-hands,lowest-follower-draws]

A table keyed by the whole position (every field of the state: a stated rule may read any
of them) answers only a position met before, so that share bounds what it saves, before
the cost of hashing each position. Counted on the kernel in CPython (the search is the
same code compiled), each position after each card the search plays, a question being one
seat's with a budget of `--budget` positions, `--deals` deals a profile at 4 players.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics

os.environ["RULESDSL_NATIVE"] = "0"

from rulesdsl.play.kernel import solve as kernel_solve
from rulesdsl.play.kernel.state import FIELDS
from rulesdsl.read.profile import load
from rulesdsl.reason.solver import Solver

COPIED = [f for f in FIELDS if f.copied]


def key(s: object) -> tuple:
    """The whole position: every field a copy of the state copies, its rows as used."""
    out = []
    for f in COPIED:
        value = getattr(s, f.name)
        if f.size and f.length:
            value = tuple(value[: getattr(s, f.length) * f.stride])
        elif f.size:
            value = tuple(value)
        out.append(value)
    return tuple(out)


class Counting:
    """The solver's kernel functions, counting the positions each question visits."""

    def __init__(self) -> None:
        self.visits = 0
        self.seen: set[tuple] = set()
        self.shares: list[float] = []
        self.play_now = kernel_solve.play_now
        self.solve = kernel_solve.solve

    def played(self, s: object, p: object, card: int) -> None:
        self.play_now(s, p, card)
        self.visits += 1
        self.seen.add(key(s))

    def question(self, *args: object) -> int:
        self.visits, self.seen = 0, set()
        value = self.solve(*args)
        if self.visits:
            self.shares.append(1 - len(self.seen) / self.visits)
        return value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--budget", type=int, default=60_000)
    parser.add_argument("--profiles", default="equal-hands,seven-card-hands,lowest-follower-draws")
    args = parser.parse_args()
    print(f"{'profile':<24}{'questions':>10}{'median':>9}{'largest':>9}   repeated positions")
    for name in args.profiles.split(","):
        rules = load(name).rules
        solver = Solver(rules, 4)
        counting = Counting()
        kernel_solve.play_now = counting.played
        solver.board.module.solve = counting.question
        rng = random.Random(1)
        for deal in range(args.deals):
            order = list(rules.cards)
            rng.shuffle(order)
            solver.solve(order, deal % 4, deal, args.budget, lines=False)
        kernel_solve.play_now = counting.play_now
        shares = counting.shares
        print(f"{name:<24}{len(shares):>10}{statistics.median(shares):>9.1%}{max(shares):>9.1%}")


if __name__ == "__main__":
    main()
