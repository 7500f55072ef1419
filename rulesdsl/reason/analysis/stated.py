"""What the count model can read off the rules a profile states: the values a draw count
can take on a trick won by a kind of card (a trump, an ace) and on any other, and the
first trick an end rule can end. Read off each rule's checked tree
(`rulesdsl.model.language.tree`); what a tree does not settle is taken either way, so what
is read here only ever removes what cannot happen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from rulesdsl.model.language import bounds
from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.language.vocab import (
    ATTRIBUTES,
    MOST_TRICKS,
    NAMES,
    SETS,
    SUITS,
    Aggregate,
    Type,
    Where,
)

Span = tuple[float, float]
"""The least and largest value an int expression can take (infinite where unknown)."""

ANY: Span = (-math.inf, math.inf)

BEST_CODE = NAMES["trick.best"].code_at(Where.DRAW)
TRICK_NUMBER = NAMES["trick.number"].code_at(Where.END)
KIND_CODES = {
    ATTRIBUTES[(Type.CARD, "trump")].code: "trump",
    ATTRIBUTES[(Type.CARD, "suit")].code: "suit",
    ATTRIBUTES[(Type.CARD, "rank")].code: "rank",
}
"""The attributes of the trick's winning card that name a kind of card."""
SUIT_CODES = {NAMES[word].code: suit for suit, word in enumerate(SUITS)}


class Winning(NamedTuple):
    """A kind of card that wins a trick, which a draw count may tell apart: the trumps,
    the cards of a suit, of a rank, or one card (a rank and a suit)."""

    trump: bool = False
    suit: int = -1
    rank: int = 0

    def in_deck(self, ranks: frozenset[int], trumps: bool) -> int:
        """How many cards of the kind a deck of `ranks` holds (with a trump suit or not):
        each wins at most one trick of a hand where no reshuffle brings it back."""
        if self.trump:
            return len(ranks) if trumps else 0
        if self.rank:
            return 0 if self.rank not in ranks else 1 if self.suit >= 0 else len(SUITS)
        return len(ranks)


def winning(node: ir.Node) -> tuple[Winning, bool] | None:
    """The kind of card `node` says the trick's winning card is, or is not (False): a test
    of `trick.best` (`trick.won_by_trump`, `trick.best.rank == ace`, `trick.best == QS`,
    `trick.best.suit != hearts`); None for any other condition."""
    if _is_best(node, "trump"):
        return Winning(trump=True), True
    if not isinstance(node, ir.Binary) or node.op not in ("==", "!="):
        return None
    said = node.op == "=="
    for one, other in ((node.left, node.right), (node.right, node.left)):
        if _is_best(one, "rank") and isinstance(other, ir.Named):
            return Winning(rank=other.rank), said
        if _is_best(one, "suit") and isinstance(other, ir.Leaf) and other.code in SUIT_CODES:
            return Winning(suit=SUIT_CODES[other.code]), said
        if _is_best(one) and isinstance(other, ir.Named) and other.suit >= 0:
            return Winning(suit=other.suit, rank=other.rank), said
    return None


def _is_best(node: ir.Node, attribute: str = "") -> bool:
    """Whether `node` is the trick's winning card (`trick.best`), or its attribute."""
    if attribute:
        if not isinstance(node, ir.Attr) or KIND_CODES.get(node.code) != attribute:
            return False
        node = node.base
    return isinstance(node, ir.Leaf) and node.code == BEST_CODE


def kind_of(tree: ir.Node | None) -> Winning | None:
    """The first kind of winning card a count's tree tells apart (the others it may test
    are taken either way)."""
    tests = (winning(node) for node in ir.walk(tree)) if tree is not None else iter(())
    return next((found[0] for found in tests if found is not None), None)


def truth(node: ir.Node, kind: Winning | None, of_kind: bool) -> bool | None:
    """The condition's value when the trick was (or was not) won by a card of `kind`;
    None when that does not settle it."""
    found = winning(node)
    if found is not None and found[0] == kind:
        return of_kind == found[1]
    if isinstance(node, ir.Leaf) and node.code in ("True", "False"):
        return node.code == "True"
    if isinstance(node, ir.Unary) and node.op == "not":
        inner = truth(node.operand, kind, of_kind)
        return None if inner is None else not inner
    if isinstance(node, ir.Binary) and node.op in ("and", "or"):
        left, right = truth(node.left, kind, of_kind), truth(node.right, kind, of_kind)
        stop = node.op == "or"  # the value that settles the operator alone
        if stop in (left, right):
            return stop
        return None if None in (left, right) else not stop
    return None


def span(node: ir.Node, kind: Winning | None = None, of_kind: bool = False) -> Span:
    """The values an int expression can take when the trick was (or was not) won by a
    card of `kind`."""
    if isinstance(node, ir.Number):
        return node.value, node.value
    if isinstance(node, ir.Ternary):
        known = truth(node.condition, kind, of_kind)
        if known is not None:
            return span(node.then if known else node.otherwise, kind, of_kind)
        (a, b) = span(node.then, kind, of_kind)
        (c, d) = span(node.otherwise, kind, of_kind)
        return min(a, c), max(b, d)
    if isinstance(node, ir.Unary) and node.op == "-":
        low, high = span(node.operand, kind, of_kind)
        return -high, -low
    if isinstance(node, ir.Binary) and node.op in "+-*":
        left, right = span(node.left, kind, of_kind), span(node.right, kind, of_kind)
        return _arithmetic(node.op, left, right)
    if isinstance(node, ir.Call):
        spans = [span(a, kind, of_kind) for a in node.args]
        pick = min if node.fn == "min" else max
        return pick(s[0] for s in spans), pick(s[1] for s in spans)
    return bounds.span(node)


def _arithmetic(op: str, left: Span, right: Span) -> Span:
    """`left op right` over spans that may be unbounded (a product with one is unknown)."""
    if op == "*" and math.inf in (*map(abs, left), *map(abs, right)):
        return ANY
    return bounds.arithmetic(op, left, right)


@dataclass(frozen=True)
class DrawCounts:
    """The counts a drawer may take on a trick won by a card of `kind`, and on any other
    (`kind` None: the count does not tell the winning cards apart, and both are all)."""

    kind: Winning | None
    of_kind: tuple[int, ...]
    otherwise: tuple[int, ...]

    @property
    def all(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.of_kind) | set(self.otherwise)))


def draw_counts(rule: HouseRule, most_cards: int) -> DrawCounts:
    """The values a stated draw count can take: its span, each end held between 0 and the
    most there can be (its bound, the cards there are), as the engine holds the count.
    A count always below 0 is 0; one always above the cards there are is all of them."""
    top = max(0, min(most_cards, rule.bound if rule.bound is not None else most_cards))

    def held(value: float) -> int:
        return int(min(max(0, value), top))

    kind = kind_of(rule.tree)

    def values(of_kind: bool) -> tuple[int, ...]:
        low, high = span(rule.tree, kind, of_kind) if rule.tree is not None else ANY
        return tuple(range(held(low), held(high) + 1))

    return DrawCounts(kind, values(True), values(False))


def first_trick(rule: HouseRule) -> int:
    """The first trick at whose end an end rule's condition can hold (1: any trick), read
    off comparisons of `trick.number` with a number that the condition requires."""
    return _first(rule.tree) if rule.tree is not None else 1


def _first(node: ir.Node) -> int:
    if isinstance(node, ir.Binary) and node.op == "and":
        return max(_first(node.left), _first(node.right))
    if isinstance(node, ir.Binary) and node.op == "or":
        return min(_first(node.left), _first(node.right))
    if isinstance(node, ir.Binary) and node.op == "==":
        for number, other in ((node.right, node.left), (node.left, node.right)):
            if isinstance(number, ir.Number) and _is_trick_number(other):
                return max(1, number.value)
    return _at_least(node) or 1


def sure_trick(rule: HouseRule) -> int | None:
    """The trick from which an end rule's condition surely holds (None: never known to),
    for `end after trick N` and the like."""
    return _sure(rule.tree) if rule.tree is not None else None


def _sure(node: ir.Node) -> int | None:
    if isinstance(node, ir.Leaf) and node.code == "True":
        return 1
    if isinstance(node, ir.Binary) and node.op in ("and", "or"):
        left, right = _sure(node.left), _sure(node.right)
        if node.op == "and":
            return None if left is None or right is None else max(left, right)
        return min((n for n in (left, right) if n is not None), default=None)
    return _at_least(node)


def _at_least(node: ir.Node) -> int | None:
    """N, where `node` says `trick.number >= N` (or `> N - 1`, either way round)."""
    if not isinstance(node, ir.Binary):
        return None
    left, right, op = node.left, node.right, node.op
    if isinstance(left, ir.Number) and _is_trick_number(right):
        left, right, op = right, left, {"<=": ">=", "<": ">"}.get(op, "")
    if op in (">=", ">") and _is_trick_number(left) and isinstance(right, ir.Number):
        return max(1, right.value + (op == ">"))
    return None


def _is_trick_number(node: ir.Node) -> bool:
    return isinstance(node, ir.Leaf) and node.code == TRICK_NUMBER


# -- what a condition can be, where the count model knows the counts ---------------------

TRUTHS = frozenset({True, False})


@dataclass(frozen=True)
class Counts:
    """What the count model knows of a moment of a hand: the players, the sizes of the
    active hands, the stock, and the trick's number (a span)."""

    players: int
    sizes: tuple[int, ...]
    stock: int
    tricks: Span = (1, MOST_TRICKS)
    streak: Span = (0, MOST_TRICKS)  # the tricks in a row the last trick's winner won


@dataclass(frozen=True)
class Seat:
    """A seat a variable or name stands for: one holding `size` cards, or any active seat
    (None); `active` when it is surely still in; the tricks it won, where known."""

    active: bool
    size: int | None = None
    tricks: Span | None = None


ANY_ACTIVE = Seat(True)

SEAT_SETS = SETS["seats"].iterate
SEAT_CODES = {
    NAMES["me"].code: ANY_ACTIVE,
    NAMES["drawer"].code_at(Where.DRAW): ANY_ACTIVE,
}
CARDS_CODE = ATTRIBUTES[(Type.SEAT, "cards")].code
STREAK_CODE = ATTRIBUTES[(Type.SEAT, "streak")].code
TRICKS_CODE = ATTRIBUTES[(Type.SEAT, "tricks")].code
ACTIVE_CODE = ATTRIBUTES[(Type.SEAT, "active")].code
LEAF_SPANS: dict[str, Callable[[Counts], Span]] = {
    NAMES["players"].code: lambda c: (c.players, c.players),
    NAMES["stock.size"].code: lambda c: (c.stock, c.stock),
    NAMES["trick.number"].code: lambda c: c.tricks,
    TRICK_NUMBER: lambda c: c.tricks,
}


class Reader:
    """The values a checked expression can take at `counts`: a span for a number, the set
    of truths a condition can have. What the counts do not settle is taken either way."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.seats: dict[int, Seat] = {}

    def truths(self, node: ir.Node) -> frozenset[bool]:
        if isinstance(node, ir.Leaf) and node.code in ("True", "False"):
            return frozenset({node.code == "True"})
        if isinstance(node, ir.Unary) and node.op == "not":
            return frozenset(not t for t in self.truths(node.operand))
        if isinstance(node, ir.Binary) and node.op in ("and", "or"):
            return self._logic(node)
        if isinstance(node, ir.Binary) and node.left.type == Type.INT:
            return _compare(node.op, self.span(node.left), self.span(node.right))
        if isinstance(node, ir.Attr) and node.code == ACTIVE_CODE:
            seat = self._seat(node.base)
            return frozenset({True}) if seat is not None and seat.active else TRUTHS
        if isinstance(node, ir.Over) and node.kind in (Aggregate.ANY, Aggregate.ALL):
            return self._quantifier(node)
        return TRUTHS

    def _logic(self, node: ir.Binary) -> frozenset[bool]:
        left, right = self.truths(node.left), self.truths(node.right)
        if node.op == "and":
            return frozenset(a and b for a in left for b in right)
        return frozenset(a or b for a in left for b in right)

    def _quantifier(self, node: ir.Over) -> frozenset[bool]:
        """`any` or `all` over seats, each seat by the cards it holds: true where the body
        can be for one seat (`any`) or for every seat (`all`). A seat a filter may leave
        out counts as one whose body is false (`any`) or true (`all`)."""
        if node.over.iterate != SEAT_SETS:
            return TRUTHS
        each = []
        for seat in self._seats(active_only=bool(node.over.keep)):
            self.seats[node.var] = seat
            body = self.truths(node.body)
            if node.where is not None:
                kept, out = self.truths(node.where), node.kind == Aggregate.ALL
                body = frozenset(b if k else out for k in kept for b in body)
            each.append(body)
        settles = node.kind == Aggregate.ANY  # the truth one seat settles `any` with
        found = set()
        if any(settles in body for body in each):
            found.add(settles)
        if all((not settles) in body for body in each):
            found.add(not settles)
        return frozenset(found)

    def _seats(self, active_only: bool) -> list[Seat]:
        counts = self.counts
        seats = [Seat(True, size) for size in sorted(set(counts.sizes))]
        if not active_only and len(counts.sizes) < counts.players:
            seats.append(Seat(False, 0))
        return seats

    def span(self, node: ir.Node) -> Span:
        if isinstance(node, ir.Number):
            return node.value, node.value
        if isinstance(node, ir.Leaf) and node.code in LEAF_SPANS:
            return LEAF_SPANS[node.code](self.counts)
        if isinstance(node, ir.Attr) and node.code in (CARDS_CODE, TRICKS_CODE):
            return self._seat_span(node)
        if isinstance(node, ir.Attr) and node.code == STREAK_CODE:
            return self.counts.streak  # the last winner's; any other seat's is 0
        if isinstance(node, ir.Binary) and node.op in "+-*":
            return _arithmetic(node.op, self.span(node.left), self.span(node.right))
        if isinstance(node, ir.Unary) and node.op == "-":
            low, high = self.span(node.operand)
            return -high, -low
        if isinstance(node, ir.Call):
            spans = [self.span(a) for a in node.args]
            pick = min if node.fn == "min" else max
            return pick(s[0] for s in spans), pick(s[1] for s in spans)
        if isinstance(node, ir.Ternary):
            (a, b), (c, d) = self.span(node.then), self.span(node.otherwise)
            truths = self.truths(node.condition)
            spans = [s for s, t in (((a, b), True), ((c, d), False)) if t in truths]
            return min(s[0] for s in spans), max(s[1] for s in spans)
        return bounds.span(node)

    def _seat_span(self, node: ir.Attr) -> Span:
        seat = self._seat(node.base)
        if seat is None:
            return bounds.span(node)
        if node.code == TRICKS_CODE:
            return seat.tricks or (0, self.counts.tricks[1])
        if seat.size is not None:
            return seat.size, seat.size
        sizes = self.counts.sizes or (0,)
        return min(sizes), max(sizes)

    def _seat(self, node: ir.Node) -> Seat | None:
        if isinstance(node, ir.Var):
            return self.seats.get(node.index)
        if isinstance(node, ir.Leaf):
            return SEAT_CODES.get(node.code)
        return None


def _compare(op: str, left: Span, right: Span) -> frozenset[bool]:
    """The truths `left op right` can have for numbers in the two spans."""
    (a, b), (c, d) = left, right
    can_less, can_more, can_equal = a < d, b > c, a <= d and c <= b
    only_equal = a == b == c == d
    truths = {
        "==": (can_equal, not only_equal),
        "!=": (not only_equal, can_equal),
        "<": (can_less, b >= c),
        "<=": (can_less or can_equal, can_more),
        ">": (can_more, a <= d),
        ">=": (can_more or can_equal, can_less),
    }[op]
    return frozenset(t for t, possible in zip((True, False), truths, strict=True) if possible)


def reads_streak(rule: HouseRule) -> bool:
    """Whether a rule's condition reads a seat's streak."""
    found = (n for n in ir.walk(rule.tree)) if rule.tree is not None else iter(())
    return any(isinstance(n, ir.Attr) and n.code == STREAK_CODE for n in found)


def truths(condition: ir.Node | None, counts: Counts) -> frozenset[bool]:
    """The truths `condition` can have at `counts` (a rule without a tree: either)."""
    return TRUTHS if condition is None else Reader(counts).truths(condition)


def out_truths(
    condition: ir.Node | None, counts: Counts, size: int, winner: bool, unwon: int | None
) -> frozenset[bool]:
    """The truths a rule of who is out can have at step 6 for a player still in holding
    `size` cards (the trick's winner, where `winner`: they won a trick), at any trick
    number. Where only trick winners draw, a player who has won no trick holds `unwon`
    cards less one per trick played (`unwon` None: not known), so at the end of a trick
    of another number they have won one."""
    if condition is None:
        return TRUTHS
    found: set[bool] = set()
    for low, high in trick_spans(condition):
        unwon_here = not winner and (unwon is None or low <= unwon - size <= high)
        reader = Reader(replace(counts, tricks=(low, high)))
        reader.seats[ir.CARD_VAR] = Seat(True, size, (0 if unwon_here else 1, high))
        found |= reader.truths(condition)
    return frozenset(found)


def trick_spans(condition: ir.Node) -> list[Span]:
    """The trick numbers split at each number `condition` compares `trick.number` with, so
    that every comparison of it has one truth within a span."""
    points = sorted(
        {
            int(number.value)
            for node in ir.walk(condition)
            if isinstance(node, ir.Binary) and node.op in ir.COMPARISONS
            for number, other in ((node.left, node.right), (node.right, node.left))
            if isinstance(number, ir.Number) and _is_trick_number(other)
        }
        & set(range(1, MOST_TRICKS + 1))
    )
    spans: list[Span] = []
    low = 1
    for point in points:
        if low < point:
            spans.append((low, point - 1))
        spans.append((point, point))
        low = point + 1
    return [*spans, (low, MOST_TRICKS)] if low <= MOST_TRICKS else spans


def can_hold(condition: ir.Node | None, counts: Counts) -> bool:
    """Whether `condition` can be true at `counts`."""
    return True in truths(condition, counts)
