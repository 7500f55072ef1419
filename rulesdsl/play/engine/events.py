"""The event stream of a hand and a match, read by the trace writer and the terminal UI.

Every event carries `rule`: the name of the rule that decided it (a unit's name, or `core`
for the fixed order of a trick). `diverge` and rule coverage read it; the JSON trace keeps
its format and leaves it out, except for a lead and the end of a hand, whose rule is what
they tell.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.result import EndReason
from rulesdsl.model.units import CORE, RuleTag


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"
    rule: RuleTag = field(default=CORE, kw_only=True, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        data.update({f.name: _plain(getattr(self, f.name)) for f in fields(self)})
        data.pop("rule")
        return data


@dataclass(frozen=True)
class Deal(Event):
    kind: ClassVar[str] = "deal"
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: int


@dataclass(frozen=True)
class TrumpShown(Event):
    """The trump suit of the hand; `card` is the card that named it, if any."""

    kind: ClassVar[str] = "trump"
    suit: Suit | None
    card: Card | None
    source: str


@dataclass(frozen=True)
class Lead(Event):
    """`seat` leads trick `trick`: `opening_lead` decided it for the first trick of a hand,
    `next_lead` where the lead passes to a player other than the last trick's winner (as
    rule coverage counts it), `core` where the winner leads (section 2 of docs/rules.md,
    step 10); a rule the profile states, by its name, where it gave the first lead."""

    kind: ClassVar[str] = "lead"
    trick: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rule": self.rule}


@dataclass(frozen=True)
class Play(Event):
    kind: ClassVar[str] = "play"
    trick: int
    seat: int
    card: Card


@dataclass(frozen=True)
class TrickWon(Event):
    kind: ClassVar[str] = "trick_won"
    trick: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Reshuffle(Event):
    kind: ClassVar[str] = "reshuffle"
    trick: int
    cards: int


@dataclass(frozen=True)
class Draw(Event):
    kind: ClassVar[str] = "draw"
    trick: int
    seat: int
    cards: tuple[Card, ...]
    stock_left: int


@dataclass(frozen=True)
class Out(Event):
    """`seat` is out at trick `trick`: by `elimination` (an empty hand) or by a rule the
    profile states, by its name."""

    kind: ClassVar[str] = "out"
    trick: int
    seat: int


@dataclass(frozen=True)
class HandEnd(Event):
    """The hand ends after `tricks` tricks, won by `winner` (None for nobody), for
    `reason`; `rule` names the rule that ended it (a unit, `core`, or a rule the profile
    states, by its name)."""

    kind: ClassVar[str] = "hand_end"
    winner: int | None
    reason: EndReason
    tricks: int

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rule": self.rule}


@dataclass(frozen=True)
class Score(Event):
    kind: ClassVar[str] = "score"
    hand: int
    seat: int | None
    gained: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class MatchOver(Event):
    kind: ClassVar[str] = "match_end"
    winners: tuple[int, ...]
    points: tuple[int, ...]
    hands: int
