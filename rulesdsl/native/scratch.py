"""The scratch pass: the arrays a lowered function makes afresh on every call, lent instead
by its caller as rows of one int array, `scratch`, made once.

Numba makes each array on the heap: a function called thousands of times a hand (the
search kernel's playout and legality question) spent much of each call making and freeing
its few small arrays. The pass takes an array made at the function's top level (so made
once a call) by `np.zeros(N, np.int64)`, `np.empty(N, np.int64)`, `stack_kept(row, N)` or
`stack_new(N)`, its local set nowhere else, where neither it nor any local it is passed to
leaves the call: none is returned, stored, put in a tuple or list, or passed to anything
but a runtime helper (which keeps nothing). Each such array becomes a row of `scratch`,
set as the call it replaces would make it. An empty array (`np.zeros(0, np.int64)`) is an
empty cut of the first row wherever it is made: nothing is ever written to it.

Every function the pass is given takes `scratch` as its last argument, whether it lends
a row or not, so its callers pass it alike: `scratch_rows(capacity)`, rows of a list of
up to `capacity` cards (the deck's size) and its count. No
such function calls another (its calls pass no `scratch`), so one array serves them all.
"""

from __future__ import annotations

import ast

import numpy as np

from rulesdsl.native.kernel import RUNTIME
from rulesdsl.native.stacks import Groups, _assignments

ROWS = 8
"""The rows of a scratch array: the arrays lent to one call, at most."""

NAME = "scratch"

ALIASING = frozenset({"stack_view", "stack_join", "stack_grown_append", "stack_grown_extend"})
"""The runtime helpers that return the array they are given (or a view of it)."""

KEEPING_NOTHING = frozenset(RUNTIME) - ALIASING | {"len"}
"""The calls an array may be passed to: each reads it or changes it in place, keeps
nothing and returns no array of it."""


def scratch_rows(capacity: int) -> np.ndarray:
    """The array a caller lends a function `scratched` for lists of up to `capacity` cards."""
    return np.zeros((ROWS, capacity + 1), np.int64)


def scratched(function: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """The function with its lent arrays as rows of `scratch` (those of `scratch_rows`), and
    `scratch` its last argument."""
    width = capacity + 1
    lent = [
        (index, stmt)
        for index, stmt in enumerate(function.body)
        if isinstance(stmt, ast.Assign) and _size(stmt.value) is not None
    ]
    once = _set_once(function)
    kept = _kept_in(function)
    rows = 0
    body = list(function.body)
    for index, stmt in reversed(lent):
        target = stmt.targets[0]
        size = _size(stmt.value)
        assert size is not None
        if not isinstance(target, ast.Name) or size > width:
            continue
        if size == 0:
            body[index] = _assign(target.id, _row(0, 0))
        elif target.id in once and target.id in kept and rows < ROWS:
            body[index : index + 1] = _lend(target.id, stmt.value, rows)
            rows += 1
    function.body = body
    function.args.args.append(ast.arg(NAME))
    ast.fix_missing_locations(function)
    return function


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


def _set_once(function: ast.FunctionDef) -> set[str]:
    """The locals set by exactly one statement, a plain assignment."""
    counts: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    return {name for name, count in counts.items() if count == 1}


def _kept_in(function: ast.FunctionDef) -> set[str]:
    """The locals whose arrays never leave the call (see the module's note): every local of
    a group passed to each other is used only where the pass allows."""
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
    groups = Groups()
    for _, name, value in _assignments(function):
        groups.find(name)
        if isinstance(value, ast.Name):
            groups.join(name, value.id)
    params = {a.arg for a in function.args.args}
    kept: set[str] = set()
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
            kept |= members
    return kept


def _stays(node: ast.expr, parents: dict[int, ast.AST], members: set[str]) -> bool:
    """Whether this read of a lent array (or of a call that returns it) keeps it in the
    call."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Subscript):  # an item read or set, or a cut set
        return parent.value is node and (
            not isinstance(parent.slice, ast.Slice) or isinstance(parent.ctx, ast.Store)
        )
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
