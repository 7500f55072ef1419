"""Uncounted functions (`rulesdsl.play.native.no_refcounts.py`): a kernel's function is compiled
without reference counts only where it makes no array or list, calls nothing that may
return one and returns none itself; compiled so, it does what it did."""

from __future__ import annotations

import ast
import textwrap

import pytest

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

from rulesdsl.play.native.kernel import COUNTED, INLINE, OWN, UNCOUNTED
from rulesdsl.play.native.no_refcounts import is_uncounted, redecorated, runtime_makers


def decorated(source: str) -> dict[str, str]:
    """Each function of `source` (decorated `@inline` or not) with its decorator after
    `redecorated`."""
    functions = []
    for node in ast.parse(textwrap.dedent(source)).body:
        assert isinstance(node, ast.FunctionDef)
        inline = bool(node.decorator_list)
        node.decorator_list = [ast.parse(INLINE if inline else OWN, mode="eval").body]
        functions.append(node)
    redecorated(functions)
    return {f.name: ast.unparse(f.decorator_list[0]) for f in functions}


def test_the_runtime_helpers_that_make_or_return_arrays_are_read_from_their_source():
    makers = runtime_makers()
    assert {"stack_new", "stack_kept", "stack_from", "cards_of", "new_stream"} <= makers
    assert {"stack_view", "stack_join"} <= makers  # they return the array they are given
    assert "stack_grown_extend" in makers  # it calls stack_grown_append, which makes one
    assert not {"popcount", "nth", "stack_keep", "stack_pop", "mask_of_kept"} & makers


MAKING = [
    "x = np.zeros(4, np.int64)",
    "x = [0] * 4",
    "x = [c for c in row]",
    "row[:2] = other",
    "row[1, :] = other[0]",
    "other.append(1)",
    "x = stack_kept(row, 8)",
    "x = stack_view(row)",
    "x = sorted(row)",
    "x = unknown(row)",
    "x = inline_maker(row)",
    "x = own_maker_returning(row)",
    "return row",
    "return row[1:]",
    "return (1, 2)",
    "return popcount(row[0])",
]
MAKING_NOTHING = [
    "row[0] = popcount(row[1])",
    "row[:] = -1",
    "row[1:3] = 2 * 3",
    "x = np.uint64(row[0])",
    "stack_keep(row, other)",
    "own_maker(row)",  # a function that returns nothing, counted on its own
    "return 1",
    "return row[0] > 2 and row[1] < 3",
    "return -1 if row[0] else 2",
    "x = len(row) + min(row[0], 3)",
]
HELPERS = """
@inline
def inline_maker(row):
    return np.zeros(3, np.int64)
def own_maker(row):
    extra = np.zeros(3, np.int64)
    row[0] = extra[0]
def own_maker_returning(row):
    return np.zeros(3, np.int64)
"""


@pytest.mark.parametrize("line", MAKING)
def test_a_function_that_makes_or_returns_an_array_keeps_its_counts(line):
    found = decorated(f"def f(row, other):\n    {line}\n{HELPERS}")
    assert found["f"] == COUNTED


@pytest.mark.parametrize("line", MAKING_NOTHING)
def test_a_function_that_makes_and_returns_no_array_is_uncounted(line):
    found = decorated(f"def f(row, other):\n    {line}\n{HELPERS}")
    assert found["f"] == UNCOUNTED
    assert found["inline_maker"] == INLINE  # inlined functions are the caller's
    assert found["own_maker"] == found["own_maker_returning"] == COUNTED


def test_a_caller_of_an_uncounted_function_is_counted_by_its_own_body():
    found = decorated(
        "def outer(row):\n    inner(row)\n    x = np.zeros(2, np.int64)\n"
        "def inner(row):\n    row[0] = 1\n"
    )
    assert found == {"outer": COUNTED, "inner": UNCOUNTED}


def test_an_uncounted_function_called_from_counted_code_does_what_it_did(tmp_path):
    import numpy as np

    from rulesdsl.play.native.store import loaded

    source = (
        "def fill(rows, k, out):\n"
        "    view = rows[k % 3, 1:]\n"
        "    for j in range(len(view)):\n"
        "        out[k] += popcount(view[j]) * (j + 1)\n"
        "def fills(rows, n):\n"
        "    out = np.zeros(n, np.int64)\n"
        "    for k in range(n):\n"
        "        fill(rows, k, out)\n"
        "    return out\n"
    )
    functions = [node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)]
    for node in functions:
        node.decorator_list = [ast.parse(OWN, mode="eval").body]
    redecorated(functions)
    assert is_uncounted(functions[0]) and not is_uncounted(functions[1])
    header = "import numba\nimport numpy as np\nfrom rulesdsl.play.native.runtime import popcount\n"
    text = header + ast.unparse(ast.Module(functions, []))
    module = loaded(text, "uncounted_case", tmp_path)
    rows = np.arange(12, dtype=np.int64).reshape(3, 4)
    expected = [
        sum(bin(int(v)).count("1") * (j + 1) for j, v in enumerate(rows[k % 3, 1:]))
        for k in range(100_000)
    ]
    assert module.fills(rows, 100_000).tolist() == expected


def test_the_search_kernel_samples_and_plays_out_uncounted_on_the_default_profile():
    from rulesdsl.play.native.search import search_tree
    from rulesdsl.read.profile import load

    tree = search_tree(load("equal-hands").rules, 4, ("pimc:50",) * 4)
    uncounted = {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and is_uncounted(f)}
    assert {"rest_out", "sample_worlds", "play_worlds"} <= uncounted
    assert not {"pimc_card", "search_hands", "deal_position"} & uncounted  # they make arrays


def test_a_kernel_numba_cannot_compile_uncounted_is_compiled_with_its_counts(monkeypatch):
    from numba.core.errors import NumbaRuntimeError

    from rulesdsl.play.native import search
    from rulesdsl.read.profile import load

    asked: list[bool] = []

    def compiled(tree, *_):
        uncounted = any(isinstance(f, ast.FunctionDef) and is_uncounted(f) for f in tree.body)
        asked.append(uncounted)
        if uncounted:
            raise NumbaRuntimeError("NRT required but not enabled")
        return "counted kernel"

    monkeypatch.setattr(search, "compiled", compiled)
    monkeypatch.setattr(search, "play_in", lambda *_: None)
    search.compiled_kernel.cache_clear()
    try:
        kernel = search.compiled_kernel(load("equal-hands").rules, 4, ("pimc:2",) * 4)
    finally:
        search.compiled_kernel.cache_clear()
    assert kernel == "counted kernel" and asked == [True, False]
