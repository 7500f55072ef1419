"""The ladder of skill: one seat against three heuristic bots, seeing more at each rung,
and whether the deal was decided before play. One deal's outcomes, for `skill` and for
`compare --good-play` alike."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.model.rules import Rules
from rulesdsl.play.players.search.table import NO_RANDOM, search_hand
from rulesdsl.reason.solver import Solver

SOLVE_BUDGET = 200_000
"""The most positions one seat's question of the deal visits; past it the deal is unsolved."""
SEEING = ("sees-all", "sees-hands", "solver")
"""The solver's bots, the seat seeing everything, every hand, its own cards (`KIND:N`)."""
HEURISTIC = "heuristic"
"""The bot of the ladder's foot, and of every seat the rungs play against."""
UNSOLVED = -1
"""A deal's `decided` where some seat's question ran past the budget."""


@dataclass(frozen=True)
class Rung:
    """A step of the ladder: what the seat knows and how it plays, and its bot."""

    name: str
    bot: str

    @property
    def key(self) -> str:
        """Its measurement's name: the bot's kind, `_` for `-`."""
        return self.bot.partition(":")[0].replace("-", "_")


def seeing(worlds: int) -> tuple[Rung, ...]:
    """The rungs of the solver's bots, each trying a card in `worlds` worlds."""
    names = ("sees everything", "sees every hand, not the stock", "pimc scored by the solver")
    return tuple(Rung(name, f"{kind}:{worlds}") for name, kind in zip(names, SEEING, strict=True))


FOOT = Rung("heuristic", HEURISTIC)
"""The ladder's foot: the heuristic bot, which the rungs' gains are measured from."""


@dataclass(frozen=True)
class Outcome:
    """One deal: 1 where some seat can force a win of it, 0 where none can, UNSOLVED; and
    for each rung whether its seat won (1 or 0)."""

    decided: int
    wins: tuple[int, ...]


class Ladder:
    """The rungs' hands and the solver for one profile at one table, made once."""

    def __init__(
        self, rules: Rules, players: int, rungs: tuple[Rung, ...], budget: int = SOLVE_BUDGET
    ) -> None:
        self.players = players
        self.budget = budget
        self.solver = Solver(rules, players)
        self.hands = [
            [
                search_hand(rules, players, against(rung.bot, seat, players))
                for seat in range(players)
            ]
            for rung in rungs
        ]

    def outcome(self, deck: list[int], hand_seed: int, dealer: int, seat: int) -> Outcome:
        """The deal of `deck` by `dealer` (the kernel's `hand_seed`), each rung at `seat`."""
        solution = self.solver.solve_dealt(deck, dealer, hand_seed, self.budget, lines=False)
        decided = UNSOLVED if not solution.solved else int(solution.forced_winner is not None)
        wins = tuple(
            int(play[seat](deck, hand_seed, NO_RANDOM, dealer).winner == seat)
            for play in self.hands
        )
        return Outcome(decided, wins)


def against(bot: str, seat: int, players: int) -> tuple[str, ...]:
    """`bot` at `seat`, the heuristic bot at every other seat: where each rung plays."""
    return tuple(bot if s == seat else HEURISTIC for s in range(players))
