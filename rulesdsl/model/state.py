"""The state of one hand in ints: what the step functions of the rules read and change.

A card is `strength * 4 + suit`, where strength counts from the lowest rank of the
profile's order, so int order is play order: the lowest card is `min`, the highest `max`.
A suit is `card & 3`; no trump is -1. Hands are sorted; the stock's top card is at the end,
so `pop()` draws it. The names here are the vocabulary the rules are written against.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rulesdsl.model.stream import Stream, number

NO_CARD = -1
"""No card: `led` and `best` before the lead, `trump` without a trump suit."""

CORE = "core"
"""The fixed order of a trick, where no rule decides."""

NO_END = -2
"""What an end check returns when the hand goes on; -1 is an end with no winner."""

# The index of each EndReason (rulesdsl.model.result), as the state keeps it.
STOCK_EXHAUSTED, LAST_PLAYER, ALL_OUT, MOST_TRICKS, TRICK_LIMIT, HOUSE_RULE = range(6)

# A hand that has not ended after this many tricks stops with reason `trick_limit`.
# Only profiles that the validator flags as possibly endless can reach it.
TRICK_LIMIT_TRICKS = 2000


MEMORY = (
    "hand_played",
    "history_best",
    "history_cards",
    "history_leader",
    "history_led",
    "history_plays",
    "history_winner",
    "streak",
    "streak_seat",
    "won",
)
"""The fields of the hand's memory: kept where a profile's rules read one."""


def reads_memory(code: str) -> bool:
    """Whether a rule's code reads the hand's memory."""
    return any(f"s.{field}" in code for field in MEMORY)


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
        "played_by",
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
        *MEMORY,
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
        # The memory of the hand, read by the rules a profile states: each trick won so
        # far by its number (1 for the first; 0 holds none, for the trick before the
        # first), the cards played to them and the cards each seat won (each once), and
        # the tricks in a row `streak_seat` won, up to the last.
        self.history_leader = [-1]
        self.history_led = [NO_CARD]
        self.history_winner = [-1]
        self.history_best = [NO_CARD]
        self.history_cards: list[list[int]] = [[]]
        self.history_plays: list[list[int]] = [[NO_CARD] * players]  # by seat
        self.hand_played: list[int] = []
        self.won: list[list[int]] = [[] for _ in range(players)]
        self.streak = 0
        self.streak_seat = -1
        self.played_by = [NO_CARD] * players  # the card each seat played to this trick
        self.plays = 0
        self.saves = 0
        self.fired = 0  # the bits of the rules that fired (rule coverage)
        self.rng: Stream | None = None  # shuffles reshuffles; made on first use
        self.hand_seed = 0  # seeds `rng` when it is made
        self.trace = trace  # record events and refusals
        self.log: list[tuple] = []  # the events, when tracing
        self.refused: list[tuple[str, list[int]]] = []  # the last move's refusals, by rule


class Refill(NamedTuple):
    """What an empty stock does as a card is to be drawn: `refill(s)` says whether the rule
    acted (it fires); `reshuffles` whether it can ever put cards back in the stock."""

    refill: Callable[[State], bool]
    reshuffles: bool


def beats(card: int, best: int, led: int, trump: int) -> bool:
    """Step 2: whether `card` beats `best` in a trick led in `led`: a trump beats any other
    suit and a lower trump; otherwise only a higher card of the led suit wins."""
    return (
        (best & 3 != trump or card > best)
        if card & 3 == trump
        else (card > best and card & 3 == led and best & 3 == led)
    )


# The seats clockwise from each leader, for every table size: ROTATIONS[players][leader].
ROTATIONS = tuple(
    tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in range(11)
)


def reshuffle_rng(s: State) -> Stream:
    """The stream of reshuffles, made from the hand's seed on first use: seeded by the
    first number of the hand's stream, as `Hand.deal` seeds it from a deck order."""
    rng = s.rng
    if rng is None:
        rng = Stream(number(s.hand_seed, 1))
        s.rng = rng
    return rng
