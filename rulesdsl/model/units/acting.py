"""When a rule acts, as the rule states it itself (`Unit.acts`) for the analysis to read.

A rule *acts* in a hand when the hand reaches a situation in which two values of its option
would do different things. A unit states that situation in words, how the count model
proves it never arises (`never`, given the analysis's `Proofs` of one player count), how a
hand shows it (`move`: a move about to be made; `trick`: a trick just finished; `outcome`:
the finished hand), how near a hand comes to it where it is rare (`aim`), and what its
acting can change. The analysis makes every object these functions read, so a unit needs
nothing of the analysis but the names here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Fact(StrEnum):
    """What can happen in one trick, as the count model sees it."""

    STOCK_EMPTY = "stock_empty"  # the stock is empty at some moment of the draw or after
    ALL_OUT = "all_out"  # step 8: no active player remains
    LAST_CARD_WIN = "last_card_win"  # the winner played their last card and a card was there
    WINNER_DRAWS = "winner_draws"  # a player is to draw (the winner, if active) and a card is there
    FOLLOWER_CHOOSES = "follower_chooses"  # a player following holds two cards or more
    ENDS = "ends"  # the hand ends after this trick
    OTHER_CAN_DRAW = "other_can_draw"  # after the winner's draw a card is there for another
    GOES_ON = "goes_on"  # the hand goes on after this trick


class Effect(StrEnum):
    """What a rule that acts can change."""

    DEAL = "deal"
    PLAY = "play"
    HAND_END = "hand_end"
    HAND_WINNER = "hand_winner"
    MATCH = "match"


def no_proof(proofs: Any) -> str | None:
    """No count can rule the situation out."""
    return None


@dataclass(frozen=True)
class Acts:
    """A rule's acting: the situation, the proof it never arises, and how a hand shows it."""

    situation: str
    effects: tuple[Effect, ...]
    never: Callable[[Any], str | None] = no_proof
    move: Callable[[Any], bool] | None = None
    trick: Callable[[Any], bool] | None = None
    outcome: Callable[[Any], bool] | None = None
    aim: Callable[[Any], int] | None = None


def any_hand(hand: Any) -> bool:
    """Every hand shows it (a rule of the deal, or of every hand's score)."""
    return True


def no_choice(proofs: Any) -> str | None:
    """A filter acts only where its player holds two cards or more to choose from."""
    if not proofs.has(Fact.FOLLOWER_CHOOSES):
        return "no player ever holds more than one card when playing to a trick"
    return None
