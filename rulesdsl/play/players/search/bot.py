"""What every bot that searches shares: its name `KIND:N`, its own seeded stream, and the
part of a decision around the search: a forced card is played at once; otherwise the hand
is replayed on the kernel (`rulesdsl.play.kernel`, in CPython) from its deal, so the
kernel's search (`kernel.search`) decides on what the seat saw. Where the kernel cannot
play the profile (rules the profile states), said once, the search of this package decides
on the reference engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rulesdsl.model.cards import Card
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.events import Play
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.plan import NotNative, kernel_plan
from rulesdsl.play.kernel.rows import search_rows, searched
from rulesdsl.play.kernel.search import deal_logged, replay
from rulesdsl.play.kernel.state import State
from rulesdsl.play.kernel.steps import allowed_now
from rulesdsl.play.native.trust import say
from rulesdsl.play.players.search.infoset import SearchError, observe
from rulesdsl.play.players.search.sampler import Sampler


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
        self.p = kernel_plan(rules)
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
        try:
            position = Position(hand)
        except NotNative as refused:
            say(f"search bots play this profile on the reference engine: {refused}")
            return self.search(hand, legal, seat, Sampler(observe(hand, seat)))
        allowed = allowed_now(position.s, position.p)
        card = self.kernel_search(position.rows(), seat, allowed)
        searched(position.w.gave_up)
        return hand.codes.card[card]

    def kernel_search(self, rows: tuple[Any, ...], seat: int, allowed: int) -> int:
        """The card int `seat` plays of `allowed` (a mask of more than one), by the
        kernel's search."""
        raise NotImplementedError

    def search(self, hand: Hand, legal: Sequence[Card], seat: int, sampler: Sampler) -> Card:
        """The card for `seat` among `legal` (more than one), on the reference engine."""
        raise NotImplementedError
