"""Specialise a driver for one profile by partial evaluation of its Python source (AST).

`specialise(fn, bound)` returns `fn` with the parameters in `bound` fixed to objects: every
call of a step function is inlined (its locals renamed apart), attributes and module
constants of fixed objects are folded in, loops over a fixed tuple are unrolled, branches
on constants are dropped (tracing, the rules a profile does not have), and the State built
inside the driver is held in locals (`s.hands` becomes `s_hands`, by `state_in_locals.py`,
which then drops what the profile never reads): it never escapes. The result is compiled from the
AST; no code is written as text.

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
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from rulesdsl.model.state import State
from rulesdsl.model.units.shape import STEP_STATEMENTS, inlinable, is_docstring, source_of
from rulesdsl.play.engine.state_in_locals import InlineError, fold, hold_state_in_locals, pure

LITERALS = (int, bool, str, float, type(None))


@dataclass
class Specialisation:
    """What one specialisation shares: the fixed objects and the fresh names."""

    objects: dict[str, Any] = field(default_factory=dict)
    names: Iterator[int] = field(default_factory=itertools.count)
    state_vars: set[str] = field(default_factory=set)
    fixed: dict[str, Any] = field(default_factory=dict)
    kept: frozenset[Callable] = frozenset()  # functions called, never inlined

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


def expression_body(node: ast.FunctionDef) -> ast.expr | None:
    body = node.body
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


class InlineScope:
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
            return copy.deepcopy(self.subst[node.id])
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
        if not isinstance(target, types.FunctionType) or keywords or target in self.spec.kept:
            return None
        node = source_of(target)
        if not inlinable(node):
            return None
        names = params(node)
        given = dict(zip(names, args, strict=False))
        given.update({name: self.spec.ref(value) for name, value in bound.items()})
        if set(given) != set(names):
            raise InlineError(f"{target.__qualname__}: arguments {sorted(given)} for {names}")
        scope = InlineScope(self.spec, target.__globals__, {})
        stores = stored_names(node.body)
        single = expression_body(node)
        rebound: dict[str, str] = {}
        for name in names:
            arg = given[name]
            state_read = single is not None and self._state_attribute(arg)
            if single is not None and _uses(single, name) == 0 and pure(arg):
                continue
            once = single is not None and hoist is None and _uses(single, name) <= 1
            if ((_simple(arg) or state_read) and name not in stores) or once:
                scope.subst[name] = arg
            elif hoist is not None:
                temp = self.spec.fresh(name)
                hoist.append(ast.Assign([ast.Name(temp, ast.Store())], arg))
                scope.subst[name] = ast.Name(temp, ast.Load())
                rebound[name] = temp  # a parameter the body assigns to: stores go there too
            else:
                return None
        scope.rename = {n: self.spec.fresh(n) for n in stores - set(names)} | rebound
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
        if is_docstring(stmt):
            return []
        if not isinstance(stmt, STEP_STATEMENTS):
            raise InlineError(f"cannot specialise a {type(stmt).__name__} statement")
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
                return hoist if pure(test) else [*hoist, ast.Expr(test)]
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
        done, target = fixed_value(self.spec, self.expr(copy.deepcopy(value.func), None))
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
        scope = InlineScope(self.spec, vars(inspect.getmodule(State)), {})
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


def _is_none(node: ast.expr | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


def _simple(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Constant))


def _uses(node: ast.expr, name: str) -> int:
    return sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class Specialised(NamedTuple):
    """A specialised function's module (the function alone) and the fixed objects its
    names stand for."""

    module: ast.Module
    objects: dict[str, Any]


def specialised_tree(
    fn: Callable,
    bound: dict[str, Any],
    fixed: dict[str, Any] | None = None,
    kept: frozenset[Callable] = frozenset(),
) -> Specialised:
    """The syntax tree of `fn` with the parameters in `bound` fixed; `fixed` holds state
    attributes known to be constant (by default, tracing off); the functions in `kept` are
    called, not inlined."""
    spec = Specialisation(fixed={"trace": False} if fixed is None else fixed, kept=kept)
    node = source_of(fn)
    scope = InlineScope(spec, fn.__globals__, {name: spec.ref(v) for name, v in bound.items()})
    own = (set(params(node)) | stored_names(node.body)) - set(bound)
    scope.rename = {name: name for name in own}
    body = scope.block(node.body)
    args = [ast.arg(a.arg) for a in node.args.args if a.arg not in bound]
    result = ast.FunctionDef(
        name=fn.__name__,
        args=ast.arguments(posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body,
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    hold_state_in_locals(result, spec.state_vars)
    module = ast.Module([result], type_ignores=[])
    ast.fix_missing_locations(module)
    return Specialised(module, spec.objects)


def specialise(fn: Callable, bound: dict[str, Any], fixed: dict[str, Any] | None = None) -> Any:
    """`fn` with the parameters in `bound` fixed, compiled; `fixed` as `specialised_tree`."""
    module, objects = specialised_tree(fn, bound, fixed)
    namespace = dict(objects)
    exec(compile(module, f"<specialised {fn.__qualname__}>", "exec"), namespace)
    specialised = namespace[fn.__name__]
    specialised.source = ast.unparse(module)
    return specialised
