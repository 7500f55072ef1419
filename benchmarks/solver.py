"""The open-game solver (`rulesdsl solve`) on every shipped profile at 4 players: deals
solved per second on one core, the share solved within the budget, and the time per deal.

    .venv/bin/python benchmarks/solver.py [--deals 300] [--budget 2000000] [--seed 1]

In one run, on the native path (numba; the kernel compiled or loaded once before any
timing): for each profile, `--deals` deals shuffled from `--seed`, the dealer turning, each
deal's four questions (can seat s force a win?) asked without lines of play, as `solve`
asks them. Printed per profile: deals per second, the share of deals whose four questions
were all answered within `--budget` positions each, the median and the 99th percentile of
the time per deal, the share of deals some seat can force a win of, and positions per
second. The target: at least 99% of equal-hands deals solved, the median at most 10 ms.

Then the ladder of `rulesdsl skill` on LADDER (the default profile and two manual
versions), `--ladder-deals` deals each on every core: the deals decided before play, the
win share against three heuristic bots of the seat that sees everything, every hand, its
own cards (pimc scored by the solver, and by playouts), and the heuristic's, the luck
index, and whether `solver:N` beats `pimc:50` with an interval clear of zero.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rulesdsl.read.profile import load, shipped_names
from rulesdsl.reason.executors import default_workers
from rulesdsl.reason.skill import SkillSpec, figures, mean_of, play
from rulesdsl.reason.solver import BUDGET, Solver
from rulesdsl.surfaces.cli.skill import lines

PLAYERS = 4
SOLVED_TARGET = 0.99
MEDIAN_TARGET = 0.010
LADDER = ("equal-hands", "bicycle", "no-trumps")


def measured(name: str, deals: int, budget: int, seed: int) -> tuple[list[float], int, int, int]:
    """The seconds of each deal, the deals solved, those with a forced winner, positions."""
    rules = load(name).rules
    solver = Solver(rules, PLAYERS)
    rng = random.Random(seed)
    times, solved, forced, positions = [], 0, 0, 0
    for deal in range(deals):
        order = list(rules.cards)
        rng.shuffle(order)
        start = time.perf_counter()
        found = solver.solve(order, deal % PLAYERS, deal, budget, lines=False)
        times.append(time.perf_counter() - start)
        solved += found.solved
        forced += found.forced_winner is not None
        positions += sum(answer.positions for answer in found.seats)
    return times, solved, forced, positions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder-deals", type=int, default=10_000)
    args = parser.parse_args()
    names = [n for n in shipped_names() if load(n).rules.players[0] <= PLAYERS]
    rules = load("equal-hands").rules
    Solver(rules, PLAYERS).solve(list(rules.cards), 0, 0, 10, lines=False)  # compiled here
    print(f"{'profile':<28}{'deals/s':>9}{'solved':>9}{'median':>10}{'p99':>10}{'forced':>8}")
    figures = {}
    for name in names:
        times, solved, forced, positions = measured(name, args.deals, args.budget, args.seed)
        median, share = statistics.median(times), solved / args.deals
        p99 = statistics.quantiles(times, n=100)[98]
        figures[name] = (median, share)
        print(
            f"{name:<28}{args.deals / sum(times):>9.0f}{share:>9.1%}{median * 1e3:>8.1f}ms"
            f"{p99 * 1e3:>8.0f}ms{forced / args.deals:>8.0%}"
            f"   {positions / sum(times) / 1e6:.2f}M positions/s"
        )
    median, share = figures["equal-hands"]
    print("\ntargets, equal-hands at 4 players")
    met = "met" if share >= SOLVED_TARGET else "not met"
    print(f"  solved within the budget: {share:.1%} (>= {SOLVED_TARGET:.0%}): {met}")
    met = "met" if median <= MEDIAN_TARGET else "not met"
    print(f"  median per deal, four seats: {median * 1e3:.1f} ms (<= 10 ms): {met}")
    for name in LADDER:
        ladder(name, args.ladder_deals, args.seed)


def ladder(name: str, deals: int, seed: int) -> None:
    """The skill ladder of `name`, and solver:N against pimc:50 on the same deals."""
    spec = SkillSpec(name, load(name).rules, deals=deals, seed=seed)
    start = time.perf_counter()
    rows = play(spec, default_workers())
    seconds = time.perf_counter() - start
    found = figures(spec, rows)
    print(f"\n{chr(10).join(lines(found))}\n  ({seconds:.0f} s on {default_workers()} cores)")
    solver, pimc = found.rungs[2], found.rungs[3]
    gap = mean_of([row.wins[2] - row.wins[3] for row in rows])
    clear = "clear" if gap.low > 0 else "not clear"
    print(
        f"  {solver.rung.bot} - {pimc.rung.bot}: {100 * gap.mean:+.1f} points "
        f"({100 * gap.low:+.1f}..{100 * gap.high:+.1f}): {clear}"
    )


if __name__ == "__main__":
    main()
