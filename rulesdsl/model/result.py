"""What one hand comes to, the same named type from both engines."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from rulesdsl.model.cards import Suit


class EndReason(StrEnum):
    """Why a hand ended: the steps 5, 7, 8 and 9 of section 2 of docs/rules.md, the trick
    limit, or an end rule the profile states."""

    STOCK_EXHAUSTED = "stock_exhausted"
    LAST_PLAYER = "last_player"
    ALL_OUT = "all_out"
    MOST_TRICKS = "most_tricks"
    TRICK_LIMIT = "trick_limit"
    HOUSE_RULE = "house_rule"


class HandResult(NamedTuple):
    """A finished hand: who won (None for nobody) and why, after how many tricks; who went
    out after which trick (trick, seat); the stock left; the trump suit; each trick's
    winner; the winner's cards left; the cards played; last-card wins survived; and the
    rules that fired (rule coverage, by rule name)."""

    winner: int | None
    reason: EndReason
    tricks: int
    eliminated: tuple[tuple[int, int], ...]
    stock_left: int
    trump: Suit | None
    trick_winners: tuple[int, ...]
    winner_cards: int
    plays: int = 0
    saves: int = 0
    fired: frozenset[str] = frozenset()
    points: int | None = None  # the winner's match points, by the rule that decides them

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": str(self.reason),
            "tricks": self.tricks,
            "eliminated": [list(e) for e in self.eliminated],
            "stock_left": self.stock_left,
            "trump": self.trump.letter if self.trump is not None else None,
            "trick_winners": list(self.trick_winners),
        }

    def __str__(self) -> str:
        """e.g. `seat 2 wins: last player after 7 tricks`."""
        who = "no winner" if self.winner is None else f"seat {self.winner} wins"
        tricks = f"{self.tricks} trick" + ("" if self.tricks == 1 else "s")
        return f"{who}: {self.reason.replace('_', ' ')} after {tricks}"
