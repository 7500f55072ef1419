"""The state of one hand in ints: what the step functions of the rules read and change.

A card is `strength * 4 + suit`, where strength counts from the lowest rank of the
profile's order, so int order is play order: the lowest card is `min`, the highest `max`.
A suit is `card & 3`; no trump is -1. Hands are sorted; the stock's top card is at the end,
so `pop()` draws it. The names here are the vocabulary the rules are written against.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.model.stream import Stream

NO_CARD = -1
"""No card: `led` and `best` before the lead, `trump` without a trump suit."""


class State:
    """One hand, as ints and lists of ints (and the stream of reshuffles)."""

    __slots__ = (
        "active",
        "best",
        "eliminated",
        "end_reason",
        "fired",
        "first_leader",
        "hand_seed",
        "hand_winner",
        "hands",
        "holding",
        "last_win",
        "leader",
        "led",
        "log",
        "opening",
        "over",
        "players",
        "plays",
        "refused",
        "remaining",
        "rng",
        "saves",
        "set_aside",
        "stock",
        "trace",
        "trick",
        "trick_number",
        "trick_seats",
        "trick_winners",
        "tricks_won",
        "trump",
        "trumps_broken",
        "winner",
    )

    def __init__(
        self,
        hands: list[list[int]],
        stock: list[int],
        trump: int,
        leader: int,
        active: list[bool],
        trace: bool,
    ) -> None:
        players = len(hands)
        self.players = players
        self.hands = hands
        self.active = active
        self.remaining = active.count(True)
        self.stock = stock
        self.set_aside: list[int] = []
        self.trump = trump
        self.trumps_broken = False  # a trump was played to an earlier trick of the hand
        self.leader = leader
        self.first_leader = leader  # who led the first trick of this hand
        self.trick: list[int] = []
        self.trick_seats: Sequence[int] = []  # who plays to this trick, from the leader
        self.trick_number = 0  # tricks completed
        self.tricks_won = [0] * players
        self.last_win = [-1] * players
        self.opening = True
        self.led = NO_CARD  # the suit led, at the lead none
        self.holding: list[int] = []  # the cards of the led suit the player to move holds
        self.best = NO_CARD  # the card winning the trick so far
        self.winner = -1  # the seat of `best`
        self.over = False
        self.end_reason = -1  # the index of the EndReason
        self.hand_winner = -1
        self.eliminated: list[tuple[int, int]] = []  # (trick, seat), in order
        self.trick_winners: list[int] = []
        self.plays = 0
        self.saves = 0
        self.fired = 0  # the bits of the rules that fired (rule coverage)
        self.rng: Stream | None = None  # shuffles reshuffles; made on first use
        self.hand_seed = 0  # seeds `rng` when it is made
        self.trace = trace  # record events and refusals
        self.log: list[tuple] = []  # the events, when tracing
        self.refused: list[tuple[str, list[int]]] = []  # the last move's refusals, by rule
