"""lead_from: a house rule as a Python unit, the leader leads from a longest suit.

`lead_from longest_suit` keeps, of the cards the leader may lead, those of a suit they hold
the most cards of (among the suits they may lead). The profile language cannot state it:
its conditions speak of one card, the trick, the led suit and trump, but "longest" needs the
player's cards grouped by suit and the largest group found, a loop over the suits.

A step function is a plain function over the ints of `State` with one `return`, at its end,
so that the fast path can inline it; see the README of rulesdsl, "Rules in Python".
"""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.base import Section, Step, Unit


class LeadFrom(StrEnum):
    ANY = "any"
    LONGEST_SUIT = "longest_suit"


def longest_suit(s: State, seat: int, allowed: list[int]) -> list[int]:
    """The allowed cards of a suit the leader holds most of, among the allowed suits."""
    hand = s.hands[seat]
    counts = [sum(1 for c in hand if c & 3 == suit) for suit in range(4)]
    most = max(counts[c & 3] for c in allowed)
    return [c for c in allowed if counts[c & 3] == most]


def _plays(value: LeadFrom) -> dict[Step, Any]:
    return {Step.LEAD_FILTER: longest_suit} if value is LeadFrom.LONGEST_SUIT else {}


UNIT = Unit(
    "lead_from",
    enum_choice(LeadFrom),
    "any",
    "the suit a leader leads from",
    Section.PLAY,
    frozenset({Step.LEAD_FILTER}),
    fires="it refuses a card",
    refusals={
        "en": {"longest_suit": "lead from your longest suit"},
        "pt": {"longest_suit": "sai do teu naipe mais comprido"},
        "uk": {"longest_suit": "заходьте з найдовшої масті"},
    },
    plays=_plays,
    phrases={
        "en": {
            "any": "The leader may lead any card allowed.",
            "longest_suit": "The leader must lead a card of the suit they hold the most cards of.",
        },
        "pt": {
            "any": "Quem sai pode jogar qualquer carta permitida.",
            "longest_suit": "Quem sai tem de jogar uma carta do naipe de que tem mais cartas.",
        },
        "uk": {
            "any": "Той, хто ходить першим, може зайти будь-якою дозволеною картою.",
            "longest_suit": (
                "Той, хто ходить першим, мусить зайти з масті, якої має найбільше карт."
            ),
        },
    },
)
