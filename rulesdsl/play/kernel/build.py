"""The kernel compiled by numba, once per installation: one module made from the kernel's
own text (`primitives` replaced by `native_primitives`), kept in the kernel cache
(`rulesdsl.play.native.store`) under a digest of that text and numba's version (the text
holds all of the kernel's code), so every profile plays on it.

The text is each function of the kernel's modules as written, the units' step functions it
calls and the functions those call (as written where they are), and the functions
GENERATED writes (the calls, the meanings, the state copy and clearing), every one
compiled with `numba.njit()`; the module constants they read are written before them. A
name that is none of these, or two functions or values of one name, stops the build
(BuildError).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
from functools import cache, partial
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any, NamedTuple

from rulesdsl.play.kernel import (
    deals,
    dispatch,
    machine,
    meanings,
    native_primitives,
    rules,
    search,
    solve,
    state,
    steps,
    worlds,
)
from rulesdsl.play.kernel.rules import AT

MODULES = (native_primitives, rules, machine, steps, worlds, search, solve, deals)
"""The modules whose functions the kernel is made of, `native_primitives` for CPython's."""
BUILTINS = frozenset({"range", "len", "int", "float", "bool", "min", "max", "abs"})
IMPORTED = {"call_native": "rulesdsl.play.native.programs"}
"""What the kernel's text imports besides math, numba and np, by name: numba's own code."""
HEADER = (
    '"""The rulesdsl kernel, generated: do not edit."""\n\n'
    "import math\n\nimport numba\nimport numpy as np\n\n"
    + "".join(f"from {module} import {name}\n" for name, module in IMPORTED.items())
)
SKIPPED = frozenset({"table_of"})
"""Functions of those modules that run in CPython alone."""
INLINED = frozenset(
    """
    pick allowed_now play_now start_trick clockwise_active eliminate draw draw_for count_for
    random_card uniform play_dealt deal_logged deal deal_trump stock_from allowed_for
    lead_filter follow_filter play_card after_draw count_at draw_cards draw_end_at next_lead_at
    propose propose_seat walk fill_bound sample copy_state clear_hand may_play put_out next_seed
    """.split()  # noqa: SIM905 (names, as a table of words)
)
"""Functions numba inlines where they are called (`inline='always'`): small ones called for
every card or trick from a place or two, those a hand is dealt and played through from
`play_deals`, and the sampler's, called for every proposal or world, so that no call (nor a
reference count of each array passed on) is paid there for every card, trick, hand or
world. Each was kept as it measured faster (native_speed.py, search_speed.py).
`finish_trick` is not: every place that plays a card would hold a copy of the end of a trick
(the searches play in many), which doubled the kernel's first compile for little speed;
the steps it calls are inlined into it."""


class BuildError(Exception):
    """The kernel's text reads a name that is not the kernel's."""


def functions(module: ModuleType) -> list[FunctionType]:
    found = [f for f in vars(module).values() if inspect.isfunction(f)]
    return [f for f in found if f.__module__ == module.__name__ and f.__name__ not in SKIPPED]


def parsed(function: FunctionType, trees: dict[str, dict[str, ast.FunctionDef]]) -> ast.FunctionDef:
    """`function`'s definition, read from its module's file, which is parsed once into
    `trees` (by file, each function of the file by name)."""
    filename = function.__code__.co_filename
    if filename not in trees:
        tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
        trees[filename] = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    return trees[filename][function.__name__]


class Definition(NamedTuple):
    """A function of the kernel: its definition, the names of its module, every name its
    text holds (walked once), and those it reads."""

    node: ast.FunctionDef
    space: dict[str, Any]
    names: list[ast.Name]
    reads: set[str]


def definition(node: ast.FunctionDef, space: dict[str, Any]) -> Definition:
    """`node` as the kernel holds it, compiled by numba (inlined where INLINED says), its
    annotations dropped."""
    options = "inline='always'" if node.name in INLINED else ""
    node.decorator_list = [ast.parse(f"numba.njit({options})", mode="eval").body]
    node.returns = None
    for arg in node.args.args:
        arg.annotation = None
    names = [n for n in ast.walk(node) if isinstance(n, ast.Name)]
    return Definition(node, space, names, {n.id for n in names if isinstance(n.ctx, ast.Load)})


GENERATED = (
    (dispatch, dispatch.source),
    (meanings, meanings.source),
    (state, partial(state.copy_source, native=True)),
    (state, state.clear_source),
)
"""The modules that write functions of the kernel, each with the function writing them."""


def kernel_functions(calls: list[Definition]) -> dict[str, tuple[FunctionType, Definition]]:
    """The kernel's functions by name: those of MODULES, those `rules.AT` names, and every
    function they call (a name `native_primitives` defines is its function, a name of
    the generated `calls` is theirs), each once."""
    given = {f.__name__ for f in functions(native_primitives)}
    given |= {call.node.name for call in calls} | set(IMPORTED)
    found: dict[str, tuple[FunctionType, Definition]] = {}
    trees: dict[str, dict[str, ast.FunctionDef]] = {}
    waiting = [f for m in MODULES for f in functions(m)]
    waiting += [f for step in AT.values() for f in step]
    while waiting:
        function = waiting.pop(0)
        name = function.__name__
        if name in found:
            if found[name][0] is not function:
                raise BuildError(f"the kernel would hold two functions named {name}")
            continue
        made = definition(parsed(function, trees), function.__globals__)
        found[name] = function, made
        called = (function.__globals__.get(read) for read in made.reads - given)
        waiting += [value for value in called if inspect.isfunction(value)]
    return found


def constants(made: Definition) -> dict[str, object]:
    """The module constants (ints and floats) the function `made` reads."""
    return {n: made.space[n] for n in made.reads if type(made.space.get(n)) in (int, float)}


def source() -> str:
    """The kernel module's text."""
    calls = [  # the functions GENERATED write
        definition(node, vars(module))
        for module, text in GENERATED
        for node in ast.parse(text()).body
        if isinstance(node, ast.FunctionDef)
    ]
    found = kernel_functions(calls)
    made = [function for _, function in found.values()] + calls
    values: dict[str, object] = {}
    for function in made:
        for name, value in constants(function).items():
            if values.setdefault(name, value) != value or name in found:
                raise BuildError(f"the kernel would hold two values named {name}")
    names = {function.node.name for function in made} | set(values)
    for function in made:
        check(function, names)
    body = [f"{name} = {value!r}" for name, value in sorted(values.items())]
    text = "\n\n".join(ast.unparse(function.node) for function in made)
    return f"{HEADER}\n" + "\n".join(body) + "\n\n\n" + text + "\n"


def check(made: Definition, names: set[str]) -> None:
    """Every name the function `made` reads is its own, the kernel's, a builtin of BUILTINS
    or np."""
    node = made.node
    known = names | BUILTINS | {"math", "np", "numba", *IMPORTED} | {a.arg for a in node.args.args}
    known |= {n.id for n in made.names if isinstance(n.ctx, ast.Store)}
    for n in made.names:
        if n.id not in known:
            raise BuildError(f"the kernel's {node.name} reads {n.id}, which is not the kernel's")


def module_name(text: str, kind: str = "kernel") -> str:
    """The name of the module of `text`: a digest of it and of numba's version."""
    import numba

    digest = hashlib.blake2b(f"{numba.__version__}\0{text}".encode(), digest_size=10)
    return f"rulesdsl_{kind}_{digest.hexdigest()}"


@cache
def kernel() -> ModuleType:
    """The compiled kernel module (its functions compile as first called, or load from the
    cache)."""
    from rulesdsl.play.native.store import SOURCE_LOCK, cache_dir, loaded

    with SOURCE_LOCK:
        text = source()
    return loaded(text, module_name(text), cache_dir())
