"""next_dealer: who deals the next hand."""

from enum import StrEnum
from typing import Any

from rulesdsl.options import enum_choice
from rulesdsl.units.base import Section, Step, Unit


class NextDealer(StrEnum):
    LEFT = "left"
    HAND_WINNER = "hand_winner"


def to_the_left(dealer: int, winner: int, players: int) -> int:
    return (dealer + 1) % players


def hand_winner_deals(dealer: int, winner: int, players: int) -> int:
    """The hand's winner deals next; after a hand without a winner, the player to the left."""
    return winner if winner >= 0 else (dealer + 1) % players


def _plays(value: NextDealer) -> dict[Step, Any]:
    chosen = hand_winner_deals if value is NextDealer.HAND_WINNER else to_the_left
    return {Step.NEXT_DEALER: chosen}


UNIT = Unit(
    "next_dealer",
    enum_choice(NextDealer),
    "left",
    "who deals the next hand",
    Section.SCORING,
    frozenset({Step.NEXT_DEALER}),
    plays=_plays,
    place=170,
)
