"""next_lead: who leads the next trick."""

from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.state import State
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import Section, Step, Unit


class NextLead(StrEnum):
    TRICK_WINNER = "trick_winner"
    LEFT_OF_WINNER = "left_of_winner"
    OPENING_LEADER = "opening_leader"


def left_of_winner(s: State) -> int:
    """Step 10: the next active player clockwise from the trick winner."""
    seat = (s.winner + 1) % s.players
    while not s.active[seat]:
        seat = (seat + 1) % s.players
    return seat


def opening_leader(s: State) -> int:
    """Step 10: the first leader of the hand if still active, else the next active seat
    clockwise from theirs."""
    seat = s.first_leader
    while not s.active[seat]:
        seat = (seat + 1) % s.players
    return seat


def winner_leads_on(t: Any) -> bool:
    """The hand goes on after the trick, and its winner is still in."""
    return not t.hand.is_over and t.hand.active[t.winner]


def _never(proofs: Any) -> str | None:
    return None if proofs.has(Fact.GOES_ON) else "every hand ends with its first trick"


def _plays(value: NextLead) -> dict[Step, Any]:
    chosen = {NextLead.LEFT_OF_WINNER: left_of_winner, NextLead.OPENING_LEADER: opening_leader}
    return {Step.NEXT_LEAD: chosen[value]} if value in chosen else {}


UNIT = Unit(
    "next_lead",
    enum_choice(NextLead),
    "trick_winner",
    "who leads the next trick",
    Section.PLAY,
    frozenset({Step.NEXT_LEAD}),
    fires="the lead passes elsewhere than to the trick winner (or the next player in after them)",
    plays=_plays,
    acts=Acts(
        "a trick is won by a player who stays in, and the hand goes on",
        (Effect.PLAY, Effect.HAND_WINNER),
        never=_never,
        trick=winner_leads_on,
    ),
    place=160,
)
