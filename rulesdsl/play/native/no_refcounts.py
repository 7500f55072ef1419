"""Functions of a kernel compiled without reference counts.

Numba counts the references to every array a compiled function is passed, and to every
view it takes: two atomic operations each, on every call. A playout called 1,500 times a
hand spent a fifth of its time so. A function that makes no array or list needs none of
it: every array it sees is lent by a caller that holds it for the whole call. Such a
function is compiled with `_nrt=False` (numba's runtime off), which also leaves it no
Python entry (`no_cpython_wrapper`); it is called only from compiled code.

A function is *uncounted* when it is compiled on its own (not inlined), makes no array or
list (nor do the functions it inlines), calls nothing that may return a new array (a
function of the kernel that makes arrays and returns a value, a runtime helper that makes
or returns one), and returns nothing that may be an array itself. Numba compiles a
function's callees with the caller's setting unless they state their own, and keeps one
compiled version per signature whoever asked first: so each other function of the kernel
states `_nrt=True`, and a runtime helper is called from uncounted code only if it makes
no array and returns none, which it does alike either way. What the reading of the source
cannot see (the length of a list, say, needs numba's runtime) numba refuses when it
compiles, and the search kernel is then compiled counted throughout (`search.py`).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from functools import cache

from rulesdsl.play.native import runtime
from rulesdsl.play.native.kernel import ALIASING, BUILTINS, COUNTED, RUNTIME, UNCOUNTED

SCALARS = frozenset({"int64", "uint64", "int32", "uint32", "int8", "uint8", "float64", "bool_"})
"""numpy's scalar types, which numba calls to convert a number: they make no array."""

DISPLAYS = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp, ast.GeneratorExp)
"""The expressions that make a list, a dict or a set."""

MAKING_NOTHING = BUILTINS - {"sorted", "list"}
"""The builtins a kernel calls that make nothing."""


def redecorated(functions: Iterable[ast.FunctionDef]) -> None:
    """Give each function compiled on its own the decorator it is compiled with: uncounted
    where it can be, else counted by its own statement."""
    found = {f.name: f for f in functions}
    for function in found.values():
        if _inlined(function):
            continue
        uncounted = not _makes_arrays(function, found) and not _returns_an_array(function)
        decorator = UNCOUNTED if uncounted else COUNTED
        function.decorator_list = [ast.parse(decorator, mode="eval").body]


def is_uncounted(function: ast.FunctionDef) -> bool:
    return any(ast.unparse(d) == UNCOUNTED for d in function.decorator_list)


@cache
def runtime_makers() -> frozenset[str]:
    """The runtime helpers that make an array or a list, or return an array: read from
    their source, each with the helpers it calls."""
    trees = {}
    for name in RUNTIME:
        helper = getattr(runtime, name)
        (node,) = ast.parse(inspect.getsource(getattr(helper, "py_func", helper))).body
        assert isinstance(node, ast.FunctionDef)
        trees[name] = node
    makers = set(ALIASING) | {n for n, t in trees.items() if _makes_here(t)}
    while True:
        more = {n for n, t in trees.items() if n not in makers and _calls(t) & makers}
        if not more:
            return frozenset(makers)
        makers |= more


def _makes_arrays(
    function: ast.FunctionDef, found: dict[str, ast.FunctionDef], seen: frozenset[str] = frozenset()
) -> bool:
    """Whether the function (with the functions it inlines) makes an array or a list, or
    calls a function that may return one."""
    if function.name in seen or _makes_here(function):
        return True
    makers = runtime_makers()
    for name in _calls(function):
        if name in makers:
            return True
        callee = found.get(name)
        if callee is None:
            if name not in RUNTIME and name not in MAKING_NOTHING:
                return True
            continue
        inner = _makes_arrays(callee, found, seen | {function.name})
        if _inlined(callee) and inner:
            return True
        if not _inlined(callee) and inner and _returns_something(callee):
            return True
    return False


def _makes_here(function: ast.FunctionDef) -> bool:
    """Whether the function's own body makes an array or a list: a display or a
    comprehension, a call of numpy other than a scalar's type, or of a method, or a cut
    set to anything but a number (numba copies an array set into a cut first)."""
    for node in (n for stmt in function.body for n in ast.walk(stmt)):
        cut_set = isinstance(node, ast.Assign) and any(_cut_set(t) for t in node.targets)
        if cut_set and not _a_number(node.value):  # type: ignore[union-attr]
            return True
        if isinstance(node, DISPLAYS):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id == "np" and node.func.attr in SCALARS):
                return True
    return False


def _cut_set(target: ast.expr) -> bool:
    if not isinstance(target, ast.Subscript):
        return False
    index = target.slice
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(part, ast.Slice) for part in parts)


def _calls(function: ast.FunctionDef) -> set[str]:
    return {
        node.func.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def _returns_something(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Return)
        and node.value is not None
        and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        for node in ast.walk(function)
    )


def _returns_an_array(function: ast.FunctionDef) -> bool:
    """Whether a value the function returns may be an array: a local, an item or cut of
    one, a tuple, or a call of something not known to give a number."""
    values = (n.value for n in ast.walk(function) if isinstance(n, ast.Return) and n.value)
    return any(not _a_number(value) for value in values)


def _a_number(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Compare):
        return True
    if isinstance(value, ast.BoolOp):
        return all(_a_number(v) for v in value.values)
    if isinstance(value, ast.BinOp):
        return _a_number(value.left) and _a_number(value.right)
    if isinstance(value, ast.UnaryOp):
        return _a_number(value.operand)
    if isinstance(value, ast.IfExp):
        return _a_number(value.body) and _a_number(value.orelse)
    return False


def _inlined(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(d, ast.Call) and any(k.arg == "inline" for k in d.keywords)
        for d in function.decorator_list
    )
