"""The one place the reference sampler touches the engine's int State: replaying a world,
asking what a seat may play with other cards in its hand, and a world's position.

Everything else in `worlds_oracle` goes through the reference engine's public API
(`Hand.deal`, `play`, `refusals`, `copy`, events).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.model.state import State
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.hand import Hand, codes_for
from rulesdsl.play.engine.steps import Plan


class ScriptedShuffle:
    """Stands in for the stream of reshuffles while a world is replayed: each reshuffle
    puts the set-aside cards in the order the world says, by handing the engine's
    Fisher-Yates shuffle (rulesdsl.model.seeds.shuffle) the uniforms that lead there."""

    def __init__(self, state: State, orders: Sequence[Sequence[int]]) -> None:
        self.state = state
        self.orders = [list(order) for order in orders]

    def _next(self, cards: Sequence[int]) -> list[int]:
        target = self.orders.pop(0)
        if sorted(target) != sorted(cards):
            raise ValueError("a scripted reshuffle does not hold the set-aside cards")
        return target

    def take(self, count: int) -> list[float]:
        work = list(self.state.set_aside)
        if count != len(work) - 1:
            raise ValueError("a scripted reshuffle is asked for another shuffle")
        target = self._next(work)
        uniforms = []
        for i in range(len(work) - 1, 0, -1):
            j = work.index(target[i])
            work[i], work[j] = work[j], work[i]
            uniforms.append((j + 0.5) / (i + 1))
        return uniforms


def deal_world(
    rules: Rules,
    players: int,
    dealer: int,
    order: Sequence[Card],
    reshuffles: Sequence[Sequence[Card]],
) -> Hand:
    """A hand dealt from `order` whose reshuffles give `reshuffles`, in turn."""
    hand = Hand.deal(rules, players, dealer, order=list(order))
    ints = codes_for(rules).ints
    hand.s.rng = ScriptedShuffle(hand.s, [ints(r) for r in reshuffles])  # type: ignore[assignment]
    return hand


def force(hand: Hand, card: Card) -> None:
    """Play `card` for the player to move, whatever the play rules say of it (the player
    must hold it): for replaying a world that is not yet known to be consistent."""
    hand.refusals = dict  # type: ignore[method-assign]
    try:
        hand.play(card)
    finally:
        del hand.refusals


def probe(position: Hand) -> State:
    """A copy of `position`'s int State to ask `may_play` of (its events left behind)."""
    c = copy_state(position.s)
    c.log = []
    return c


def may_play(s: State, plan: Plan, held: list[int], card: int) -> bool:
    """Whether the player to move in `s` may play `card` when holding `held` (engine ints,
    sorted, `card` among them) instead of its own cards: the rules read the mover's cards
    and what every seat sees, never the other hands' cards. `s` is left as it was."""
    seat = mover(s)
    own, fired = s.hands[seat], s.fired
    s.hands[seat] = held
    try:
        return card in legal(s, plan)
    finally:
        s.hands[seat], s.fired = own, fired


def position_state(
    now: Hand, hands: dict[int, Sequence[Card]], stock: Sequence[Card], hand_seed: int
) -> State:
    """A copy of `now`'s int State with the given seats' cards and the stock (top first)
    put in, untraced, its reshuffles seeded by `hand_seed`: a world to play out."""
    ints = codes_for(now.rules).ints
    s = now.s
    c = State(
        [sorted(ints(hands[p])) if p in hands else list(h) for p, h in enumerate(s.hands)],
        ints(reversed(stock)),
        s.trump,
        s.leader,
        list(s.active),
        False,
    )
    for name in State.__slots__:
        if name not in {"hands", "stock", "active", "trace", "log", "refused", "rng"}:
            value = getattr(s, name)
            setattr(c, name, list(value) if isinstance(value, list) else value)
    c.remaining = s.remaining
    c.rng = None
    c.hand_seed = hand_seed
    return c


def copy_state(s: State) -> State:
    """An independent copy of an untraced State (its lists of cards its own)."""
    c = State.__new__(State)
    for name in State.__slots__:
        value = getattr(s, name)
        setattr(c, name, list(value) if isinstance(value, list) else value)
    c.hands = [list(h) for h in s.hands]
    return c


def mover(s: State) -> int:
    """The seat to play in `s`."""
    return s.trick_seats[len(s.trick)]


def legal(s: State, plan: Plan) -> list[int]:
    """The cards the seat to play may play in `s` (a new list)."""
    seat = mover(s)
    if s.trick:
        return list(steps.follow_allowed(s, plan, seat))
    return list(steps.allowed_cards(s, plan.lead_rules, seat))
