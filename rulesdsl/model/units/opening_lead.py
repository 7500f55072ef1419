"""opening_lead: the constraint on the first lead of each hand."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect
from rulesdsl.model.units.base import RuleProblem, RulesView, Section, Step, Unit
from rulesdsl.model.units.trump import Trump, no_trump_suit


class OpeningLead(StrEnum):
    ANY = "any"
    TRUMP_IF_ABLE = "trump_if_able"


def never_applies(name: str, rules: RulesView) -> Iterator[RuleProblem]:
    """A rule asking for a trump under a profile without one."""
    if rules.trump is Trump.NONE and getattr(rules, name) == "trump_if_able":
        yield RuleProblem(
            (name,),
            "never-applies",
            f"{name} trump_if_able never applies: there is no trump suit",
            f"drop `{name}` or choose a trump rule",
            "warning",
        )


def trump_on_opening(s: State, seat: int, allowed: list[int]) -> list[int]:
    """The first lead of the hand is a trump, if able."""
    trump = s.trump
    return [c for c in allowed if c & 3 == trump] if s.opening else allowed


def opening_choice(m: Any) -> bool:
    """The first leader holds a trump and a card that is not."""
    hand = m.hand
    if hand.trick or not hand.opening or hand.trump is None:
        return False
    return {c.suit == hand.trump for c in hand.hands[m.seat]} == {True, False}


def _never(proofs: Any) -> str | None:
    size = proofs.model.setup.hand_size
    one = f"the first leader holds {size} card, so has no choice" if size < 2 else None
    return no_trump_suit(proofs) or one


def _plays(value: OpeningLead) -> dict[Step, Any]:
    return {Step.LEAD_FILTER: trump_on_opening} if value is OpeningLead.TRUMP_IF_ABLE else {}


UNIT = Unit(
    "opening_lead",
    enum_choice(OpeningLead),
    "any",
    "constraint on the first lead of each hand",
    Section.PLAY,
    frozenset({Step.LEAD_FILTER}),
    fires="it refuses a card",
    warnings=lambda rules: never_applies("opening_lead", rules),
    plays=_plays,
    acts=Acts(
        "the first leader holds a trump and a card that is not",
        (Effect.PLAY,),
        never=_never,
        move=opening_choice,
    ),
    place=50,
)
