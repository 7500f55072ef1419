"""Drive hands and matches with players that choose cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from rulesdsl.model.cards import Card
from rulesdsl.model.result import HandResult
from rulesdsl.play.engine.events import Event
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.match import Match

Listener = Callable[[Event], None]


class Player(Protocol):
    """Anything that picks a card for a seat: a bot, or a person at a terminal."""

    name: str

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card: ...


def _emit(events: Sequence[Event], listener: Listener | None) -> None:
    if listener is not None:
        for event in events:
            listener(event)


def play_hand(
    hand: Hand, players: Sequence[Player], listener: Listener | None = None
) -> HandResult:
    """Play a hand to its end, each seat choosing through `players[seat]`."""
    _emit(hand.events, listener)
    while hand.outcome is None:
        seat = hand.to_move
        card = players[seat].choose(hand, hand.legal_moves())
        _emit(hand.play(card), listener)
    return hand.outcome


def play_match(
    match: Match, players: Sequence[Player], listener: Listener | None = None
) -> list[HandResult]:
    """Play hands until the match ends; return each hand's outcome."""
    outcomes = []
    while not match.over:
        outcome = play_hand(match.deal(), players, listener)
        _emit(match.record(outcome), listener)
        outcomes.append(outcome)
    return outcomes
