"""How much the tests draw and play: the quick sizes of `make test`, or the thorough ones.

`make test` runs the quick sizes: enough to find what a property or an agreement is about in
a few seconds each, the same examples every run (tests/conftest.py derandomizes the quick
hypothesis profile). Set HYPOTHESIS_PROFILE=thorough for a long run: ten times as many
examples, or the count a test names for it, drawn afresh each run (a failing example is
kept in .hypothesis/ for the next thorough run: pin it with @example for the quick ones);
and the larger sizes the tests that are not hypothesis's name with `sized`: more deals,
more profiles, more compiled kernels.
"""

from __future__ import annotations

import os
from typing import TypeVar

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "quick") == "thorough"

T = TypeVar("T")


def examples(quick: int, thorough: int | None = None) -> int:
    """The number of examples to draw: `quick`, or the thorough count in a long run."""
    if not THOROUGH:
        return quick
    return thorough if thorough is not None else 10 * quick


def sized(quick: T, thorough: T) -> T:
    """A size of a test that hypothesis does not draw (deals, hands, cases): `quick` in
    `make test`, `thorough` in a long run."""
    return thorough if THOROUGH else quick
