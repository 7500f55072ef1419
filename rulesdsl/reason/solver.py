"""One deal solved with every card known (`rulesdsl.play.kernel.solve`): for each seat,
whether it can force a win of the hand whatever the others play, and a line of play that
shows it; compiled where the native path runs, else on the kernel in CPython."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine.fast import recode, to_int
from rulesdsl.play.kernel.plan import kernel_plan
from rulesdsl.play.kernel.worlds import SOLVE_DEPTH

BUDGET = 2_000_000
"""The most positions one seat's question may visit before it is left unsolved."""


@dataclass(frozen=True)
class SeatAnswer:
    """Whether `seat` can force a win (None: unsolved within the budget), the cards of a
    line of play that shows it, and the positions the search visited."""

    seat: int
    can_force_win: bool | None
    line: tuple[Card, ...]
    positions: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "can_force_win": "unsolved" if self.can_force_win is None else self.can_force_win,
            "line": [str(card) for card in self.line],
            "positions": self.positions,
        }


@dataclass(frozen=True)
class Solution:
    """Every seat's answer, and the seat that can force a win (None: no seat can, or
    some seat's question is unsolved, `solved` False)."""

    seats: tuple[SeatAnswer, ...]

    @property
    def solved(self) -> bool:
        return all(answer.can_force_win is not None for answer in self.seats)

    @property
    def forced_winner(self) -> int | None:
        return next((a.seat for a in self.seats if a.can_force_win), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "solved": self.solved,
            "forced_winner": self.forced_winner,
            "seats": [answer.to_dict() for answer in self.seats],
        }


class _Board:
    """The kernel's rows for one deal: the dealt state, the line searched, a probe."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.plan = kernel_plan(rules)
        self.players = players
        self.dealt = players * rules.hand_size_for(players)
        self.ranked = recode(rules)
        self.cards = {self.ranked[to_int(card)]: card for card in rules.cards}
        if native.available():
            self._native()
        else:
            self._cpython()

    def _native(self) -> None:
        import numpy as np

        from rulesdsl.play.kernel import build
        from rulesdsl.play.kernel.compiled import SEEN, STATE, plan_record

        self.module = build.kernel()
        self.p = plan_record(self.plan)[0]
        self.states = np.zeros(SOLVE_DEPTH, STATE)
        self.todo = np.zeros(SOLVE_DEPTH, np.int64)
        self.new_state = lambda: np.zeros(1, STATE).view(np.recarray)[0]
        self.seed = np.uint64
        self.deck = lambda cards: np.array(cards, np.int64)
        self.seen = np.zeros(1, SEEN)[0]
        self.cards_played = np.zeros(SOLVE_DEPTH, np.int64)
        self.visited = np.zeros(1, np.int64)

    def _cpython(self) -> None:
        from rulesdsl.play.kernel import search, solve
        from rulesdsl.play.kernel.rows import States
        from rulesdsl.play.kernel.state import Seen, State

        self.module = _Module(search, solve)
        self.p = self.plan
        self.states = States()  # a line's states made as deep as it goes
        self.todo = [0] * SOLVE_DEPTH
        self.new_state = State
        self.seed = int
        self.deck = list
        self.seen = Seen()
        self.cards_played = [0] * SOLVE_DEPTH
        self.visited = [0]

    def dealt_state(
        self, deck: Sequence[int], dealer: int, hand_seed: int, reshuffles: int | None
    ) -> Any:
        """The state dealt from `deck` (card ints of the canonical order) by the kernel with
        `hand_seed`, its stream of reshuffles seeded with `reshuffles` where given (as a
        hand of the reference engine's seeds it), else as the kernel seeds it."""
        s = self.new_state()
        ranked = self.deck([self.ranked[card] for card in deck])
        self.module.deal_logged(
            s, self.p, self.seen, False, ranked, self.players, self.dealt, dealer,
            self.seed(hand_seed),
        )  # fmt: skip
        if reshuffles is not None:
            s.shuffle_seed = self.seed(reshuffles)
        return s

    def question(self, s: Any, seat: int, budget: int) -> tuple[bool | None, int]:
        """Whether `seat` can force a win from the dealt state `s` (None: unsolved), and
        the positions visited; `s` is left as it was."""
        self.visited[0] = 0
        won = self.module.solve(
            s, self.p, self.states, 0, self.todo, seat, budget, self.visited, False
        )
        return (None if won < 0 else won == 1), int(self.visited[0])

    def line(self, s: Any, seat: int, budget: int) -> tuple[Card, ...]:
        """The cards of a line of play that shows `seat`'s answer, from the dealt state
        `s`, which it plays to the end (none where the budget ran out)."""
        self.visited[0] = 0
        probe, played = self.new_state(), self.cards_played
        length = self.module.principal_line(
            s, self.p, self.states, self.todo, seat, budget, self.visited, probe, played
        )
        return tuple(self.cards[int(c)] for c in played[: max(length, 0)])


class _Module:
    """The kernel's functions a solve calls, as CPython runs them."""

    def __init__(self, search: Any, solve: Any) -> None:
        self.deal_logged = search.deal_logged
        self.solve = solve.solve
        self.principal_line = solve.principal_line


def solve_deal(
    rules: Rules,
    players: int,
    order: Sequence[Card],
    dealer: int = 0,
    seed: int = 0,
    budget: int = BUDGET,
    lines: bool = True,
) -> Solution:
    """Every seat's answer on the deal of `order` by `dealer`, reshuffles (if any) seeded as
    `Hand.deal` seeds them from `seed`; each question visits at most `budget` positions,
    and each line of play (`lines`) as many again."""
    return Solver(rules, players).solve(order, dealer, seed, budget, lines)


class Solver:
    """Deals of one profile at one table solved one after another on the same rows."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.board = _Board(rules, players)

    def solve(
        self, order: Sequence[Card], dealer: int, seed: int, budget: int, lines: bool = True
    ) -> Solution:
        """`solve_deal`'s answers."""
        deck = [to_int(card) for card in order]
        return self._answers(deck, dealer, 0, Stream(seed).split(), budget, lines)

    def solve_dealt(
        self, deck: Sequence[int], dealer: int, hand_seed: int, budget: int, lines: bool = True
    ) -> Solution:
        """The answers on the deal of `deck` (card ints of the canonical order) by
        `dealer`, as simulation's kernel deals it with `hand_seed`."""
        return self._answers(deck, dealer, hand_seed, None, budget, lines)

    def _answers(
        self,
        deck: Sequence[int],
        dealer: int,
        hand_seed: int,
        reshuffles: int | None,
        budget: int,
        lines: bool,
    ) -> Solution:
        board = self.board
        dealt = board.dealt_state(deck, dealer, hand_seed, reshuffles)
        answers = []
        for seat in range(board.players):
            known, positions = board.question(dealt, seat, budget)
            line: tuple[Card, ...] = ()
            if lines and known is not None:
                again = board.dealt_state(deck, dealer, hand_seed, reshuffles)
                line = board.line(again, seat, budget)
            answers.append(SeatAnswer(seat, known, line, positions))
        return Solution(tuple(answers))
