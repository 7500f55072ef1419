"""What a step function is: a plain module-level function over the int state, with one
`return`, at its end, made only of the statements in STEP_STATEMENTS, so that the fast
path can inline it (`rulesdsl.play.engine.inline`, which takes apart exactly these). The
registry refuses a unit of another package whose step functions are not of this shape.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from collections.abc import Callable
from functools import cache

STEP_STATEMENTS = (
    ast.AnnAssign,
    ast.Assign,
    ast.AugAssign,
    ast.If,
    ast.For,
    ast.While,
    ast.Return,
    ast.Expr,
    ast.Break,
    ast.Continue,
    ast.Pass,
)
"""The statements a step function may use."""


class ShapeError(ValueError):
    """A function that is not of a step function's shape."""


@cache
def source_of(fn: Callable) -> ast.FunctionDef:
    """The function's syntax tree, without its docstring; the specialiser builds new nodes
    and never changes these."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise ShapeError(f"{fn.__qualname__} is not a plain function")
    node.body = [s for s in node.body if not is_docstring(s)]
    return node


def is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def inlinable(node: ast.FunctionDef) -> bool:
    """Whether the function's only return is its last statement."""
    returns = [n for s in node.body for n in ast.walk(s) if isinstance(n, ast.Return)]
    last = node.body[-1] if node.body else None
    return all(r is last for r in returns)


def shape_problem(fn: Callable) -> str:
    """Why `fn` is not of a step function's shape (empty if it is)."""
    if not isinstance(fn, types.FunctionType) or fn.__closure__ or fn.__name__ == "<lambda>":
        return "is not a plain function (no lambdas, no closures: fix constants with partial)"
    try:
        node = source_of(fn)
    except (OSError, TypeError, SyntaxError, ShapeError) as error:
        return f"cannot be read: {error}"
    if not inlinable(node):
        return "must have one return, at its end"
    for stmt in (n for s in node.body for n in ast.walk(s) if isinstance(n, ast.stmt)):
        if not isinstance(stmt, STEP_STATEMENTS):
            return f"cannot be inlined by the fast path: it uses a {type(stmt).__name__} statement"
    return ""
