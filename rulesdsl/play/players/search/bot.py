"""What every bot that searches shares: its name `KIND:N`, its own seeded stream, and the
part of a decision before the search (a forced card is played at once; otherwise the
seat's information set is read and a sampler of its worlds made)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rulesdsl.model.cards import Card
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.search.infoset import observe
from rulesdsl.play.players.search.sampler import Sampler


class SearchBot:
    """A bot of `kind` with a budget of `budget` (worlds, iterations) a decision."""

    kind: ClassVar[str]

    def __init__(self, budget: int, seed: int = 0) -> None:
        self.budget = budget
        self.name = f"{self.kind}:{budget}"
        self.stream = Stream(seed)

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        seat = hand.to_move
        assert seat is not None
        return self.search(hand, legal, seat, Sampler(observe(hand, seat)))

    def search(self, hand: Hand, legal: Sequence[Card], seat: int, sampler: Sampler) -> Card:
        """The card for `seat` among `legal` (more than one)."""
        raise NotImplementedError
