"""match: when the match ends."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from rulesdsl.expr import Expr
from rulesdsl.options import MatchEnd, MatchKind
from rulesdsl.units.acting import Acts, Effect, any_hand
from rulesdsl.units.base import RuleProblem, Section, Step, Unit

if TYPE_CHECKING:
    from rulesdsl.rules import Rules


def _problems(rules: Rules, players: int) -> Iterator[RuleProblem]:
    if rules.match_count_for(players) < 1:
        yield RuleProblem(
            ("match",),
            "expr-range",
            f"match {rules.match} gives {rules.match_count_for(players)} for {players} players",
            "a match needs a count of at least 1",
        )


def target_reached(points: list[int], hands: int, players: int, count: Expr) -> bool:
    """`target N`: a player has N points."""
    return max(points) >= count.eval(players)


def hands_played(points: list[int], hands: int, players: int, count: Expr) -> bool:
    """`hands N`: N hands have been played."""
    return hands >= count.eval(players)


def _plays(value: MatchEnd) -> dict[Step, Any]:
    ended = target_reached if value.kind == "target" else hands_played
    return {Step.MATCH_END: partial(ended, count=value.count)}


UNIT = Unit(
    "match",
    MatchKind(),
    "target 3",
    "when the match ends",
    Section.SCORING,
    frozenset({Step.MATCH_END}),
    problems=_problems,
    plays=_plays,
    acts=Acts("a hand is scored", (Effect.MATCH,), outcome=any_hand),
    place=150,
)
