"""Players that choose a card: random, lowest, highest and heuristic."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulesdsl.model.cards import Card
from rulesdsl.model.hints import did_you_mean
from rulesdsl.model.kinds import OptionError
from rulesdsl.model.stream import Stream
from rulesdsl.model.text import shorten
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.hand import Hand, card_beats


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
        if len(legal) == 1:
            return legal[0]
        trump, key, strength = hand.trump, hand.rules.card_key, hand.rules.rank_strength
        side = [c for c in legal if c.suit != trump]
        best = hand.best_so_far()
        if best is None:
            return max(side, key=lambda c: strength[c.rank]) if side else max(legal, key=key)
        led = hand.led_suit
        winners = [c for c in legal if card_beats(c, best[1], led, trump, strength)]
        side_winners = [c for c in winners if c.suit != trump]
        plays_last = len(hand.trick) == len(hand.trick_seats) - 1
        if side_winners:
            return min(side_winners, key=key) if plays_last else max(side_winners, key=key)
        if winners and (plays_last or not side):
            return min(winners, key=key)
        return min(side or legal, key=key)


BOTS: dict[str, Callable[[int], Player]] = {
    bot.name: bot for bot in (RandomBot, LowestBot, HighestBot, HeuristicBot)
}


class UnknownBot(OptionError):
    """A bot name that is not one of BOTS, nor a search bot `KIND:N`."""


SEARCH_BOTS = ("pimc", "ismcts")
"""The bots that search, named `KIND:N`: `pimc:N` samples N worlds per decision,
`ismcts:N` runs N iterations (rulesdsl.play.players.search)."""

MAX_SEARCH = 10_000
"""The largest N a search bot takes."""


def bot_names() -> list[str]:
    """Every bot name, the search bots as `KIND:N`."""
    return [*BOTS, *(f"{kind}:N" for kind in SEARCH_BOTS)]


def search_size(name: str) -> tuple[str, int] | None:
    """`(kind, N)` for a search bot's name `KIND:N`; None for any other name. Raises
    UnknownBot when N is not a whole number from 1 to MAX_SEARCH."""
    kind, colon, count = name.partition(":")
    if not colon or kind not in SEARCH_BOTS:
        return None
    text = count.strip()
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(MAX_SEARCH))
    if not digits or not 1 <= int(text) <= MAX_SEARCH:
        raise UnknownBot(
            f"bot '{shorten(name, 40)}': N in {kind}:N is how many "
            f"{'worlds' if kind == 'pimc' else 'iterations'} it searches per decision, a whole "
            f"number from 1 to {MAX_SEARCH:,}; e.g. {kind}:50"
        )
    return kind, int(text)


def is_search_bot(name: str) -> bool:
    return search_size(name) is not None


def make_bot(name: str, seed: int = 0) -> Player:
    size = search_size(name)
    if size is not None:
        from rulesdsl.play.players.search.ismcts import IsmctsBot
        from rulesdsl.play.players.search.pimc import PimcBot

        kind, count = size
        return (PimcBot if kind == "pimc" else IsmctsBot)(count, seed)
    if name not in BOTS:
        hint = did_you_mean(name.partition(":")[0], [*BOTS, *SEARCH_BOTS])
        raise UnknownBot(f"unknown bot '{name}': expected one of {', '.join(bot_names())}{hint}")
    return BOTS[name](seed)
