"""The lent-rows pass (`rulesdsl/play/native/lent_rows.py`): an array made afresh on every call
is lent by the caller only where it never leaves the call, and the function does what it
did."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

import numpy as np

from rulesdsl.play.native import runtime
from rulesdsl.play.native.lent_rows import ROWS, scratch_rows, scratched

CAPACITY = 8
WIDTH = CAPACITY + 1  # a row holds a list of CAPACITY cards and its count

MADE = (
    "def f(row, out):\n"
    "    hands = np.zeros(4, np.int64)\n"
    "    cards = stack_kept(row, 8)\n"
    "    trick = stack_new(8)\n"
    "    none = np.zeros(0, np.int64)\n"
    "    seen = hands\n"
    "    for k in range(4):\n"
    "        seen[k] += k * 2\n"
    "    while stack_len(cards) > 0:\n"
    "        stack_append(trick, stack_pop(cards))\n"
    "    out[0] = stack_len(trick) + hands[3] + len(none)\n"
    "    return hands[1] + stack_item(trick, 0) if stack_len(trick) > 0 else -1\n"
)


def lowered(text: str) -> str:
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(scratched(function, CAPACITY))


def run(text: str, *args: object) -> object:
    scope = {"np": np, **{name: getattr(runtime, name) for name in dir(runtime)}}
    exec(text, scope)
    return scope["f"](*args)


@settings(deadline=None)
@given(st.lists(st.integers(-1, 40), max_size=12))
def test_arrays_lent_by_the_caller_do_what_the_arrays_made_did(row):
    text = lowered(MADE)
    assert "np.zeros(4" not in text and "stack_kept(" not in text and "stack_new(" not in text
    assert "none = scratch[0, :0]" in text
    cards = np.array(row, np.int64)
    if len([c for c in row if c >= 0]) > 8:
        with pytest.raises(IndexError):
            run(text, cards, np.zeros(1, np.int64), np.full((ROWS, WIDTH), 77, np.int64))
        return
    out, lent_out = np.zeros(1, np.int64), np.zeros(1, np.int64)
    scratch = scratch_rows(CAPACITY)
    scratch[:] = 77  # rows left as another call left them
    assert run(text, cards, lent_out, scratch) == run(MADE, cards, out)
    assert lent_out[0] == out[0]


LEAVING = [
    "return hands",
    "out[0] = hands",
    "return (hands, 1)",
    "g(hands)",
    "other = hands\n    return other",
    "view = stack_view(hands)\n    return view",
    "return hands[:2]",
    "kept = hands[1:]\n    return kept",
]


@pytest.mark.parametrize("use", LEAVING)
def test_an_array_that_may_leave_the_call_is_still_made(use):
    text = lowered(f"def f(out):\n    hands = np.zeros(4, np.int64)\n    {use}\n")
    assert "scratch[" not in text and text.startswith("def f(out, scratch):")


def test_only_arrays_that_fit_a_row_and_as_many_as_there_are_rows_are_lent():
    wide = lowered("def f():\n    wide = np.zeros(10, np.int64)\n    return wide[0]\n")
    assert "np.zeros(10" in wide  # a row holds WIDTH items
    made = "".join(f"    a{k} = np.zeros(2, np.int64)\n" for k in range(ROWS + 2))
    text = lowered(f"def f():\n{made}    return a0[0]\n")
    assert text.count("scratch[") == ROWS and text.count("np.zeros(2") == 2


SEATS = (  # a loop's turn makes an array and keeps a cut of it in another local
    "def f(active, leaders, out):\n"
    "    total = 0\n"
    "    first = np.zeros(4, np.int64)\n"
    "    kept = first\n"
    "    first = np.zeros(4, np.int64)\n"
    "    turn = 0\n"
    "    for leader in leaders:\n"
    "        items = np.empty(4, np.int64)\n"
    "        count = 0\n"
    "        for seat in range(leader, leader + 4):\n"
    "            if active[seat % 4] == 1:\n"
    "                items[count] = seat % 4\n"
    "                count += 1\n"
    "        seats = items[:count]\n"
    "        {read}\n"
    "        before = seats\n"
    "        turn += 1\n"
    "        for seat in seats:\n"
    "            total = (total * 5 + seat) % 1000003\n"
    "    kept[0] = 3\n"
    "    out[0] = total + first[1] + kept[0]\n"
    "    return len(seats) if len(leaders) > 0 else -1\n"
)
AFTER_THE_NEXT_MAKE = "total += before[0] if turn > 0 and len(before) > 0 else 0"


@pytest.mark.parametrize("read", ["pass", AFTER_THE_NEXT_MAKE])
@settings(deadline=None, max_examples=examples(60))
@given(
    st.lists(st.integers(0, 1), min_size=4, max_size=4),
    st.lists(st.integers(0, 3), max_size=12),
)
def test_a_loop_makes_its_array_in_one_row_only_where_no_old_one_is_read_after(
    read, active, leaders
):
    source = SEATS.format(read=read)
    text = lowered(source)
    assert text.count("np.zeros(4") == 0  # made once each, in two places: two rows
    assert ("np.empty(4" in text) == (read == AFTER_THE_NEXT_MAKE)
    args = (np.array(active, np.int64), np.array(leaders, np.int64))
    out, lent_out = np.zeros(1, np.int64), np.zeros(1, np.int64)
    scratch = scratch_rows(CAPACITY)
    scratch[:] = 77
    assert run(text, *args, lent_out, scratch) == run(source, *args, out)
    assert lent_out[0] == out[0]
