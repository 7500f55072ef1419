"""match: when the match ends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulesdsl.options import MatchKind
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


UNIT = Unit(
    "match",
    MatchKind(),
    "target 3",
    "when the match ends",
    Section.SCORING,
    frozenset({Step.MATCH_END}),
    problems=_problems,
    place=150,
)
