"""Playing worlds out: from a position to the end of the hand, every seat playing the
playout policy (`fast.pick_playout`: the heuristic bot's card, except that with
probability EXPLORE a legal card drawn uniformly, so the playouts of one world differ).

The trick in progress is finished here; the tricks after it are played on the native path
when it runs (`Kernel.play_rests`, the same policy compiled, drawing the same numbers, many
positions a call), else on the pure-Python fast path: both give the same winners for the
same streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from rulesdsl import native
from rulesdsl.engine import fast
from rulesdsl.engine.plan import plan_for
from rulesdsl.engine.state import State
from rulesdsl.rules import Rules
from rulesdsl.search import adapter
from rulesdsl.stream import Stream

POLICY = "playout"
"""The name of the playout policy among the fast path's bots."""


def finish_trick(rules: Rules, s: State, stream: Stream) -> None:
    """Finish the trick in progress in the untraced position `s` by the playout policy."""
    plan = plan_for(rules)
    uniform = stream.random
    while s.trick and not s.over:
        last = len(s.trick) == len(s.trick_seats) - 1
        card = fast.pick_playout(s, adapter.mover(s), adapter.legal(s, plan), uniform, last)
        adapter.advance(s, plan, card)


def play_out(
    rules: Rules, states: Sequence[State], streams: Sequence[Stream], on_native: bool = True
) -> list[int]:
    """The winning seat (-1 for none) of each untraced position, each between two tricks
    or over, played to its end by the playout policy drawing from its stream (the states
    and streams are changed). `on_native` False keeps it in Python."""
    going = [k for k, s in enumerate(states) if not s.over]
    winners = [s.hand_winner for s in states]
    compiled = playout_kernel(rules, states[0].players) if on_native and going else None
    if compiled is not None:
        rests = adapter.rests([states[k] for k in going], [streams[k] for k in going])
        for k, won in zip(going, compiled.play_rests(rests).tolist(), strict=True):
            winners[k] = won
        return winners
    plan = plan_for(rules)
    for k in going:
        fast.play_tricks(states[k], plan, fast.pick_playout, streams[k].random)
        winners[k] = states[k].hand_winner
    return winners


def rollout(rules: Rules, s: State, stream: Stream, on_native: bool = True) -> int:
    """Play the untraced position `s` (changed) to its end by the playout policy; the
    winning seat, or -1 when nobody wins."""
    finish_trick(rules, s, stream)
    return play_out(rules, [s], [stream], on_native)[0]


@cache
def playout_kernel(rules: Rules, players: int) -> Any:
    """The native kernel of `rules` at `players` with every seat on the playout policy,
    compiled; None where the native path does not run or cannot compile the profile."""
    if not native.available():
        return None
    from numba.core.errors import NumbaError

    from rulesdsl.native.kernel import rests_kernel
    from rulesdsl.native.lower import NativeError

    try:
        compiled = rests_kernel(rules, players, (POLICY,) * players)
        compiled.play_rests(adapter.rests([adapter.start(rules, players)], [Stream(0)]))
    except (NativeError, NumbaError):
        return None
    return compiled
