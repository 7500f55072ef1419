"""Specialise a driver for one profile by partial evaluation of its Python source (AST).

`specialise(fn, bound)` returns `fn` with the parameters in `bound` fixed to objects: every
call of a step function is inlined (its locals renamed apart), attributes and module
constants of fixed objects are folded in, loops over a fixed tuple are unrolled, branches
on constants are dropped (tracing, the rules a profile does not have), and the State built
inside the driver is held in locals (`s.hands` becomes `s_hands`): it never escapes. The
result is compiled from the AST; no code is written as text.

A function can be inlined when its only `return` is its last statement. One whose body is
that `return` alone is inlined as an expression anywhere; any other only where its call
can be hoisted in front of the statement that holds it.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import itertools
import re
import textwrap
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from rulesdsl.engine.state import State

LITERALS = (int, bool, str, float, type(None))


class InlineError(ValueError):
    """Code the specialiser cannot take apart (a bug in a step function's shape)."""


@dataclass
class Specialisation:
    """What one specialisation shares: the fixed objects and the fresh names."""

    objects: dict[str, Any] = field(default_factory=dict)
    names: Iterator[int] = field(default_factory=itertools.count)
    state_vars: set[str] = field(default_factory=set)
    fixed: dict[str, Any] = field(default_factory=dict)

    def ref(self, value: Any) -> ast.expr:
        """An expression for a fixed object: a literal, or a name in the namespace."""
        if type(value) in LITERALS:
            return ast.Constant(value)
        if type(value) is tuple and all(type(v) in LITERALS for v in value):
            return ast.Constant(value)
        for name, held in self.objects.items():
            if held is value:
                return ast.Name(name, ast.Load())
        name = f"k{next(self.names)}_{getattr(value, '__name__', type(value).__name__)}"
        self.objects[name] = value
        return ast.Name(name, ast.Load())

    def fresh(self, hint: str) -> str:
        return f"_{next(self.names)}_{hint}"


def fixed_value(spec: Specialisation, node: ast.expr) -> tuple[bool, Any]:
    """Whether `node` is a fixed object, and which."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.Name) and node.id in spec.objects:
        return True, spec.objects[node.id]
    return False, None


@cache
def source_of(fn: Callable) -> ast.FunctionDef:
    """The function's syntax tree, without its docstring; the specialiser builds new nodes
    and never changes these."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise InlineError(f"{fn.__qualname__} is not a plain function")
    node.body = [s for s in node.body if not _is_docstring(s)]
    return node


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def params(node: ast.FunctionDef) -> list[str]:
    return [a.arg for a in node.args.args + node.args.kwonlyargs]


def stored_names(body: list[ast.stmt]) -> set[str]:
    """Every name the body binds: assignments, loop and comprehension targets, lambda args."""
    names = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names


def inlinable(node: ast.FunctionDef) -> bool:
    """Whether the function's only return is its last statement."""
    returns = [n for s in node.body for n in ast.walk(s) if isinstance(n, ast.Return)]
    last = node.body[-1] if node.body else None
    return all(r is last for r in returns)


def expression_body(node: ast.FunctionDef) -> ast.expr | None:
    body = node.body
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


class Scope:
    """One function body being rewritten: its module, its locals' new names, and what its
    parameters stand for."""

    def __init__(self, spec: Specialisation, module: dict[str, Any], subst: dict[str, ast.expr]):
        self.spec = spec
        self.module = module
        self.subst = subst
        self.rename: dict[str, str] = {}

    # -- expressions ---------------------------------------------------------------

    def expr(self, node: ast.expr, hoist: list[ast.stmt] | None) -> ast.expr:
        """Rewrite an expression; calls that must be hoisted go to `hoist` (None where
        nothing may be hoisted)."""
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, hoist)
        if isinstance(node, ast.Call):
            return self.call(node, hoist)
        if isinstance(node, ast.BoolOp):
            first = self.expr(node.values[0], hoist)
            rest = [self.expr(v, None) for v in node.values[1:]]
            return fold(ast.BoolOp(node.op, [first, *rest]))
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test, hoist)
            done, value = fixed_value(self.spec, test)
            if done:
                return self.expr(node.body if value else node.orelse, hoist)
            return ast.IfExp(test, self.expr(node.body, None), self.expr(node.orelse, None))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            gens = [self.generator(g) for g in node.generators]
            return type(node)(self.expr(node.elt, None), gens)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            value = self.expr(node.value, hoist)
            index = self.expr(node.slice, hoist)
            done, held = fixed_value(self.spec, value)
            if done and isinstance(index, ast.Constant) and not isinstance(value, ast.Constant):
                return self.spec.ref(held[index.value])
            return ast.Subscript(value, index, node.ctx)
        if isinstance(node, ast.Compare):
            left = self.expr(node.left, hoist)
            rights = [self.expr(c, hoist) for c in node.comparators]
            return self.compare(ast.Compare(left, node.ops, rights))
        if isinstance(node, ast.Lambda):
            args = ast.arguments(
                posonlyargs=[],
                args=[ast.arg(self.local(a.arg)) for a in node.args.args],
                kwonlyargs=[],
                kw_defaults=[],
                defaults=[],
            )
            return ast.Lambda(args, self.expr(node.body, None))
        return fold(self.generic(node, hoist))

    def compare(self, node: ast.Compare) -> ast.expr:
        """A comparison of fixed objects is folded: e.g. `p.drawers is winner_draws`."""
        known = [fixed_value(self.spec, n) for n in [node.left, *node.comparators]]
        if not all(done for done, _ in known):
            return node
        names = [f"v{i}" for i in range(len(known))]
        expression = ast.Expression(
            ast.Compare(
                ast.Name(names[0], ast.Load()),
                node.ops,
                [ast.Name(n, ast.Load()) for n in names[1:]],
            )
        )
        ast.fix_missing_locations(expression)
        values = {n: value for n, (_, value) in zip(names, known, strict=True)}
        return ast.Constant(bool(eval(compile(expression, "<fold>", "eval"), {}, values)))

    def generator(self, gen: ast.comprehension) -> ast.comprehension:
        target = self.expr(gen.target, None)
        return ast.comprehension(
            target, self.expr(gen.iter, None), [self.expr(i, None) for i in gen.ifs], 0
        )

    def generic(self, node: ast.AST, hoist: list[ast.stmt] | None) -> Any:
        node = copy.copy(node)
        for name, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, name, self.expr(value, hoist))
            elif isinstance(value, list):
                setattr(
                    node,
                    name,
                    [self.expr(v, hoist) if isinstance(v, ast.expr) else v for v in value],
                )
        return node

    def local(self, name: str) -> str:
        return self.rename.get(name, name)

    def name(self, node: ast.Name) -> ast.expr:
        if node.id in self.subst and isinstance(node.ctx, ast.Load):
            return _copy(self.subst[node.id])
        if node.id in self.rename or isinstance(node.ctx, ast.Store):
            return ast.Name(self.local(node.id), node.ctx)
        if node.id in self.module:
            return self.spec.ref(self.module[node.id])
        if hasattr(builtins, node.id):
            return ast.Name(node.id, node.ctx)
        raise InlineError(f"unknown name {node.id}")

    def attribute(self, node: ast.Attribute, hoist: list[ast.stmt] | None) -> ast.expr:
        value = self.expr(node.value, hoist)
        done, held = fixed_value(self.spec, value)
        if done and not isinstance(value, ast.Constant):
            return self.spec.ref(getattr(held, node.attr))
        if (
            isinstance(value, ast.Name)
            and value.id in self.spec.state_vars
            and node.attr in self.spec.fixed
            and isinstance(node.ctx, ast.Load)
        ):
            return ast.Constant(self.spec.fixed[node.attr])
        return ast.Attribute(value, node.attr, node.ctx)

    def call(self, node: ast.Call, hoist: list[ast.stmt] | None) -> ast.expr:
        func = self.expr(node.func, hoist)
        args = [self.expr(a, hoist) for a in node.args]
        keywords = [ast.keyword(k.arg, self.expr(k.value, hoist)) for k in node.keywords]
        done, target = fixed_value(self.spec, func)
        if done:
            inlined = self.inline(target, args, keywords, hoist)
            if inlined is not None:
                return inlined
        return ast.Call(func, args, keywords)

    def inline(
        self,
        target: Any,
        args: list[ast.expr],
        keywords: list[ast.keyword],
        hoist: list[ast.stmt] | None,
    ) -> ast.expr | None:
        """The inlined call, or None when `target` is not a function to inline."""
        bound: dict[str, Any] = {}
        if isinstance(target, partial):
            bound = dict(target.keywords)
            args = [self.spec.ref(a) for a in target.args] + args
            target = target.func
        if not isinstance(target, types.FunctionType) or keywords:
            return None
        node = source_of(target)
        if not inlinable(node):
            return None
        names = params(node)
        given = dict(zip(names, args, strict=False))
        given.update({name: self.spec.ref(value) for name, value in bound.items()})
        if set(given) != set(names):
            raise InlineError(f"{target.__qualname__}: arguments {sorted(given)} for {names}")
        scope = Scope(self.spec, target.__globals__, {})
        stores = stored_names(node.body)
        single = expression_body(node)
        for name in names:
            arg = given[name]
            pure = single is not None and self._state_attribute(arg)
            if single is not None and _uses(single, name) == 0 and _pure(arg):
                continue
            once = single is not None and hoist is None and _uses(single, name) <= 1
            if ((_simple(arg) or pure) and name not in stores) or once:
                scope.subst[name] = arg
            elif hoist is not None:
                temp = self.spec.fresh(name)
                hoist.append(ast.Assign([ast.Name(temp, ast.Store())], arg))
                scope.subst[name] = ast.Name(temp, ast.Load())
            else:
                return None
        scope.rename = {n: self.spec.fresh(n) for n in stores - set(names)}
        for name in names:
            if name not in scope.subst:
                scope.subst[name] = ast.Constant(None)  # unused by the expression
        if single is not None:
            return scope.expr(single, hoist)
        if hoist is None:
            return None
        body = node.body
        last = body[-1] if body else None
        returned: ast.expr = ast.Constant(None)
        if isinstance(last, ast.Return):
            body = body[:-1]
        hoist.extend(scope.block(body))
        if isinstance(last, ast.Return) and not _is_none(last.value):
            pre: list[ast.stmt] = []
            value = scope.expr(last.value, pre)
            hoist.extend(pre)
            if _simple(value):
                return value
            temp = self.spec.fresh("result")
            hoist.append(ast.Assign([ast.Name(temp, ast.Store())], value))
            returned = ast.Name(temp, ast.Load())
        return returned

    def _state_attribute(self, node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.spec.state_vars
        )

    # -- statements ----------------------------------------------------------------

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            out.extend(self.stmt(stmt))
        return out

    def stmt(self, stmt: ast.stmt) -> list[ast.stmt]:
        hoist: list[ast.stmt] = []
        if _is_docstring(stmt):
            return []
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return []
            stmt = ast.Assign([stmt.target], stmt.value)
        if isinstance(stmt, ast.Assign) and self._builds_state(stmt):
            return self.state(stmt)
        if isinstance(stmt, ast.If):
            test = self.expr(stmt.test, hoist)
            done, value = fixed_value(self.spec, test)
            if done:
                return hoist + self.block(stmt.body if value else stmt.orelse)
            body, orelse = self.block(stmt.body), self.block(stmt.orelse)
            if not body and not orelse:
                return hoist if _pure(test) else [*hoist, ast.Expr(test)]
            if not body:
                test, body, orelse = ast.UnaryOp(ast.Not(), test), orelse, []
            return [*hoist, ast.If(test, body, orelse)]
        if isinstance(stmt, ast.For):
            return self.loop(stmt)
        if isinstance(stmt, ast.While):
            test = self.expr(stmt.test, None)
            return [ast.While(test, self.block(stmt.body), self.block(stmt.orelse))]
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            value = self.expr(stmt.value, hoist)
            return [*hoist, ast.Return(value)]
        if isinstance(stmt, ast.Expr):
            value = self.expr(stmt.value, hoist)
            return hoist if _simple(value) else [*hoist, ast.Expr(value)]
        if isinstance(stmt, (ast.Assign, ast.AugAssign)):
            value = self.expr(stmt.value, hoist)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            new_targets = [self.expr(t, hoist) for t in targets]
            if isinstance(stmt, ast.Assign):
                return [*hoist, ast.Assign(new_targets, value)]
            if isinstance(value, ast.Constant) and value.value == 0:
                return hoist  # x |= 0, x += 0
            return [*hoist, ast.AugAssign(new_targets[0], stmt.op, value)]
        if isinstance(stmt, (ast.Break, ast.Continue, ast.Pass)):
            return [stmt]
        raise InlineError(f"cannot specialise a {type(stmt).__name__} statement")

    def loop(self, stmt: ast.For) -> list[ast.stmt]:
        hoist: list[ast.stmt] = []
        iterable = self.expr(stmt.iter, hoist)
        done, items = fixed_value(self.spec, iterable)
        if done and isinstance(items, tuple) and isinstance(stmt.target, ast.Name):
            if any(
                isinstance(n, (ast.Break, ast.Continue)) for s in stmt.body for n in ast.walk(s)
            ):
                raise InlineError("a loop over fixed items cannot break")
            out = hoist
            for item in items:
                self.subst[stmt.target.id] = self.spec.ref(item)
                out += self.block(stmt.body)
            self.subst.pop(stmt.target.id, None)
            return out
        target = self.expr(stmt.target, None)
        return [*hoist, ast.For(target, iterable, self.block(stmt.body), self.block(stmt.orelse))]

    def _builds_state(self, stmt: ast.Assign) -> bool:
        value = stmt.value
        if not (isinstance(value, ast.Call) and len(stmt.targets) == 1):
            return False
        done, target = fixed_value(self.spec, self.expr(_copy(value.func), None))
        return done and target is State and isinstance(stmt.targets[0], ast.Name)

    def state(self, stmt: ast.Assign) -> list[ast.stmt]:
        """`s = State(...)`: the constructor's body inlined, the state held in locals."""
        assert isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
        var = self.local(stmt.targets[0].id)
        self.spec.state_vars.add(var)
        hoist: list[ast.stmt] = []
        args = [self.expr(a, hoist) for a in stmt.value.args]
        init = source_of(State.__init__)
        names = params(init)
        scope = Scope(self.spec, vars(inspect.getmodule(State)), {})
        scope.subst[names[0]] = ast.Name(var, ast.Load())
        for name, arg in zip(names[1:], args, strict=True):
            if _simple(arg):
                scope.subst[name] = arg
                continue
            temp = self.spec.fresh(name)
            hoist.append(ast.Assign([ast.Name(temp, ast.Store())], arg))
            scope.subst[name] = ast.Name(temp, ast.Load())
        scope.rename = {n: self.spec.fresh(n) for n in stored_names(init.body) - set(names)}
        return hoist + scope.block(init.body)


def _pure(node: ast.expr) -> bool:
    """Whether evaluating `node` can have no effect: no calls in it."""
    return not any(isinstance(n, ast.Call) for n in ast.walk(node))


def _is_none(node: ast.expr | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


def _simple(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Constant))


def _uses(node: ast.expr, name: str) -> int:
    return sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _copy(node: ast.expr) -> ast.expr:
    return copy.deepcopy(node)


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


def localise(node: ast.AST, spec: Specialisation) -> None:
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
                    and item.value.id in spec.state_vars
                ):
                    item = ast.Name(f"{item.value.id}_{item.attr}", item.ctx)
                    changed = True
                new.append(item)
            if changed:
                setattr(parent, name, new if isinstance(value, list) else new[0])
    for found in ast.walk(node):
        if isinstance(found, ast.Name) and found.id in spec.state_vars:
            raise InlineError(f"the state {found.id} escapes the driver")


SELF_UPDATES = {"append", "extend", "insert", "clear", "reverse"}


def _updated(stmt: ast.stmt) -> str | None:
    """The name a statement only updates in place or sets to a value without effects
    (`x.append(v)`, `x[i] += v`, `x = []`), if it is such a statement and its other parts
    have no effects."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in SELF_UPDATES
            and isinstance(func.value, ast.Name)
            and all(_pure(a) for a in call.args)
        ):
            return func.value.id
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) == 1 and _pure(stmt.value):
            target = targets[0]
            if isinstance(target, ast.Name) and isinstance(stmt, ast.Assign):
                return target.id
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                return target.value.id if _pure(target.slice) else None
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
    state's fields a profile does not use, a bot's unused argument)."""
    while True:
        read = {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
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
                    and _pure(stmt.value)
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


TEMP = re.compile(r"^_[0-9]+_")
CONTEXTS = (ast.Load, ast.Store)
SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


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
                if not _pure(stmt.test):
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


def specialise(fn: Callable, bound: dict[str, Any], fixed: dict[str, Any] | None = None) -> Any:
    """`fn` with the parameters in `bound` fixed; `fixed` holds state attributes known to
    be constant (by default, tracing off)."""
    spec = Specialisation(fixed={"trace": False} if fixed is None else fixed)
    node = source_of(fn)
    scope = Scope(spec, fn.__globals__, {name: spec.ref(v) for name, v in bound.items()})
    own = (set(params(node)) | stored_names(node.body)) - set(bound)
    scope.rename = {name: name for name in own}
    body = scope.block(node.body)
    args = [a for a in node.args.args if a.arg not in bound]
    result = ast.FunctionDef(
        name=fn.__name__,
        args=ast.arguments(posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body,
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    for arg in result.args.args:
        arg.annotation = None
    localise(result, spec)
    fields = {f"{var}_{attr}" for var in spec.state_vars for attr in State.__slots__}
    drop_dead_fields(result, fields)
    propagate_copies(result)
    propagate_constants(result)
    inline_constant_temps(result)
    drop_dead_stores(result)
    module = ast.Module([result], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace = dict(spec.objects)
    exec(compile(module, f"<specialised {fn.__qualname__}>", "exec"), namespace)
    specialised = namespace[fn.__name__]
    specialised.source = ast.unparse(module)
    return specialised
