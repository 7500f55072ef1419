"""What skill is worth under a profile, measured on the deals `simulate` plays for the same
seed: how many deals are decided before play (some seat can force a win with every card
known, `solver`), and how often one seat wins against three heuristic bots when it sees
everything, every hand but not the stock, only its own cards (pimc scored by the solver,
and pimc scored by playouts), or plays the heuristic itself. The seat studied turns with
the deals, as `simulate`'s skill seat does, so it sits everywhere equally often.

The luck index (`luck`) says how much the deal decides the result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.play import native
from rulesdsl.play.engine.fast import int_deck
from rulesdsl.play.kernel import build
from rulesdsl.play.kernel.deals import skill_seat
from rulesdsl.reason.estimate import Estimate
from rulesdsl.reason.executors import LOCAL, lasting, results
from rulesdsl.reason.ladder import FOOT, SOLVE_BUDGET, UNSOLVED, Ladder, Outcome, Rung, seeing
from rulesdsl.reason.luck import luck_index
from rulesdsl.reason.sim import deals_of

TASK = 25
"""Deals a task plays."""


def ladder(worlds: int, pimc: int) -> tuple[Rung, ...]:
    """The ladder, strongest first; the heuristic last, the others measured against it."""
    return (
        *seeing(worlds),
        Rung("pimc scored by playouts", f"pimc:{pimc}"),
        FOOT,
    )


@dataclass(frozen=True)
class SkillSpec:
    """What to measure: one profile at a table, how many deals, the seed, the ladder."""

    label: str
    rules: Rules
    players: int = 4
    deals: int = 400
    seed: int = 0
    worlds: int = 50
    pimc: int = 50
    budget: int = SOLVE_BUDGET

    @property
    def rungs(self) -> tuple[Rung, ...]:
        return ladder(self.worlds, self.pimc)


def play_task(spec: SkillSpec, units: range) -> list[Outcome]:
    """The outcomes of the deals numbered `units`."""
    n = spec.players
    rungs = Ladder(spec.rules, n, spec.rungs, spec.budget)
    deals = deals_of(spec.seed, int_deck(spec.rules), units)
    return [
        rungs.outcome(deck, hand_seed, unit % n, skill_seat(unit, n))
        for unit, (deck, hand_seed) in zip(units, deals, strict=True)
    ]


def _play_task_args(args: tuple[SkillSpec, range]) -> list[Outcome]:
    return play_task(*args)


def play(
    spec: SkillSpec,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    executor: str = LOCAL,
) -> list[Outcome]:
    """Every deal's row, in order, on `workers` processes (the same rows for any number)."""
    if workers > 1 and executor == LOCAL and native.available():
        with lasting():
            build.kernel()  # compiled or loaded once, here: forked workers inherit it
    tasks = [(spec, range(k, min(k + TASK, spec.deals))) for k in range(0, spec.deals, TASK)]
    rows: list[Outcome] = []
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


def figures(spec: SkillSpec, rows: Sequence[Outcome]) -> Skill:
    """The figures of `rows`."""
    n = len(rows)
    decided = [row.decided for row in rows]
    forced, unsolved = decided.count(1), decided.count(UNSOLVED)
    solved = n - unsolved
    found = Decided(
        forced / solved if solved else math.nan,
        Estimate.share(forced, n).low,
        Estimate.share(forced + unsolved, n).high,
        unsolved,
    )
    heuristic = [row.wins[-1] for row in rows]
    rungs = []
    for k, rung in enumerate(spec.rungs):
        won = [row.wins[k] for row in rows]
        share = Estimate.share(sum(won), n)
        rungs.append(
            RungFigures(rung, share, mean_of([w - h for w, h in zip(won, heuristic, strict=True)]))
        )
    clusters = Counter((row.wins[0], row.wins[-1]) for row in rows)
    return Skill(spec, n, found, tuple(rungs), luck_index(clusters, 1))


def mean_of(values: Sequence[float]) -> Estimate:
    """The mean of `values` with its 95% interval (normal approximation)."""
    return Estimate.of(len(values), sum(values), sum(v * v for v in values))


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _figures(name: str, estimate: Estimate) -> dict[str, float | None]:
    return {
        name: _number(estimate.mean),
        f"{name}_low": _number(estimate.low),
        f"{name}_high": _number(estimate.high),
    }
