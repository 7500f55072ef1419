"""The specialiser keeps a function's meaning, whatever its step functions do with their
parameters and locals: drawn straight-line helpers, called from a driver, inlined."""

import importlib.util
import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.play.engine.inline import specialise

NAMES = ("a", "b", "t")
OPS = ("+", "-", "*", "^", ">>", "&")
COUNTER = itertools.count()


def expression(names: tuple[str, ...]) -> st.SearchStrategy[str]:
    leaf = st.sampled_from(names) | st.integers(0, 9).map(str)
    return st.tuples(leaf, st.sampled_from(OPS), leaf).map(
        lambda t: f"({t[0]} {t[1]} {t[2] if t[1] != '>>' else '1'})"
    )


@st.composite
def helpers(draw: st.DrawFn) -> str:
    """A helper of two parameters that rebinds some of them and a local, then returns."""
    lines = ["def helper(a: int, b: int) -> int:", "    t = 0"]
    for _ in range(draw(st.integers(1, 5))):
        target = draw(st.sampled_from(NAMES))
        lines.append(f"    {target} = {draw(expression(NAMES))} & 0xFFFF")
    lines.append(f"    return {draw(expression(NAMES))}")
    return "\n".join(lines)


@st.composite
def drivers(draw: st.DrawFn) -> str:
    """A driver that calls the helper with simple and compound arguments, the same local
    name as the helper's parameters included."""
    args = st.sampled_from(("x", "y", "a", "x + 1", "y * 3", "a - x"))
    lines = ["def driver(x: int, y: int) -> int:", "    a = x ^ y"]
    for _ in range(draw(st.integers(1, 3))):
        lines.append(f"    a = helper({draw(args)}, {draw(args)}) + a")
    lines.append("    return a + x")
    return "\n".join(lines)


def load(tmp: Path, source: str):
    path = tmp / f"drawn_{next(COUNTER)}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@settings(max_examples=examples(60), deadline=None)
@given(helpers(), drivers(), st.integers(0, 500), st.integers(0, 500))
def test_inlining_keeps_the_meaning_of_drawn_helpers(tmp_path_factory, helper, driver, x, y):
    module = load(tmp_path_factory.mktemp("inline"), f"{helper}\n\n\n{driver}\n")
    specialised = specialise(module.driver, {})
    assert specialised(x, y) == module.driver(x, y), specialised.source


def test_a_helper_that_rebinds_its_parameter_is_inlined_with_every_rebinding(tmp_path):
    module = load(
        tmp_path,
        "def helper(z: int) -> int:\n    z = z * 5\n    z = z + 7\n    return z * 2\n\n\n"
        "def driver(x: int) -> int:\n    return helper(x + 1)\n",
    )
    specialised = specialise(module.driver, {})
    assert specialised(3) == module.driver(3) == 54
    assert "helper" not in specialised.source
