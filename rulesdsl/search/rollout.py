"""Playing a world out: from a position to the end of the hand, every seat choosing a legal
card uniformly at random. One call, so a faster engine can serve it behind the same name.
"""

from __future__ import annotations

from rulesdsl.engine import fast
from rulesdsl.engine.plan import plan_for
from rulesdsl.engine.state import State
from rulesdsl.rules import Rules
from rulesdsl.search import adapter
from rulesdsl.stream import Stream

POLICY = "random"
"""How the seats play in a rollout: a legal card uniformly at random."""


def rollout(rules: Rules, s: State, stream: Stream) -> int:
    """Play the untraced position `s` (changed) to its end by random play; the winning
    seat, or -1 when nobody wins."""
    plan = plan_for(rules)
    uniform = stream.random
    while s.trick and not s.over:  # finish the trick in progress
        allowed = adapter.legal(s, plan)
        adapter.advance(s, plan, allowed[int(uniform() * len(allowed))])
    if not s.over:
        fast.play_tricks(s, plan, fast.pick_random, uniform)
    return s.hand_winner


def hand_seed(stream: Stream) -> int:
    """A 64-bit seed for a world's reshuffles, from the stream."""
    return int(stream.random() * 2.0**53) ^ (int(stream.random() * 2.0**53) << 11)
