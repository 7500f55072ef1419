"""The card-array pass: in a lowered hand, the lists of cards cut from the deal become arrays.

After the card-mask pass, a hand still keeps as lists the stock, the cards set aside and the
cards of the trick: lists cut from the deck by slices (`deck[dealt:]`), joined with `+`,
set empty, passed from one local to another, extended from each other. Numba's lists
are slow; the pass holds each such list as an int array of the deck's size plus one, its
length in its last item (`runtime.stack_*`), so a local passed to another still names the
same list. A list set empty again that no other local ever names is emptied in place.

The pass takes a group of locals (those passed to each other or extending each other)
whole or not at all: only if one of them is cut from the deck or kept from a padded row
(`[c for c in row if c >= 0]`), each is set only so, from the empty list or from another,
and each is only measured, tested, indexed, popped, appended to, extended, reversed,
shuffled, walked (by a loop that does not change it, or a comprehension) or searched
(`in`). Other groups stay lists. StackError when no group can be taken. A group that no
cut reaches (such as the trick, where nothing sets the cards aside) is taken too when no
local of it is ever set to another: its arrays grow when full.

`seat_arrays` does the same for the lists of one item per seat made `[v] * N` or
`[test for seat in range(N)]` (who is active): numpy arrays, counted and searched by
`runtime.seat_count` and `seat_index`.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from rulesdsl.play.native.card_masks import _called, _is_empty

METHODS = {"pop": 0, "append": 1, "extend": 1, "reverse": 0}
"""The list methods a card list may be called with (each changes it), by their number of
arguments."""

MEASURES = ("len", "truth", "bool")
"""The calls that measure a card list: its length, or whether it holds a card."""


class StackError(ValueError):
    """A hand with no list of cards that the pass can hold as an array."""


class Groups:
    """Locals joined when one is set to another or extends another (union-find)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, name: str) -> str:
        self.parent.setdefault(name, name)
        while self.parent[name] != name:
            name = self.parent[name]
        return name

    def join(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)

    def members(self, name: str) -> set[str]:
        root = self.find(name)
        return {n for n in self.parent if self.find(n) == root}


def _assignments(function: ast.AST) -> Iterator[tuple[ast.Assign, str, ast.expr]]:
    """Every assignment to a single local: the statement, the local and its value."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                yield node, target.id, node.value


def _cut(node: ast.expr) -> bool:
    """`x[a:b]` (no step, or step 1) of a name, or `+` of such cuts."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _cut(node.left) and _cut(node.right)
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)):
        return False
    step = node.slice.step
    one = step is None or (isinstance(step, ast.Constant) and step.value == 1)
    return one and isinstance(node.value, ast.Name)


def _kept(node: ast.expr) -> bool:
    """`[c for c in x if c >= 0]`: the cards of a row padded with -1, `x` a name."""
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
        return False
    (loop,) = node.generators
    test = loop.ifs[0] if len(loop.ifs) == 1 else None
    return (
        isinstance(loop.target, ast.Name)
        and isinstance(loop.iter, ast.Name)
        and not loop.is_async
        and isinstance(node.elt, ast.Name)
        and node.elt.id == loop.target.id
        and isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == loop.target.id
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.GtE)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == 0
    )


def split_tuples(function: ast.FunctionDef) -> None:
    """`a, b = (x, y)` as `a = x` and `b = y` where no value reads a target."""
    for node in ast.walk(function):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, [s for stmt in block for s in _split(stmt)])


def _split(stmt: ast.stmt) -> list[ast.stmt]:
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Tuple)
        and isinstance(stmt.value, ast.Tuple)
        and len(stmt.targets[0].elts) == len(stmt.value.elts)
        and all(isinstance(t, ast.Name) for t in stmt.targets[0].elts)
    ):
        return [stmt]
    targets = {t.id for t in stmt.targets[0].elts}  # type: ignore[attr-defined]
    read = {n.id for v in stmt.value.elts for n in ast.walk(v) if isinstance(n, ast.Name)}
    if targets & read:
        return [stmt]
    return [ast.Assign([t], v) for t, v in zip(stmt.targets[0].elts, stmt.value.elts, strict=True)]


class Pass:
    """The groups of card lists of a function, and the rewrite of their uses."""

    def __init__(self, function: ast.FunctionDef, capacity: int) -> None:
        self.function = function
        self.capacity = capacity
        self.parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
        self.groups = Groups()
        self.aliases = Groups()  # locals that may name the same list
        params = {a.arg for a in function.args.args}
        for _, name, value in _assignments(function):
            self.groups.find(name)
            if isinstance(value, ast.Name) and value.id not in params:
                self.groups.join(name, value.id)
                self.aliases.join(name, value.id)
        for node in ast.walk(function):
            owner, arg = self._method(node, "extend")
            if owner and isinstance(arg, ast.Name):
                self.groups.join(owner, arg.id)
        seeded = {self.groups.find(n) for _, n, v in _assignments(function) if _cut(v) or _kept(v)}
        self.stacks: set[str] = set()
        self.growing: set[str] = set()  # lists no other local names, grown when full
        for root in {self.groups.find(n) for n in list(self.groups.parent)}:
            members = self.groups.members(root)
            if members & params or not self._takes(members):
                continue
            if root in seeded:
                self.stacks |= members
            elif all(self.aliases.members(m) == {m} for m in members):
                self.stacks |= members
                self.growing |= members
        if not self.stacks:
            raise StackError("no list of cards to hold as an array")

    @staticmethod
    def _method(node: ast.AST, name: str) -> tuple[str | None, ast.expr | None]:
        """(owner, argument) of a call `owner.name(argument)` on a local, else Nones."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
            and isinstance(node.func.value, ast.Name)
            and len(node.args) == 1
        ):
            return node.func.value.id, node.args[0]
        return None, None

    def _takes(self, members: set[str]) -> bool:
        for _, name, value in _assignments(self.function):
            if name in members and not (
                _cut(value)
                or _kept(value)
                or _is_empty(value)
                or (isinstance(value, ast.Name) and value.id in members)
            ):
                return False
        return all(
            self._use(node, members)
            for node in ast.walk(self.function)
            if isinstance(node, ast.Name) and node.id in members
        )

    def _use(self, name: ast.Name, members: set[str]) -> bool:
        """Whether this occurrence of a card list is one the arrays serve."""
        parent = self.parents.get(id(name))
        if isinstance(name.ctx, ast.Store):
            return isinstance(parent, ast.Assign) and len(parent.targets) == 1
        if isinstance(parent, ast.Assign):  # a value passed to another local of the group
            return parent.value is name and isinstance(parent.targets[0], ast.Name)
        if isinstance(parent, ast.Call):
            if any(_called(parent, f) for f in MEASURES):
                return len(parent.args) == 1
            if _called(parent, "shuffle"):
                return parent.args[0] is name
            owner, arg = self._method(parent, "extend")
            return arg is name and owner in members
        if isinstance(parent, ast.Attribute):
            call = self.parents.get(id(parent))
            return (
                isinstance(call, ast.Call)
                and call.func is parent
                and METHODS.get(parent.attr) == len(call.args)
                and not any(isinstance(a, (ast.Tuple, ast.List)) for a in call.args)
            )
        if isinstance(parent, ast.Subscript):
            if isinstance(parent.slice, ast.Slice):
                return _cut(parent)
            return parent.value is name and isinstance(parent.ctx, ast.Load)
        if isinstance(parent, ast.comprehension):
            return parent.iter is name
        if isinstance(parent, ast.For):
            return parent.iter is name and not self._changes(parent.body, members)
        if isinstance(parent, ast.Compare):
            return (
                len(parent.ops) == 1
                and isinstance(parent.ops[0], (ast.In, ast.NotIn))
                and parent.comparators[0] is name
            )
        return False

    def _changes(self, body: list[ast.stmt], members: set[str]) -> bool:
        """Whether `body` may change a list of the group (or set one of its locals)."""
        for node in (n for stmt in body for n in ast.walk(stmt)):
            if isinstance(node, ast.Name) and node.id in members:
                parent = self.parents.get(id(node))
                if isinstance(node.ctx, ast.Store) or (
                    isinstance(parent, ast.Attribute) and parent.attr in METHODS
                ):
                    return True
                if isinstance(parent, ast.Call) and _called(parent, "shuffle"):
                    return True
        return False

    # -- the rewrite ---------------------------------------------------------------------

    def emptied_in_place(self) -> set[int]:
        """The empty-list assignments that may empty their list in place: a local no other
        ever names, set empty again after it was first set at the function's top level."""
        kept: set[int] = set()
        for index, stmt in enumerate(self.function.body):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if not (isinstance(target, ast.Name) and target.id in self.stacks):
                continue
            if self.aliases.members(target.id) != {target.id}:
                continue
            for later in self.function.body[index + 1 :]:
                for node, name, value in _assignments(later):
                    if name == target.id and _is_empty(value):
                        kept.add(id(node))
        return kept

    def rewrite(self) -> None:
        StackRewrite(self).visit(self.function)


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


class StackRewrite(ast.NodeTransformer):
    """The uses of the card lists as calls of the runtime's `stack_*` helpers."""

    def __init__(self, found: Pass) -> None:
        self.found = found
        self.in_place = found.emptied_in_place()
        self.capacity = ast.Constant(found.capacity)

    def is_stack(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id in self.found.stacks

    def view(self, node: ast.expr) -> ast.expr:
        return _call("stack_view", node) if self.is_stack(node) else self.visit(node)

    def cut(self, node: ast.expr) -> ast.expr:
        """A cut (or join of cuts) as a new array."""
        if isinstance(node, ast.BinOp):
            return _call("stack_join", self.cut(node.left), self.cut(node.right))
        assert isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)
        cards = self.view(node.value)
        start = self.visit(node.slice.lower) if node.slice.lower else ast.Constant(0)
        stop = self.visit(node.slice.upper) if node.slice.upper else _call("len", cards)
        return _call("stack_from", cards, start, stop, self.capacity)

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        target = node.targets[0]
        if len(node.targets) == 1 and self.is_stack(target):
            value = node.value
            if _is_empty(value):
                if id(node) in self.in_place:
                    return ast.Expr(_call("stack_clear", ast.Name(target.id, ast.Load())))  # type: ignore[attr-defined]
                return ast.Assign(node.targets, _call("stack_new", self.capacity))
            if _cut(value):
                return ast.Assign(node.targets, self.cut(value))
            if isinstance(value, ast.ListComp) and _kept(value):
                row = self.view(value.generators[0].iter)
                return ast.Assign(node.targets, _call("stack_kept", row, self.capacity))
            return node
        return self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        if self.is_stack(node.value) and isinstance(node.ctx, ast.Load):
            if isinstance(node.slice, ast.Slice):  # a cut read where it is made
                return ast.Subscript(self.view(node.value), self.visit(node.slice), ast.Load())
            return _call("stack_item", node.value, self.visit(node.slice))
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        """`x.append(c)` and `x.extend(y)` on a list that grows: `x` is set to the result."""
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("append", "extend")
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id in self.found.growing
        ):
            owner = call.func.value.id
            grown = _call(f"stack_grown_{call.func.attr}", call.func.value, self.view(call.args[0]))
            return ast.Assign([ast.Name(owner, ast.Store())], grown)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Attribute) and self.is_stack(func.value):
            args = [self.view(a) for a in node.args]
            return _call(f"stack_{func.attr}", func.value, *args)
        if node.args and self.is_stack(node.args[0]):
            first = node.args[0]
            if _called(node, "len"):
                return _call("stack_len", first)
            if _called(node, "truth") or _called(node, "bool"):
                return ast.Compare(_call("stack_len", first), [ast.Gt()], [ast.Constant(0)])
            if _called(node, "shuffle"):
                return _call("shuffle", _call("stack_view", first), self.visit(node.args[1]))
        return self.generic_visit(node)

    def visit_For(self, node: ast.For) -> ast.For:
        self.generic_visit(node)
        if self.is_stack(node.iter):
            node.iter = _call("stack_view", node.iter)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        self.generic_visit(node)
        if self.is_stack(node.iter):
            node.iter = _call("stack_view", node.iter)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        if len(node.ops) == 1 and self.is_stack(node.comparators[0]):
            found = _call("stack_has", node.comparators[0], self.visit(node.left))
            if isinstance(node.ops[0], ast.NotIn):
                return ast.UnaryOp(ast.Not(), found)
            return found
        return self.generic_visit(node)


def stacked(function: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """A copy of the lowered hand with its lists of cards as arrays of `capacity` cards
        (StackError where it can take none). A list of a group that
    no cut of the deck reaches starts with room for `capacity` items and grows when full."""
    function = copy.deepcopy(function)
    split_tuples(function)
    found = Pass(function, capacity)
    found.rewrite()
    ast.fix_missing_locations(function)
    return function


SEAT_METHODS = {"count": "seat_count", "index": "seat_index"}
"""The methods a list of one item per seat may be called with, and their helpers."""


def _repeated(node: ast.expr) -> bool:
    """`[v] * N`, v an int or bool constant and N an int constant."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mult)
        and isinstance(node.left, ast.List)
        and len(node.left.elts) == 1
        and isinstance(node.left.elts[0], ast.Constant)
        and type(node.left.elts[0].value) in (int, bool)
        and isinstance(node.right, ast.Constant)
        and type(node.right.value) is int
    )


def _tested(node: ast.expr) -> bool:
    """`[test for seat in range(N)]`, the test a comparison, N an int constant."""
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
        return False
    (loop,) = node.generators
    sizes = loop.iter.args if isinstance(loop.iter, ast.Call) else []
    return (
        isinstance(node.elt, ast.Compare)
        and isinstance(loop.target, ast.Name)
        and not loop.ifs
        and not loop.is_async
        and _called(loop.iter, "range")
        and len(sizes) == 1
        and isinstance(sizes[0], ast.Constant)
        and type(sizes[0].value) is int
    )


def _made(node: ast.expr) -> bool:
    return _repeated(node) or _tested(node)


def seat_arrays(function: ast.FunctionDef) -> None:
    """The lists made `[v] * N` or `[test for seat in range(N)]` (one item per seat: who is
    active, tricks won) become arrays where each local of a group passed to each other is
    set only so or from another, and only indexed by one seat, measured, walked, counted
    or searched."""
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
    groups = Groups()
    params = {a.arg for a in function.args.args}
    for _, name, value in _assignments(function):
        groups.find(name)
        if isinstance(value, ast.Name) and value.id not in params:
            groups.join(name, value.id)
    made = {groups.find(n) for _, n, v in _assignments(function) if _made(v)}
    taken: set[str] = set()
    for root in made:
        members = groups.members(root)
        sets = all(
            _made(v) or isinstance(v, ast.Name)
            for _, n, v in _assignments(function)
            if n in members
        )
        uses = all(
            _seat_use(node, parents)
            for node in ast.walk(function)
            if isinstance(node, ast.Name) and node.id in members
        )
        if sets and uses and not members & params:
            taken |= members
    names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    SeatArrays(taken, names | params).visit(function)


def _seat_use(name: ast.Name, parents: dict[int, ast.AST]) -> bool:
    parent = parents.get(id(name))
    if isinstance(name.ctx, ast.Store) or isinstance(parent, ast.Assign):
        return isinstance(parent, ast.Assign) and isinstance(parent.targets[0], ast.Name)
    if isinstance(parent, ast.Subscript):
        return parent.value is name and not isinstance(parent.slice, ast.Slice)
    if isinstance(parent, ast.Call):
        return _called(parent, "len") and len(parent.args) == 1
    if isinstance(parent, ast.Attribute):
        call = parents.get(id(parent))
        return (
            parent.attr in SEAT_METHODS
            and isinstance(call, ast.Call)
            and call.func is parent
            and len(call.args) == 1
        )
    return isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is name


class SeatArrays(ast.NodeTransformer):
    def __init__(self, taken: set[str], names: set[str]) -> None:
        self.taken = taken
        self.names = names  # every name of the function, for the loops made here

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        return node  # a list made `[v] * N` is replaced where it is assigned

    def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
        target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id in self.taken):
            return self.generic_visit(node)
        value = node.value
        if _repeated(value):
            assert isinstance(value, ast.BinOp) and isinstance(value.left, ast.List)
            return ast.Assign(node.targets, _np("full", value.right, value.left.elts[0]))
        if isinstance(value, ast.ListComp) and _tested(value):
            return self.filled(target.id, value)
        return self.generic_visit(node)

    def filled(self, name: str, made: ast.ListComp) -> list[ast.stmt]:
        """`name = [test for seat in range(N)]` as an array of N flags (1 or 0, as an int
        array) filled by a loop (its index a name of
        its own: the comprehension's is not seen after it)."""
        (loop,) = made.generators
        assert isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call)
        index = f"{loop.target.id}_{name}"
        while index in self.names:
            index += "_"
        self.names.add(index)
        test = Renamed(loop.target.id, index).visit(copy.deepcopy(made.elt))
        flags = ast.Attribute(ast.Name("np", ast.Load()), "int64", ast.Load())  # 1 or 0
        fill = ast.Assign(
            [ast.Subscript(ast.Name(name, ast.Load()), ast.Name(index, ast.Load()), ast.Store())],
            test,
        )
        return [
            ast.Assign([ast.Name(name, ast.Store())], _np("empty", loop.iter.args[0], flags)),
            ast.For(ast.Name(index, ast.Store()), loop.iter, [fill], []),
        ]

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in self.taken
            and func.attr in SEAT_METHODS
        ):
            return _call(SEAT_METHODS[func.attr], func.value, *map(self.visit, node.args))
        return self.generic_visit(node)


class Renamed(ast.NodeTransformer):
    """Every read of one name as a read of another."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.new, node.ctx) if node.id == self.old else node


def _np(function: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), function, ast.Load()), list(args), [])
