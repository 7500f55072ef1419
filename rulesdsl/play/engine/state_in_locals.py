"""A specialised function (`inline.py`) with its state held in locals, and what the profile
never reads dropped.

Each pass works on the syntax tree of the one function and keeps its meaning exactly: it
removes only what has no effect (a store nobody reads, an update of a field nobody
consults, a copy, a branch on a constant).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rulesdsl.model.state import State
from rulesdsl.model.units.shape import ShapeError

TEMP = re.compile(r"^_[0-9]+_")
"""The names the inliner gives its temporaries and the locals of inlined functions."""

CONTEXTS = (ast.Load, ast.Store)
SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
SELF_UPDATES = {"append", "extend", "insert", "clear", "reverse"}


class InlineError(ShapeError):
    """Code the specialiser cannot take apart (a bug in a step function's shape)."""


def hold_state_in_locals(node: ast.FunctionDef, state_vars: set[str]) -> None:
    """Every pass, in order, on the specialised function."""
    localise(node, state_vars)
    drop_dead_fields(node, {f"{var}_{attr}" for var in state_vars for attr in State.__slots__})
    propagate_copies(node)
    propagate_constants(node)
    inline_constant_temps(node)
    drop_dead_stores(node)


def pure(node: ast.expr) -> bool:
    """Whether evaluating `node` can have no effect: no calls in it."""
    return not any(isinstance(n, ast.Call) for n in ast.walk(node))


def fold(node: ast.expr) -> ast.expr:
    """Fold `not` of a constant, `and`/`or` led by constants, and comparisons of constants,
    keeping Python's meaning exactly (`True and x` is `x`, `False and x` is False)."""
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and isinstance(node.operand, ast.Constant)
    ):
        return ast.Constant(not node.operand.value)
    if isinstance(node, ast.BoolOp):
        values = list(node.values)
        stops = not isinstance(node.op, ast.And)  # `or` stops at a true value
        while len(values) > 1 and isinstance(values[0], ast.Constant):
            if bool(values[0].value) == stops:
                return values[0]
            values.pop(0)
        return values[0] if len(values) == 1 else ast.BoolOp(node.op, values)
    if isinstance(node, ast.Compare) and all(
        isinstance(n, ast.Constant) for n in [node.left, *node.comparators]
    ):
        expression = ast.Expression(node)
        ast.fix_missing_locations(expression)
        return ast.Constant(eval(compile(expression, "<fold>", "eval")))
    return node


def localise(node: ast.AST, state_vars: set[str]) -> None:
    """`s.attr` of a state held in locals becomes the local `s_attr`."""
    for parent in ast.walk(node):
        for name, value in ast.iter_fields(parent):
            items = value if isinstance(value, list) else [value]
            changed = False
            new = []
            for item in items:
                if (
                    isinstance(item, ast.Attribute)
                    and isinstance(item.value, ast.Name)
                    and item.value.id in state_vars
                ):
                    item = ast.Name(f"{item.value.id}_{item.attr}", item.ctx)
                    changed = True
                new.append(item)
            if changed:
                setattr(parent, name, new if isinstance(value, list) else new[0])
    for found in ast.walk(node):
        if isinstance(found, ast.Name) and found.id in state_vars:
            raise InlineError(f"the state {found.id} escapes the driver")


def _updated(stmt: ast.stmt) -> str | None:
    """The name a statement only updates in place or sets to a value without effects
    (`x.append(v)`, `x[i] += v`, `x |= v`, `x = []`), if it is such a statement and its other parts
    have no effects."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in SELF_UPDATES
            and isinstance(func.value, ast.Name)
            and all(pure(a) for a in call.args)
        ):
            return func.value.id
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) == 1 and pure(stmt.value):
            target = targets[0]
            if isinstance(target, ast.Name):
                return target.id
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                return target.value.id if pure(target.slice) else None
    return None


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for child in ast.walk(node):
        for name in ("body", "orelse"):
            block = getattr(child, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def drop_dead_fields(node: ast.FunctionDef, names: set[str]) -> None:
    """Drop every update of a local among `names` that nothing but its own updates reads:
    the state's fields a profile never consults (the trick's cards without a reshuffle,
    tricks won without most_tricks...)."""
    while True:
        updates: dict[str, list[ast.stmt]] = {}
        for block in _blocks(node):
            for stmt in block:
                name = _updated(stmt)
                if name in names:
                    updates.setdefault(name, []).append(stmt)
        inside = {id(n) for stmts in updates.values() for s in stmts for n in ast.walk(s)}
        read = {
            n.id
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside
        }
        own_reads = {
            n.id
            for name, stmts in updates.items()
            for s in stmts
            for n in ast.walk(s)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id != name
        }
        dead = {name for name in updates if name not in read and name not in own_reads}
        if not dead:
            return
        doomed = {id(s) for name in dead for s in updates[name]}
        for block in list(_blocks(node)):
            block[:] = [s for s in block if id(s) not in doomed] or [ast.Pass()]


def drop_dead_stores(node: ast.FunctionDef) -> None:
    """Assignments to a name the function never reads, of a value without effects (the
    state's fields a profile does not use, a bot's unused argument). An augmented
    assignment (`x |= bit`) reads its name, so the value it starts from stays."""
    while True:
        read = {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        read |= {
            n.target.id
            for n in ast.walk(node)
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
        }
        changed = False
        for block in list(_blocks(node)):
            kept = [
                stmt
                for stmt in block
                if not (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id not in read
                    and pure(stmt.value)
                )
            ]
            if len(kept) < len(block):
                block[:] = kept or [ast.Pass()]
                changed = True
        if not changed:
            return


def _names(node: ast.AST, ctx: type) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)]


def propagate_copies(node: ast.FunctionDef) -> None:
    """`t = x` of an inliner's temporary `t`, used only in the same block before `t` or `x`
    change again: the uses read `x` and the copy goes."""
    everywhere = Counter(_names(node, ast.Load) + _names(node, ast.Store))
    for block in list(_blocks(node)):
        # What each statement stores never changes here (only reads are renamed), and a
        # renaming changes the counts here and everywhere alike.
        stores = [set(_names(stmt, ast.Store)) for stmt in block]
        here = Counter(
            n for stmt in block for n in _names(stmt, ast.Load) + _names(stmt, ast.Store)
        )
        for i, stmt in enumerate(block):
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Name)
                and TEMP.match(stmt.targets[0].id)
            ):
                continue
            temp, source = stmt.targets[0].id, stmt.value.id
            if everywhere[temp] != here[temp]:
                continue
            end = len(block)
            for j in range(i + 1, len(block)):
                later = block[j]
                if isinstance(later, ast.Assign) and temp in stores[j]:
                    end = j if temp not in _names(later.value, ast.Load) else -1
                    break
            if end < 0:
                continue
            region = block[i + 1 : end]
            stored = set().union(*stores[i + 1 : end])
            if temp in stored or source in stored or _captured(temp, region):
                continue
            for later in region:
                for n in ast.walk(later):
                    if isinstance(n, ast.Name) and n.id == temp:
                        n.id = source
            block[i] = ast.Pass()
        block[:] = [b for b in block if not isinstance(b, ast.Pass)] or [ast.Pass()]


def _captured(name: str, stmts: list[ast.stmt]) -> bool:
    """Whether a comprehension or lambda reads `name`: it must stay a plain local, or every
    read of what it would stand for becomes a closure's."""
    return any(
        name in _names(scope, ast.Load)
        for stmt in stmts
        for scope in ast.walk(stmt)
        if isinstance(scope, SCOPES)
    )


def propagate_constants(node: ast.FunctionDef) -> None:
    """`t = CONSTANT` followed in the same block by `if` tests on `t`, before anything else
    stores `t`: the tests read the constant and fold (`ended = NO_END; if ended != NO_END`)."""
    for block in list(_blocks(node)):
        for i, stmt in enumerate(block):
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Constant)
            ):
                continue
            name, value = stmt.targets[0].id, stmt.value.value
            for j in range(i + 1, len(block)):
                later = block[j]
                if isinstance(later, ast.If):
                    later.test = _replace_name(later.test, name, value)
                    folded = fold(later.test)
                    if isinstance(folded, ast.Constant):
                        block[j : j + 1] = (later.body if folded.value else later.orelse) or [
                            ast.Pass()
                        ]
                        later = block[j]
                if name in _names(later, ast.Store) or isinstance(later, ast.If):
                    break


def inline_constant_temps(node: ast.FunctionDef) -> None:
    """A temporary only ever set to one constant: every read becomes the constant, and the
    tests on it fold (`ended = NO_END` where no rule can end the hand at that step)."""
    values: dict[str, list[Any]] = {}
    for found in ast.walk(node):
        if isinstance(found, ast.Name) and isinstance(found.ctx, ast.Store):
            values.setdefault(found.id, [])
    for block in _blocks(node):
        for stmt in block:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Constant)
            ):
                values[stmt.targets[0].id].append(stmt.value.value)
    stores = _names(node, ast.Store)
    constant = {
        name: found[0]
        for name, found in values.items()
        if TEMP.match(name)
        and found
        and len(found) == stores.count(name)
        and all(type(v) is type(found[0]) and v == found[0] for v in found)
    }
    if not constant:
        return

    class Replace(ast.NodeTransformer):
        def visit_Name(self, found: ast.Name) -> ast.expr:
            if found.id in constant and isinstance(found.ctx, ast.Load):
                return ast.Constant(constant[found.id])
            return found

    Replace().visit(node)
    for block in list(_blocks(node)):
        block[:] = [
            stmt
            for stmt in block
            if not (
                isinstance(stmt, ast.Assign)
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id in constant
            )
        ] or [ast.Pass()]
    fold_branches(node)


def fold_branches(node: ast.FunctionDef) -> None:
    """Branches on tests that are now constant are resolved; empty ones and `pass` go."""
    node.body = _folded_block(node.body) or [ast.Pass()]


def _folded_block(block: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in block:
        for name in ("body", "orelse"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, name, _folded_block(inner))
        if isinstance(stmt, ast.If):
            stmt.test = fold(_fold_tree(stmt.test))
            if isinstance(stmt.test, ast.Constant):
                out.extend(stmt.body if stmt.test.value else stmt.orelse)
                continue
            if not stmt.body and not stmt.orelse:
                if not pure(stmt.test):
                    out.append(ast.Expr(stmt.test))
                continue
            if not stmt.body:
                stmt.test, stmt.body, stmt.orelse = (
                    ast.UnaryOp(ast.Not(), stmt.test),
                    stmt.orelse,
                    [],
                )
        elif isinstance(stmt, (ast.For, ast.While)) and not stmt.body:
            stmt.body = [ast.Pass()]
        if not isinstance(stmt, ast.Pass):
            out.append(stmt)
    return out


def _fold_tree(node: ast.expr) -> ast.expr:
    """`fold` from the leaves up."""

    class Fold(ast.NodeTransformer):
        def generic_visit(self, found: ast.AST) -> ast.AST:
            super().generic_visit(found)
            return fold(found) if isinstance(found, ast.expr) else found

    return Fold().visit(node)


def _replace_name(node: ast.expr, name: str, value: Any) -> ast.expr:
    class Replace(ast.NodeTransformer):
        def visit_Name(self, found: ast.Name) -> ast.expr:
            return ast.Constant(value) if found.id == name else found

    return Replace().visit(node)
