"""The bots that search, `KIND:N` (`rulesdsl.play.kernel.search` says what each does), as
players of the reference engine: a bot has its own seeded stream; a forced
card is played at once; otherwise the hand is replayed on the kernel (in CPython) from its
deal, and the kernel's search decides on what the seat saw. The search is written once, in
the kernel: a profile the kernel cannot play is a SearchError, which says why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.events import Play
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.plan import NotNative, kernel_plan
from rulesdsl.play.kernel.rows import (
    SearchError,
    not_searchable,
    search_rows,
    searched,
)
from rulesdsl.play.kernel.search import PIMC, SOLVER, deal_logged, decide, replay
from rulesdsl.play.kernel.state import State


class Position:
    """A hand replayed on the kernel from its deal: the state, plan, what the seats saw and
    the search's rows (`kernel.search`); the plays read as the heuristic bot's too where
    `reading` (which `solver:N` needs, the other bots not)."""

    def __init__(self, hand: Hand, reading: bool = True) -> None:
        if hand.order is None:
            raise SearchError(
                "a search bot reads the hand's history from its deal: play a hand made by "
                "Hand.deal (or Match.deal), not one set up with Hand.from_position"
            )
        rules, code = hand.rules, hand.codes.of
        try:
            self.p = kernel_plan(rules)
        except NotNative as refused:
            raise not_searchable(refused) from None
        self.s = State()
        self.g, self.w, self.states, _ = search_rows()
        players = hand.players
        deck = [code[c] for c in hand.order]
        dealt = players * rules.hand_size_for(players)
        deal_logged(self.s, self.p, self.g, True, deck, players, dealt, hand.dealer, 0)
        self.s.shuffle_seed = hand.s.rng.seed  # the hand's own stream of reshuffles
        plays = [code[e.card] for e in hand.events if isinstance(e, Play)]
        replay(self.s, self.p, self.g, self.states, plays, len(plays), reading)

    def rows(self) -> tuple[Any, ...]:
        """(s, p, g, w, states), as the kernel's search takes them."""
        return self.s, self.p, self.g, self.w, self.states


SEARCH_BOTS = {
    "pimc": "worlds",
    "ismcts": "iterations",
    "solver": "worlds",
    "sees-hands": "worlds",
    "sees-all": "playouts",
}
"""The bots that search, named `KIND:N`, the kernel's kinds from PIMC on in this order, and
what their N counts per decision (`rulesdsl.play.kernel.search` says what each does)."""


def kernel_kind(kind: str) -> int:
    """The kernel's number for the search bot `kind` (one of SEARCH_BOTS)."""
    return PIMC + list(SEARCH_BOTS).index(kind)


class SearchBot:
    """A bot of `kind` (one of SEARCH_BOTS) with a budget of `budget` a decision."""

    def __init__(self, kind: str, budget: int, seed: int = 0) -> None:
        self.kind = kernel_kind(kind)
        self.budget = budget
        self.name = f"{kind}:{budget}"
        self.stream = Stream(seed)

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        position = Position(hand, self.kind == SOLVER)
        card = decide(*position.rows(), self.kind, self.budget, None, self.stream)
        searched(position.w.gave_up)
        return hand.codes.card[card]
