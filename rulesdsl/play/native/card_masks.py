"""The card-mask pass: in a lowered hand, every sorted list of cards becomes a 64-bit mask.

The step functions hold a hand, and every set of cards made from one (the allowed cards,
the led suit held), as a sorted list of distinct card ints. Such a list means exactly the
set of its cards, so the pass holds it as an int with bit `card` set for each card:
`len` counts bits, `x[i]` is the i-th card from the lowest, `remove` and `insort` clear
and set a bit, a loop or comprehension over it visits the cards from the lowest, and an
append (of cards met in that order) sets a bit. The pass finds the card sets from the
hands dealt (`sorted(...)` of the deal) by what is assigned from them; where a value is
a card set at one place and another list at another, it refuses (MaskError), and the hand
is compiled with lists.
"""

from __future__ import annotations

import ast
import copy
import functools
import itertools
from enum import Enum


class MaskError(ValueError):
    """A hand whose card sets the pass cannot tell apart from other lists."""


class MaskKind(Enum):
    SET = "set"  # a card set
    SETS = "sets"  # a list of card sets (the hands)
    EMPTY = "empty"  # an empty list: either
    CARD = "card"  # a card met in a loop over a card set
    OTHER = "other"


def _is_empty(node: ast.expr) -> bool:
    """`[0][:0]`, the lowered empty list."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.List)
        and isinstance(node.slice, ast.Slice)
    )


def _called(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


class Kinds:
    """The kind of each local, found by assignment until nothing changes."""

    def __init__(self, function: ast.FunctionDef) -> None:
        self.names: dict[str, MaskKind] = {}
        self.function = function
        for _ in range(50):
            before = dict(self.names)
            self._pass()
            if before == self.names:
                return
        raise MaskError("the kinds of the locals do not settle")

    def of(self, node: ast.expr) -> MaskKind:
        if isinstance(node, ast.Name):
            return self.names.get(node.id, MaskKind.OTHER)
        if _is_empty(node):
            return MaskKind.EMPTY
        if _called(node, "sorted"):
            return MaskKind.SET
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            return MaskKind.SET if self.of(node.value) is MaskKind.SETS else MaskKind.OTHER
        if isinstance(node, ast.IfExp):
            return self.join(self.of(node.body), self.of(node.orelse))
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            gen = node.generators[0]
            if self.of(gen.iter) is MaskKind.SET:
                if isinstance(node.elt, ast.Name) and _target(gen) == node.elt.id:
                    return MaskKind.SET
                raise MaskError("a comprehension over a card set that makes something else")
            if self.of(node.elt) is MaskKind.SET:
                return MaskKind.SETS
        return MaskKind.OTHER

    @staticmethod
    def join(a: MaskKind, b: MaskKind) -> MaskKind:
        if a is MaskKind.EMPTY:
            return b
        if b is MaskKind.EMPTY or a is b:
            return a
        if MaskKind.SET in (a, b) or MaskKind.SETS in (a, b):
            raise MaskError("a value that is a card set on one path and not on another")
        return MaskKind.OTHER

    def _set(self, name: str, kind: MaskKind) -> None:
        old = self.names.get(name)
        self.names[name] = kind if old is None else self.join(old, kind)

    def _pass(self) -> None:
        for node in ast.walk(self.function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self._set(target.id, self.of(node.value))
                    else:
                        for name in ast.walk(target):
                            if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                                self._set(name.id, MaskKind.OTHER)
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(
                node.target, ast.Name
            ):
                kind = MaskKind.CARD if self.of(node.iter) is MaskKind.SET else MaskKind.OTHER
                self._set(node.target.id, kind)
            elif isinstance(node, ast.Call) and _method(node, "append"):
                owner = node.func.value  # type: ignore[attr-defined]
                if isinstance(owner, ast.Name) and self.of(node.args[0]) is MaskKind.CARD:
                    self._set(owner.id, MaskKind.SET)


def _target(gen: ast.comprehension) -> str | None:
    return gen.target.id if isinstance(gen.target, ast.Name) else None


def _method(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr == name and len(node.args) == 1


def _forward_slice(node: ast.expr) -> tuple[ast.expr, ...] | None:
    """`x[a:b:k]` with k a positive constant (or none) as (x, a, b, k), the bounds as
    `mask_of_slice` takes them; None for anything else."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)):
        return None
    part = node.slice
    step = part.step or ast.Constant(1)
    if not (isinstance(step, ast.Constant) and type(step.value) is int and step.value > 0):
        return None
    start = part.lower or ast.Constant(0)
    stop = part.upper or _call("len", node.value)
    return node.value, start, stop, step


def _cards_kept(node: ast.expr) -> ast.expr | None:
    """`x` of `[c for c in x if c >= 0]` (the cards of a row padded with -1), which
    `mask_of_kept` takes; None for anything else."""
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
        return None
    gen = node.generators[0]
    card = _target(gen)
    if card is None or gen.is_async or len(gen.ifs) != 1:
        return None
    if not (isinstance(node.elt, ast.Name) and node.elt.id == card):
        return None
    test = gen.ifs[0]
    kept = ast.Compare(ast.Name(card, ast.Load()), [ast.GtE()], [ast.Constant(0)])
    return gen.iter if ast.dump(test) == ast.dump(kept) else None


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _bit(card: ast.expr) -> ast.expr:
    return ast.BinOp(ast.Constant(1), ast.LShift(), card)


def _store(node: ast.expr) -> ast.expr:
    """`node` as an assignment's target."""
    stored = copy.deepcopy(node)
    stored.ctx = ast.Store()  # type: ignore[attr-defined]
    return stored


class MaskRewrite(ast.NodeTransformer):
    """Card sets as masks, statement by statement; comprehensions over a card set become
    loops in front of the statement that holds them."""

    def __init__(self, kinds: Kinds) -> None:
        self.kinds = kinds
        self.fresh = itertools.count()
        self.hoisted: list[ast.stmt] = []

    def is_set(self, node: ast.expr) -> bool:
        return self.kinds.of(node) is MaskKind.SET

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.While) and any(
            isinstance(n, ast.ListComp) for n in ast.walk(stmt.test)
        ):
            raise MaskError("a comprehension in a loop's test")
        if isinstance(stmt, ast.For) and self.is_set(stmt.iter):
            return self.set_loop(stmt)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            changed = self.update(stmt.value)
            if changed is not None:
                return changed
        for name in ("body", "orelse"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                setattr(stmt, name, self.block(inner))
        self.hoisted = []
        if isinstance(stmt, ast.Assign):
            stmt = self.visit_Assign(stmt)
        else:
            for field, value in ast.iter_fields(stmt):
                if isinstance(value, ast.expr):
                    setattr(stmt, field, self.visit(value))
        return [*self.hoisted, stmt]

    def update(self, call: ast.Call) -> list[ast.stmt] | None:
        """`x.remove(c)`, `x.append(c)` and `insort(x, c)` on a card set."""
        if _method(call, "remove") or _method(call, "append"):
            owner = call.func.value  # type: ignore[attr-defined]
            add = call.func.attr == "append"  # type: ignore[attr-defined]
        elif _called(call, "insort") and len(call.args) == 2:
            owner, add = call.args[0], True
        else:
            return None
        if not self.is_set(owner):
            return None
        card = self.visit(call.args[-1])
        owner = self.visit(owner)
        bit = _bit(card) if add else ast.UnaryOp(ast.Invert(), _bit(card))
        op = ast.BitOr() if add else ast.BitAnd()
        return [ast.Assign([_store(owner)], ast.BinOp(owner, op, bit))]

    def set_loop(self, stmt: ast.For) -> list[ast.stmt]:
        if stmt.orelse or not isinstance(stmt.target, ast.Name):
            raise MaskError("a loop over a card set with an else or a compound target")
        filtered = self.filtered_loop(stmt)
        if filtered is not None:
            return filtered
        body = self.block(stmt.body)
        self.hoisted = []
        rest = f"m{next(self.fresh)}_cards"
        start = ast.Assign([ast.Name(rest, ast.Store())], self.visit(stmt.iter))
        return [*self.hoisted, start, self._walk_bits(rest, stmt.target.id, body)]

    def filtered_loop(self, stmt: ast.For) -> list[ast.stmt] | None:
        """A loop over a card set that only keeps the cards a test passes (`if t:
        kept.append(card)`, kept a card set) or looks for one (`if t: ...; break`, the rest
        not reading the card), when `card_filter` takes the test: no loop at all."""
        card = stmt.target.id  # type: ignore[attr-defined]
        if len(stmt.body) != 1 or not isinstance(stmt.body[0], ast.If) or stmt.body[0].orelse:
            return None
        test, then = stmt.body[0].test, stmt.body[0].body
        if self.read_elsewhere(card, stmt):
            return None
        kept = card_filter(test, card)
        if kept is None:
            return None
        self.hoisted = []
        passing = ast.BinOp(self.visit(stmt.iter), ast.BitAnd(), self.visit(kept))
        append = then[0] if len(then) == 1 else None
        if (
            isinstance(append, ast.Expr)
            and isinstance(append.value, ast.Call)
            and _method(append.value, "append")
            and self.is_set(append.value.func.value)  # type: ignore[attr-defined]
            and isinstance(append.value.args[0], ast.Name)
            and append.value.args[0].id == card
        ):
            owner = self.visit(append.value.func.value)  # type: ignore[attr-defined]
            return [
                *self.hoisted,
                ast.Assign([_store(owner)], ast.BinOp(owner, ast.BitOr(), passing)),
            ]
        if (
            then
            and isinstance(then[-1], ast.Break)
            and not any(_reads_name(s, card) for s in then)
            and not any(
                isinstance(n, (ast.Break, ast.Continue)) for s in then[:-1] for n in ast.walk(s)
            )
        ):
            hoisted = self.hoisted
            found = ast.Compare(passing, [ast.NotEq()], [ast.Constant(0)])
            return [*hoisted, ast.If(found, self.block(then[:-1]), [])]
        return None

    def read_elsewhere(self, card: str, loop: ast.For) -> bool:
        """Whether the loop's card is named outside the loop."""
        inside = {id(n) for n in ast.walk(loop)}
        return any(
            isinstance(n, ast.Name) and n.id == card and id(n) not in inside
            for n in ast.walk(self.kinds.function)
        )

    @staticmethod
    def _walk_bits(rest: str, card: str, body: list[ast.stmt]) -> ast.While:
        """`while rest: card = lowest(rest); rest &= rest - 1; body`."""
        load = ast.Name(rest, ast.Load())
        test = ast.Compare(load, [ast.NotEq()], [ast.Constant(0)])
        take = ast.Assign([ast.Name(card, ast.Store())], _call("lowest", load))
        drop = ast.Assign(
            [ast.Name(rest, ast.Store())],
            ast.BinOp(load, ast.BitAnd(), ast.BinOp(load, ast.Sub(), ast.Constant(1))),
        )
        return ast.While(test, [take, drop, *body], [])

    # -- expressions -------------------------------------------------------------------

    def as_set(self, node: ast.expr) -> ast.expr:
        """A card set's value, the empty list as no cards."""
        return ast.Constant(0) if _is_empty(node) else self.visit(node)

    def visit_Assign(self, node: ast.Assign) -> ast.Assign:
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name) and self.is_set(target):
            return ast.Assign([target], self.as_set(node.value))
        return self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        if self.is_set(node):
            return ast.IfExp(
                self.visit(node.test), self.as_set(node.body), self.as_set(node.orelse)
            )
        return self.generic_visit(node)

    def visit_ListComp(self, node: ast.ListComp) -> ast.expr:
        if not self.is_set(node):
            return self.generic_visit(node)
        gen = node.generators[0]
        card = _target(gen)
        assert card is not None
        if any(isinstance(n, ast.Call) for c in gen.ifs for n in ast.walk(c)):
            raise MaskError("a comprehension over a card set whose test calls")
        test = gen.ifs[0] if len(gen.ifs) == 1 else ast.BoolOp(ast.And(), gen.ifs)
        kept = card_filter(test, card) if gen.ifs else _call("all_cards")
        if kept is not None:  # one AND: the cards the test keeps
            return ast.BinOp(self.visit(gen.iter), ast.BitAnd(), self.visit(kept))
        result = f"m{next(self.fresh)}_kept"
        rest = f"m{next(self.fresh)}_cards"
        keep: ast.stmt = ast.AugAssign(
            ast.Name(result, ast.Store()), ast.BitOr(), _bit(ast.Name(card, ast.Load()))
        )
        if gen.ifs:
            tests = [self.visit(c) for c in gen.ifs]
            test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
            keep = ast.If(test, [keep], [])
        self.hoisted.append(ast.Assign([ast.Name(result, ast.Store())], ast.Constant(0)))
        self.hoisted.append(ast.Assign([ast.Name(rest, ast.Store())], self.visit(gen.iter)))
        self.hoisted.append(self._walk_bits(rest, card, [keep]))
        return ast.Name(result, ast.Load())

    def visit_Call(self, node: ast.Call) -> ast.expr:
        if _called(node, "sorted") and self.is_set(node):
            cards = self.visit(node.args[0])
            sliced = _forward_slice(cards)
            if sliced:
                return _call("mask_of_slice", *sliced)
            kept = _cards_kept(cards)
            return _call("mask_of_kept", kept) if kept else _call("mask_of", cards)
        if _called(node, "len") and self.is_set(node.args[0]):
            return _call("popcount", self.visit(node.args[0]))
        if _called(node, "truth") and self.is_set(node.args[0]):
            return ast.Compare(self.visit(node.args[0]), [ast.NotEq()], [ast.Constant(0)])
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "heuristic":
            first = node.args[0]
            node.args[0] = _call("cards_of", first)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        if self.is_set(node.value) and isinstance(node.ctx, ast.Load):
            if isinstance(node.slice, ast.Slice):
                raise MaskError("a slice of a card set")
            return _call("nth", self.visit(node.value), self.visit(node.slice))
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        sides = [node.left, *node.comparators]
        sets = [self.is_set(side) for side in sides]
        node = self.generic_visit(node)
        if len(node.ops) != 1 or not any(sets):
            return node
        op = node.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)):  # a set is another when its cards are
            node.ops = [ast.Eq() if isinstance(op, ast.Is) else ast.NotEq()]
        elif isinstance(op, (ast.In, ast.NotIn)) and sets[1]:
            held = ast.BinOp(
                ast.BinOp(node.comparators[0], ast.RShift(), node.left),
                ast.BitAnd(),
                ast.Constant(1),
            )
            test = ast.Eq() if isinstance(op, ast.NotIn) else ast.NotEq()
            return ast.Compare(held, [test], [ast.Constant(0)])
        elif not isinstance(op, (ast.Eq, ast.NotEq)):
            raise MaskError("an order comparison of card sets")
        return node


PURE_CALLS = frozenset({"truth", "popcount", "len", "stack_len"})
"""Calls a card filter may make in a test that does not read the card: they change nothing."""

ORDER = {ast.Gt: 0, ast.GtE: 1, ast.Lt: 2, ast.LtE: 3}
MIRROR = {ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Lt: ast.Gt, ast.LtE: ast.GtE}


def card_filter(test: ast.expr, card: str) -> ast.expr | None:
    """The set of the cards that pass `test`, as an expression, when the test asks only
    for the suit of `card` (`card & 3 == e`, `!=`), how it compares with a number
    (`card > e`, `>=`, `<`, `<=`) and things that do not read it, joined by `and`, `or`
    and `not`; None for any other test. A part that does not read `card` is evaluated
    once (it calls nothing that changes anything)."""
    if not _reads(test, card):
        calls = [n.func for n in ast.walk(test) if isinstance(n, ast.Call)]
        if not all(isinstance(f, ast.Name) and f.id in PURE_CALLS for f in calls):
            return None
        return ast.IfExp(test, _call("all_cards"), ast.Constant(0))
    if isinstance(test, ast.BoolOp):
        parts = [card_filter(value, card) for value in test.values]
        if any(part is None for part in parts):
            return None
        op = ast.BitAnd() if isinstance(test.op, ast.And) else ast.BitOr()
        return functools.reduce(lambda a, b: ast.BinOp(a, op, b), parts)  # type: ignore[arg-type]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = card_filter(test.operand, card)
        return None if inner is None else ast.UnaryOp(ast.Invert(), inner)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    op, left, right = type(test.ops[0]), test.left, test.comparators[0]
    if op in (ast.Eq, ast.NotEq):
        for suit, other in ((left, right), (right, left)):
            if _suit_of(suit, card) and not _reads(other, card):
                cards = _call("suit_cards", other)
                return cards if op is ast.Eq else ast.UnaryOp(ast.Invert(), cards)
        return None
    if op not in ORDER:
        return None
    if _is_card(right, card) and not _reads(left, card):
        op, left, right = MIRROR[op], right, left
    if not _is_card(left, card) or _reads(right, card):
        return None
    if op is ast.GtE or op is ast.Lt:  # card >= e is card > e - 1
        right = ast.BinOp(right, ast.Sub(), ast.Constant(1))
    above = _call("cards_above", right)
    return above if op in (ast.Gt, ast.GtE) else ast.UnaryOp(ast.Invert(), above)


def _reads(node: ast.expr, card: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == card for n in ast.walk(node))


def _is_card(node: ast.expr, card: str) -> bool:
    return isinstance(node, ast.Name) and node.id == card


def _reads_name(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _suit_of(node: ast.expr, card: str) -> bool:
    """`card & 3`."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.BitAnd)
        and isinstance(node.left, ast.Name)
        and node.left.id == card
        and isinstance(node.right, ast.Constant)
        and node.right.value == 3
    )


def masked(function: ast.FunctionDef) -> ast.FunctionDef:
    """A copy of the lowered hand with its card sets as masks (MaskError where it cannot)."""
    function = copy.deepcopy(function)
    kinds = Kinds(function)
    if not any(kind is MaskKind.SETS for kind in kinds.names.values()):
        raise MaskError("no hands found")
    rewrite = MaskRewrite(kinds)
    function.body = rewrite.block(function.body)
    hands_as_arrays(function, {n for n, kind in kinds.names.items() if kind is MaskKind.SETS})
    ast.fix_missing_locations(function)
    return function


def hands_as_arrays(function: ast.FunctionDef, sets: set[str]) -> None:
    """The lists of card sets (the hands) become int arrays when each is only indexed,
    measured, walked and passed from one such local to another, and each is made by
    `[... for seat in range(N)]`."""
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in sets and not _array_use(node, parents, sets):
            return
    for node in ast.walk(function):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, [s for stmt in block for s in _filled(stmt, sets)])


def _array_use(name: ast.Name, parents: dict[int, ast.AST], sets: set[str]) -> bool:
    parent = parents.get(id(name))
    if isinstance(parent, ast.Subscript) and parent.value is name:
        return not isinstance(parent.slice, ast.Slice)
    if isinstance(parent, ast.Call) and _called(parent, "len"):
        return True
    if isinstance(parent, ast.For) and parent.iter is name:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        value, target = parent.value, parent.targets[0]
        if isinstance(name.ctx, ast.Store):
            return (isinstance(value, ast.Name) and value.id in sets) or _made_by_seat(value)
        return isinstance(target, ast.Name) and target.id in sets
    return False


def _made_by_seat(value: ast.expr) -> bool:
    """`[... for seat in range(N)]`, N a constant."""
    if not (isinstance(value, ast.ListComp) and len(value.generators) == 1):
        return False
    gen = value.generators[0]
    return (
        not gen.ifs
        and isinstance(gen.target, ast.Name)
        and _called(gen.iter, "range")
        and len(gen.iter.args) == 1  # type: ignore[attr-defined]
        and isinstance(gen.iter.args[0], ast.Constant)  # type: ignore[attr-defined]
    )


def _filled(stmt: ast.stmt, sets: set[str]) -> list[ast.stmt]:
    """`x = [e for v in range(N)]` as `x = np.zeros(N, np.int64)` and a loop setting `x[v]`."""
    if not (isinstance(stmt, ast.Assign) and _made_by_seat(stmt.value)):
        return [stmt]
    target = stmt.targets[0]
    if not (isinstance(target, ast.Name) and target.id in sets):
        return [stmt]
    made = stmt.value
    assert isinstance(made, ast.ListComp)
    gen = made.generators[0]
    size = gen.iter.args[0]  # type: ignore[attr-defined]
    zeros = ast.parse("np.zeros(0, np.int64)", mode="eval").body
    zeros.args[0] = size  # type: ignore[attr-defined]
    item = ast.Subscript(ast.Name(target.id, ast.Load()), gen.target, ast.Store())
    seat = ast.Name(gen.target.id, ast.Load())  # type: ignore[attr-defined]
    item.slice = seat
    loop = ast.For(gen.target, gen.iter, [ast.Assign([item], made.elt)], [])
    return [ast.Assign([target], zeros), loop]
