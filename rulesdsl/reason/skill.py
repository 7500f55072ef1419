"""What skill is worth under a profile, measured on the deals `simulate` plays for the same
seed: how many deals are decided before play (some seat can force a win with every card
known, `solver`), and how often one seat wins against three heuristic bots when it sees
everything, every hand but not the stock, only its own cards (pimc scored by the solver,
and pimc scored by playouts), or plays the heuristic itself. The seat studied turns with
the deals, as `simulate`'s skill seat does, so it sits everywhere equally often.

The luck index says how much the deal decides the result: of the wins the heuristic seat
leaves to the others, the share that the seat that sees everything still cannot take,
1 - (W_all - W_heuristic) / (1 - W_heuristic). It is 1 where seeing every card and the
stock's order gains nothing, 0 where that seat wins every hand; normalised by what was
left to gain and measured with the same bots on the same deals, it reads alike across
versions whatever their number of seats or how often their hands have a winner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.fast import int_deck
from rulesdsl.play.players.search.table import NO_RANDOM
from rulesdsl.reason.estimate import Z95, Estimate
from rulesdsl.reason.executors import LOCAL, results
from rulesdsl.reason.sim import CHUNK, _Decks, hand_player
from rulesdsl.reason.solver import Solver

SOLVE_BUDGET = 200_000
"""The most positions one seat's question of the deal visits; past it the deal is unsolved."""
TASK = 25
"""Deals a task plays."""


@dataclass(frozen=True)
class Rung:
    """A step of the ladder: what the seat knows and how it plays, and its bot."""

    name: str
    bot: str


def ladder(worlds: int, pimc: int) -> tuple[Rung, ...]:
    """The ladder, strongest first; the heuristic last, the others measured against it."""
    return (
        Rung("sees everything", f"sees-all:{worlds}"),
        Rung("sees every hand, not the stock", f"sees-hands:{worlds}"),
        Rung("pimc scored by the solver", f"solver:{worlds}"),
        Rung("pimc scored by playouts", f"pimc:{pimc}"),
        Rung("heuristic", "heuristic"),
    )


@dataclass(frozen=True)
class SkillSpec:
    """What to measure: one profile at a table, how many deals, the seed, the ladder."""

    label: str
    rules: Rules
    players: int = 4
    deals: int = 400
    seed: int = 0
    worlds: int = 10
    pimc: int = 50
    budget: int = SOLVE_BUDGET

    @property
    def rungs(self) -> tuple[Rung, ...]:
        return ladder(self.worlds, self.pimc)


Row = tuple[int, tuple[int, ...]]
"""One deal: 1 where some seat can force a win, 0 where none can, -1 unsolved; and for
each rung whether its seat won (1 or 0)."""


def deals_of(seed: int, cards: tuple[int, ...], units: range) -> Iterator[tuple[list[int], int]]:
    """The deck and hand seed of each deal of `units`, as `simulate` deals them."""
    decks = None
    for unit in units:
        if decks is None or unit % CHUNK == 0:
            start = unit - unit % CHUNK
            decks = _Decks(seed, start, [cards])
            for _ in range(start, unit):
                decks.next_deal()
        yield decks.next_deal()[0]


def play_task(spec: SkillSpec, units: range) -> list[Row]:
    """The rows of the deals numbered `units`."""
    n, rules = spec.players, spec.rules
    solver = Solver(rules, n)
    seated = [
        [hand_player(rules, n, _against(rung.bot, seat, n), spec.deals) for seat in range(n)]
        for rung in spec.rungs
    ]
    rows = []
    for unit, (deck, hand_seed) in zip(units, deals_of(spec.seed, int_deck(rules), units)):
        dealer = unit % n
        seat = (dealer + unit // n) % n
        solution = solver.solve_dealt(deck, dealer, hand_seed, spec.budget, lines=False)
        decided = -1 if not solution.solved else int(solution.forced_winner is not None)
        wins = tuple(
            int(play[seat](deck, hand_seed, NO_RANDOM, dealer).winner == seat) for play in seated
        )
        rows.append((decided, wins))
    return rows


def _against(bot: str, seat: int, players: int) -> tuple[str, ...]:
    return tuple(bot if s == seat else "heuristic" for s in range(players))


def _play_task_args(args: tuple[SkillSpec, range]) -> list[Row]:
    return play_task(*args)


def play(
    spec: SkillSpec,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    executor: str = LOCAL,
) -> list[Row]:
    """Every deal's row, in order, on `workers` processes (the same rows for any number)."""
    tasks = [(spec, range(k, min(k + TASK, spec.deals))) for k in range(0, spec.deals, TASK)]
    rows: list[Row] = []
    for part in results(_play_task_args, tasks, workers, executor, None, None):
        rows.extend(part)
        if progress is not None:
            progress(len(rows))
    return rows


@dataclass(frozen=True)
class RungFigures:
    """A rung's win share against three heuristic bots, and its gain over the heuristic
    seat on the same deals (paired)."""

    rung: Rung
    share: Estimate
    gain: Estimate

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.rung.name,
            "bot": self.rung.bot,
            **_figures("win_share", self.share),
            **_figures("gain", self.gain),
        }


@dataclass(frozen=True)
class Decided:
    """The share of deals some seat can force a win of: `low` counts the unsolved deals as
    undecided, `high` as decided (each end Wilson's), `share` is of the solved deals."""

    share: float
    low: float
    high: float
    unsolved: int

    def to_dict(self) -> dict[str, Any]:
        return {"share": _number(self.share), "low": self.low, "high": self.high,
                "unsolved": self.unsolved}  # fmt: skip


@dataclass(frozen=True)
class Skill:
    """The figures of one profile."""

    spec: SkillSpec
    deals: int
    decided: Decided
    rungs: tuple[RungFigures, ...]
    luck: Estimate

    def to_dict(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "profile": spec.label,
            "players": spec.players,
            "deals": self.deals,
            "seed": spec.seed,
            "decided_before_play": self.decided.to_dict(),
            "ladder": [rung.to_dict() for rung in self.rungs],
            "luck_index": _figures("estimate", self.luck),
        }


def figures(spec: SkillSpec, rows: Sequence[Row]) -> Skill:
    """The figures of `rows`."""
    n = len(rows)
    decided = [d for d, _ in rows]
    forced, unsolved = decided.count(1), decided.count(-1)
    solved = n - unsolved
    found = Decided(
        forced / solved if solved else math.nan,
        Estimate.share(forced, n).low,
        Estimate.share(forced + unsolved, n).high,
        unsolved,
    )
    heuristic = [wins[-1] for _, wins in rows]
    rungs = []
    for k, rung in enumerate(spec.rungs):
        won = [wins[k] for _, wins in rows]
        share = Estimate.share(sum(won), n)
        rungs.append(RungFigures(rung, share, mean_of([w - h for w, h in zip(won, heuristic)])))
    top = [wins[0] for _, wins in rows]
    return Skill(spec, n, found, tuple(rungs), luck_index(top, heuristic))


def mean_of(values: Sequence[float]) -> Estimate:
    """The mean of `values` with its 95% interval (normal approximation)."""
    return Estimate.of(len(values), sum(values), sum(v * v for v in values))


def luck_index(top: Sequence[int], heuristic: Sequence[int]) -> Estimate:
    """1 - mean(top - heuristic) / mean(1 - heuristic), the seat that sees everything's
    wins `top` and the heuristic seat's on the same deals, with the 95% interval of a ratio
    of means (the delta method)."""
    n = len(top)
    gains = [t - h for t, h in zip(top, heuristic)]
    room = [1 - h for h in heuristic]
    if n < 2 or sum(room) == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    ratio = sum(gains) / sum(room)
    residuals = [g - ratio * r for g, r in zip(gains, room)]
    mean = sum(residuals) / n
    variance = sum((e - mean) ** 2 for e in residuals) / (n - 1)
    half = Z95 * math.sqrt(variance / n) / (sum(room) / n)
    return Estimate(1 - ratio, 1 - ratio - half, 1 - ratio + half, n)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _figures(name: str, estimate: Estimate) -> dict[str, float | None]:
    return {
        name: _number(estimate.mean),
        f"{name}_low": _number(estimate.low),
        f"{name}_high": _number(estimate.high),
    }
