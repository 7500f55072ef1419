"""Simulation results as rows, JSON, CSV, a report laid out for a width, and a plot."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesdsl.model.result import EndReason
from rulesdsl.reason.luck import LUCK
from rulesdsl.reason.sim import (
    FIRES,
    Estimate,
    Result,
    Spec,
    Tally,
    covered,
    good_ladder,
    good_worlds,
)
from rulesdsl.reason.verdict import Ground, Judgement, Verdict, default_margin, judge, proven
from rulesdsl.words.layout import Page, text, wrap

if TYPE_CHECKING:
    from rulesdsl.reason.analysis.sameness import Sameness


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    share: bool
    good: bool = False  # measured on the hands under good play

    @property
    def per_hand(self) -> bool:
        """Whether it is a mean per hand (all but the luck index, a ratio of means)."""
        return self.key != LUCK

    @property
    def name(self) -> str:
        """The metric's name in JSON and CSV: its key, `good_` first under good play."""
        return f"good_{self.key}" if self.good else self.key


def metrics(result: Result) -> list[Metric]:
    """The metrics a result holds, in reading order, with labels."""
    return measured(result.spec)


def measured(spec: Spec) -> list[Metric]:
    """The metrics a simulation of `spec` measures, in reading order, with labels."""
    n = spec.players
    rows: list[Metric] = []
    if spec.matches:
        rows.append(Metric("match_hands", "match length (hands)", False))
        rows += [
            Metric(f"match_win_seat_{r}", f"match win share, {_seat(r)} of first hand", True)
            for r in range(n)
        ]
    rows += [Metric(f"win_seat_{r}", f"win share, {_seat(r)}", True) for r in range(n)]
    rows += [
        Metric("no_winner", "hands with no winner", True),
        Metric("tricks", "hand length (tricks)", False),
        Metric("plays", "cards played per hand", False),
    ]
    rows += [Metric(f"end_{reason}", f"ends: {reason}", True) for reason in EndReason]
    rows += [
        Metric("stock_left", "stock left at the end", False),
        Metric("eliminations", "eliminations per hand", False),
        Metric("last_card_saves", "last-card wins survived per hand", False),
    ]
    if spec.skill and not spec.matches:
        rows.append(Metric("skill", "heuristic vs 3 random: win share", True))
    rows += [Metric(f"{FIRES}{o}", f"hands where {o} fires", True) for o in covered(spec)]
    return rows + good_metrics(spec)


def good_metrics(spec: Spec) -> list[Metric]:
    """Under good play (`Spec.good_play`, every seat that bot): the next step of skill,
    seat shares, comebacks and rule coverage."""
    bot = spec.good_play
    if bot is None:
        return []
    n = spec.players
    rows = [Metric("skill", f"{bot} vs {n - 1} heuristic: win share", True, True)]
    rows += [
        Metric(rung.key, f"{rung.bot} vs {n - 1} heuristic: win share", True, True)
        for rung in good_ladder(good_worlds(bot))
    ]
    rows.append(Metric(LUCK, "luck index (1: seeing every card gains nothing)", False, True))
    rows += [
        Metric("decided", "deals decided before play (some seat can force a win)", True, True),
        Metric("unsolved", "deals the solver left unsolved", True, True),
    ]
    rows += [
        Metric(f"win_seat_{r}", f"good play: win share, {_seat(r)}", True, True) for r in range(n)
    ]
    rows += [
        Metric("no_winner", "good play: hands with no winner", True, True),
        Metric("tricks", "good play: hand length (tricks)", False, True),
        Metric("comeback", "good play: won after holding the fewest cards", True, True),
    ]
    rows += [
        Metric(f"{FIRES}{o}", f"good play: hands where {o} fires", True, True)
        for o in covered(spec)
    ]
    return rows


def _seat(relative: int) -> str:
    if relative == 0:
        return "dealer"
    if relative == 1:
        return "dealer+1 (first lead)"
    return f"dealer+{relative}"


def _per_hand_in_matches(result: Result, key: str) -> bool:
    """Whether `key` is counted per hand inside matches, apart from the matches (unpaired)."""
    return result.spec.matches and not key.startswith("match_")


def _source(result: Result, index: int, key: str) -> Tally:
    return result.hands[index] if _per_hand_in_matches(result, key) else result.profiles[index]


def profile_estimate(result: Result, index: int, metric: Metric) -> Estimate:
    if metric.good:
        return result.good[index].estimate(metric.key, metric.share)
    return _source(result, index, metric.key).estimate(metric.key, metric.share)


def paired(result: Result, metric: Metric) -> bool:
    """Whether `metric` is measured on pairs: all but those per hand inside matches."""
    return metric.good or not _per_hand_in_matches(result, metric.key)


def default_judged(spec: Spec) -> list[str]:
    """The measures `--until-decided` decides unless told: seat win shares, hand length,
    how hands end and the skill gap where measured; of matches, match win shares by seat
    and match length."""
    keep = ("match_win_seat_", "match_hands") if spec.matches else ("win_seat_", "tricks", "end_")
    found = [m.name for m in measured(spec) if not m.good and m.key.startswith(keep)]
    return found + (["skill"] if spec.skill and not spec.matches else [])


def pair_estimate(result: Result, pair: int, metric: Metric) -> Estimate | None:
    """The paired difference B - A; None where the metric is not paired (per hand in matches)."""
    if metric.good:
        return result.good_pairs[pair].estimate(metric.key)
    if _per_hand_in_matches(result, metric.key):
        return None
    return result.pairs[pair].estimate(metric.key)


@dataclass(frozen=True)
class PairVerdict:
    """The verdict on one metric of `profile` against `baseline`."""

    profile: str
    baseline: str
    metric: Metric
    judged: Judgement

    def to_dict(self) -> dict[str, Any]:
        difference = self.judged.difference
        return {
            "profile": self.profile,
            "baseline": self.baseline,
            "metric": self.metric.name,
            "verdict": str(self.judged.verdict),
            "estimate": difference.mean,
            "low": difference.low,
            "high": difference.high,
            "hands": self.judged.hands,
        }


def margin_of(metric: Metric, margins: Mapping[str, float]) -> float:
    """The metric's margin: the one given by its name, else its kind's."""
    return margins.get(metric.name, default_margin(metric.share))


def _proved(same: Sameness | None, metric: Metric) -> bool:
    """Whether the analysis proved the pair alike on `metric`: they play identical games,
    or the same hands and `metric` is measured on hands."""
    if same is None:
        return False
    return same.identical or (same.same_hands and not metric.key.startswith("match_"))


def verdicts(
    result: Result, same: Sequence[Sameness] = (), margins: Mapping[str, float] | None = None
) -> list[PairVerdict]:
    """The verdict on every paired metric of every pair, pair by pair. `same`, when given,
    is the analysis of each pair of `spec.pairs`, in order: what it proves alike is the
    same whatever was played."""
    count = range(len(result.spec.pairs))
    return [v for pair in count for v in pair_verdicts(result, pair, same, margins)]


def pair_verdicts(
    result: Result,
    pair: int,
    same: Sequence[Sameness] = (),
    margins: Mapping[str, float] | None = None,
) -> list[PairVerdict]:
    """The verdict on every paired metric of pair number `pair`, as `verdicts` gives it."""
    labels = result.spec.labels
    a, b = result.spec.pairs[pair]
    proof = same[pair] if same else None
    found = []
    for m in judged_metrics(result):
        estimate = judged_estimate(result, pair, m)
        if estimate is None:
            continue
        margin = margin_of(m, margins or {})
        judged = proven(margin) if _proved(proof, m) else judge(estimate, margin)
        found.append(PairVerdict(labels[b], labels[a], m, judged))
    return found


def judged_metrics(result: Result) -> list[Metric]:
    """The metrics that get verdicts: every one, or under `--until-decided` those asked for."""
    stopping = result.stopping
    if stopping is None:
        return metrics(result)
    return [m for m in metrics(result) if m.name in stopping.metrics]


def judged_estimate(result: Result, pair: int, metric: Metric) -> Estimate | None:
    """The difference a verdict reads: its 95% interval, or under `--until-decided` its
    confidence sequence."""
    stopping = result.stopping
    if stopping is None or not paired(result, metric):
        return pair_estimate(result, pair, metric)
    tally = (result.good_pairs if metric.good else result.pairs)[pair]
    return stopping.estimate(*tally.observations(metric.key), tally.cluster)


def decided(
    result: Result, same: Sequence[Sameness] = (), margins: Mapping[str, float] | None = None
) -> bool:
    """Whether every verdict is other than undecided."""
    return all(v.judged.verdict is not Verdict.UNDECIDED for v in verdicts(result, same, margins))


def stopping_line(
    result: Result, same: Sequence[Sameness] = (), margins: Mapping[str, float] | None = None
) -> str | None:
    """Where a run under `--until-decided` stopped, and why; None for a run of a fixed size."""
    stopping = result.stopping
    if stopping is None:
        return None
    rounds = f"{stopping.rounds} round{'' if stopping.rounds == 1 else 's'}"
    played = f"{stopping.units:,} hands in {rounds}"
    if stopping.decided:
        return f"stopped after {played}: every measure decided (alpha {stopping.alpha:g})"
    left = sum(v.judged.verdict is Verdict.UNDECIDED for v in verdicts(result, same, margins))
    if result.interrupted:
        return f"interrupted after {played}, with {_measures(left)} undecided"
    return f"stopped at --max-hands {stopping.max_units:,}, with {_measures(left)} undecided"


def histogram(result: Result, index: int) -> dict[int, int]:
    return dict(sorted(_source(result, index, "tricks").distribution("tricks").items()))


def _estimate_json(e: Estimate) -> dict[str, float]:
    return {"mean": e.mean, "low": e.low, "high": e.high, "n": e.n}


def to_json(
    result: Result,
    same: Sequence[Sameness] = (),
    margins: Mapping[str, float] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """The result: each metric's name, label, whether it is a share and its margin, in
    reading order; each profile's estimates and hand lengths; each pair's differences, the
    verdicts on them (with `margins` by metric name, where given) and those verdicts in
    words as the text says them (`summary`). `same`, the analysis of each pair (differing
    options that never act, identical games), adds what it says as `sameness` and the
    verdicts it proves. `extra` (`compare --attribute`'s) is added as it is."""
    spec = result.spec
    labels = spec.labels
    given = margins or {}
    data: dict[str, Any] = {
        "players": spec.players,
        "units": result.units.n,
        "unit": "match" if spec.matches else "hand",
        "seed": spec.seed,
        "rotate_seats": spec.rotate,
        "bots": list(spec.seat_bots()),
        "good_play": spec.good_play,
        "interrupted": result.interrupted,
        "baseline": labels[spec.baseline] if spec.pairs and not spec.all_pairs else None,
        "metrics": [
            {"name": m.name, "label": m.label, "share": m.share, "margin": margin_of(m, given)}
            for m in metrics(result)
        ],
        "profiles": {},
        "pairs": [],
    }
    for index, label in enumerate(labels):
        data["profiles"][label] = {
            "metrics": {
                m.name: _estimate_json(profile_estimate(result, index, m)) for m in metrics(result)
            },
            "hand_length": histogram(result, index),
        }
        if (found := match_wins(result, index)) is not None:
            data["profiles"][label]["match_wins"] = dataclasses.asdict(found)
    for pair, (a, b) in enumerate(spec.pairs):
        diffs = {}
        for m in metrics(result):
            estimate = pair_estimate(result, pair, m)
            if estimate is not None:
                diffs[m.name] = {**_estimate_json(estimate), "clear": estimate.clear_of_zero}
        data["pairs"].append({"a": labels[a], "b": labels[b], "b_minus_a": diffs})
    data["verdicts"] = [found.to_dict() for found in verdicts(result, same, given)]
    data["summary"] = verdict_lines(result, same, given)
    data["sameness"] = [pair.to_dict() for pair in same]
    if result.stopping is not None:
        data["stopping"] = result.stopping.to_dict()
    data.update(extra or {})
    return json.dumps(data, indent=2)


def to_csv(
    result: Result,
    same: Sequence[Sameness] = (),
    margins: Mapping[str, float] | None = None,
    more: Sequence[Sequence[object]] = (),
) -> str:
    """One row per estimate; a `verdict` row per difference, in its columns (`other` minus
    `profile`), the verdict as `note` and as `n` the hands it took (or would take); then,
    from `same`, a `never_acts` row per differing option that never acts (the option as
    its metric), an `identical` row per pair of profiles that play identical games, and a
    `same_hands` row per pair that play the same hands under other match rules, each with
    its sentence as `note`; under `--until-decided`, a `stopping` row: the measures asked
    for as its metric, the hands played as `n`, whether all were decided as `clear` and
    where it stopped as `note`; then the rows `more` (`compare --attribute`'s)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["kind", "profile", "other", "metric", "mean", "low", "high", "n", "clear", "note"]
    writer.writerow(header)
    labels = result.spec.labels
    for index, label in enumerate(labels):
        for m in metrics(result):
            e = profile_estimate(result, index, m)
            writer.writerow(["profile", label, "", m.name, e.mean, e.low, e.high, e.n, "", ""])
    for pair, (a, b) in enumerate(result.spec.pairs):
        for m in metrics(result):
            e = pair_estimate(result, pair, m)
            if e is not None:
                writer.writerow(
                    [
                        "difference",
                        labels[a],
                        labels[b],
                        m.name,
                        e.mean,
                        e.low,
                        e.high,
                        e.n,
                        e.clear_of_zero,
                        "",
                    ]
                )
    for found in verdicts(result, same, margins):
        d = found.judged.difference
        row = [found.baseline, found.profile, found.metric.name, d.mean, d.low, d.high]
        writer.writerow(["verdict", *row, found.judged.hands, "", found.judged.verdict])
    for pair in same:
        blank = [""] * 5
        for name in pair.dead:
            writer.writerow(
                ["never_acts", pair.first, pair.second, name, *blank, pair.dead_note(name)]
            )
        if pair.identical:
            writer.writerow(["identical", pair.first, pair.second, "", *blank, pair.identical_note])
        elif pair.same_hands:
            row = ["same_hands", pair.first, pair.second, "", *blank, pair.same_hands_note]
            writer.writerow(row)
    stopped = result.stopping
    if stopped is not None:
        said = stopping_line(result, same, margins)
        row = ["stopping", "", "", ",".join(stopped.metrics), "", "", "", stopped.units]
        writer.writerow([*row, stopped.decided, said])
    writer.writerows(more)
    return out.getvalue()


def figures(e: Estimate, share: bool, sign: str = "") -> tuple[str, str]:
    """The mean and `low..high`; a share's mean is a percentage and its interval in points
    (`25.1%`, `24.5..25.7`); `sign="+"` signs every figure."""
    if e.n == 0:
        return "-", ""
    if share:
        low, high = (f"{100 * x:{sign}.1f}" for x in (e.low, e.high))
        return f"{e.mean:{sign}.1%}", f"{low}..{high}"
    return f"{e.mean:{sign}.3g}", f"{e.low:{sign}.3g}..{e.high:{sign}.3g}"


def _cell(e: Estimate, share: bool) -> str:
    """`mean (low..high)`."""
    mean, interval = figures(e, share)
    return f"{mean} ({interval})" if interval else mean


@dataclass(frozen=True)
class MatchWins:
    """A profile's match win shares added over the seats; `shared` when they pass 100%,
    as tied players all win the match."""

    total: float
    shared: bool


def match_wins(result: Result, index: int) -> MatchWins | None:
    """The match wins of profile `index`; None when hands, not matches, were played."""
    if not result.spec.matches:
        return None
    tally = result.profiles[index]
    wins = sum(tally.total(f"match_win_seat_{r}") for r in range(result.spec.players))
    return MatchWins(wins / tally.n if tally.n else 0.0, wins > tally.n)


def shared_wins_note(result: Result) -> str | None:
    """A footnote naming the profiles whose match win shares add up to more than 100%."""
    totals = [
        f"{label} {found.total:.1%}"
        for index, label in enumerate(result.spec.labels)
        if (found := match_wins(result, index)) is not None and found.shared
    ]
    if not totals:
        return None
    return (
        "Match win shares add up to more than 100% where players tie for a match win, "
        f"each counted as a winner: {', '.join(totals)}."
    )


def verdict_lines(
    result: Result, same: Sequence[Sameness] = (), margins: Mapping[str, float] | None = None
) -> list[str]:
    """The verdicts in words: under `--until-decided`, where it stopped and why; then pair
    by pair each measure that differs and each the same within its margin, a line each; a
    line counting those equal on every deal and one counting those proven the same; then
    each undecided, with about how many hands (or matches) would decide it. No verdict,
    before a hand is played."""
    unit = "matches" if result.spec.matches else "hands"
    count = range(len(result.spec.pairs) if result.units.n else 0)
    stopped = stopping_line(result, same, margins)
    return [*([stopped] if stopped else [])] + [
        line
        for pair in count
        for line in _pair_verdicts(pair_verdicts(result, pair, same, margins), unit)
    ]


GROUNDS = {
    Ground.EVERY_DEAL: "{b}: equal to {a} on every deal in {n}",
    Ground.PROVEN: "{b}: the same as {a} in {n}, proven before play",
}
"""The line counting a pair's measures found the same on a ground other than an interval."""


def _pair_verdicts(pair: Sequence[PairVerdict], unit: str) -> list[str]:
    """The lines of `verdict_lines` for one pair."""
    lines = [_differs(v) for v in pair if v.judged.verdict in (Verdict.HIGHER, Verdict.LOWER)]
    lines += [
        _within(v)
        for v in pair
        if v.judged.verdict is Verdict.SAME and v.judged.ground is Ground.PLAYED
    ]
    for ground, said in GROUNDS.items():
        count = sum(v.judged.ground is ground for v in pair)
        if count:
            lines.append(said.format(b=pair[0].profile, a=pair[0].baseline, n=_measures(count)))
    return lines + [_undecided(v, unit) for v in pair if v.judged.verdict is Verdict.UNDECIDED]


def _differs(v: PairVerdict) -> str:
    """`B: hand length (tricks) 0.44 lower than A (0.40..0.48)`."""
    d = v.judged.difference
    size = d if v.judged.verdict is Verdict.HIGHER else Estimate(-d.mean, -d.high, -d.low, d.n)
    mean, interval = figures(size, v.metric.share)
    return f"{v.profile}: {v.metric.label} {mean} {v.judged.verdict} than {v.baseline} ({interval})"


def _within(v: PairVerdict) -> str:
    """`B: hand length (tricks) the same as A within 0.05 (-0.02..+0.01)`."""
    _, interval = figures(v.judged.difference, v.metric.share, "+")
    margin = v.judged.margin
    points = f"{100 * margin:.3g}"
    size = f"{points} point{'' if points == '1' else 's'}" if v.metric.share else f"{margin:.3g}"
    return f"{v.profile}: {v.metric.label} the same as {v.baseline} within {size} ({interval})"


def _undecided(v: PairVerdict, unit: str) -> str:
    """`B: stock left against A: about 4,900 hands would decide it, now +0.03 (-0.01..+0.07)`."""
    mean, interval = figures(v.judged.difference, v.metric.share, "+")
    hands = v.judged.hands
    need = f"about {_about(hands):,}" if hands is not None else "no number of"
    return (
        f"{v.profile}: {v.metric.label} against {v.baseline}: {need} {unit} would decide it, "
        f"now {mean} ({interval})"
    )


def _measures(count: int) -> str:
    return f"{count} measure{'' if count == 1 else 's'}"


def _about(count: int) -> int:
    """`count` rounded up to two significant figures."""
    step = 10 ** max(0, len(str(count)) - 2)
    return -(-count // step) * step


def render(
    result: Result,
    page: Page,
    same: Sequence[Sameness] = (),
    margins: Mapping[str, float] | None = None,
) -> str:
    """The report as text for `page`: the verdicts in words (`verdict_lines`); one column
    per profile while they fit, else one block per profile; then one block of paired
    differences per pair."""
    return page.render(_parts(result, page, verdict_lines(result, same, margins)))


def _parts(result: Result, page: Page, summary: Sequence[str]) -> list[Any]:
    spec = result.spec
    unit = "matches" if spec.matches else "hands"
    title = (
        f"{result.units.n:,} paired {unit}, {spec.players} players, bots "
        f"{','.join(spec.seat_bots())}, seed {spec.seed}"
        + (", each deal from every seat" if spec.rotate else "")
        + (" (interrupted)" if result.interrupted else "")
    )
    said = [text("\n".join(wrap(line, page.width, "", "  "))) for line in summary]
    parts: list[Any] = [text(title), *said, *([""] if summary else [])]
    count = range(len(spec.labels))
    rows = [
        [m.label, *(_cell(profile_estimate(result, i, m), m.share) for i in count)]
        for m in metrics(result)
    ]
    wide = page.table(["metric (mean, 95% interval)", *spec.labels], rows)
    if wide is not None:
        parts.append(wide)
    else:
        for index, label in enumerate(spec.labels):
            cells = [
                [m.label, *figures(profile_estimate(result, index, m), m.share)]
                for m in metrics(result)
            ]
            parts += ["", text(label), _block(page, ["metric", "mean", "95% interval"], cells)]
    note = shared_wins_note(result)
    if note is not None:
        parts.append(text(note))
    for pair in range(len(spec.pairs)):
        parts += ["", *_pair_parts(result, page, pair)]
    return parts


def _block(page: Page, headers: list[str], rows: list[list[str]]) -> Any:
    """A table for one profile or pair; at a width too narrow even for it, one line a cell."""
    table = page.table(headers, rows)
    if table is not None:
        return table
    return text("\n".join("  ".join(cell for cell in row if cell) for row in rows))


def _pair_parts(result: Result, page: Page, pair: int) -> list[Any]:
    """Pair B - A: the metrics that differ on some deal; the others are counted."""
    spec = result.spec
    a, b = spec.pairs[pair]
    rows, equal = [], 0
    for m in metrics(result):
        estimate = pair_estimate(result, pair, m)
        if estimate is None:
            continue
        if estimate.low == estimate.high == 0:
            equal += 1
            continue
        mean, interval = figures(estimate, m.share, "+")
        rows.append([m.label, mean, interval + (" *" if estimate.clear_of_zero else "")])
    heading = f"{spec.labels[b]} - {spec.labels[a]}, paired (95% intervals; * clear of zero)"
    parts: list[Any] = [text(heading)]
    if rows:
        parts.append(_block(page, ["metric", "B - A", "95% interval"], rows))
    parts.append(text(f"{equal} more metrics equal on every deal"))
    return parts
