"""Playing a world out: from a position to the end of the hand, every seat playing as the
heuristic bot does, except that with probability EXPLORE a seat plays a legal card
chosen uniformly at random instead (so the playouts of one world differ). One call, so a
faster engine can serve it behind the same name.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesdsl.engine import fast
from rulesdsl.engine.plan import plan_for
from rulesdsl.engine.state import State
from rulesdsl.rules import Rules
from rulesdsl.search import adapter
from rulesdsl.stream import Stream

EXPLORE = 0.2
"""The chance that a seat in a playout plays a random legal card, not the heuristic's."""


def pick(s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool) -> int:
    """The playout policy: the heuristic bot's card, or with probability EXPLORE a random one."""
    if uniform() < EXPLORE:
        return allowed[int(uniform() * len(allowed))]
    return fast.heuristic(allowed, s.trump, s.led, s.best, last)


def rollout(rules: Rules, s: State, stream: Stream) -> int:
    """Play the untraced position `s` (changed) to its end by the playout policy; the
    winning seat, or -1 when nobody wins."""
    plan = plan_for(rules)
    uniform = stream.random
    while s.trick and not s.over:  # finish the trick in progress
        last = len(s.trick) == len(s.trick_seats) - 1
        adapter.advance(s, plan, pick(s, adapter.mover(s), adapter.legal(s, plan), uniform, last))
    if not s.over:
        fast.play_tricks(s, plan, pick, uniform)
    return s.hand_winner
