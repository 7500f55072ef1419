"""Perfect-information Monte Carlo: sample worlds consistent with what the seat knows, play
each legal card out in each, and choose the card that won most often. The kernel's
`search.pimc_card` decides; `PimcBot.search` is the same search on the reference engine,
for the profiles the kernel cannot play yet (rules the profile states)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.hand import Hand, codes_for
from rulesdsl.play.kernel.search import pimc_card
from rulesdsl.play.players.bots import HeuristicBot
from rulesdsl.play.players.search.bot import SearchBot
from rulesdsl.play.players.search.rollout import trials
from rulesdsl.play.players.search.sampler import Sampler


class PimcBot(SearchBot):
    """`pimc:N`: for each of N sampled worlds, every legal card is played and the world
    played out by the playout policy of `rollout.py`, with the same random numbers for
    every card of a world (so the cards are compared on equal luck); the card with the
    most wins for the seat is chosen where it won clearly more often than the heuristic
    bot's card, else the heuristic bot's card (`choice`). Seeded: the same seed and the
    same positions give the same choices."""

    kind = "pimc"

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        return pimc_card(*rows, seat, allowed, self.budget, self.stream)

    fallback = HeuristicBot()

    def search(self, hand: Hand, legal: Sequence[Card], seat: int, sampler: Sampler) -> Card:
        rules = hand.rules
        code = codes_for(rules).of
        worlds, streams = [], []
        for _ in range(self.budget):
            worlds.append(sampler.state(sampler.sample(self.stream), self.stream.split()))
            streams.append(Stream(self.stream.split()))  # the same numbers for every card
        moves = [code[card] for card in legal]
        winners = trials(rules, worlds, streams, [moves] * len(worlds))
        wins = dict.fromkeys(legal, 0)
        for card, won in zip(legal * len(worlds), winners, strict=True):
            wins[card] += won == seat
        return choice(wins, self.fallback.choose(hand, legal))


def choice(wins: dict[Card, int], usual: Card) -> Card:
    """The card that won in most worlds (the first of those, in the order of `wins`) where
    it won clearly more often than the heuristic's card `usual`: by more than the square
    root of their wins together (one standard deviation of the difference of two counts
    drawn by chance); else `usual`. A card that won in a few worlds more by luck does not
    displace a sound default."""
    top = max(wins, key=wins.__getitem__)
    ahead = wins[top] - wins[usual]
    return top if ahead * ahead > wins[top] + wins[usual] else usual
