"""Hands played by the kernel in CPython, as `rulesdsl.play.engine.fast` plays them: the same
deal, the same bots' draws, the same HandResult."""

from __future__ import annotations

from functools import partial
from typing import Any

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import BOTS, REASONS, SUITS, HandPlayer, recode
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.kernel.plan import kernel_plan
from rulesdsl.play.kernel.primitives import popcount
from rulesdsl.play.kernel.state import SEATS, State
from rulesdsl.play.kernel.steps import deal, hand_points, play_tricks


def hand_result(s: Any, p: Any, fired_names: Any) -> HandResult:
    """The HandResult of a finished hand."""
    won = s.hand_winner
    points = hand_points(s, p) if won >= 0 else None  # it may fire the score
    return HandResult(
        None if won < 0 else won,
        REASONS[s.end_reason],
        s.trick_number,
        tuple(divmod(e, SEATS) for e in s.eliminated[: s.eliminated_len]),
        s.stock_len,
        SUITS[s.trump],
        tuple(s.trick_winners[: s.trick_number]),
        popcount(s.hands[won]) if won >= 0 else 0,
        s.plays,
        s.saves,
        fired_names[s.fired],
        points,
    )


def _play(
    p: Any,
    order: tuple[int, ...],
    fired_names: Any,
    players: int,
    dealt: int,
    bots: list[int],
    deck: list[int],
    hand_seed: int,
    rng: Stream,
    dealer: int,
) -> HandResult:
    s = State()
    deal(s, p, [order[c] for c in deck], players, dealt, dealer, hand_seed)
    play_tricks(s, p, bots, rng)
    return hand_result(s, p, fired_names)


def hand_player(rules: Rules, players: int, bots: tuple[str, ...]) -> HandPlayer:
    """A function playing one hand of `rules` with `bots` (one name per seat) on the kernel;
    NotNative if the kernel cannot play `rules`."""
    rules.check_players(players)
    return partial(
        _play,
        kernel_plan(rules),
        recode(rules),
        plan_for(rules).fired_names,
        players,
        players * rules.hand_size_for(players),
        [BOTS.index(b) for b in bots],
    )
