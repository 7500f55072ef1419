"""exhaustion: what happens as the stock runs out."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import TYPE_CHECKING

from rulesdsl.options import enum_choice
from rulesdsl.units.base import RuleProblem, Section, Step, Unit
from rulesdsl.units.draw import DrawWord
from rulesdsl.units.trump import turned_up

if TYPE_CHECKING:
    from rulesdsl.rules import Rules


class Exhaustion(StrEnum):
    LAST_DRAW_WINS = "last_draw_wins"
    PLAY_OUT = "play_out"
    RESHUFFLE = "reshuffle"
    MOST_TRICKS = "most_tricks"


def _problems(rules: Rules, players: int) -> Iterator[RuleProblem]:
    stock = len(rules.cards) - players * rules.hand_size_for(players) - turned_up(rules)
    if stock == 0 and rules.exhaustion is Exhaustion.LAST_DRAW_WINS and rules.draw != 0:
        yield RuleProblem(
            ("hand_size", "players", "deck", "exhaustion"),
            "empty-stock",
            f"with {players} players the deal leaves no stock, and exhaustion "
            "last_draw_wins has no last card to draw",
            "use exhaustion play_out, or a smaller hand_size",
        )


def _warnings(rules: Rules) -> Iterator[RuleProblem]:
    draws_a_trick = rules.draw is DrawWord.PER_CARD_IN_TRICK or int(rules.draw) >= 2
    if rules.exhaustion is Exhaustion.RESHUFFLE and draws_a_trick:
        yield RuleProblem(
            ("draw", "exhaustion"),
            "endless-hand",
            f"draw {rules.draw} with exhaustion reshuffle: a hand might never end "
            "(the winner can draw back every card played)",
            "use draw 1, or another exhaustion rule",
            "warning",
        )


UNIT = Unit(
    "exhaustion",
    enum_choice(Exhaustion),
    "last_draw_wins",
    "what happens as the stock runs out",
    Section.ENDING,
    frozenset({Step.DRAW_COUNT, Step.END_CHECK}),
    fires="it reshuffles, plays on without drawing, or ends the hand",
    problems=_problems,
    warnings=_warnings,
)
