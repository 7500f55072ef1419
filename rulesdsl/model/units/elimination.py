"""elimination: when an empty hand drops out."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import Section, Step, Unit


class Elimination(StrEnum):
    AFTER_DRAW = "after_draw"
    IMMEDIATE = "immediate"


def last_card_win(t: Any) -> bool:
    """The winner played their last card, and a draw would give them one."""
    return t.last_card and t.count_at_draw(t.winner) > 0 and t.card_available()


def _never(proofs: Any) -> str | None:
    if proofs.has(Fact.LAST_CARD_WIN):
        return None
    if proofs.model.setup.stock == 0 and not proofs.reshuffles:
        return "there is no stock, so a last-card winner never has a card to draw"
    return "no trick is won with a last card while a card is there to draw"


def _plays(value: Elimination) -> dict[Step, Any]:
    """Whether an empty hand is out at step 3, before the draw, rather than at step 6."""
    return {Step.ELIMINATE: value is Elimination.IMMEDIATE}


UNIT = Unit(
    "elimination",
    enum_choice(Elimination),
    "after_draw",
    "when an empty hand drops out",
    Section.DRAWING,
    frozenset({Step.ELIMINATE}),
    fires="it decides the fate of a player who won a trick with their last card",
    plays=_plays,
    counts=_plays,  # the flag is what the count model reads too
    acts=Acts(
        "a trick is won with a last card while a card is there to draw",
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
        never=_never,
        trick=last_card_win,
    ),
    place=110,
)
