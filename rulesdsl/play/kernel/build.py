"""The kernel compiled by numba, once per installation: one module made from the kernel's
own text (`primitives` replaced by `native_primitives`), kept in the kernel cache
(`rulesdsl.play.native.store`) under a digest of that text and numba's version (the text
holds all of the kernel's code), so every profile plays on it.

The text is each function of the kernel's modules as written, and the calls of
`dispatch.source()`, every one compiled with `numba.njit()`; the module constants they read
are written before them. A name that is none of these stops the build (BuildError).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
from functools import cache
from types import FunctionType, ModuleType

from rulesdsl.play.kernel import deals, dispatch, native_primitives, rules, steps

MODULES = (native_primitives, rules, steps, deals)
"""The modules whose functions the kernel is made of, `native_primitives` for CPython's."""
BUILTINS = frozenset({"range", "len", "int", "float", "bool", "min", "max", "abs"})
HEADER = '"""The rulesdsl kernel, generated: do not edit."""\n\nimport numba\nimport numpy as np\n'
SKIPPED = frozenset({"table_of"})
"""Functions of those modules that run in CPython alone."""


class BuildError(Exception):
    """The kernel's text reads a name that is not the kernel's."""


def functions(module: ModuleType) -> list[FunctionType]:
    return [
        f
        for f in vars(module).values()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and f.__name__ not in SKIPPED
    ]


def source() -> str:
    """The kernel module's text."""
    nodes: list[ast.FunctionDef] = []
    constants: dict[str, object] = {}
    defined = {f.__name__ for m in MODULES for f in functions(m)}
    for module in MODULES:
        for function in functions(module):
            (node,) = ast.parse(inspect.getsource(function)).body
            assert isinstance(node, ast.FunctionDef)
            nodes.append(node)
            for name in function.__code__.co_names:
                value = function.__globals__.get(name)
                if name not in defined and type(value) in (int, float):
                    constants[name] = value
    calls = ast.parse(dispatch.source()).body
    nodes += [node for node in calls if isinstance(node, ast.FunctionDef)]
    constants["NO_END"] = steps.NO_END
    names = defined | {node.name for node in nodes} | set(constants)
    for node in nodes:
        node.decorator_list = [ast.parse("numba.njit()", mode="eval").body]
        node.returns = None
        for arg in node.args.args:
            arg.annotation = None
        check(node, names)
    body = [f"{name} = {value!r}" for name, value in sorted(constants.items())]
    text = "\n\n".join(ast.unparse(node) for node in nodes)
    return f"{HEADER}\n" + "\n".join(body) + "\n\n\n" + text + "\n"


def check(node: ast.FunctionDef, names: set[str]) -> None:
    """Every name `node` reads is its own, the kernel's, a builtin of BUILTINS or np."""
    read = [n for n in ast.walk(node) if isinstance(n, ast.Name)]
    known = names | BUILTINS | {"np", "numba"} | {a.arg for a in node.args.args}
    known |= {n.id for n in read if isinstance(n.ctx, ast.Store)}
    for n in read:
        if n.id not in known:
            raise BuildError(f"the kernel's {node.name} reads {n.id}, which is not the kernel's")


@cache
def kernel() -> ModuleType:
    """The compiled kernel module (its functions compile as first called, or load from the
    cache)."""
    import numba

    from rulesdsl.play.native.kernel import cache_dir
    from rulesdsl.play.native.store import loaded

    text = source()
    digest = hashlib.blake2b(f"{numba.__version__}\0{text}".encode(), digest_size=10)
    return loaded(text, f"rulesdsl_kernel_{digest.hexdigest()}", cache_dir())
