"""What a rule does to the counts of a hand: hand sizes, the stock, the set-aside cards and
who is out, as the count model (`rulesdsl.reason.analysis.counts`) reads it.

A unit states, for each of its values, its effect at each step it decides (`Unit.counts`).
A step whose rule states none is unknown to the count model, which then proves nothing
that depends on it; an end check whose rule states none may end any trick, with any
winner or none.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class DrawCount:
    """Step 4: each drawer takes `fixed` cards, or with `per_card` one per card in the
    trick."""

    fixed: int = 0
    per_card: bool = False

    def wanted(self, in_trick: int) -> int:
        return in_trick if self.per_card else self.fixed


class Drawers(StrEnum):
    """Step 4: who draws."""

    WINNER = "winner"  # the trick winner, if still active
    EVERYONE = "everyone"  # then every other active player, clockwise from the winner


class EmptyStock(StrEnum):
    """Step 4: what an empty stock does as a card is to be drawn."""

    STAYS_EMPTY = "stays_empty"  # nothing: the draw takes fewer cards
    RESHUFFLE = "reshuffle"  # the set-aside trick cards become the stock


class HandEnding(StrEnum):
    """How a rule ends a hand, at step 5 or at an end check."""

    LAST_DRAW = "last_draw"  # step 5: a draw took the last stock card; the drawer wins
    STOCK_EMPTY = "stock_empty"  # the stock is empty; any seat may win, one that is out too
    ANY = "any"  # at any trick, with any winner or none


class AllOutWinner(StrEnum):
    """Step 8: who wins when every remaining hand emptied in one trick."""

    TRICK_WINNER = "trick_winner"
    NOBODY = "nobody"


EarlyOut = bool
"""Step 3: whether empty hands are out before the draw (the trick winner too)."""


@dataclass(frozen=True)
class Points:
    """The hand winner's match points: `fixed`, or with `per_card` one per card they hold
    at the end."""

    fixed: int = 0
    per_card: bool = False
