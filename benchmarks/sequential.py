"""Whether `compare --until-decided` keeps its error rate, and how many hands it saves.

    PYTHONPATH=. python benchmarks/sequential.py [--runs 1000] [--real-runs 40] [--seeds 20]
        [--workers 2]

(a) False verdicts on pairs of equal means: paired differences drawn per hand from the
seat shares and hand lengths of real play of equal-hands (1,000 hands, the native path),
both sides independently from the same distribution, so the two profiles differ on many
deals but not in any mean. Each run goes through the code `--until-decided` uses (its
rounds, its confidence sequences, its verdicts) up to 1,000,000 hands; a run is wrong when
any of its verdicts is `higher` or `lower`. Printed: the share of wrong runs with its 95%
(Wilson) interval, against alpha, with the default margins (runs stop once every measure
is the same) and with margins of 0 (nothing can be `same`, so every run plays to the cap
unless a verdict goes wrong: the sternest test of stopping early). Beside them, the same
runs judged each round with the 95% interval of a fixed run, as a naive loop would.

(a') The same in real play on the native path, `--real-runs` seeds: equal-hands with
clubs always trump against it with spades always trump. With random bots the four suits
are alike, so every measure has the same distribution under both, yet most deals play
differently, and the analysis does not prove them alike: the statistics are exercised.
Each run plays until every default measure is decided (the same, as it should be), with
the default margins.

(b) Hands used on pairs with known differences, in real play on the native path: the
median hands `--until-decided` plays over `--seeds` seeds, against the hands a run of
fixed size needs at power 0.9 and 0.8, n = ((z(1 - a/2) + z(power)) * sigma / delta)**2
with a the same error per verdict and sigma of the pooled runs, the largest over the
measures decided: with delta the difference the pooled runs found (a design that knew the
answer), and with delta the margin of a share, one point (the smallest difference worth
finding, as a run of fixed size is planned without knowing the difference). Beside them,
the fewest hands any sequential test of the same errors and power can expect to play
(Wald's bound, for normal differences of that sigma), against the fixed run sized for
the margin and against the mean hands `--until-decided` played: how far from the best
possible it is, and which ratios no test can reach.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import numpy as np

from rulesdsl.model.rules import Rules
from rulesdsl.read.profile import load
from rulesdsl.reason.analysis.sameness import samenesses
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sequential import ALPHA, FIRST_ROUND, MAX_HANDS, round_ends, run_until
from rulesdsl.reason.sim import Estimate, Result, Spec, run
from rulesdsl.reason.verdict import Verdict, default_margin, judge
from rulesdsl.words import report

SEATS = 4


@dataclass(frozen=True)
class Measure:
    """A measure of equal means: the distribution of its per-hand values."""

    name: str
    values: np.ndarray
    chances: np.ndarray
    share: bool


def real_measures() -> list[Measure]:
    """Seat shares and hand length of 1,000 hands of equal-hands, as distributions."""
    spec = Spec((("equal-hands", load("equal-hands").rules),), units=1_000, skill=False)
    tally = run(spec, 1).profiles[0]
    found = []
    for seat in range(SEATS):
        p = tally.total(f"win_seat_{seat}") / tally.n
        found.append(Measure(f"win_seat_{seat}", np.array([0, 1]), np.array([1 - p, p]), True))
    lengths = tally.distribution("tricks")
    values = np.array(sorted(lengths))
    chances = np.array([lengths[v] for v in values], dtype=float)
    found.append(Measure("tricks", values, chances / chances.sum(), False))
    return found


def differences(measure: Measure) -> tuple[np.ndarray, np.ndarray]:
    """The values of b - a with both drawn independently from `measure`, and their chances."""
    diffs = np.subtract.outer(measure.values, measure.values).ravel()
    chances = np.outer(measure.chances, measure.chances).ravel()
    support = np.unique(diffs)
    return support, np.array([chances[diffs == d].sum() for d in support])


Judge = Callable[[int, int, int, float], Verdict]


def sequence_judge(stopping: Stopping) -> Judge:
    def judged(n: int, total: int, squares: int, margin: float) -> Verdict:
        return judge(stopping.estimate(n, total, squares), margin).verdict

    return judged


def fixed_judge(n: int, total: int, squares: int, margin: float) -> Verdict:
    return judge(Estimate.of(n, total, squares), margin).verdict


def synthetic_run(
    rng: np.random.Generator,
    laws: list[tuple[np.ndarray, np.ndarray]],
    margins: list[float],
    verdict: Judge,
) -> bool:
    """One run of equal means to its stop: whether any verdict was higher or lower."""
    ends = round_ends(FIRST_ROUND, MAX_HANDS)
    sums = [[0, 0] for _ in laws]
    start = 0
    for end in ends:
        found = []
        for (support, chances), totals, margin in zip(laws, sums, margins, strict=True):
            counts = rng.multinomial(end - start, chances)
            totals[0] += int(counts @ support)
            totals[1] += int(counts @ (support * support))
            found.append(verdict(end, totals[0], totals[1], margin))
        start = end
        if any(v in (Verdict.HIGHER, Verdict.LOWER) for v in found):
            return True
        if all(v is not Verdict.UNDECIDED for v in found):
            return False
    return False


def wilson(hits: int, runs: int) -> str:
    e = Estimate.share(hits, runs)
    return f"{e.mean:.3f} (95% {e.low:.3f}..{e.high:.3f})"


def false_verdicts(runs: int) -> None:
    measures = real_measures()
    laws = [differences(m) for m in measures]
    names = tuple(m.name for m in measures)
    stopping = Stopping(ALPHA, MAX_HANDS, FIRST_ROUND, names)
    print(f"(a) equal means, {len(names)} measures ({', '.join(names)}), {runs} runs each")
    for label, margins in (
        ("default margins", [default_margin(m.share) for m in measures]),
        ("margins of 0", [0.0] * len(measures)),
    ):
        for how, verdict in (
            ("until decided", sequence_judge(stopping)),
            ("fixed 95% interval read each round", fixed_judge),
        ):
            rng = np.random.default_rng(2024)
            wrong = sum(synthetic_run(rng, laws, margins, verdict) for _ in range(runs))
            print(f"  {label}, {how}: wrong runs {wilson(wrong, runs)}, alpha {ALPHA}")


TRUMPS = ("clubs", "spades")


def trump_profiles(folder: Path) -> tuple[tuple[str, Rules], ...]:
    """equal-hands with each suit of TRUMPS always trump."""
    found = []
    for suit in TRUMPS:
        path = folder / f"{suit}.rules"
        path.write_text(f'profile "{suit}" extends "equal-hands" {{\n    trump {suit}\n}}\n')
        found.append((suit, load(str(path)).rules))
    return tuple(found)


def real_false_verdicts(runs: int, workers: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        profiles = trump_profiles(Path(folder))
    spec = Spec(profiles)
    same = samenesses(profiles, spec.players, spec.pairs)
    assert not (same[0].identical or same[0].same_hands)
    names = tuple(report.default_judged(spec))
    stopping = Stopping(ALPHA, MAX_HANDS, FIRST_ROUND, names)
    wrong, used = 0, []
    for seed in range(runs):
        played = Spec(profiles, seed=seed)
        result = run_until(played, stopping, lambda r: report.decided(r, same), workers)
        assert result.stopping is not None
        used.append(result.stopping.units)
        verdicts = report.verdicts(result, same)
        wrong += any(v.judged.verdict in (Verdict.HIGHER, Verdict.LOWER) for v in verdicts)
    print(
        f"(a') real play, {TRUMPS[1]} trump - {TRUMPS[0]} trump, {len(names)} measures, "
        f"{runs} runs: wrong runs {wilson(wrong, runs)}, alpha {ALPHA}; median "
        f"{statistics.median(used):,.0f} hands to decide every measure the same"
    )


KNOWN = (
    ("equal-hands", "seven-card-hands", ("win_seat_0", "skill")),
    ("equal-hands", "instant-elimination", ("win_seat_0", "skill")),
)


def known_effects(seeds: int, workers: int) -> None:
    print(f"(b) known differences, {seeds} seeds each, alpha {ALPHA}")
    for a, b, names in KNOWN:
        spec = Spec(((a, load(a).rules), (b, load(b).rules)))
        stopping = Stopping(ALPHA, MAX_HANDS, FIRST_ROUND, names)
        used, found, pooled = [], [], None
        for seed in range(seeds):
            result = run_until(Spec(spec.profiles, seed=seed), stopping, report.decided, workers)
            assert result.stopping is not None
            used.append(result.stopping.units)
            found.append({v.metric.name: v.judged.verdict for v in report.verdicts(result)})
            pooled = result if pooled is None else _pool(pooled, result)
        assert pooled is not None
        right = sum(verdicts == _directions(pooled, names) for verdicts in found)
        median = statistics.median(used)
        print(
            f"  {b} - {a} on {', '.join(names)}: median {median:,.0f} hands until decided, "
            f"{min(used):,} to {max(used):,} (right direction in {right}/{seeds})"
        )
        mean = statistics.mean(used)
        print(f"    mean {mean:,.0f} hands until decided")
        for power in (0.9, 0.8):
            for known, size in (("delta known", None), ("sized for the margin", 0.01)):
                fixed = max(_fixed_hands(pooled, n, stopping.level, power, size) for n in names)
                print(
                    f"    fixed size of power {power}, {known}: {fixed:,} hands; "
                    f"until decided / fixed {median / fixed:.2f}"
                )
            least = max(_least_hands(pooled, n, stopping.level, power) for n in names)
            margin = max(_fixed_hands(pooled, n, stopping.level, power, 0.01) for n in names)
            print(
                f"    any sequential test of power {power}, the same errors: at least "
                f"{least:,.0f} hands expected (Wald); / fixed sized for the margin "
                f"{least / margin:.2f}; until decided (mean) / that least {mean / least:.2f}"
            )


def _directions(pooled: Result, names: tuple[str, ...]) -> dict[str, Verdict]:
    """The verdict each measure should get: the direction of the pooled runs, whose
    differences are many times their 95% intervals."""
    directions = {}
    for name in names:
        e = pooled.pairs[0].estimate(name)
        assert e.clear_of_zero, f"{name}: the pooled runs do not know the direction"
        directions[name] = Verdict.HIGHER if e.mean > 0 else Verdict.LOWER
    return directions


def _pool(pooled: Result, result: Result) -> Result:
    pooled.merge(result)
    return pooled


def _fixed_hands(
    pooled: Result, name: str, level: float, power: float, size: float | None = None
) -> int:
    """The hands of a fixed run deciding `name` at `level` with `power`: of the difference
    observed, or of `size`, the smallest difference the run is planned to find."""
    total, squares = pooled.pairs[0].totals(name)
    n = pooled.pairs[0].n
    observed = total / n
    sigma = math.sqrt(squares / n - observed * observed)
    delta = observed if size is None else size
    z = NormalDist().inv_cdf(1 - level / 2) + NormalDist().inv_cdf(power)
    return math.ceil((z * sigma / delta) ** 2)


def _least_hands(pooled: Result, name: str, level: float, power: float) -> float:
    """The fewest hands any sequential test can expect to play to find the observed
    difference of `name` in its direction with `power`, when it says that direction with
    chance at most level / 2 where the two are equal (the error a fixed run's two-sided
    test at `level` allows each direction): Wald's bound, E[N] * KL >= kl(power, level / 2),
    KL = delta**2 / (2 * sigma**2) the information one hand brings, for normal differences
    of the pooled runs' variance (as the fixed design assumes)."""
    total, squares = pooled.pairs[0].totals(name)
    n = pooled.pairs[0].n
    delta = total / n
    variance = squares / n - delta * delta
    return _binary_kl(power, level / 2) * 2 * variance / (delta * delta)


def _binary_kl(p: float, q: float) -> float:
    """The Kullback-Leibler divergence of a coin of chance p from one of chance q."""
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000)
    parser.add_argument("--real-runs", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    false_verdicts(args.runs)
    real_false_verdicts(args.real_runs, args.workers)
    known_effects(args.seeds, args.workers)


if __name__ == "__main__":
    main()
