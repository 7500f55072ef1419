"""A profile's stated rules as native code: the interpreter (`machine.run_program`) written
out for the programs of one plan, compiled by numba into a C function kept in the kernel
cache, which the kernel calls by its address (`plan.native`, `call_native`) in place of the
interpreter.

Each instruction becomes the interpreter's own branch for its operation, with its operands,
the instruction after it and the stack's height there written in as numbers: a value of the
stack is a local variable (`t0`, `t1`, ...), and a word's meaning picked by a constant
operand (`meanings.source()`) is written in its place, as is an aggregate's step
(`machine.fold_value`) for the kind of fold its BEGIN names, so what reads numbers alone is
worked out as the text is made. A run of instructions entered at its first alone is one branch
of the function. Its text holds numbers the plan's programs hold and the kernel's own code,
nothing else a profile states.
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
import threading
from collections import Counter
from functools import cache
from typing import Any

import numba
from llvmlite import ir
from numba import types
from numba.core.errors import NumbaError
from numba.extending import intrinsic

from rulesdsl.play.kernel import build, machine, meanings
from rulesdsl.play.kernel.program import after, heights
from rulesdsl.play.kernel.state import FIELDS, record_type
from rulesdsl.play.native.trust import say

SIGNATURE = "int64(voidptr, int64, int64, int64, int64)"
"""The C function's: the state record, the instruction it starts at, the seat, the cards
allowed and the winner (as `run_program`'s)."""
NUMBERS = {name: value for name, value in vars(machine).items() if type(value) is int}
INT64 = range(-(2**63), 2**63)
COMPILE_LOCK = threading.Lock()


@intrinsic
def call_native(
    typing: Any, address: Any, s: Any, pc: Any, seat: Any, allowed: Any, winner: Any
) -> tuple[Any, Any]:
    """Call the C function at `address` on the record `s` and the four numbers."""
    numbers = (pc, seat, allowed, winner)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = ir.IntType(8).as_pointer()
        wide = [
            context.cast(builder, v, t, types.int64) for v, t in zip(args[2:], numbers, strict=True)
        ]
        function = ir.FunctionType(ir.IntType(64), [pointer] + [ir.IntType(64)] * 4)
        called = builder.inttoptr(args[0], function.as_pointer())
        return builder.call(called, [builder.bitcast(args[1], pointer), *wide])

    return types.int64(address, s, *numbers), codegen


@intrinsic
def state_at(typing: Any, address: Any) -> tuple[Any, Any]:
    """The state record at `address`."""
    record = numba.from_dtype(record_type(FIELDS))

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], context.get_value_type(record))

    return record(address), codegen


def branches() -> tuple[dict[int, list[ast.stmt]], list[ast.stmt]]:
    """The interpreter's code for each operation, and its last branch (RETURN's)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(machine.run_program)))
    chain = next(n for n in ast.walk(tree) if isinstance(n, ast.While)).body[-1]
    found = {}
    while isinstance(chain, ast.If):
        found[NUMBERS[chain.test.comparators[0].id]] = chain.body
        chain = chain.orelse[0] if isinstance(chain.orelse[0], ast.If) else chain.orelse
    return found, chain


def meanings_by_code() -> dict[str, tuple[list[str], dict[int, ast.expr]]]:
    """Each function of `meanings.source()`, `if code == k: return meaning` for each code:
    its parameters, and the meaning of each code."""
    found = {}
    for function in ast.parse(meanings.source()).body:
        assert isinstance(function, ast.FunctionDef)
        chain = [n for n in function.body if isinstance(n, ast.If)]
        meant = {n.test.comparators[0].value: n.body[0].value for n in chain}
        found[function.name] = [a.arg for a in function.args.args], meant
    return found


MEANINGS = meanings_by_code()


class Written(ast.NodeTransformer):
    """An instruction's code: names of `values` as numbers, the stack's items as locals,
    the program's numbers read, and what then reads numbers alone worked out."""

    def __init__(self, values: dict[str, int | ast.expr], program: list[int]) -> None:
        self.values = values
        self.program = program

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if not isinstance(node.ctx, ast.Load) or node.id not in self.values:
            return node
        value = self.values[node.id]
        return ast.Constant(value) if isinstance(value, int) else copy.deepcopy(value)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        read = ast.unparse(node.value)
        if read in ("s.stack", "p.program") and isinstance(node.slice, ast.Constant):
            at = node.slice.value
            return (
                ast.Name(f"t{at}", node.ctx)
                if read == "s.stack"
                else ast.Constant(self.program[at])
            )
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        name = ast.unparse(node.func)
        if name in MEANINGS and isinstance(node.args[0], ast.Constant):
            params, meant = MEANINGS[name]
            given = dict(zip(params, node.args, strict=True))
            chosen = copy.deepcopy(meant.get(node.args[0].value, ast.Constant(0)))
            return Written(given, self.program).visit(chosen)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node.test = self.visit(node.test)
        if isinstance(node.test, ast.Constant):
            return self.visit(node.body if node.test.value else node.orelse)
        return self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        parts = list(ast.iter_child_nodes(node))
        if isinstance(node, ast.BinOp | ast.UnaryOp | ast.Compare | ast.BoolOp) and all(
            isinstance(n, ast.Constant) or not isinstance(n, ast.expr) for n in parts
        ):
            return worked_out(node)
        return node


def worked_out(node: ast.expr) -> ast.expr:
    """`node`, an operation on numbers alone, as the number it gives where that is the
    compiled code's (64-bit ints, shifts by less than 64); else itself."""
    numbers = [n.value for n in ast.iter_child_nodes(node) if isinstance(n, ast.Constant)]
    shift = isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift | ast.RShift | ast.Pow)
    if not all(type(n) in (int, bool) and n in INT64 for n in numbers) or (
        shift and numbers[1] not in range(64)
    ):
        return node
    try:
        value = eval(ast.unparse(node), {"__builtins__": {}})
    except ArithmeticError:
        return node
    return ast.Constant(value) if value in INT64 else node


FOLD_VALUE = ast.parse(textwrap.dedent(inspect.getsource(machine.fold_value))).body[0].body[2:]
"""`machine.fold_value` after its docstring and its reading of the aggregate's kind."""


def fold_written(call: ast.Expr, values: dict[str, Any], program: list[int]) -> list[ast.stmt]:
    """STEP's `fold_value` for the aggregate the BEGIN before its NEXT (at `c`) starts: the
    branch of that BEGIN's kind alone (else the call)."""
    begin = (values["c"] - 1) * machine.WIDTH
    if program[begin : begin + 2] != [machine.BEGIN, values["a"]]:
        return [Written(values, program).visit(call)]
    x, member = (Written(values, program).visit(arg) for arg in call.value.args[2:])
    given = {**values, "slot": values["a"], "fold": program[begin + 2], "x": x, "member": member}
    return written(FOLD_VALUE, given, program)


def written(body: list[ast.stmt], values: dict[str, Any], program: list[int]) -> list[ast.stmt]:
    """`body` for the values of `values`, the stack's height `top` kept as it moves."""
    out: list[ast.stmt] = []
    for statement in copy.deepcopy(body):
        if ast.unparse(statement).startswith("fold_value("):
            out += fold_written(statement, values, program)
            continue
        if isinstance(statement, ast.AugAssign) and ast.unparse(statement.target) == "top":
            sign = 1 if isinstance(statement.op, ast.Add) else -1
            values["top"] += sign * statement.value.value
            continue
        if isinstance(statement, ast.If):
            test = Written(values, program).visit(statement.test)
            if isinstance(test, ast.Constant):
                out += written(statement.body if test.value else statement.orelse, values, program)
                continue
            statement.body = written(statement.body, dict(values), program)
            statement.orelse = written(statement.orelse, dict(values), program)
        out.append(Written(values, program).visit(statement))
    return out


def function_text(program: list[int]) -> str:
    """The text of `rules`, the programs' code from each start (the first instruction, and
    each after a RETURN): a branch for each instruction entered otherwise than from the one
    before it alone, running on through the instructions entered from it alone (a way that
    leaves one goes round the loop)."""
    code = [tuple(program[k : k + machine.WIDTH]) for k in range(0, len(program), machine.WIDTH)]
    starts = [0] + [pc + 1 for pc, item in enumerate(code[:-1]) if item[0] == machine.RETURN]
    height: dict[int, int] = {}
    for start in starts:
        height |= heights(code[start:], start)
    goes = {pc: [there for there, _ in after(code, pc, 0, height[pc])] for pc in height}
    comes = Counter(there for ways in goes.values() for there in ways)
    entered = set(starts) | {
        there for pc, ways in goes.items() for there in ways if there != pc + 1 or comes[there] > 1
    }
    by_operation, last = branches()
    lines = ["def rules(sp, pc, seat, allowed, winner):", "    s = state_at(sp)"]
    lines += [f"    t{k} = 0" for k in range(max(height.values()) + 1)]
    lines.append("    while True:")
    for pc in sorted(entered):
        lines.append(f"        {'if' if pc == 0 else 'elif'} pc == {pc}:")
        while True:
            op, a, b, c = code[pc]
            values = {**NUMBERS, "a": a, "b": b, "c": c, "pc": pc + 1, "top": height[pc]}
            ends, jumps = not goes[pc] or pc + 1 in entered, goes[pc] != [pc + 1]
            lines += [f"            pc = {pc + 1}"] if ends or jumps else []
            body = written(by_operation.get(op, last), values, program)
            lines += [textwrap.indent(ast.unparse(s), " " * 12) for s in body]
            if ends:
                break
            if jumps:
                lines += [f"            if pc != {pc + 1}:", "                continue"]
            pc += 1
    lines += ["        else:", "            return 0"]
    return "\n".join(lines) + "\n"


def module_text(program: list[int]) -> str:
    """The text of the programs' module: `rules` as a C function, calling the kernel's
    functions (numba links their code in)."""
    return "\n".join(
        (
            '"""A profile\'s stated rules, generated: do not edit."""\n',
            "import numpy as np",
            "from numba.core.ccallback import CFunc",
            "from numba.core.sigutils import normalize_signature\n",
            f"from {build.kernel().__name__} import *",
            "from rulesdsl.play.native.programs import state_at\n\n",
            function_text(program),
            f"rules = CFunc(rules, normalize_signature({SIGNATURE!r}), {{}}, {{}})\n",
        )
    )


def native_code(plan: Any) -> int:
    """The address of the C function of `plan`'s programs (`plan.native`); 0 for none."""
    program = tuple(int(n) for n in plan.program[: plan.program_len * machine.WIDTH])
    return native_rules(program) if program else 0


@cache
def native_rules(program: tuple[int, ...]) -> int:
    """The address of the programs' C function, compiled or loaded from the cache; 0 (said
    once) where numba cannot compile it: the kernel interprets them."""
    from rulesdsl.play.native.store import cache_dir, loaded

    text = module_text(list(program))
    module = loaded(text, build.module_name(text, "rules"), cache_dir())
    with COMPILE_LOCK:
        try:
            if module.rules.address is None:
                module.rules.compile()
        except NumbaError as error:
            say(f"a profile's rules run on the kernel's interpreter: {type(error).__name__}")
            return 0
    return module.rules.address
