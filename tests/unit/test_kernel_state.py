"""The kernel's state copy (`state.copy_source`): its two renderings, by slices for CPython
and item by item for numba, make the same copy."""

from __future__ import annotations

import random

import pytest

from rulesdsl.play.kernel.state import FIELDS, State, copy_source


def made(text: str):
    space: dict[str, object] = {}
    exec(compile(text, "<copy>", "exec"), space)
    return space["copy_state"]


def filled(rng: random.Random) -> State:
    """A state with every field drawn at random (its lists' lengths too, not yet within
    their rows)."""
    s = State()
    for f in FIELDS:
        value = [rng.randrange(-1, 60) for _ in range(f.size)] if f.size else rng.randrange(40)
        setattr(s, f.name, value)
    return s


@pytest.mark.parametrize("seed", range(20))
def test_both_renderings_of_the_copy_copy_the_same_items(seed):
    rng = random.Random(seed)
    a = filled(rng)
    lengths = {f.length for f in FIELDS if f.length}
    for name in lengths:  # within the row of every list it counts
        rows = [f.size // f.stride for f in FIELDS if f.length == name]
        setattr(a, name, rng.randrange(0, min(rows) + 1))
    copies = []
    for native in (False, True):
        b = filled(random.Random(seed + 1000))
        made(copy_source(native))(a, b)
        copies.append(b)
    sliced, looped = copies
    for f in FIELDS:
        if not f.copied:
            continue
        if not f.size:
            assert getattr(sliced, f.name) == getattr(looped, f.name) == getattr(a, f.name)
            continue
        used = getattr(a, f.length) * f.stride if f.length else f.size
        got = [getattr(c, f.name)[:used] for c in copies]
        assert got[0] == got[1] == getattr(a, f.name)[:used], f.name
        assert getattr(sliced, f.name)[used:] == getattr(looped, f.name)[used:], f.name
