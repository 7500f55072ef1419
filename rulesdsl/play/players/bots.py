"""Players that choose a card: random, lowest, highest and heuristic."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulesdsl.model.cards import Card
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.heuristic import heuristic_card


class RandomBot:
    """Plays a legal card chosen by a seeded stream: its own, or one it is given
    (bots that share a stream draw from it in the order they play)."""

    name = "random"

    def __init__(self, seed: int | Stream = 0) -> None:
        self.rng = seed if isinstance(seed, Stream) else Stream(seed)

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        return legal[int(self.rng.random() * len(legal))]


class LowestBot:
    """Plays the legal card smallest by (rank, suit), rank in the profile's order:
    replayable by anyone."""

    name = "lowest"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        return min(legal, key=hand.rules.card_key)


class HighestBot:
    """Plays the legal card largest by (rank, suit), rank in the profile's order:
    replayable by anyone."""

    name = "highest"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        return max(legal, key=hand.rules.card_key)


class HeuristicBot:
    """A sensible player: wins tricks cheaply and saves its trumps.

    Winning a trick keeps a hand's size and losing shrinks it, so the bot wins every
    trick it can with a side-suit card; it trumps only where a trump is sure to win
    (it plays last) or it has nothing else; otherwise it throws its lowest side card,
    keeping trumps for when the side suits are gone. It leads its highest side card.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        """The heuristic (`rulesdsl.play.engine.heuristic`) on the hand."""
        s, codes = hand.s, hand.codes
        allowed = sum(1 << code for code in codes.ints(legal))
        plays_last = len(s.trick) == len(s.trick_seats) - 1
        return codes.card[heuristic_card(allowed, s.trump, s.led, s.best, plays_last)]


BOTS: dict[str, Callable[[int], Player]] = {
    bot.name: bot for bot in (RandomBot, LowestBot, HighestBot, HeuristicBot)
}
