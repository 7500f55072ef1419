"""Perfect-information Monte Carlo: sample worlds consistent with what the seat knows, play
each legal card out in each, and choose the card that won most often."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.cards import Card
from rulesdsl.engine.hand import Hand, codes_for
from rulesdsl.engine.plan import plan_for
from rulesdsl.search import adapter
from rulesdsl.search.infoset import observe
from rulesdsl.search.rollout import hand_seed, rollout
from rulesdsl.search.sampler import Sampler
from rulesdsl.stream import Stream


class PimcBot:
    """`pimc:N`: for each of N sampled worlds, every legal card is played and the world
    played out by random play (`rollout.POLICY`); the card with the most wins for the seat
    is chosen, the first in the hand's order on a tie. Seeded: the same seed and the same
    positions give the same choices."""

    kind = "pimc"

    def __init__(self, worlds: int, seed: int = 0) -> None:
        self.worlds = worlds
        self.name = f"{self.kind}:{worlds}"
        self.stream = Stream(seed)

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        seat = hand.to_move
        assert seat is not None
        sampler = Sampler(observe(hand, seat))
        rules = hand.rules
        plan, code = plan_for(rules), codes_for(rules).of
        wins = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            world = sampler.state(sampler.sample(self.stream), hand_seed(self.stream))
            for card in legal:
                s = adapter.copy_state(world)
                adapter.advance(s, plan, code[card])
                wins[card] += rollout(rules, s, self.stream) == seat
        return max(legal, key=wins.__getitem__)
