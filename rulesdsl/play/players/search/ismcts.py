"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
2012): one tree over the cards played from the decision on, seen from the seat to move;
each iteration samples a world consistent with what the seat knows, walks the tree with
the cards legal in that world, adds one node and plays the world out by the playout
policy of `rollout.py`. The kernel's `search.ismcts_card` decides; `IsmctsBot.search` is
the same search on the reference engine, for the profiles the kernel cannot play yet."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.hand import Hand, codes_for
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Plan
from rulesdsl.play.kernel.search import ismcts_card
from rulesdsl.play.players.search import adapter
from rulesdsl.play.players.search.bot import SearchBot
from rulesdsl.play.players.search.rollout import rollout
from rulesdsl.play.players.search.sampler import Sampler

EXPLORE = 0.7
"""The UCB constant: a child scores wins / visits + EXPLORE * sqrt(ln(available) / visits),
where `available` counts the iterations in which its card was legal."""


class SearchNode:
    """A card played from the parent's position: visits, wins of the seat that played it,
    and how often it was available."""

    __slots__ = ("available", "children", "seat", "visits", "wins")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.wins = 0
        self.available = 0
        self.children: dict[int, SearchNode] = {}

    def score(self) -> float:
        return self.wins / self.visits + EXPLORE * math.sqrt(math.log(self.available) / self.visits)


class IsmctsBot(SearchBot):
    """`ismcts:N`: N iterations of the search; the root's most visited card is chosen (the
    first in the hand's order on a tie). Seeded: the same seed and the same positions give
    the same choices."""

    kind = "ismcts"

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        return ismcts_card(*rows, seat, allowed, self.budget, self.stream)

    def search(self, hand: Hand, legal: Sequence[Card], seat: int, sampler: Sampler) -> Card:
        rules, stream = hand.rules, self.stream
        plan, code = plan_for(rules), codes_for(rules).of
        root = SearchNode(seat)
        for _ in range(self.budget):
            s = sampler.state(sampler.sample(stream), stream.split())
            path = self._descend(root, s, plan, stream)
            winner = s.hand_winner if s.over else rollout(rules, s, stream)
            for node in path:
                node.visits += 1
                node.wins += node.seat == winner
        visits = {card: getattr(root.children.get(code[card]), "visits", 0) for card in legal}
        return max(legal, key=visits.__getitem__)

    @staticmethod
    def _descend(node: SearchNode, s: State, plan: Plan, stream: Stream) -> list[SearchNode]:
        """Walk from `node` while every legal card has a child, by UCB; add one child."""
        path = []
        while not s.over:
            seat = adapter.mover(s)
            legal = adapter.legal(s, plan)
            fresh = [c for c in legal if c not in node.children]
            for c in legal:
                if c in node.children:
                    node.children[c].available += 1
            if fresh:
                card = fresh[stream.below(len(fresh))]
                child = node.children[card] = SearchNode(seat)
                child.available += 1
                adapter.advance(s, plan, card)
                path.append(child)
                break
            card = max(legal, key=lambda c: node.children[c].score())
            node = node.children[card]
            adapter.advance(s, plan, card)
            path.append(node)
        return path
