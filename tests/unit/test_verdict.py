"""Verdicts on paired differences: higher, lower, the same within a margin, or undecided,
and about how many hands an undecided one would take."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.reason.sim import Estimate
from rulesdsl.reason.verdict import (
    COUNT_MARGIN,
    SHARE_MARGIN,
    Ground,
    Verdict,
    default_margin,
    hands_needed,
    judge,
    proven,
)


def difference(mean: float, half: float, n: int = 1000) -> Estimate:
    return Estimate(mean, mean - half, mean + half, n)


@pytest.mark.parametrize(
    ("mean", "half", "margin", "verdict"),
    [
        (0.44, 0.04, 0.05, Verdict.HIGHER),
        (-0.44, 0.04, 0.05, Verdict.LOWER),
        (0.003, 0.002, 0.01, Verdict.HIGHER),  # clear of zero, though inside the margin
        (0.001, 0.005, 0.01, Verdict.SAME),
        (0.0, 0.01, 0.01, Verdict.SAME),  # the interval reaches the margin's edges
        (0.0, 0.0100001, 0.01, Verdict.UNDECIDED),  # and a hair past them
        (0.02, 0.03, 0.01, Verdict.UNDECIDED),
        (0.0, 0.0, 0.0, Verdict.SAME),  # equal on every deal, even with no margin
        (0.0, 0.001, 0.0, Verdict.UNDECIDED),
    ],
)
def test_a_verdict_reads_the_interval_against_zero_and_the_margin(mean, half, margin, verdict):
    assert judge(difference(mean, half), margin).verdict is verdict


def test_decided_verdicts_took_the_hands_played_and_say_their_ground():
    played = judge(difference(0.44, 0.04, 700), COUNT_MARGIN)
    assert (played.hands, played.ground) == (700, Ground.PLAYED)
    equal = judge(difference(0.0, 0.0, 700), COUNT_MARGIN)
    assert (equal.verdict, equal.hands, equal.ground) == (Verdict.SAME, 700, Ground.EVERY_DEAL)


def test_a_proven_verdict_is_the_same_with_no_difference_and_no_hand():
    found = proven(SHARE_MARGIN)
    assert found.verdict is Verdict.SAME and found.ground is Ground.PROVEN
    assert (found.difference.mean, found.difference.low, found.difference.high) == (0, 0, 0)
    assert found.hands == 0


def test_no_hands_decide_nothing():
    found = judge(Estimate.of(0, 0, 0), SHARE_MARGIN)
    assert (found.verdict, found.hands) == (Verdict.UNDECIDED, None)


def test_default_margins_are_a_point_for_a_share_and_a_twentieth_for_a_count():
    assert default_margin(True) == SHARE_MARGIN == 0.01
    assert default_margin(False) == COUNT_MARGIN == 0.05


def test_the_hands_an_undecided_difference_needs_would_decide_it_at_its_spread():
    now = difference(0.02, 0.03, 1000)
    needed = judge(now, 0.01).hands
    assert needed is not None and needed > 1000
    # The half-width narrows as one over the root of the hands: at `needed` it clears zero.
    later = difference(0.02, 0.03 * (1000 / needed) ** 0.5, needed)
    assert judge(later, 0.01).verdict is Verdict.HIGHER
    assert hands_needed(difference(0.0, 0.001), 0.0) is None  # nothing would decide it


@given(
    st.floats(-0.05, 0.05),
    st.floats(0.001, 0.1),
    st.floats(1.0, 3.0),
    st.floats(0.001, 0.05),
)
def test_more_spread_never_needs_fewer_hands(mean, half, wider, margin):
    narrow = hands_needed(difference(mean, half), margin)
    wide = hands_needed(difference(mean, half * wider), margin)
    assert narrow is not None and wide is not None and wide >= narrow


@given(st.floats(0.0, 0.004), st.floats(0.0, 0.004), st.floats(0.006, 0.05))
def test_a_mean_nearer_the_margins_middle_or_farther_from_zero_needs_fewer_hands(a, b, half):
    """Inside half the margin, a mean nearer zero is nearer deciding `same`; past it, a mean
    farther from zero is nearer deciding `higher`."""
    margin = 0.01
    near, far = sorted((a, b))
    assert hands_needed(difference(near, half), margin) <= hands_needed(
        difference(far, half), margin
    )
    assert hands_needed(difference(0.006 + far, half), margin) <= hands_needed(
        difference(0.006 + near, half), margin
    )
