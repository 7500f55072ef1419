"""The state of one hand as the kernel plays it: named fields of ints, cards as bit masks.

A card is `strength * 4 + suit` (as in rulesdsl.model.state), and a set of cards is an int
with bit `card` set for each card, so a hand, the cards a player may play and the cards of
a suit are each one int. A field is a number or a fixed-size row of numbers; its length,
where it is a list (the stock, the trick), is a field of its own.

The fields are declared once here. CPython plays on a `State` object made from them (plain
ints and lists); numba on a record of the numpy type `compiled.STATE`, with the same names. The
kernel's code reads and writes `s.name` and `s.name[i]` alike on both.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.state import TRICK_LIMIT_TRICKS
from rulesdsl.play.kernel.machine import AGGREGATES, BOUND, STACK

SEATS = PlayerRange.highest
"""The most seats a table has."""
CARDS = 52
"""The most cards a deck holds."""
TRICKS = TRICK_LIMIT_TRICKS + 1
"""The most tricks a hand plays, and the none before the first (the hand's memory)."""


class Field(NamedTuple):
    name: str
    size: int = 0  # 0: one number; else a row of `size`
    dtype: str = "int64"  # its numpy type's name
    meaning: str = ""
    length: str = ""  # the field that counts the row's items in use, where it is a list
    copied: bool = True  # False: working space, not part of a position (not copied)
    stride: int = 1  # the numbers each item of a list takes
    dealt: int | None = None  # its value (each item's) as every hand is dealt (`clear_hand`)


FIELDS = (
    Field("players"),
    Field("hands", SEATS, meaning="each seat's cards, a mask", dealt=0),
    Field("active", SEATS, "int8", "1 for a seat still in the hand"),
    Field("remaining", meaning="the seats still in the hand"),
    Field("stock", CARDS, meaning="the stock, its top card last", length="stock_len"),
    Field("stock_len"),
    Field(
        "set_aside",
        CARDS,
        meaning="the cards of the tricks won, in play order",
        length="set_aside_len",
    ),
    Field("set_aside_len", dealt=0),
    Field("trump", meaning="the trump suit, -1 for none"),
    Field("shown", meaning="the card that named trump at the deal, -1 for none", dealt=-1),
    Field("trumps_broken", meaning="1 once a trump is played to a trick of the hand", dealt=0),
    Field("leader"),
    Field("first_leader", meaning="who led the hand's first trick"),
    Field("trick", SEATS, meaning="the cards played to this trick, in order", length="trick_len"),
    Field("trick_len", dealt=0),
    Field("trick_seats", SEATS, meaning="who plays to this trick, from the leader"),
    Field("seats_len", dealt=0),
    Field("trick_number", meaning="tricks completed", dealt=0),
    Field("tricks_won", SEATS, dealt=0),
    Field("last_win", SEATS, meaning="each seat's last trick won, -1 for none", dealt=-1),
    Field("opening", meaning="1 before the hand's first lead", dealt=1),
    Field("led", meaning="the suit led, -1 at the lead", dealt=-1),
    Field("holding", meaning="the cards of the led suit the player to move holds", dealt=0),
    Field("best", meaning="the card winning the trick so far, -1 before the lead", dealt=-1),
    Field("winner", meaning="the seat of `best`", dealt=-1),
    Field("over", dealt=0),
    Field("end_reason", meaning="the index of the EndReason", dealt=-1),
    Field("hand_winner", meaning="-1 for none", dealt=-1),
    Field(
        "eliminated",
        SEATS,
        meaning="each seat out, as trick * SEATS + seat, in order",
        length="eliminated_len",
    ),
    Field("eliminated_len", dealt=0),
    Field("trick_winners", TRICK_LIMIT_TRICKS, "int8", length="trick_number"),
    Field("drawers", SEATS, meaning="who draws after this trick, in order"),
    Field("plays", dealt=0),
    Field("saves", dealt=0),
    Field("fired", meaning="the bits of the rules that fired", dealt=0),
    Field("shuffle_seed", dtype="uint64", meaning="the stream of reshuffles: its seed"),
    Field("shuffle_drawn", meaning="the stream of reshuffles: the numbers drawn", dealt=0),
    Field("refills", meaning="the times an empty stock was refilled with cards", dealt=0),
    # The hand's memory (rulesdsl.model.state.MEMORY; who won each trick is `trick_winners`),
    # kept where a profile's rules read it
    Field("hand_played", meaning="the cards played to the tricks won, a mask", dealt=0),
    Field("won", SEATS, meaning="the cards each seat won in tricks, a mask", dealt=0),
    Field("streak", meaning="the tricks in a row `streak_seat` won, up to the last trick", dealt=0),
    Field("streak_seat", meaning="who won the last trick, -1 before the first", dealt=-1),
    Field("remembered", meaning="tricks remembered, and the none before the first", dealt=0),
    *(
        Field(name, size, copied=False, meaning=f"a stated rule's program (machine.py): {what}")
        for name, size, what in (
            ("stack", STACK, "the values it holds"),
            ("bound", BOUND, "the value of each bound variable"),
            ("folded", AGGREGATES, "each aggregate's value so far, then its value"),
            ("fold", AGGREGATES, "what each aggregate makes of its values (FOLDS)"),
            ("leading", AGGREGATES, "the best value of a most or least"),
            ("found", AGGREGATES, "1 once a max or min has a value; a tie"),
            ("rest", AGGREGATES, "the members of each aggregate's set not reached"),
        )
    ),
    # The memory's rows by trick, last: a state that keeps none is copied from its first pages
    *(
        Field(f"history_{name}", TRICKS, dtype, f"by trick number (0: none): {what}", "remembered")
        for name, dtype, what in (
            ("leader", "int8", "who led it"),
            ("led", "int8", "the suit led to it"),
            ("best", "int8", "the card that won it"),
            ("cards", "int64", "the cards played to it, a mask"),
        )
    ),
    Field(
        "history_plays",
        TRICKS * SEATS,
        "int8",
        "by trick number, then seat: the card each seat played to it, -1 for none",
        length="remembered",
        stride=SEATS,
    ),
)
"""Every field of the state."""

PLAYS = TRICK_LIMIT_TRICKS * SEATS
"""The most cards a hand plays."""
SLOTS = CARDS + PLAYS
"""The most cards a hand's players take into their hands (dealt and drawn)."""
EPOCHS = TRICK_LIMIT_TRICKS + 1
"""The deck and the most stocks a hand's reshuffles make."""

SEEN_FIELDS = (
    Field("dealer"),
    Field("plays_len"),
    Field("play_seat", PLAYS, "int8", "who played the i-th card of the hand"),
    Field("play_card", PLAYS, "int8", "the i-th card of the hand played"),
    Field("excluded", PLAYS, meaning="the cards its player cannot have held then (a mask)"),
    Field("read", PLAYS, meaning="the same, its player playing as the heuristic bot"),
    Field("slots_len"),
    Field("slot_seat", SLOTS, "int8", "who took the k-th card into its hand: dealt, drawn"),
    Field("slot_time", SLOTS, "int32", "how many cards were played before it was taken"),
    Field("slot_epoch", SLOTS, "int16", "the stock it came from: 0 the deck, e the e-th refill"),
    Field("slot_card", SLOTS, "int8", "the card: only its taker sees it"),
    Field("epochs", meaning="the refills of the stock so far"),
    Field("pool", EPOCHS, meaning="the cards of the deck, then of each refilled stock, a mask"),
    Field("pool_time", EPOCHS, "int32", "how many cards were played before each refill"),
    Field("aside", meaning="the cards set aside since the last refill, a mask"),
    Field("held", SEATS, meaning="each seat's cards before the draw of this trick"),
    Field("fewest", meaning="the seats that held strictly the fewest cards at some trick's start"),
    Field("unread", meaning="the seats that found the others do not play as the heuristic bot"),
)
"""What a hand's seats see, as it is played: the cards played in order, the cards taken
into hands (each seat sees its own), the refilled stocks' cards. Searching seats read
their information set from it (`rulesdsl.play.kernel.worlds`); only the seat that took a
card reads `slot_card`."""


def record_type(fields: tuple[Field, ...]) -> Any:
    """The numpy type of a record of `fields` (for numba: CPython plays without numpy)."""
    import numpy as np

    return np.dtype([(f.name, f.dtype, (f.size,) if f.size else ()) for f in fields], align=True)


def record_class(name: str, fields: tuple[Field, ...]) -> type:
    """A class for CPython with a slot for each of `fields`, each zero (rows as lists)."""

    def __init__(self: Any) -> None:
        for f in fields:
            setattr(self, f.name, [0] * f.size if f.size else 0)

    return type(name, (), {"__slots__": tuple(f.name for f in fields), "__init__": __init__})


def copy_source(native: bool = False) -> str:
    """The text of `copy_state(a, b)`, which makes the state `b` a copy of `a` (of a list,
    the items in use): a row copied by slices for CPython, item by item for numba (which
    compiles that to about half the time of the slices: 61 against 119 ns a state)."""
    lines = ["def copy_state(a, b):"]
    for f in (f for f in FIELDS if f.copied):
        used = f"a.{f.length}" + (f" * {f.stride}" if f.stride > 1 else "") if f.length else ""
        if not f.size:
            lines.append(f"    b.{f.name} = a.{f.name}")
        elif native:
            lines.append(f"    for k in range({used or f.size}):")
            lines.append(f"        b.{f.name}[k] = a.{f.name}[k]")
        else:
            lines.append(f"    b.{f.name}[:{used}] = a.{f.name}" + (f"[:{used}]" if used else ""))
    return "\n".join(lines) + "\n"


def clear_source() -> str:
    """The text of `clear_hand(s)`, which gives each field its value as a hand is dealt
    (`Field.dealt`)."""
    lines = ["def clear_hand(s):"]
    for f in (f for f in FIELDS if f.dealt is not None):
        if f.size:
            lines += [f"    for k in range({f.size}):", f"        s.{f.name}[k] = {f.dealt}"]
        else:
            lines.append(f"    s.{f.name} = {f.dealt}")
    return "\n".join(lines) + "\n"


_defined: dict[str, Any] = {}
exec(compile(copy_source() + clear_source(), "<rulesdsl kernel state>", "exec"), _defined)
copy_state, clear_hand = _defined["copy_state"], _defined["clear_hand"]
"""Make the state `b` a copy of `a`; give the fields of `s` their values at the deal (CPython
runs both; the native build compiles their text)."""

State = record_class("State", FIELDS)
"""A state for CPython."""
Seen = record_class("Seen", SEEN_FIELDS)
