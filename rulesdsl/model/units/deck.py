"""deck: the cards in play and their rank order, highest first."""

from __future__ import annotations

from collections.abc import Iterator

from rulesdsl.model.cards import is_usual_order, rank_text
from rulesdsl.model.kinds import DeckRanks
from rulesdsl.model.units.acting import Acts, Effect, any_hand
from rulesdsl.model.units.base import RuleProblem, RulesView, Section, Step, Unit


def _warnings(rules: RulesView) -> Iterator[RuleProblem]:
    if len(rules.deck) > 2 and is_usual_order(rules.deck[::-1]):
        low, high = rank_text(rules.deck[-1]), rank_text(rules.deck[0])
        yield RuleProblem(
            ("deck",),
            "ranks-low-first",
            f"deck lists its ranks lowest first, so here {high} is the highest rank and "
            f"{low} the lowest",
            f"ranks are listed highest first: write `{UNIT.text(rules.deck[::-1])}` "
            "for the usual order",
            "warning",
        )


UNIT = Unit(
    "deck",
    DeckRanks(),
    "standard",
    "cards in play and their order: the 52-card deck, or the ranks of each suit, highest first",
    Section.SETUP,
    frozenset({Step.DECK}),
    warnings=_warnings,
    acts=Acts("the deck is dealt", (Effect.DEAL, Effect.PLAY), outcome=any_hand),
    place=20,
)
