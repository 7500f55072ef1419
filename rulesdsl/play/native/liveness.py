"""Which locals a lowered function may still read: a backward pass over its statements.

A local is live before a statement when some path from there reads it before setting it.
Setting an item or a cut of a local (`x[i] = v`) reads the local: it writes into the array
the local holds. Loops are taken to their fixed point, with `break` going on after the
loop, `continue` back to its head, and `return` (or `raise`) ending the call. Any other
statement with a block of its own is taken to read every name in it.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

BLOCKS = (ast.FunctionDef, ast.ClassDef, ast.With, ast.Try, ast.Match)
"""Statements with blocks of their own that lowered code does not hold."""


class Loop(NamedTuple):
    """What is live at a loop's head and after it, for `continue` and `break`."""

    head: frozenset[str]
    after: frozenset[str]


def live_before(function: ast.FunctionDef) -> dict[int, frozenset[str]]:
    """The locals live before each statement of `function`, by the statement's id."""
    found: dict[int, frozenset[str]] = {}
    _block(function.body, frozenset(), None, found)
    return found


def _block(
    body: list[ast.stmt], after: frozenset[str], loop: Loop | None, found: dict[int, frozenset[str]]
) -> frozenset[str]:
    live = after
    for stmt in reversed(body):
        live = _statement(stmt, live, loop, found)
        found[id(stmt)] = live
    return live


def _statement(
    stmt: ast.stmt, after: frozenset[str], loop: Loop | None, found: dict[int, frozenset[str]]
) -> frozenset[str]:
    if isinstance(stmt, ast.If):
        body = _block(stmt.body, after, loop, found)
        orelse = _block(stmt.orelse, after, loop, found)
        return body | orelse | _reads(stmt.test)
    if isinstance(stmt, (ast.For, ast.While)):
        return _loop(stmt, after, found)
    if isinstance(stmt, ast.Break):
        return loop.after if loop else after
    if isinstance(stmt, ast.Continue):
        return loop.head if loop else after
    if isinstance(stmt, (ast.Return, ast.Raise)):
        return _reads(stmt)
    if isinstance(stmt, BLOCKS):  # not followed inside: every name in it may be read
        names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        return after | frozenset(names)
    reads = _reads(stmt)
    if isinstance(stmt, ast.AugAssign):  # `x += 1` reads x
        reads |= _set_names(stmt.target)
    return (after - _set(stmt)) | reads


def _loop(
    stmt: ast.For | ast.While, after: frozenset[str], found: dict[int, frozenset[str]]
) -> frozenset[str]:
    """What is live before the loop: at its head, where each turn begins (or it ends)."""
    orelse = _block(stmt.orelse, after, None, found)
    test = _reads(stmt.test) if isinstance(stmt, ast.While) else frozenset()
    target = _set_names(stmt.target) if isinstance(stmt, ast.For) else frozenset()
    head = orelse | test
    while True:
        turn = _block(stmt.body, head, Loop(head, after), found) - target
        widened = head | turn
        if widened == head:
            break
        head = widened
    return head | (_reads(stmt.iter) if isinstance(stmt, ast.For) else frozenset())


def _reads(node: ast.AST) -> frozenset[str]:
    return frozenset(
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )


def _set(stmt: ast.stmt) -> frozenset[str]:
    """The locals a simple statement sets as a whole (not an item of them)."""
    if isinstance(stmt, ast.Assign):
        return frozenset().union(*(_set_names(t) for t in stmt.targets))
    if isinstance(stmt, ast.AnnAssign):
        return _set_names(stmt.target)
    return frozenset()


def _set_names(target: ast.expr) -> frozenset[str]:
    if isinstance(target, ast.Name):
        return frozenset({target.id})
    if isinstance(target, (ast.Tuple, ast.List)):
        return frozenset().union(*(_set_names(t) for t in target.elts))
    return frozenset()
