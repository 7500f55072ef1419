"""Playing worlds out: from a position to the end of the hand, every seat playing the
playout policy (`fast.pick_playout`: the heuristic bot's card, except that with
probability EXPLORE a legal card drawn uniformly, so the playouts of one world differ).

The reference engine's search plays its worlds out here, on the pure-Python fast path;
the kernel's search plays them out with its own playout (`rulesdsl.play.kernel.search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine import fast
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.players.search import adapter

NO_MOVE = -1
"""A move that plays no card: the position is played out as it stands."""


def trials(
    rules: Rules,
    worlds: Sequence[State],
    streams: Sequence[Stream],
    moves: Sequence[Sequence[int]],
) -> list[int]:
    """For each untraced world (not over) and each of its moves, in order, the winning
    seat (-1 for none) when the seat to play plays the move and the world is played out
    with a copy of its stream. The worlds and streams are left as they were."""
    plan = plan_for(rules)
    winners = []
    for world, stream, row in zip(worlds, streams, moves, strict=True):
        for move in row:
            s = adapter.copy_state(world)
            if move != NO_MOVE:
                adapter.advance(s, plan, move)
            winners.append(_play_out(s, plan, stream.copy()))
    return winners


def rollout(rules: Rules, s: State, stream: Stream) -> int:
    """Play the untraced position `s` (not over) to its end by the playout policy, drawing
    from `stream`; the winning seat, or -1 when nobody wins."""
    return _play_out(s, plan_for(rules), stream)


def _play_out(s: State, plan: Any, stream: Stream) -> int:
    uniform, pick = stream.random, fast.pick_playout
    while s.trick and not s.over:  # finish the trick in progress
        last = len(s.trick) == len(s.trick_seats) - 1
        adapter.advance(s, plan, pick(s, adapter.mover(s), adapter.legal(s, plan), uniform, last))
    if not s.over:
        fast.play_tricks(s, plan, pick, uniform)
    return s.hand_winner
