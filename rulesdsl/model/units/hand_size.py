"""hand_size: the cards each player is dealt."""

from __future__ import annotations

from collections.abc import Iterator

from rulesdsl.model.expr import gives
from rulesdsl.model.kinds import IntExpr
from rulesdsl.model.units.acting import Acts, Effect, any_hand
from rulesdsl.model.units.base import RuleProblem, RulesView, Section, Step, Unit
from rulesdsl.model.units.trump import turned_up


def _problems(rules: RulesView, players: int) -> Iterator[RuleProblem]:
    size = rules.hand_size_for(players)
    most = len(rules.cards)
    if not 1 <= size <= most:
        said = gives("hand_size", rules.hand_size, players, "cards")
        yield RuleProblem(
            ("hand_size", "players"),
            "expr-range",
            f"{said}; a hand holds 1 to {most} cards (the deck in play)",
            "every player needs at least one card"
            if size < 1
            else f"lower hand_size: the deck holds {most} cards in all",
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


def _most_players(rules: RulesView) -> int:
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
