"""The bots that search, `pimc:N` and `ismcts:N` (`rulesdsl.play.kernel.search` says what
each does), as players of the reference engine: a bot has its own seeded stream; a forced
card is played at once; otherwise the hand is replayed on the kernel (in CPython) from its
deal, and the kernel's search decides on what the seat saw. The search is written once, in
the kernel: a profile the kernel cannot play is a SearchError, which says why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

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
from rulesdsl.play.kernel.search import deal_logged, ismcts_card, pimc_card, replay
from rulesdsl.play.kernel.state import State
from rulesdsl.play.kernel.steps import allowed_now


class Position:
    """A hand replayed on the kernel from its deal: the state, plan, what the seats saw and
    the search's rows (`kernel.search`)."""

    def __init__(self, hand: Hand) -> None:
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
        replay(self.s, self.p, self.g, self.states, plays, len(plays))

    def rows(self) -> tuple[Any, ...]:
        """(s, p, g, w, states), as the kernel's search takes them."""
        return self.s, self.p, self.g, self.w, self.states


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
        position = Position(hand)
        allowed = allowed_now(position.s, position.p)
        card = self.kernel_search(position.rows(), seat, allowed)
        searched(position.w.gave_up)
        return hand.codes.card[card]

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        """The card int `seat` plays of `allowed` (a mask of more than one), by the
        kernel's search."""
        raise NotImplementedError


class PimcBot(SearchBot):
    """`pimc:N`: N worlds a decision."""

    kind = "pimc"

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        return pimc_card(*rows, seat, allowed, self.budget, self.stream)


class IsmctsBot(SearchBot):
    """`ismcts:N`: N iterations a decision."""

    kind = "ismcts"

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        return ismcts_card(*rows, seat, allowed, self.budget, self.stream)
