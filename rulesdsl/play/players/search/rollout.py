"""Playing worlds out: from a position to the end of the hand, every seat playing the
playout policy (`fast.pick_playout`: the heuristic bot's card, except that with
probability EXPLORE a legal card drawn uniformly, so the playouts of one world differ).

On the native path when it runs (`Kernel.play_rests`: the same policy compiled, drawing
the same numbers, every position of a decision in one call), else on the pure-Python
fast path: both give the same winners and draw the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine import fast
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.players.search import adapter

POLICY = "playout"
"""The name of the playout policy among the fast path's bots."""

NO_MOVE = -1
"""A move that plays no card: the position is played out as it stands."""


def trials(
    rules: Rules,
    worlds: Sequence[State],
    streams: Sequence[Stream],
    moves: Sequence[Sequence[int]],
    on_native: bool = True,
) -> list[int]:
    """For each untraced world (not over) and each of its moves, in order, the winning
    seat (-1 for none) when the seat to play plays the move and the world is played out
    with a copy of its stream. The worlds and streams are left as they were; `on_native`
    False keeps it in Python."""
    compiled = playout_kernel(rules, worlds[0].players) if on_native else None
    if compiled is not None:
        return compiled.play_rests(adapter.rests(worlds, streams, moves)).tolist()
    plan = plan_for(rules)
    winners = []
    for world, stream, row in zip(worlds, streams, moves, strict=True):
        for move in row:
            s = adapter.copy_state(world)
            if move != NO_MOVE:
                adapter.advance(s, plan, move)
            winners.append(_play_out(s, plan, stream.copy()))
    return winners


def rollout(rules: Rules, s: State, stream: Stream, on_native: bool = True) -> int:
    """Play the untraced position `s` (not over) to its end by the playout policy, drawing
    from `stream`; the winning seat, or -1 when nobody wins."""
    compiled = playout_kernel(rules, s.players) if on_native else None
    if compiled is None:
        return _play_out(s, plan_for(rules), stream)
    rests = adapter.rests([s], [stream], [[NO_MOVE]])
    (won,) = compiled.play_rests(rests).tolist()
    stream.skip(int(rests.rngs[0, 1]) - stream.drawn)
    return won


def _play_out(s: State, plan: Any, stream: Stream) -> int:
    uniform, pick = stream.random, fast.pick_playout
    while s.trick and not s.over:  # finish the trick in progress
        last = len(s.trick) == len(s.trick_seats) - 1
        adapter.advance(s, plan, pick(s, adapter.mover(s), adapter.legal(s, plan), uniform, last))
    if not s.over:
        fast.play_tricks(s, plan, pick, uniform)
    return s.hand_winner


@cache
def playout_kernel(rules: Rules, players: int) -> Any:
    """The native kernel of `rules` at `players` with every seat on the playout policy,
    compiled; None where the native path does not run or cannot compile the profile."""
    if not native.available():
        return None
    from numba.core.errors import NumbaError

    from rulesdsl.play.native.kernel import rests_kernel
    from rulesdsl.play.native.lower import NativeError

    try:
        compiled = rests_kernel(rules, players, (POLICY,) * players)
        start = adapter.start(rules, players)
        compiled.play_rests(adapter.rests([start], [Stream(0)], [[NO_MOVE]]))
    except (NativeError, NumbaError):
        return None
    return compiled
