"""The lent-rows pass: the arrays a lowered function makes afresh on every call, lent instead
by its caller as rows of one int array, `scratch`, made once.

Numba makes each array on the heap: a function called thousands of times a hand (the
search kernel's playout and legality question) spent much of each call making and freeing
its few small arrays. The pass takes an array made by `np.zeros(N, np.int64)`,
`np.empty(N, np.int64)`, `stack_kept(row, N)` or `stack_new(N)` where neither its local
nor any local it is passed or cut to leaves the call: none is returned, stored, put in a
tuple or list, or passed to anything but a runtime helper (which keeps nothing). Each
place that makes such an array is given a row of `scratch` of its own, set as the call it
replaces would make it. A place inside a loop makes it again on the next turn, into the
same row: it is lent one only where no other local that may hold the array (`liveness`)
is read after that. An empty array (`np.zeros(0, np.int64)`) is an empty cut of the first
row wherever it is made: nothing is ever written to it.

Every function the pass is given takes `scratch` as its last argument, whether it lends
a row or not, so its callers pass it alike: `scratch_rows(capacity)`, rows of a list of
up to `capacity` cards (the deck's size) and its count. No
such function calls another (its calls pass no `scratch`), so one array serves them all.
"""

from __future__ import annotations

import ast

import numpy as np

from rulesdsl.play.native.card_arrays import Groups, _assignments, _cut
from rulesdsl.play.native.kernel import ALIASING, RUNTIME
from rulesdsl.play.native.liveness import live_before

ROWS = 8
"""The rows of a scratch array: the arrays lent to one call, at most."""

NAME = "scratch"

KEEPING_NOTHING = frozenset(RUNTIME) - ALIASING | {"len"}
"""The calls an array may be passed to: each reads it or changes it in place, keeps
nothing and returns no array of it."""


def scratch_rows(capacity: int) -> np.ndarray:
    """The array a caller lends a function `scratched` for lists of up to `capacity` cards."""
    return np.zeros((ROWS, capacity + 1), np.int64)


def scratched(function: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """The function with its lent arrays as rows of `scratch` (those of `scratch_rows`), and
    `scratch` its last argument."""
    lender = _Lender(function, capacity + 1)
    function.body = lender.block(function.body, looped=False)
    function.args.args.append(ast.arg(NAME))
    ast.fix_missing_locations(function)
    return function


class _Lender:
    """Lends rows to the arrays of one function, in the order they are made."""

    def __init__(self, function: ast.FunctionDef, width: int) -> None:
        self.width = width
        self.kept = _kept_in(function)
        self.live = live_before(function)
        self.rows = 0

    def block(self, body: list[ast.stmt], looped: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            if isinstance(stmt, ast.If):
                stmt.body = self.block(stmt.body, looped)
                stmt.orelse = self.block(stmt.orelse, looped)
            elif isinstance(stmt, (ast.For, ast.While)):
                stmt.body = self.block(stmt.body, looped=True)
                stmt.orelse = self.block(stmt.orelse, looped)
            elif isinstance(stmt, ast.Assign) and self.lendable(stmt, looped):
                name = stmt.targets[0].id  # type: ignore[attr-defined]
                if _size(stmt.value) == 0:
                    out.append(_assign(name, _row(0, 0)))
                    continue
                out.extend(_lend(name, stmt.value, self.rows))  # type: ignore[arg-type]
                self.rows += 1
                continue
            out.append(stmt)
        return out

    def lendable(self, stmt: ast.Assign, looped: bool) -> bool:
        """Whether the array this statement makes may be a row: it fits one, one is left,
        it never leaves the call and, made again on a loop's next turn, no other local
        that may hold it then is read after."""
        size = _size(stmt.value)
        target = stmt.targets[0]
        if size is None or not isinstance(target, ast.Name) or size > self.width:
            return False
        if size == 0:
            return True
        members = self.kept.get(target.id)
        if members is None or self.rows >= ROWS:
            return False
        return not looped or not (members - {target.id}) & self.live[id(stmt)]


def _size(value: ast.expr) -> int | None:
    """The size of an array a call makes, for the calls the pass lends rows for."""
    if not isinstance(value, ast.Call) or not value.args:
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        if func.value.id != "np" or func.attr not in ("zeros", "empty"):
            return None
        dtype = value.args[1] if len(value.args) == 2 else None
        if not (isinstance(dtype, ast.Attribute) and dtype.attr == "int64"):
            return None
        size = value.args[0]
    elif isinstance(func, ast.Name) and func.id in ("stack_kept", "stack_new"):
        size = value.args[-1]
    else:
        return None
    if isinstance(size, ast.Constant) and type(size.value) is int and size.value >= 0:
        return size.value + (1 if isinstance(func, ast.Name) else 0)  # a list's count
    return None


def _kept_in(function: ast.FunctionDef) -> dict[str, frozenset[str]]:
    """The locals whose arrays never leave the call (see the module's note), each with its
    group: the locals it is passed to, or cut to, and those passed or cut to it. Every
    local of the group is used only where the pass allows."""
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
    groups = Groups()
    for _, name, value in _assignments(function):
        groups.find(name)
        if isinstance(value, ast.Name):
            groups.join(name, value.id)
        elif isinstance(value, ast.Subscript) and _cut(value):
            groups.join(name, value.value.id)  # type: ignore[attr-defined]
    params = {a.arg for a in function.args.args}
    kept: dict[str, frozenset[str]] = {}
    for root in {groups.find(n) for n in list(groups.parent)}:
        members = groups.members(root)
        if members & params:
            continue
        uses = (
            node
            for node in ast.walk(function)
            if isinstance(node, ast.Name) and node.id in members and isinstance(node.ctx, ast.Load)
        )
        if all(_stays(node, parents, members) for node in uses):
            kept |= dict.fromkeys(members, frozenset(members))
    return kept


def _stays(node: ast.expr, parents: dict[int, ast.AST], members: set[str]) -> bool:
    """Whether this read of a lent array (or of a call that returns it) keeps it in the
    call."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Subscript):  # an item read or set, a cut set or kept
        if parent.value is not node:
            return False
        if isinstance(parent.slice, ast.Slice) and isinstance(parent.ctx, ast.Load):
            return _cut(parent) and _stays(parent, parents, members)
        return True
    if isinstance(parent, ast.Assign):
        target = parent.targets[0]
        return parent.value is node and isinstance(target, ast.Name) and target.id in members
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name):
        if parent.func.id in ALIASING:
            return _stays(parent, parents, members)
        return parent.func.id in KEEPING_NOTHING
    if isinstance(parent, (ast.For, ast.comprehension)):
        return parent.iter is node
    return isinstance(parent, ast.Compare)


def _row(row: int, size: int) -> ast.Subscript:
    """`scratch[row, :size]`."""
    cut = ast.Slice(None, ast.Constant(size), None)
    return ast.Subscript(
        ast.Name(NAME, ast.Load()), ast.Tuple([ast.Constant(row), cut], ast.Load()), ast.Load()
    )


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _lend(name: str, value: ast.Call, row: int) -> list[ast.stmt]:
    """The statements that set row `row` as the call `value` would make its array."""
    size = _size(value)
    assert size is not None
    made = [_assign(name, _row(row, size))]
    local = ast.Name(name, ast.Load())
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "zeros":
        cut = ast.Subscript(local, ast.Slice(None, None, None), ast.Store())
        made.append(ast.Assign([cut], ast.Constant(0)))
    elif isinstance(func, ast.Name) and func.id == "stack_kept":
        keep = ast.Call(ast.Name("stack_keep", ast.Load()), [local, value.args[0]], [])
        made.append(ast.Expr(keep))
    elif isinstance(func, ast.Name) and func.id == "stack_new":
        made.append(ast.Expr(ast.Call(ast.Name("stack_clear", ast.Load()), [local], [])))
    return made
