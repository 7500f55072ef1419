"""Liveness (`rulesdsl/play/native/liveness.py`): which locals some path from a statement reads
before it sets them, through branches, loops, `break`, `continue` and `return`."""

from __future__ import annotations

import ast
import textwrap

from rulesdsl.play.native.liveness import live_before


def live_at(source: str, marker: str) -> set[str]:
    """The locals live before the first statement whose text begins with `marker`."""
    function = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(function, ast.FunctionDef)
    live = live_before(function)
    for node in ast.walk(function):
        if isinstance(node, ast.stmt) and ast.unparse(node).startswith(marker):
            return set(live[id(node)]) - {"range", "print"}
    raise AssertionError(f"no statement {marker}")


def test_a_local_set_before_it_is_read_is_not_live():
    source = """
    def f(a):
        b = a + 1
        c = b
        return c
    """
    assert live_at(source, "b = a") == {"a"}
    assert live_at(source, "c = b") == {"b"}


def test_a_local_read_on_a_loops_next_turn_is_live_where_it_was_set_before():
    source = """
    def f(n):
        old = 0
        total = 0
        for k in range(n):
            total += old
            new = k
            old = new
        return total
    """
    assert live_at(source, "new = k") == {"total", "k"}  # old is set before the next turn
    assert live_at(source, "total += old") == {"total", "old", "k"}
    assert live_at(source, "for k") == {"total", "old", "n"}


def test_an_array_written_through_an_item_is_read_there():
    source = """
    def f(a, i):
        view = a
        view[i] = 1
        return 0
    """
    assert live_at(source, "view[i] = 1") == {"view", "i"}


def test_break_goes_past_the_loop_and_continue_back_to_its_head():
    source = """
    def f(n, m):
        kept = 0
        seen = 0
        while n > 0:
            n -= 1
            if n == m:
                break
            if n > m:
                continue
            seen = kept
            kept = n
        return seen
    """
    assert live_at(source, "break") == {"seen"}
    assert live_at(source, "continue") == {"n", "m", "kept", "seen"}


def test_nothing_is_live_after_a_return():
    source = """
    def f(a, b):
        if a:
            return b
        c = a
        return c
    """
    assert live_at(source, "return b") == {"b"}
    assert live_at(source, "if a") == {"a", "b"}


def test_a_block_it_does_not_follow_reads_every_name_in_it():
    source = """
    def f(a, b):
        with a:
            c = b
        b = 1
        return b
    """
    assert live_at(source, "with a") == {"a", "b", "c"}
