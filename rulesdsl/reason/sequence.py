"""The confidence sequence of a paired mean difference that `--until-decided` reads its
verdicts from, valid however the stopping point was chosen, and where a run stopped.

The interval of a paired mean difference is the two-sided normal-mixture (Robbins)
confidence sequence with the running variance, the asymptotic confidence sequence of
Waudby-Smith, Arnold, Wu, Ramdas and Zhang, "Time-uniform central limit theory and
asymptotic confidence sequences" (Annals of Statistics, 2024), after Robbins, "Statistical
methods related to the law of the iterated logarithm" (1970). After n hands with mean
difference m and variance v, the mean lies in

    m +- sqrt(v * (n + t) * log((n + t) / (t * a**2))) / n

for every n at once with probability at least 1 - a (as the hands grow; exactly for normal
differences of known variance): t fixes the hands where the sequence is tightest, here
a quarter of the first round's hands (TUNED). It comes from the martingale sqrt(t / (n + t)) *
exp(S**2 / (2 * v * (n + t))) of the standardised sum S under a normal mixture of
exponential tilts, which by Ville's inequality passes 1/a with probability at most a,
at any stopping time. So a verdict read from it at the end of whichever round the run
stops after holds with the error it states, however the stop was chosen.
It reads only the sums and sums of squares a tally keeps, not single hands, and needs no
bound on the values, which an exact sequence for bounded values (empirical Bernstein)
would.

The variance v counts one more hand with a difference of 1: (sum of squares - sum**2 / n
+ 1) / n, so that a measure equal on every deal so far still gets an interval of some
width. The level a is alpha divided among every verdict asked for (Bonferroni), so all of
them together are wrong with probability at most alpha.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from rulesdsl.reason.estimate import Estimate

METHOD = "normal-mixture confidence sequence (Robbins; Waudby-Smith et al. 2024), Bonferroni"
TUNED = 0.25
"""The hands where the sequence is tightest, as a share of the first round's: a sequence
tuned for t hands is narrowest near a few times t, the hands of the first rounds, where a
large difference is decided."""


def half_width(n: int, total: float, squares: float, level: float, tuned: int) -> float:
    """The half-width of the confidence sequence at level `level` after `n` differences
    summing to `total` (their squares to `squares`), tightest near `tuned` of them."""
    variance = (squares - total * total / n + 1) / n
    spread = n + tuned
    return math.sqrt(variance * spread * math.log(spread / (tuned * level * level))) / n


def sequence_estimate(n: int, total: float, squares: float, level: float, tuned: int) -> Estimate:
    """The mean difference with its confidence-sequence interval at `level`."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / n
    half = half_width(n, total, squares, level, tuned)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class Stopping:
    """How a run under `--until-decided` plays and where it stopped: the verdicts on
    `metrics` (by name), for every pair, share `alpha`; the first round plays `first`
    deals, the run at most `max_units`; `units` were played in `rounds`; `decided` says
    whether every verdict asked for was decided."""

    alpha: float
    max_units: int
    first: int
    metrics: tuple[str, ...]
    pairs: int = 1
    units: int = 0
    rounds: int = 0
    decided: bool = False

    @property
    def level(self) -> float:
        """The error each verdict is allowed: alpha shared by the verdicts."""
        return self.alpha / max(len(self.metrics) * self.pairs, 1)

    @property
    def tuned(self) -> int:
        return max(1, round(self.first * TUNED))

    def estimate(self, n: int, total: float, squares: float, cluster: int = 1) -> Estimate:
        """The confidence sequence of `n` observations, each the mean of `cluster` hands."""
        tuned = max(1, self.tuned // cluster)
        found = sequence_estimate(n, total, squares, self.level, tuned)
        return dataclasses.replace(found, n=n * cluster)

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": "until-decided",
            "alpha": self.alpha,
            "method": METHOD,
            "metrics": list(self.metrics),
            "hands": self.units,
            "rounds": self.rounds,
            "decided": self.decided,
            "max_hands": self.max_units,
        }
