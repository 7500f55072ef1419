"""What may be written at the cursor in a rule's clause: the place the clause acts at, and
what the expression there needs (a condition, a number, a seat, a set to range over, a
new letter), read from the text before the cursor as far as it goes, so it works while
the clause does not parse.

    refuse lead if card.trump and |     a condition at a lead
    draw count(c in |                   a set of cards or seats at a draw
    draw count(c in held where |        a condition on `c`, a card, at a draw
    score 2 if hand.winner == |         not known: any value (not a set) at the score
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rulesdsl.model.language.rule import Clause, RuleKind, Target
from rulesdsl.model.language.vocab import (
    AGGREGATE_TYPES,
    ATTRIBUTES,
    CALLS,
    ELEMENTS,
    FUNCTIONS,
    NAMES,
    SEAT_ONLY,
    Aggregate,
    Type,
    Where,
)
from rulesdsl.read.language.checker import ORDERED, ORDERED_TYPES, card_pattern
from rulesdsl.read.language.compile import COUNTS, SEAT_CLAUSES, TARGET_WHERE

TOKEN = re.compile(
    rf"{card_pattern()}|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|\d+|==|!=|<=|>=|\S"
)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
QUOTES = "\"'"
"""The quotes a YAML clause may be written in."""


class Need(Enum):
    """What the expression needs at the cursor, besides a value of a type."""

    VALUE = "value"  # a value (of `ClauseSlot.wanted`, when known)
    SET = "set"  # the set an aggregate ranges over
    LETTER = "letter"  # a new letter for an aggregate to bind: nothing to offer
    IN = "in"  # `in`, after an aggregate's letter
    FILTER = "filter"  # after an aggregate's set: `where` (a filter) or `:` (the body)
    OPERATOR = "operator"  # after a value: `and`, `or`, `if`, `else`
    IF = "if"  # after `refuse lead`
    END = "end"  # after `end`: `after trick` or `when`
    TRICK = "trick"  # after `end after`
    NOTHING = "nothing"  # a number, or nothing this reading knows


@dataclass(frozen=True)
class ClauseSlot:
    """At the cursor: the place, what is needed, and the letters bound there by the
    aggregates around it (with the type of each)."""

    where: Where
    need: Need
    wanted: Type | None = None  # the type of the value needed, when known
    seats_only: bool = False  # a set for `most` or `least`
    bound: dict[str, Type] = field(default_factory=dict)
    open_if: bool = False  # an `if` before it still waits for its `else`


@dataclass
class _Frame:
    """An open parenthesis (or the whole clause): the type its expression has, and for an
    aggregate's, the aggregate, its letter and its set."""

    wanted: Type | None
    aggregate: str = ""
    letter: str = ""
    over: str = ""
    ifs: int = 0
    body: bool = False  # past the aggregate's `:`


def clause_slot(clause: str, rest: str) -> ClauseSlot | None:
    """What may stand at the end of `rest`, the text after a clause word (the word being
    typed left out); None where the clause takes no expression."""
    if clause in COUNTS_WHERE:
        return expression_slot(COUNTS_WHERE[clause], Type.INT, rest)
    if clause == Clause.WINNER:
        return expression_slot(Where.END, Type.MAYBE_SEAT, rest)
    if clause in SEAT_CLAUSES:
        return expression_slot(SEAT_CLAUSES[RuleKind(clause)][0], Type.MAYBE_SEAT, rest)
    if clause == Clause.END:
        head = re.match(r"\s*(\w+)", rest)
        if head is None:
            return ClauseSlot(Where.END, Need.END)
        if head.group(1) == "when":
            return expression_slot(Where.END, Type.BOOL, rest[head.end() :])
        if head.group(1) == "after" and not re.match(r"\s*after\s+trick\b", rest):
            return ClauseSlot(Where.END, Need.TRICK)
        return ClauseSlot(Where.END, Need.NOTHING)
    if clause == Clause.REFUSE:
        said = re.match(r"\s*(\w+)(\s+if\b)?", rest)
        if said is None or said.group(1) not in set(Target):
            return None
        where = TARGET_WHERE[Target(said.group(1))]
        if said.group(2) is None:
            return ClauseSlot(where, Need.IF)
        return expression_slot(where, Type.BOOL, rest[said.end() :])
    if clause == Clause.OUT:
        said = re.match(r"\s*if\b", rest)
        if said is None:
            return ClauseSlot(Where.OUT, Need.IF)
        return expression_slot(Where.OUT, Type.BOOL, rest[said.end() :])
    return None


# Where each count clause (`draw`, `score`) is evaluated.
COUNTS_WHERE = {str(kind): where for kind, (where, _, _) in COUNTS.items()}


def expression_slot(where: Where, wanted: Type, text: str) -> ClauseSlot:
    """What may stand after `text`, the start of an expression of the wanted type."""
    frames = [_Frame(wanted)]
    need, now = Need.VALUE, wanted
    before, left = "", None
    for token in (found.group() for found in TOKEN.finditer(text)):
        frame = frames[-1]
        if token in ORDERED:  # in the order of what it compares: numbers, or ranks
            need, now = Need.VALUE, left if left in ORDERED_TYPES else Type.INT
        elif token == "(":
            frames.append(_opened(before, now))
            need, now = (Need.LETTER, None) if frames[-1].aggregate else (Need.VALUE, now)
            if frames[-1].aggregate in CALLS:  # `max(` is a call of numbers, or an aggregate
                need, now = Need.VALUE, Type.INT
            elif frames[-1].aggregate in FUNCTIONS:  # `card_of(`: a seat, then a trick
                need, now = Need.VALUE, FUNCTIONS[frames[-1].aggregate].params[0]
        elif token == ")":
            if len(frames) > 1:
                frames.pop()
            need, now = Need.OPERATOR, None
        else:
            need, now = _after(token, before, frame, need)
        left = path_type(token, where, _bound(frames)) if WORD.fullmatch(token) else None
        before = token
    frame = frames[-1]
    seats_only = frame.aggregate in SEAT_ONLY
    bound = _bound(frames)
    return ClauseSlot(where, need, now, seats_only, bound, open_if=frame.ifs > 0)


def _opened(before: str, now: Type | None) -> _Frame:
    """The frame a `(` opens: an aggregate's or a call's after its name, else a group of
    the type needed where it stands."""
    if before in set(Aggregate) or before in CALLS or before in FUNCTIONS:
        return _Frame(None, aggregate=before)
    return _Frame(now)


def _after(token: str, before: str, frame: _Frame, need: Need) -> tuple[Need, Type | None]:
    """What is needed after the token (which follows `before`), in the frame (which it may
    change: an aggregate's letter and set, an `if` waiting for its `else`)."""
    if token in ("and", "or", "not"):
        return Need.VALUE, Type.BOOL
    if token == "if":
        frame.ifs += 1
        return Need.VALUE, Type.BOOL
    if token == "else":
        frame.ifs = max(0, frame.ifs - 1)
        return Need.VALUE, frame.wanted
    if token in ("+", "-", "*", ","):
        return Need.VALUE, Type.INT
    if token in ("==", "!="):
        return Need.VALUE, None
    if frame.aggregate and token == "in":
        frame.letter = before
        return Need.SET, None
    if frame.aggregate and token == "where" and frame.over and not frame.body:  # a filter
        frame.wanted = Type.BOOL
        return Need.VALUE, Type.BOOL
    if frame.aggregate and token == ":":
        frame.body = True
        frame.wanted = AGGREGATE_TYPES[Aggregate(frame.aggregate)][0]
        return Need.VALUE, frame.wanted
    if need is Need.LETTER and WORD.fullmatch(token):
        return Need.IN, None
    if need is Need.SET and WORD.fullmatch(token):
        frame.over = token
        return Need.FILTER, None
    return Need.OPERATOR, None


def _bound(frames: list[_Frame]) -> dict[str, Type]:
    """The letters the open aggregates bind, each of its set's element type (a set named,
    `seats`, or an attribute, `p.won`, of a letter bound around it)."""
    bound: dict[str, Type] = {}
    for frame in frames:
        over = path_type(frame.over, None, bound) if frame.over else None
        if frame.letter and over in ELEMENTS:
            bound[frame.letter] = ELEMENTS[over]
    return bound


def path_type(path: str, where: Where | None, bound: Mapping[str, Type]) -> Type | None:
    """The type of a written path (`hand.winner.won`, `t.best.rank` for a bound `t`), None
    where it is no value, or (at a place given) a part of it has no value there."""
    parts = path.split(".")
    if parts[0] in bound:
        kind, rest = bound[parts[0]], parts[1:]
    else:
        used = next((n for n in (2, 1) if ".".join(parts[:n]) in NAMES), 0)
        name = NAMES.get(".".join(parts[:used]))
        if name is None or (where is not None and where not in name.where):
            return None
        kind, rest = name.type, parts[used:]
    for attribute in rest:
        found = ATTRIBUTES.get((kind, attribute))
        if found is None or (where is not None and where not in found.where):
            return None
        kind = found.type
    return kind
