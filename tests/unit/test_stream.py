"""The project's random stream: SplitMix64's published numbers, drawn alike one at a time,
in blocks and from a copy."""

import random
import sys

from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.model.stream import FEW, UNIT, Stream, number, uniforms

# SplitMix64 seeded with 0, as its reference implementation prints them.
REFERENCE = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)


def test_numbers_are_splitmix64s():
    assert tuple(number(0, k) for k in range(1, 5)) == REFERENCE


def test_a_uniform_is_the_top_53_bits():
    stream = Stream(0)
    assert [stream.random() for _ in range(4)] == [(n >> 11) * UNIT for n in REFERENCE]


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 300), max_size=30), st.integers(0, 9))
def test_draws_one_at_a_time_in_blocks_and_from_copies_agree(seed, sizes, picker):
    choose = random.Random(picker)
    stream, drawn = Stream(seed), []
    for size in sizes:
        if choose.random() < 0.5:
            drawn.extend(stream.random() for _ in range(size))
        else:
            drawn.extend(stream.take(size))
        if choose.random() < 0.3:
            stream = stream.copy()
        assert stream.drawn == len(drawn)
    assert drawn == [(number(seed, k) >> 11) * UNIT for k in range(1, len(drawn) + 1)]


def test_below_chooses_by_the_uniform():
    stream, again = Stream(5), Stream(5)
    assert [stream.below(7) for _ in range(100)] == [int(again.random() * 7) for _ in range(100)]
    assert Stream(5).seed == Stream(5 + 2**64).seed


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 1500), max_size=12))
def test_skipping_numbers_lands_where_drawing_them_would(seed, sizes):
    stream, drawn = Stream(seed), Stream(seed)
    for k, size in enumerate(sizes):
        if k % 2:
            stream.skip(size)
        else:
            stream.random()
            size = 1
        drawn.take(size)
        assert stream == drawn
    assert stream.random() == drawn.random()


@given(st.integers(0, 2**64 - 1), st.integers(1, 10**6), st.integers(0, FEW))
def test_a_few_numbers_are_the_same_before_numpy_is_loaded(seed, start, count):
    """A short run computes its numbers one at a time until numpy is loaded: the same
    numbers, without loading it."""
    with_numpy = uniforms(seed, start, count)
    numpy = sys.modules.pop("numpy")
    try:
        assert uniforms(seed, start, count) == with_numpy
        assert "numpy" not in sys.modules
    finally:
        sys.modules["numpy"] = numpy
