"""The state of one hand as the kernel plays it: named fields of ints, cards as bit masks.

A card is `strength * 4 + suit` (as in rulesdsl.model.state), and a set of cards is an int
with bit `card` set for each card, so a hand, the cards a player may play and the cards of
a suit are each one int. A field is a number or a fixed-size row of numbers; its length,
where it is a list (the stock, the trick), is a field of its own.

The fields are declared once here. CPython plays on a `State` object made from them (plain
ints and lists); numba on a record of the numpy type `STATE`, with the same names. The
kernel's code reads and writes `s.name` and `s.name[i]` alike on both.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.state import TRICK_LIMIT_TRICKS
from rulesdsl.play.kernel.machine import BOUND, SLOTS, STACK

SEATS = PlayerRange.highest
"""The most seats a table has."""
CARDS = 52
"""The most cards a deck holds."""


class Field(NamedTuple):
    name: str
    size: int = 0  # 0: one number; else a row of `size`
    dtype: Any = np.int64
    meaning: str = ""


FIELDS = (
    Field("players"),
    Field("hands", SEATS, meaning="each seat's cards, a mask"),
    Field("active", SEATS, np.int8, "1 for a seat still in the hand"),
    Field("remaining", meaning="the seats still in the hand"),
    Field("stock", CARDS, meaning="the stock, its top card last"),
    Field("stock_len"),
    Field("set_aside", CARDS, meaning="the cards of the tricks won, in play order"),
    Field("set_aside_len"),
    Field("trump", meaning="the trump suit, -1 for none"),
    Field("trumps_broken", meaning="1 once a trump is played to a trick of the hand"),
    Field("leader"),
    Field("first_leader", meaning="who led the hand's first trick"),
    Field("trick", SEATS, meaning="the cards played to this trick, in order"),
    Field("trick_len"),
    Field("trick_seats", SEATS, meaning="who plays to this trick, from the leader"),
    Field("seats_len"),
    Field("trick_number", meaning="tricks completed"),
    Field("tricks_won", SEATS),
    Field("last_win", SEATS, meaning="the number of each seat's last trick won, -1 for none"),
    Field("opening", meaning="1 before the hand's first lead"),
    Field("led", meaning="the suit led, -1 at the lead"),
    Field("holding", meaning="the cards of the led suit the player to move holds"),
    Field("best", meaning="the card winning the trick so far, -1 before the lead"),
    Field("winner", meaning="the seat of `best`"),
    Field("over"),
    Field("end_reason", meaning="the index of the EndReason"),
    Field("hand_winner", meaning="-1 for none"),
    Field("eliminated", SEATS, meaning="each seat out, as trick * SEATS + seat, in order"),
    Field("eliminated_len"),
    Field("trick_winners", TRICK_LIMIT_TRICKS, np.int8),
    Field("drawers", SEATS, meaning="who draws after this trick, in order"),
    Field("plays"),
    Field("saves"),
    Field("fired", meaning="the bits of the rules that fired"),
    Field("shuffle_seed", dtype=np.uint64, meaning="the stream of reshuffles: its seed"),
    Field("shuffle_drawn", meaning="the stream of reshuffles: the numbers drawn"),
    Field("stack", STACK, meaning="a stated rule's program (machine.py): the values it holds"),
    Field("bound", BOUND, meaning="a program: the value of each bound variable"),
    Field("folded", SLOTS, meaning="a program: each aggregate's value so far, then its value"),
    Field("fold", SLOTS, meaning="a program: what each aggregate makes of its values (FOLDS)"),
    Field("leading", SLOTS, meaning="a program: the best value of a most or least"),
    Field("found", SLOTS, meaning="a program: 1 once a max or min has a value; a tie"),
    Field("rest", SLOTS, meaning="a program: the members of each aggregate's set not reached"),
)
"""Every field of the state."""


def record_type(fields: tuple[Field, ...]) -> np.dtype:
    """The numpy type of a record of `fields`."""
    return np.dtype(
        [(f.name, f.dtype, (f.size,)) if f.size else (f.name, f.dtype) for f in fields],
        align=True,
    )


def record_class(name: str, fields: tuple[Field, ...]) -> type:
    """A class for CPython with a slot for each of `fields`, each zero (rows as lists)."""
    names = tuple(f.name for f in fields)
    sizes = tuple(f.size for f in fields)

    def __init__(self: Any) -> None:
        for field, size in zip(names, sizes, strict=True):
            setattr(self, field, [0] * size if size else 0)

    return type(name, (), {"__slots__": names, "__init__": __init__})


STATE = record_type(FIELDS)
"""The numpy type of a state record: numba plays on `np.zeros(1, STATE)[0]`."""
State = record_class("State", FIELDS)
"""A state for CPython."""
