"""The limits a rule's expressions keep, read off their checked trees as a profile is read.

Every number a rule can compute lies within ±NUMBER_LIMIT in any game: the vocabulary states
the span of every number it names (`Name.span`, `Attribute.span`), and each operator's span
follows from its operands'. So no engine's arithmetic can overflow, and the native path
computes exactly what Python does. The work of one decision (a filter deciding on every
card a player may play, an end rule and its winner, a count) is at most WORK_LIMIT steps,
each aggregate costing its set's largest size times its filter (`where`) and its body. A
clause that breaks either is an error at the part that breaks it.

The checker uses the spans for the fact section 3 of docs/rules.md states of the draw option too: a
draw of at least as many cards as the trick holds, with `exhaustion reshuffle`, need not end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.vocab import (
    ATTRIBUTES,
    MOST_CARDS,
    MOST_PLAYERS,
    NAMES,
    Aggregate,
    Type,
)

NUMBER_LIMIT = 2**31 - 1
"""The largest size of any number a rule computes: every engine holds it in 64 bits."""

WORK_LIMIT = 100_000
"""The most steps one decision of a rule may take."""

Span = tuple[int, int]

LEAF_SPANS: dict[str, Span] = {
    code: name.span
    for name in NAMES.values()
    if name.type == Type.INT
    for code in {name.code, name.resolved} - {""}
}
ATTRIBUTE_SPANS: dict[str, Span] = {
    a.code: a.span for a in ATTRIBUTES.values() if a.type == Type.INT
}


def span(node: ir.Node) -> Span:
    """The least and largest value an int expression can take in any game."""
    if isinstance(node, ir.Number):
        return node.value, node.value
    if isinstance(node, ir.Named):
        return 0, MOST_CARDS
    if isinstance(node, ir.Leaf):
        return LEAF_SPANS[node.code]
    if isinstance(node, ir.Attr):
        return ATTRIBUTE_SPANS[node.code]
    if isinstance(node, ir.Unary):
        low, high = span(node.operand)
        return -high, -low
    if isinstance(node, ir.Binary):
        return arithmetic(node.op, span(node.left), span(node.right))
    if isinstance(node, ir.Ternary):
        (a, b), (c, d) = span(node.then), span(node.otherwise)
        return min(a, c), max(b, d)
    if isinstance(node, ir.Call):
        spans = [span(a) for a in node.args]
        pick = min if node.fn == "min" else max
        return pick(s[0] for s in spans), pick(s[1] for s in spans)
    assert isinstance(node, ir.Over)
    return _aggregate(node)


def arithmetic(op: str, left: Span, right: Span) -> Span:
    (a, b), (c, d) = left, right
    if op == "+":
        return a + c, b + d
    if op == "-":
        return a - d, b - c
    products = (a * c, a * d, b * c, b * d)
    return min(products), max(products)


def _aggregate(node: ir.Over) -> Span:
    """An empty set counts, sums, and takes its max and min as 0."""
    size = node.over.size
    if node.kind == Aggregate.COUNT:
        return 0, size
    low, high = span(node.body)
    if node.kind == Aggregate.SUM:
        return min(0, size * low), max(0, size * high)
    return min(0, low), max(0, high)


def upper(node: ir.Node) -> int:
    """The largest value an int expression can take."""
    return span(node)[1]


def cost(node: ir.Node) -> int:
    """The most steps evaluating `node` takes, each time: each name, operator and call one,
    an aggregate its set's largest size times its filter and body (and the step of each
    element)."""
    if isinstance(node, ir.Over):
        base = cost(node.base) if node.base is not None else 0
        where = cost(node.where) if node.where is not None else 0
        return base + 1 + node.over.size * (where + cost(node.body) + 1)
    return 1 + sum(cost(part) for part in ir.parts(node))


Loops = tuple[tuple[int, int], ...]
"""The loops around an expression: each bound variable and its set's largest size."""


def work(node: ir.Node, loops: Loops = (), times: int = 1) -> int:
    """The most steps evaluating `node` takes in all, evaluated `times` times within
    `loops` (outermost first). The generated code evaluates an aggregate in the innermost
    loop whose variable it uses, so as often as that loop and those around it run (it is
    hoisted out of the loops inside), and anything else as often as the expression it is
    part of."""
    if isinstance(node, ir.Over):
        size = node.over.size
        used = [i for i, (var, _) in enumerate(loops) if var in node.free]
        around = loops[: max(used) + 1] if used else ()  # the loops it stays inside
        hoisted = math.prod(most for _, most in around)
        inner = (*around, (node.var, size))
        base = work(node.base, around, hoisted) if node.base is not None else 0
        where = work(node.where, inner, hoisted * size) if node.where is not None else 0
        return base + hoisted * (1 + size) + where + work(node.body, inner, hoisted * size)
    return times + sum(work(part, loops, times) for part in ir.parts(node))


@dataclass(frozen=True)
class Breach:
    """A part of a clause that breaks a limit, and how."""

    node: ir.Node
    message: str
    hint: str


def out_of_range(node: ir.Node) -> Breach | None:
    """The innermost number of the clause that can leave ±NUMBER_LIMIT, if one can."""
    for part in ir.parts(node):
        inner = out_of_range(part)
        if inner is not None:
            return inner
    if node.type != Type.INT:
        return None
    low, high = span(node)
    if max(-low, high) <= NUMBER_LIMIT:
        return None
    reach = high if high > NUMBER_LIMIT else low
    return Breach(
        node,
        f"this can reach {reach:,}; a rule's numbers stay within ±{NUMBER_LIMIT:,}",
        "use smaller numbers, or bound the value with min(...) or max(...)",
    )


def too_much_work(node: ir.Node, loops: Loops) -> Breach | None:
    """Whether one decision, evaluating `node` once for each value of `loops` (a filter's
    condition once per card it decides on), can take more than WORK_LIMIT steps; the
    breach is at the costliest aggregate."""
    steps = work(node, loops, math.prod(most for _, most in loops))
    if steps <= WORK_LIMIT:
        return None
    costly = max(_aggregates(node), key=cost, default=node)
    return Breach(
        costly,
        f"this rule may take {steps:,} steps to decide once; a rule may take at most "
        f"{WORK_LIMIT:,}",
        "nest fewer aggregates, or range over a smaller set (`played`, `active`)",
    )


def breach(node: ir.Node, loops: Loops = ()) -> Breach | None:
    """The first limit a clause breaks: a number out of range, else too much work for one
    decision (evaluated once for each value of `loops`)."""
    return out_of_range(node) or too_much_work(node, loops)


def _aggregates(node: ir.Node) -> list[ir.Node]:
    found = [node] if isinstance(node, ir.Over) else []
    return found + [a for part in ir.parts(node) for a in _aggregates(part)]


FILTER_LOOPS: Loops = ((ir.CARD_VAR, MOST_CARDS),)
"""A filter decides on each card a player may play."""
OUT_LOOPS: Loops = ((ir.CARD_VAR, MOST_PLAYERS),)
"""A rule of who is out decides on each player still in."""
