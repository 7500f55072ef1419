"""Hands played by the kernel in CPython, as `rulesdsl.play.engine.fast` plays them: the same
deal, the same bots' draws, the same HandResult; and the seats' bots as the kernel's kinds,
search bots (`KIND:N`) among them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import BOTS, REASONS, SUITS, HandPlayer, recode
from rulesdsl.play.engine.masks import popcount
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.kernel.plan import NotNative, kernel_plan
from rulesdsl.play.kernel.rows import search_rows, searched
from rulesdsl.play.kernel.search import play_dealt
from rulesdsl.play.kernel.state import SEATS, State
from rulesdsl.play.kernel.steps import hand_points


def seat_kinds(bots: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """Each seat's bot as the kernel's kind, and its budget (a search bot's N, else 0);
    NotNative for a bot the kernel does not play."""
    from rulesdsl.play.players.registry import search_size
    from rulesdsl.play.players.search.bot import kernel_kind

    kinds, budgets = [], []
    for name in bots:
        size = search_size(name)
        if size is None and name not in BOTS:
            raise NotNative(f"the bot {name} is not the kernel's")
        kinds.append(BOTS.index(name) if size is None else kernel_kind(size[0]))
        budgets.append(0 if size is None else size[1])
    return kinds, budgets


def hand_result(s: Any, p: Any, fired_names: Any) -> HandResult:
    """The HandResult of a finished hand."""
    won = int(s.hand_winner)
    points = int(hand_points(s, p)) if won >= 0 else None  # it may fire the score
    return HandResult(
        None if won < 0 else won,
        REASONS[s.end_reason],
        int(s.trick_number),
        tuple(divmod(int(e), SEATS) for e in s.eliminated[: s.eliminated_len]),
        int(s.stock_len),
        SUITS[s.trump],
        tuple(int(w) for w in s.trick_winners[: s.trick_number]),
        int(popcount(s.hands[won])) if won >= 0 else 0,
        int(s.plays),
        int(s.saves),
        fired_names[s.fired],
        points,
    )


def comeback(result: HandResult, fewest: int) -> int:
    """Whether the winner came back: `fewest` has its bit (`state.SEEN`), 1 or 0."""
    return int(result.winner is not None and (fewest >> result.winner) & 1)


def kernel_player(
    rules: Rules, players: int, bots: tuple[str, ...]
) -> Callable[[list[int], int, Stream, int], tuple[HandResult, int]]:
    """A function playing one hand of `rules` with `bots` (one name per seat) on the kernel:
    its result and whether its winner came back (`comeback`: told at a table with a search
    seat, where what the seats see is recorded; 0 elsewhere); NotNative if the kernel
    cannot play `rules` or a bot."""
    rules.check_players(players)
    p, order, fired_names = kernel_plan(rules), recode(rules), plan_for(rules).fired_names
    dealt = players * rules.hand_size_for(players)
    kinds, budgets = seat_kinds(bots)

    def play(deck: list[int], seed: int, rng: Stream, dealer: int) -> tuple[HandResult, int]:
        s = State()
        g, w, states, streams = search_rows()
        ranked = [order[c] for c in deck]
        play_dealt(
            s, p, g, w, states, ranked, players, dealt, dealer, seed, kinds, budgets, rng, streams
        )
        searched(w.gave_up)
        result = hand_result(s, p, fired_names)
        return result, comeback(result, g.fewest)

    return play


def hand_player(rules: Rules, players: int, bots: tuple[str, ...]) -> HandPlayer:
    """`kernel_player`'s hands, their results alone."""
    play = kernel_player(rules, players, bots)
    return lambda deck, hand_seed, rng, dealer: play(deck, hand_seed, rng, dealer)[0]
