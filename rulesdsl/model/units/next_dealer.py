"""next_dealer: who deals the next hand."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.units.acting import Acts, Effect
from rulesdsl.model.units.base import Section, Step, Unit


class NextDealer(StrEnum):
    LEFT = "left"
    HAND_WINNER = "hand_winner"


def to_the_left(dealer: int, winner: int, players: int) -> int:
    return (dealer + 1) % players


def hand_winner_deals(dealer: int, winner: int, players: int) -> int:
    """The hand's winner deals next; after a hand without a winner, the player to the left."""
    return winner if winner >= 0 else (dealer + 1) % players


def winner_not_left(hand: Any) -> bool:
    """As the first hand of a match: won by a player other than the dealer's left, and the
    match is not over after it."""
    outcome, players = hand.outcome, hand.players
    if outcome.winner is None or outcome.winner == (hand.dealer + 1) % players:
        return False
    points = [0] * players
    points[outcome.winner] = outcome.points
    return not hand.plan.match_end.act(points, 1, players)


def _never(proofs: Any) -> str | None:
    if proofs.match_over_after_first_hand():
        return "every match is over after its first hand"
    if not proofs.model.winner_cards:
        return "no hand ever has a winner, so the deal always passes to the left"
    return None


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
    acts=Acts(
        "a hand is won by a player other than the dealer's left, and the match goes on",
        (Effect.MATCH,),
        never=_never,
        outcome=winner_not_left,
    ),
    place=170,
)
