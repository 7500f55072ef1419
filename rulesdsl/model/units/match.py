"""match: when the match ends."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from rulesdsl.model.expr import Expr, gives
from rulesdsl.model.kinds import MatchEnd, MatchKind
from rulesdsl.model.units.acting import Acts, Effect, any_hand
from rulesdsl.model.units.base import RuleProblem, RulesView, Section, Step, Unit

# A match that has not ended after this many hands ends on the points so far: `hands N`
# is at most this.
HAND_LIMIT = 1000
# The highest target: a thousand points a hand, hand after hand, until HAND_LIMIT.
MOST_POINTS = 1_000 * HAND_LIMIT
# What each kind of match end counts, the most it may count, and what it is called.
COUNTS = {
    "hands": ("hands", HAND_LIMIT, "a match is"),
    "target": ("points", MOST_POINTS, "a target is"),
}


def _problems(rules: RulesView, players: int) -> Iterator[RuleProblem]:
    end = rules.match
    noun, most, called = COUNTS[end.kind]
    count = rules.match_count_for(players)
    if not 1 <= count <= most:
        said = gives(f"match {end.kind}", end.count, players, noun)
        yield RuleProblem(
            ("match",),
            "expr-range",
            f"{said}; {called} 1 to {most:,} {noun}",
            _range_hint(end.kind, count),
        )


def _range_hint(kind: str, count: int) -> str:
    if count < 1:
        return "a match needs a count of at least 1"
    if kind == "hands":
        return f"the engine ends every match after {HAND_LIMIT:,} hands"
    return f"lower the target: the engine ends every match after {HAND_LIMIT:,} hands"


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
