"""hand_size: the cards each player is dealt."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulesdsl.options import IntExpr
from rulesdsl.units.acting import Acts, Effect, any_hand
from rulesdsl.units.base import RuleProblem, Section, Step, Unit
from rulesdsl.units.trump import turned_up

if TYPE_CHECKING:
    from rulesdsl.rules import Rules


def _problems(rules: Rules, players: int) -> Iterator[RuleProblem]:
    size = rules.hand_size_for(players)
    if size < 1:
        yield RuleProblem(
            ("hand_size", "players"),
            "expr-range",
            f"hand_size {rules.hand_size} gives {size} cards for {players} players",
            "every player needs at least one card",
        )
        return
    turnup = turned_up(rules)
    if players * size + turnup > len(rules.cards):
        extra = " + 1 trump card turned up" if turnup else ""
        yield RuleProblem(
            ("hand_size", "players", "deck", "trump"),
            "deal-too-large",
            f"{players} players x {size} cards{extra} = {players * size + turnup} cards, "
            f"but the deck holds {len(rules.cards)}",
            f"lower hand_size or allow at most {_most_players(rules)} players",
        )


def _most_players(rules: Rules) -> int:
    fits = [
        n
        for n in range(2, rules.players[1] + 1)
        if n * rules.hand_size_for(n) + turned_up(rules) <= len(rules.cards)
    ]
    return max(fits, default=2)


UNIT = Unit(
    "hand_size",
    IntExpr(),
    "players",
    "cards each player is dealt",
    Section.SETUP,
    frozenset({Step.DEAL}),
    problems=_problems,
    acts=Acts("the hands are dealt", (Effect.DEAL, Effect.PLAY), outcome=any_hand),
    place=30,
)
