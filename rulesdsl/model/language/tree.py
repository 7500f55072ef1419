"""The checked tree of a profile rule's expression: typed, every node with its position.

Nodes hold no raw text of the profile: vocabulary codes come from `vocab`, literals are
ints, bound variables are numbered. `free` is the set of bound variables a node uses
(0 is `card`, the card a play rule decides on), which the code generator reads to
evaluate each aggregate outside the loops it does not depend on.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rulesdsl.model.language.vocab import Aggregate, SetCode, Type
from rulesdsl.model.text import Pos

OPERATORS: dict[str, Callable[[int, int], int]] = {
    "and": lambda a, b: a and b,
    "or": lambda a, b: a or b,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}
"""What each operator of a `Binary` makes of two ints (a condition is 0 or 1)."""
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
"""The operators that compare two values."""

CARD_VAR = 0
"""The variable of what a rule decides on, one at a time: `card` in a filter, `player` in
a rule of who is out."""


@dataclass(frozen=True)
class Node:
    type: Type
    pos: Pos
    free: frozenset[int] = field(default=frozenset(), kw_only=True)


@dataclass(frozen=True)
class Leaf(Node):
    """A vocabulary value: its code over the state."""

    code: str


@dataclass(frozen=True)
class Number(Node):
    value: int


@dataclass(frozen=True)
class Named(Node):
    """A rank (`queen`, suit -1) or a card (`QS`) by name: its value is its strength, or
    card, under the profile's deck order, which the rule is given when a profile plays it
    (`rule.HouseRule.steps_for`)."""

    rank: int
    suit: int = -1


@dataclass(frozen=True)
class Var(Node):
    """A bound variable (`c` in `any(c in allowed: ...)`), or `card` (index 0)."""

    index: int


@dataclass(frozen=True)
class Attr(Node):
    base: Node
    code: str  # with {x} for the base's code


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "not" or "-"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # and or + - * == != < <= > >=
    left: Node
    right: Node


@dataclass(frozen=True)
class Ternary(Node):
    condition: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True)
class Call(Node):
    fn: str  # min or max of numbers, or a function of `vocab.FUNCTIONS`
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Over(Node):
    """A bounded aggregate: `kind(var in over: body)`; of a set that is an attribute
    (`p.won`), `base` is the value it is of (`p`), whose code stands for `{x}` in `over`.
    With a filter, `kind(var in over where condition: body)`, `where` is the condition,
    and the aggregate ranges only over the members for which it holds."""

    kind: Aggregate
    var: int
    over: SetCode
    body: Node
    base: Node | None = None
    where: Node | None = None


def uses(*nodes: Node) -> frozenset[int]:
    return frozenset().union(*(n.free for n in nodes))


def parts(node: Node) -> tuple[Node, ...]:
    """The nodes `node` is made of, in the order they are written."""
    if isinstance(node, Over):
        return tuple(n for n in (node.base, node.where, node.body) if n is not None)
    if isinstance(node, Attr):
        return (node.base,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return node.left, node.right
    if isinstance(node, Ternary):
        return node.condition, node.then, node.otherwise
    if isinstance(node, Call):
        return node.args
    return ()


def walk(node: Node) -> Iterator[Node]:
    """`node` and every node within it, outermost first."""
    waiting = [node]
    while waiting:
        found = waiting.pop()
        yield found
        waiting.extend(reversed(parts(found)))
