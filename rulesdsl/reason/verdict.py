"""Verdicts on a paired difference B - A: higher, lower, the same within a margin, or
undecided, with about how many hands would decide it.

A verdict reads the 95% interval of the difference: wholly above zero, B is higher;
wholly below zero, lower; wholly inside [-margin, +margin], the same (the interval form
of two one-sided tests, each at 2.5%); otherwise undecided. A difference clear of zero is
higher or lower even when it is smaller than the margin. So read, a verdict holds for a
run whose size was fixed before it began, not for one stopped once it looked decided; and
each measure is judged alone, with no correction for how many are judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from rulesdsl.reason.estimate import Estimate

SHARE_MARGIN = 0.01
"""The margin of a share unless one is given: one percentage point."""
COUNT_MARGIN = 0.05
"""The margin of a count per hand or match (tricks, cards, eliminations, hands of a match)
unless one is given: a twentieth of one."""


class Verdict(StrEnum):
    HIGHER = "higher"
    LOWER = "lower"
    SAME = "same"
    UNDECIDED = "undecided"


class Ground(StrEnum):
    """What a verdict rests on."""

    PLAYED = "played"  # the interval of the hands played
    EVERY_DEAL = "every_deal"  # the measure was equal on every deal played
    PROVEN = "proven"  # the analysis proved that the two profiles play alike


@dataclass(frozen=True)
class Judgement:
    """A verdict on a difference, the difference, the margin it was judged with, and the
    hands it took (for an undecided one, about how many would decide it; None where no
    number would: a difference of exactly zero with a margin of zero)."""

    verdict: Verdict
    difference: Estimate
    margin: float
    hands: int | None
    ground: Ground = Ground.PLAYED


def default_margin(share: bool) -> float:
    return SHARE_MARGIN if share else COUNT_MARGIN


def judge(difference: Estimate, margin: float) -> Judgement:
    """The verdict on `difference` with `margin`, from its interval."""
    low, high = difference.low, difference.high
    if difference.n == 0:
        return Judgement(Verdict.UNDECIDED, difference, margin, None)
    if low > 0 or high < 0:
        verdict = Verdict.HIGHER if low > 0 else Verdict.LOWER
    elif -margin <= low and high <= margin:
        verdict = Verdict.SAME
    else:
        return Judgement(Verdict.UNDECIDED, difference, margin, hands_needed(difference, margin))
    ground = Ground.EVERY_DEAL if low == high == 0 else Ground.PLAYED
    return Judgement(verdict, difference, margin, difference.n, ground)


def proven(margin: float) -> Judgement:
    """The same, as the analysis proved: a difference of zero, no hand needed."""
    return Judgement(Verdict.SAME, Estimate(0.0, 0.0, 0.0, 0), margin, 0, Ground.PROVEN)


def hands_needed(difference: Estimate, margin: float) -> int | None:
    """About how many hands would decide `difference`, were its mean and spread what they
    are now: the interval's half-width narrows as one over the root of the hands, until it
    is less than the distance of the mean from zero (clear of it) or from the nearer edge
    of the margin (inside it)."""
    half = (difference.high - difference.low) / 2
    size = abs(difference.mean)
    target = max(size, margin - size)
    if target <= 0:
        return None
    return max(difference.n, math.floor(difference.n * (half / target) ** 2)) + 1
