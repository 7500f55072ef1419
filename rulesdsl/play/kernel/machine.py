"""The kernel's interpreter of the programs a profile's stated rules compile to
(`program.py` says what a program is): `run_program` gives a program's value on the kernel's state.

It is written in the kernel's dialect (ints, `s.field[i]`, loops, `if`, calls of kernel
functions), so CPython runs it as it is and the native build compiles it. Its working
values are fields of the state (`state.FIELDS`), so a run allocates nothing. On the native
path a plan's programs also run as native code written from `run_program`'s own branches
(`rulesdsl.play.native.programs`); `run_rule` calls that where the plan has it.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.model.language.vocab import Aggregate
from rulesdsl.play.engine.masks import lowest, popcount
from rulesdsl.play.kernel.meanings import attr_value, cards_where, leaf_value, operate, set_of
from rulesdsl.play.kernel.primitives import call_native

WIDTH = 4
"""The numbers of an instruction: its operation and three operands."""
STACK = 64
"""The most values a program holds at once: one more than the deepest clause the checker
reads (`checker.MAX_DEPTH`) keeps waiting, with room for the rule's own."""
AGGREGATES = 160
"""The most aggregates one program holds: more than a rule can state, in its clauses of at
most `checker.MAX_CLAUSE` characters (an end rule has two), each aggregate written in 15
at least (`trick.has_trump`)."""
BOUND = 80
"""The most variables one program binds (`card` is 0): each clause's aggregates bind one
each."""

PUSH, LEAF, VAR, SLOT, ATTR, OPERATE, JUMP, UNLESS, BEGIN, NEXT, STEP, RETURN = range(12)
VAR_ATTR, LEAF_ATTR, OPERATE_WITH, KEPT, SET, COUNT_IN, ELSE_NONE, CARDS_WITH = range(12, 20)
"""The operations of a program (`program.py` says what each does)."""

FOLDS = (*Aggregate, "keep")
"""What an aggregate makes of the values of its body, by number: the language's aggregates,
and `keep`, a play filter's: the cards of the set for which its condition is false."""
ANY, ALL, COUNT, SUM, MAX, MIN, MOST, LEAST, KEEP = range(len(FOLDS))
"""Each fold's number, in the order of FOLDS (a test holds the two to one order)."""


def begin_fold(s: Any, slot: int, fold: int, members: int) -> None:
    """An aggregate starts: its value for an empty set (most and least: none)."""
    s.fold[slot] = fold
    s.rest[slot] = members
    s.folded[slot] = 1 if fold == ALL else (-1 if fold in (MOST, LEAST) else 0)
    s.leading[slot] = 0
    s.found[slot] = 0


def fold_value(s: Any, slot: int, x: int, member: int) -> None:
    """The aggregate takes its body's value `x` for `member`; any and all stop once they
    know."""
    fold = s.fold[slot]
    if fold == KEEP:
        if x == 0:
            s.folded[slot] |= 1 << member
    elif fold == ANY:
        if x != 0:
            s.folded[slot] = 1
            s.rest[slot] = 0
    elif fold == ALL:
        if x == 0:
            s.folded[slot] = 0
            s.rest[slot] = 0
    elif fold == COUNT:
        if x != 0:
            s.folded[slot] += 1
    elif fold == SUM:
        s.folded[slot] += x
    elif fold in (MAX, MIN):
        if s.found[slot] == 0 or (x > s.folded[slot] if fold == MAX else x < s.folded[slot]):
            s.folded[slot] = x
            s.found[slot] = 1
    elif fold in (MOST, LEAST):
        ahead = x > s.leading[slot] if fold == MOST else x < s.leading[slot]
        if s.folded[slot] < 0 or ahead:
            s.folded[slot] = member
            s.leading[slot] = x
            s.found[slot] = 0
        elif x == s.leading[slot]:
            s.found[slot] = 1


def end_fold(s: Any, slot: int) -> None:
    """Most and least tied: none."""
    fold = s.fold[slot]
    if fold in (MOST, LEAST) and s.found[slot] != 0:
        s.folded[slot] = -1


def take_member(s: Any, slot: int) -> int:
    """Aggregate `slot`'s next member, which its set leaves: of a mask, its lowest; of the
    tricks 1 to n (`-n`, `meanings.SETS`), the last. (An int: CPython scores a hand the
    compiled kernel played on its numpy record, `compiled.CompiledProfile.play`.)"""
    rest = int(s.rest[slot])
    if rest < 0:
        s.rest[slot] = rest + 1
        return -rest
    s.rest[slot] = rest & (rest - 1)
    return lowest(rest)


def next_member(s: Any, slot: int, var: int, body: int, end: int) -> int:
    """Bind `var` to aggregate `slot`'s next member and go on at its `body`; with none left,
    the aggregate ends and the program goes on at `end`."""
    if s.rest[slot] == 0:
        end_fold(s, slot)
        return end
    s.bound[var] = take_member(s, slot)
    return body


def run_rule(p: Any, pc: int, s: Any, seat: int, allowed: int, winner: int) -> int:
    """The program's value, by the plan's native code where it has some (`native.programs`)."""
    if p.native != 0:
        return call_native(p.native, s, pc, seat, allowed, winner)
    return run_program(p, pc, s, seat, allowed, winner)


def run_program(p: Any, pc: int, s: Any, seat: int, allowed: int, winner: int) -> int:
    """The value of the program at instruction `pc` of `p.program`, for `seat` (the player
    to move or who draws), the cards the rules before allow, and the hand's winner. The
    operations are tried in the order of how often rules run them."""
    top = 0
    while True:
        at = pc * WIDTH
        op, a, b, c = p.program[at], p.program[at + 1], p.program[at + 2], p.program[at + 3]
        pc += 1
        if op == VAR_ATTR:
            s.stack[top] = attr_value(b, s, s.bound[a])
            top += 1
        elif op == STEP:
            top -= 1
            fold_value(s, a, s.stack[top], s.bound[b])
            pc = next_member(s, a, b, c + 1, p.program[c * WIDTH + 3])  # the NEXT at c
        elif op == NEXT:
            pc = next_member(s, a, b, pc, c)
        elif op == UNLESS:
            top -= 1
            if s.stack[top] == 0:
                pc = a
        elif op == PUSH:
            s.stack[top] = a
            top += 1
        elif op == LEAF:
            s.stack[top] = leaf_value(a, s, seat, allowed, winner)
            top += 1
        elif op == ELSE_NONE:
            top -= 1
            if s.stack[top] == 0:
                return 0
        elif op == OPERATE_WITH:
            s.stack[top - 1] = operate(a, s, s.stack[top - 1], b)
        elif op == SLOT:
            s.stack[top] = s.folded[a]
            top += 1
        elif op == BEGIN:
            top -= 1
            begin_fold(s, a, b, s.stack[top])
        elif op == LEAF_ATTR:
            s.stack[top] = attr_value(b, s, leaf_value(a, s, seat, allowed, winner))
            top += 1
        elif op == COUNT_IN:
            s.stack[top - 1] = popcount(s.stack[top - 1] & a)
        elif op == SET:
            s.stack[top] = set_of(a, s, seat, allowed)
            top += 1
        elif op == CARDS_WITH:
            s.stack[top] = cards_where(a, s)
            top += 1
        elif op == OPERATE:
            if b == 2:
                top -= 1
            s.stack[top - 1] = operate(a, s, s.stack[top - 1], s.stack[top] if b == 2 else 0)
        elif op == VAR:
            s.stack[top] = s.bound[a]
            top += 1
        elif op == ATTR:
            s.stack[top - 1] = attr_value(a, s, s.stack[top - 1])
        elif op == JUMP:
            pc = a
        elif op == KEPT:
            s.stack[top] = allowed & ~a
            top += 1
        else:
            return s.stack[top - 1]
