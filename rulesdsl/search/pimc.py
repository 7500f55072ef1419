"""Perfect-information Monte Carlo: sample worlds consistent with what the seat knows, play
each legal card out in each, and choose the card that won most often."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.bots import HeuristicBot
from rulesdsl.cards import Card
from rulesdsl.engine.hand import Hand, codes_for
from rulesdsl.search.bot import SearchBot
from rulesdsl.search.rollout import trials
from rulesdsl.search.sampler import Sampler
from rulesdsl.stream import Stream


class PimcBot(SearchBot):
    """`pimc:N`: for each of N sampled worlds, every legal card is played and the world
    played out by the playout policy of `rollout.py`, with the same random numbers for
    every card of a world (so the cards are compared on equal luck); the card with the
    most wins for the seat is chosen, and among cards that tie, the heuristic bot's card
    if it is one of them. Seeded: the same seed and the same positions give the same
    choices."""

    kind = "pimc"

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
        best = max(wins.values())
        tied = [card for card in legal if wins[card] == best]
        usual = self.fallback.choose(hand, legal)
        return usual if usual in tied else tied[0]
