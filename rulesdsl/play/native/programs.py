"""A profile's stated rules as native code: the interpreter (`machine.run_program`) written
out for the programs of one plan, compiled by numba into a C function kept in the kernel
cache, which the kernel calls by its address (`plan.native`, `call_native`) in place of the
interpreter.

Each instruction becomes the interpreter's own branch for its operation, with its operands
and the stack's height there written in as numbers: a value of the stack is a local variable
(`t0`, `t1`, ...), and a word's meaning picked by a constant operand (`meanings.source()`) is
written in its place, as is an aggregate's step (`machine.fold_value`) for the kind of fold
its BEGIN names, so what reads numbers alone is worked out as the text is made. Where the
program goes on is written as the compiler laid it out (`program.Compiler`): an aggregate's
members a `while` loop, a filter that skips one a `continue`, a choice an `if`; so numba
compiles loops and branches, not a loop that dispatches on the next instruction. A program
laid out otherwise is left to the interpreter, and said. The text holds numbers the plan's
programs hold and the kernel's own code, nothing else a profile states.
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
import threading
from functools import cache
from typing import Any

import numba
from llvmlite import ir
from numba import types
from numba.core.errors import NumbaError
from numba.extending import intrinsic

from rulesdsl.play.kernel import build, machine, meanings
from rulesdsl.play.kernel.program import heights
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
        wide = [context.cast(builder, args[2 + k], t, types.int64) for k, t in enumerate(numbers)]
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
    """The interpreter's work for each operation, and its last branch's (RETURN's): each
    branch but where it goes on (an assignment to `pc`), which the structure of the code
    says (`Structured`)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(machine.run_program)))
    chain = next(n for n in ast.walk(tree) if isinstance(n, ast.While)).body[-1]
    found = {}
    while isinstance(chain, ast.If):
        found[NUMBERS[chain.test.comparators[0].id]] = work(chain.body)
        chain = chain.orelse[0] if isinstance(chain.orelse[0], ast.If) else chain.orelse
    return found, work(chain)


def work(branch: list[ast.stmt]) -> list[ast.stmt]:
    """`branch` but its assignments to `pc`."""
    return [
        s for s in branch if not (isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "pc")
    ]


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
BRANCHES, LAST = branches()


class Written(ast.NodeTransformer):
    """An instruction's code: names of `values` as numbers, the stack's items as locals,
    and what then reads numbers alone worked out."""

    def __init__(self, values: dict[str, int | ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if not isinstance(node.ctx, ast.Load) or node.id not in self.values:
            return node
        value = self.values[node.id]
        return ast.Constant(value) if isinstance(value, int) else copy.deepcopy(value)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if ast.unparse(node.value) == "s.stack" and isinstance(node.slice, ast.Constant):
            return ast.Name(f"t{node.slice.value}", node.ctx)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        name = ast.unparse(node.func)
        if name in MEANINGS and isinstance(node.args[0], ast.Constant):
            params, meant = MEANINGS[name]
            chosen = copy.deepcopy(meant.get(node.args[0].value, ast.Constant(0)))
            return Written(dict(zip(params, node.args, strict=True))).visit(chosen)
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
    long_shift = shift and numbers[1] not in range(64)
    if long_shift or not all(type(n) in (int, bool) and n in INT64 for n in numbers):
        return node
    try:
        value = eval(ast.unparse(node), {"__builtins__": {}})
    except ArithmeticError:
        return node
    return ast.Constant(value) if value in INT64 else node


FOLD_VALUE = ast.parse(textwrap.dedent(inspect.getsource(machine.fold_value))).body[0].body[2:]
"""`machine.fold_value` after its docstring and its reading of the aggregate's kind."""
FOLD = f"{machine.fold_value.__name__}("
Code = list[tuple[int, ...]]


def fold_written(call: ast.Expr, values: dict[str, Any], code: Code) -> list[ast.stmt]:
    """STEP's `fold_value` for the aggregate the BEGIN before its NEXT (at `c`) starts: the
    branch of that BEGIN's kind alone (else the call)."""
    begin = code[values["c"] - 1]
    if begin[:2] != (machine.BEGIN, values["a"]):
        return [Written(values).visit(call)]
    x, member = (Written(values).visit(arg) for arg in call.value.args[2:])
    given = {**values, "slot": values["a"], "fold": begin[2], "x": x, "member": member}
    return written(FOLD_VALUE, given, code)


def written(body: list[ast.stmt], values: dict[str, Any], code: Code) -> list[ast.stmt]:
    """`body` for the values of `values`, the stack's height `top` kept as it moves."""
    out: list[ast.stmt] = []
    for statement in copy.deepcopy(body):
        if isinstance(statement, ast.Expr) and ast.unparse(statement.value).startswith(FOLD):
            out += fold_written(statement, values, code)
            continue
        if isinstance(statement, ast.AugAssign) and ast.unparse(statement.target) == "top":
            sign = 1 if isinstance(statement.op, ast.Add) else -1
            values["top"] += sign * statement.value.value
            continue
        if isinstance(statement, ast.If):
            test = Written(values).visit(statement.test)
            if isinstance(test, ast.Constant):
                out += written(statement.body if test.value else statement.orelse, values, code)
                continue
            statement.body = written(statement.body, dict(values), code)
            statement.orelse = written(statement.orelse, dict(values), code)
        out.append(Written(values).visit(statement))
    return out


class Unstructured(Exception):
    """A program whose ways are not those `program.Compiler` lays out (the kernel interprets
    it): the instruction where they part."""


class Structured:
    """The code of the programs starting at `starts` as nested Python, the stack's height at
    each instruction known."""

    def __init__(self, code: Code, starts: list[int]) -> None:
        self.code = code
        self.height = {pc: h for start in starts for pc, h in heights(code[start:], start).items()}

    def block(self, pc: int, end: int, head: int = -1) -> list[ast.stmt]:
        """Instructions `pc` to `end` - 1, within the aggregate whose NEXT is at `head`: an
        aggregate's members a loop, a filter or a choice an `if`, each other instruction
        the interpreter's branch for it."""
        out: list[ast.stmt] = []
        while pc < end:
            op = self.code[pc][0]
            if op == machine.NEXT:
                found, pc = self.members(pc, end)
            elif op == machine.UNLESS:
                found, pc = self.unless(pc, end, head)
            elif op in (machine.JUMP, machine.STEP):
                raise Unstructured(f"instruction {pc}")
            else:
                found = self.step(pc)
                pc += 1
            out += found
        return out

    def members(self, pc: int, end: int) -> tuple[list[ast.stmt], int]:
        """The aggregate whose NEXT is at `pc`, and where the code goes on: a loop over its
        members, its body then its STEP, which ends where the NEXT goes on once none is
        left."""
        _, slot, var, after = self.code[pc]
        if not pc < after - 1 < end or self.code[after - 1][:2] != (machine.STEP, slot):
            raise Unstructured(f"instruction {pc}")
        member = ast.parse(f"if next_member(s, {slot}, {var}, 1, 0) == 0:\n    break").body
        body = self.block(pc + 1, after - 1, pc) + self.step(after - 1)
        return [ast.While(ast.Constant(True), member + body, [])], after

    def unless(self, pc: int, end: int, head: int) -> tuple[list[ast.stmt], int]:
        """The UNLESS at `pc`, and where the code goes on: a filter's, back to its NEXT, a
        `continue`; a choice's, to its other side after a JUMP past that, an `if`."""
        top, other = f"t{self.height[pc] - 1}", self.code[pc][1]
        if other == head:
            return ast.parse(f"if {top} == 0:\n    continue").body, pc + 1
        jump, joined = self.code[other - 1][:2] if pc + 2 < other <= end else (-1, -1)
        if jump != machine.JUMP or not other <= joined <= end:
            raise Unstructured(f"instruction {pc}")
        sides = self.block(pc + 1, other - 1, head), self.block(other, joined, head)
        return [ast.If(ast.parse(f"{top} != 0", mode="eval").body, *sides)], joined

    def step(self, pc: int) -> list[ast.stmt]:
        """Instruction `pc`'s work: the interpreter's branch for it, but where it goes on."""
        op, a, b, c = self.code[pc]
        values = {**NUMBERS, "a": a, "b": b, "c": c, "pc": pc + 1, "top": self.height[pc]}
        return written(BRANCHES.get(op, LAST), values, self.code)


def function_text(program: list[int]) -> str:
    """The text of `rules`: each program's code (from the first instruction, and from each
    after a RETURN) as nested Python (`Structured`)."""
    code = [tuple(program[k : k + machine.WIDTH]) for k in range(0, len(program), machine.WIDTH)]
    returns = [pc for pc, item in enumerate(code) if item[0] == machine.RETURN]
    starts = [0] + [pc + 1 for pc in returns[:-1]]
    made, lines = Structured(code, starts), []
    for start, end in zip(starts, returns, strict=True):
        body = (textwrap.indent(ast.unparse(s), " " * 8) for s in made.block(start, end + 1))
        lines += [f"    if pc == {start}:", *body]
    stack = (f"    t{k} = 0" for k in range(max(made.height.values()) + 1))
    head = ["def rules(sp, pc, seat, allowed, winner):", "    s = state_at(sp)", *stack]
    return "\n".join([*head, *lines, "    return 0"]) + "\n"


def module_text(program: list[int]) -> str:
    """The text of the programs' module: `rules` as a C function, calling the kernel's
    functions (numba links their code in)."""
    lines = (
        '"""A profile\'s stated rules, generated: do not edit."""\n',
        "import numpy as np",
        "from numba.core.ccallback import CFunc",
        "from numba.core.sigutils import normalize_signature\n",
        f"from {build.kernel().__name__} import *",
        "from rulesdsl.play.native.programs import state_at\n\n",
        function_text(program),
        f"rules = CFunc(rules, normalize_signature({SIGNATURE!r}), {{}}, {{}})\n",
    )
    return "\n".join(lines)


def native_code(plan: Any) -> int:
    """The address of the C function of `plan`'s programs (`plan.native`); 0 for none."""
    program = tuple(int(n) for n in plan.program[: plan.program_len * machine.WIDTH])
    return native_rules(program) if program else 0


@cache
def native_rules(program: tuple[int, ...]) -> int:
    """The address of the programs' C function, compiled or loaded from the cache; 0 (said
    once) where they are not structured as the compiler lays them out or numba cannot
    compile them: the kernel interprets them."""
    from rulesdsl.play.native.store import cache_dir, loaded

    try:
        text = module_text(list(program))
        module = loaded(text, build.module_name(text, "rules"), cache_dir())
        with COMPILE_LOCK:
            if module.rules.address is None:
                module.rules.compile()
    except (NumbaError, Unstructured) as error:
        say(f"a profile's rules run on the kernel's interpreter: {type(error).__name__}")
        return 0
    return module.rules.address
