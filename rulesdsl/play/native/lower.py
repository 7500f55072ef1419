"""The native pass: a specialised function (`inline.specialised_tree`) made numba's.

The specialiser leaves a function over locals whose free names stand for fixed objects.
Here each becomes a literal (ints, bools and tuples of them, nested) or one of the
compiled helpers of `rulesdsl.play.native.runtime` (the stream, `insort`); anything else is
refused with NativeError, and the profile plays on the pure-Python path. A random
generator's `random()` becomes a draw from the stream array it stands for.
"""

from __future__ import annotations

import ast
import bisect
import copy
import hashlib
import itertools
from typing import Any, NamedTuple

from rulesdsl.model import seeds, stream
from rulesdsl.play.engine import fast
from rulesdsl.play.engine.state_in_locals import TEMP

LITERALS = (int, bool, type(None))

HELPERS = {
    id(bisect.insort): "insort",
    id(bisect.insort_right): "insort",
    id(fast.heuristic): "heuristic",
    id(seeds.shuffle): "shuffle",
    id(stream.Stream): "new_stream",
    id(stream.number): "number",
}
"""The functions generated code may call, by the name of their compiled copy in
`rulesdsl.play.native.runtime`."""

KEPT = frozenset({seeds.shuffle})
"""Functions the specialiser leaves as calls, for their compiled copies."""


class NativeError(ValueError):
    """A specialised function that the native pass cannot make numba's."""


def literal(value: Any) -> bool:
    """Whether `value` is an int, a bool, None, or a tuple of such, nested."""
    if type(value) is tuple:
        return all(literal(v) for v in value)
    return type(value) in LITERALS


class Lower(ast.NodeTransformer):
    """Fixed objects to literals and helpers; `x.random()` to `next_uniform(x)`."""

    def __init__(self, objects: dict[str, Any]) -> None:
        self.objects = objects
        self.tables: dict[str, tuple] = {}
        self.uniforms: set[str] = set()  # locals bound to a generator's `random`

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id not in self.objects or not isinstance(node.ctx, ast.Load):
            return node
        value = self.objects[node.id]
        if literal(value):
            return ast.Constant(value)
        helper = HELPERS.get(id(value))
        if helper is None:
            raise NativeError(f"{node.id} ({type(value).__name__}) has no native form")
        return ast.Name(helper, ast.Load())

    def visit_Assign(self, node: ast.Assign) -> ast.stmt | None:
        value = node.value
        if (
            isinstance(value, ast.Attribute)
            and value.attr == "random"
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            self.uniforms.add(node.targets[0].id)
            return ast.Assign(node.targets, self.visit(value.value))
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Name) and func.id in self.uniforms and not node.args:
            return _call("next_uniform", ast.Name(func.id, ast.Load()))
        if isinstance(func, ast.Attribute) and func.attr == "random" and not node.args:
            return _call("next_uniform", self.visit(func.value))
        return self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        """An item of a literal at a literal index is a literal: a row of a ragged table."""
        new = self.generic_visit(node)
        if (
            isinstance(new, ast.Subscript)
            and isinstance(new.value, ast.Constant)
            and isinstance(new.slice, ast.Constant)
            and type(new.value.value) is tuple
            and type(new.slice.value) is int
        ):
            return ast.Constant(new.value.value[new.slice.value])
        if (
            isinstance(new, ast.Subscript)
            and isinstance(new.value, ast.Constant)
            and type(new.value.value) is tuple
            and all(type(v) is tuple for v in new.value.value)
        ):
            return ast.Subscript(self.table(new.value.value), new.slice, ast.Load())
        return new

    def table(self, rows: tuple) -> ast.Name:
        """A module constant for a table of rows indexed at run time: a numpy array when
        its rows are of one length, for a local that only reads them (`RowArrays`)."""
        if len({len(r) for r in rows}) != 1 or not all(literal(r) for r in rows):
            raise NativeError("a ragged table indexed at run time")
        digest = hashlib.blake2b(repr(rows).encode(), digest_size=5).hexdigest()
        name = f"rows_{digest}"
        self.tables[name] = rows
        return ast.Name(name, ast.Load())


class RowArrays:
    """A local set to a row of a table is an int array wherever it is set: a list built
    for it becomes an array, and nothing may change it in place."""

    def __init__(self, function: ast.FunctionDef, tables: dict[str, tuple]) -> None:
        rows = {
            target.id
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Subscript)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id in tables
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(function):
            changes = isinstance(node, ast.Attribute) or (
                isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
            )
            owner = getattr(node, "value", None)
            if changes and isinstance(owner, ast.Name) and owner.id in rows:
                raise NativeError(f"{owner.id} is changed in place")
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in rows for t in node.targets
            ):
                node.value = self.array(node.value)
        for node in ast.walk(function):
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    setattr(node, field, [s for stmt in block for s in _filled_row(stmt, rows)])

    @staticmethod
    def array(value: ast.expr) -> ast.expr:
        if isinstance(value, ast.List) and not value.elts:
            return ast.parse("np.zeros(0, np.int64)", mode="eval").body
        if isinstance(value, ast.ListComp):
            int64 = ast.Attribute(ast.Name("np", ast.Load()), "int64", ast.Load())
            return ast.Call(
                ast.Attribute(ast.Name("np", ast.Load()), "array", ast.Load()), [value, int64], []
            )
        return value


def _filled_row(stmt: ast.stmt, rows: set[str]) -> list[ast.stmt]:
    """`x = np.array([e for v in range(a, a + N) if c], np.int64)`, N a constant, as a loop
    that fills a new array of N items and `x` the part filled: no list is made."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and stmt.targets[0].id in rows
        and isinstance(stmt.value, ast.Call)
        and stmt.value.args
        and isinstance(stmt.value.args[0], ast.ListComp)
        and len(stmt.value.args[0].generators) == 1
    ):
        return [stmt]
    made = stmt.value.args[0]
    gen = made.generators[0]
    size = _range_size(gen.iter)
    if size is None or not isinstance(gen.target, ast.Name):
        return [stmt]
    name = stmt.targets[0].id
    lines = [
        f"{name}_items = np.empty({size}, np.int64)",
        f"{name}_count = 0",
        f"for {gen.target.id} in range(0):",
        f"    {name}_items[{name}_count] = 0",
        f"    {name}_count += 1",
        f"{name} = {name}_items[:{name}_count]",
    ]
    made_items, count, loop, done = ast.parse("\n".join(lines)).body[0:4]  # type: ignore[misc]
    assert isinstance(loop, ast.For)
    loop.iter = gen.iter
    store, step = loop.body
    assert isinstance(store, ast.Assign)
    store.value = made.elt
    keep: list[ast.stmt] = [store, step]
    for test in reversed(gen.ifs):
        keep = [ast.If(test, keep, [])]
    loop.body = keep
    return [made_items, count, loop, done]


def _range_size(node: ast.expr) -> int | None:
    """The length of `range(N)` or `range(a, a + N)`, N a constant; None for others."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    args = node.args
    if node.func.id != "range" or node.keywords or not 1 <= len(args) <= 2:
        return None
    if len(args) == 1:
        size = args[0]
    else:
        stop = args[1]
        if not (
            isinstance(stop, ast.BinOp)
            and isinstance(stop.op, ast.Add)
            and ast.dump(stop.left) == ast.dump(args[0])
        ):
            return None
        size = stop.right
    if isinstance(size, ast.Constant) and type(size.value) is int:
        return max(size.value, 0)
    return None


class Truth(ast.NodeTransformer):
    """Every value Python tests for truth is tested by `truth`, which numba can do for a
    list too: the tests of `if`, `while` and `x if c else y`, `not`'s operand, and the
    operands of `and` and `or` in a test."""

    def visit_If(self, node: ast.If) -> ast.If:
        self.generic_visit(node)
        node.test = test(node.test)
        return node

    visit_While = visit_If
    visit_IfExp = visit_If

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            node.operand = test(node.operand)
        return node


def test(node: ast.expr) -> ast.expr:
    """`node` as a truth test."""
    if isinstance(node, ast.BoolOp):
        return ast.BoolOp(node.op, [test(v) for v in node.values])
    if isinstance(node, (ast.Compare, ast.Constant)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    ):
        return node
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "truth":
        return node
    return _call("truth", node)


def counted_lists(function: ast.FunctionDef) -> None:
    """A local list that is only ever set empty, appended to (a value without calls) and
    measured by `len` becomes the count of its items: nothing reads what it holds."""
    uses: dict[str, list[str]] = {}
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            uses.setdefault(node.id, []).append(_use(node, parents))
    counted = {name for name, kinds in uses.items() if "set" in kinds and "other" not in kinds}
    if not counted:
        return

    class Count(ast.NodeTransformer):
        def visit_Assign(self, node: ast.Assign) -> ast.stmt:
            if _named_in(node.targets[0], counted):
                return ast.Assign(node.targets, ast.Constant(0))
            return self.generic_visit(node)

        def visit_Expr(self, node: ast.Expr) -> ast.stmt:
            call = node.value
            if isinstance(call, ast.Call) and _named_in(call.func, counted, "append"):
                owner = call.func.value  # type: ignore[attr-defined]
                return ast.AugAssign(ast.Name(owner.id, ast.Store()), ast.Add(), ast.Constant(1))
            return self.generic_visit(node)

        def visit_Call(self, node: ast.Call) -> ast.expr:
            if _called_name(node, "len") and _named_in(node.args[0], counted):
                return ast.Name(node.args[0].id, ast.Load())  # type: ignore[attr-defined]
            return self.generic_visit(node)

    Count().visit(function)


def _use(name: ast.Name, parents: dict[int, ast.AST]) -> str:
    """How a local is used: `set` empty, `append`ed to, `len`, or `other`."""
    parent = parents.get(id(name))
    if isinstance(name.ctx, ast.Store):
        return "set" if isinstance(parent, ast.Assign) and _is_empty_list(parent) else "other"
    if isinstance(parent, ast.Call) and _called_name(parent, "len") and parent.args == [name]:
        return "len"
    call = parents.get(id(parent))
    if (
        isinstance(parent, ast.Attribute)
        and parent.attr == "append"
        and isinstance(call, ast.Call)
        and len(call.args) == 1
        and isinstance(parents.get(id(call)), ast.Expr)
        and not any(isinstance(n, ast.Call) for n in ast.walk(call.args[0]))
    ):
        return "append"
    return "other"


def _is_empty_list(node: ast.Assign) -> bool:
    return len(node.targets) == 1 and isinstance(node.value, ast.List) and not node.value.elts


def _named_in(node: ast.expr, names: set[str], attr: str | None = None) -> bool:
    """Whether `node` is one of the locals `names` (or, with `attr`, that attribute of one)."""
    if attr is not None:
        return (
            isinstance(node, ast.Attribute) and node.attr == attr and _named_in(node.value, names)
        )
    return isinstance(node, ast.Name) and node.id in names


def _called_name(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == name and len(node.args) == 1


def type_empty_lists(function: ast.FunctionDef) -> None:
    """An empty list literal is a list of ints (numba cannot always tell), unless it is
    the value of a local that tuples are appended to."""
    of_tuples = {
        node.func.value.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "append"
        and isinstance(node.func.value, ast.Name)
        and node.args
        and isinstance(node.args[0], ast.Tuple)
    }
    kept = {
        id(node.value)
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id in of_tuples for t in node.targets)
    }

    class Typed(ast.NodeTransformer):
        def visit_List(self, node: ast.List) -> ast.expr:
            self.generic_visit(node)
            if node.elts or id(node) in kept or not isinstance(node.ctx, ast.Load):
                return node
            empty = ast.List([ast.Constant(0)], ast.Load())
            return ast.Subscript(empty, ast.Slice(None, ast.Constant(0)), ast.Load())

    Typed().visit(function)


class SliceLoops(ast.NodeTransformer):
    """`for x in xs[k:]` walks the indices from k instead of copying the list."""

    def __init__(self) -> None:
        self.count = itertools.count()

    def visit_For(self, node: ast.For) -> ast.For:
        self.generic_visit(node)
        it = node.iter
        if not (
            isinstance(it, ast.Subscript)
            and isinstance(it.value, ast.Name)
            and isinstance(it.slice, ast.Slice)
            and it.slice.upper is None
            and it.slice.step is None
            and isinstance(it.slice.lower, ast.Constant)
            and not node.orelse
            and not any(
                isinstance(n, ast.Name) and n.id == it.value.id and isinstance(n.ctx, ast.Store)
                for s in node.body
                for n in ast.walk(s)
            )
        ):
            return node
        index = f"i{next(self.count)}_index"
        items = ast.Name(it.value.id, ast.Load())
        length = _call("len", items)
        take = ast.Assign(
            [node.target], ast.Subscript(items, ast.Name(index, ast.Load()), ast.Load())
        )
        bounds = _call("range", it.slice.lower, length)
        return ast.For(ast.Name(index, ast.Store()), bounds, [take, *node.body], [])


def canonical_names(function: ast.FunctionDef) -> None:
    """Number the specialiser's temporaries in order of first use: their numbers follow
    the order of sets, which changes from one process to the next, and the kernel's name
    is a digest of its text."""
    names: dict[str, str] = {}

    def canonical(name: str) -> str:
        if TEMP.match(name) and name not in names:
            names[name] = f"t{len(names)}_{TEMP.sub('', name)}"
        return names.get(name, name)

    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            node.id = canonical(node.id)
        elif isinstance(node, ast.arg):
            node.arg = canonical(node.arg)


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


class Lowered(NamedTuple):
    """A lowered function and the tables it reads, by their module constant's name."""

    function: ast.FunctionDef
    tables: dict[str, tuple]


def lower(function: ast.FunctionDef, objects: dict[str, Any], name: str) -> Lowered:
    """A copy of `function`, named `name`, with every fixed object lowered."""
    lowering = Lower(objects)
    lowered = lowering.visit(copy.deepcopy(function))
    RowArrays(lowered, lowering.tables)
    lowered = Truth().visit(lowered)
    counted_lists(lowered)
    type_empty_lists(lowered)
    SliceLoops().visit(lowered)
    canonical_names(lowered)
    lowered.name = name
    return Lowered(lowered, lowering.tables)
