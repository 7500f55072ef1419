"""Simulation results as rows, JSON, CSV, a report laid out for a width, and a plot."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesdsl.model.result import EndReason
from rulesdsl.reason.sim import FIRES, Estimate, Result, Tally, covered
from rulesdsl.words.layout import Page, text

if TYPE_CHECKING:
    from rulesdsl.reason.analysis.sameness import Sameness


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    share: bool
    good: bool = False  # measured on the hands under good play

    @property
    def name(self) -> str:
        """The metric's name in JSON and CSV: its key, `good_` first under good play."""
        return f"good_{self.key}" if self.good else self.key


def metrics(result: Result) -> list[Metric]:
    """The metrics a result holds, in reading order, with labels."""
    n = result.spec.players
    rows: list[Metric] = []
    if result.spec.matches:
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
    if result.spec.skill and not result.spec.matches:
        rows.append(Metric("skill", "heuristic vs 3 random: win share", True))
    rows += [Metric(f"{FIRES}{o}", f"hands where {o} fires", True) for o in covered(result.spec)]
    return rows + good_metrics(result)


def good_metrics(result: Result) -> list[Metric]:
    """Under good play (`Spec.good_play`, every seat that bot): the next step of skill,
    seat shares, comebacks and rule coverage."""
    bot = result.spec.good_play
    if bot is None:
        return []
    n = result.spec.players
    rows = [Metric("skill", f"{bot} vs {n - 1} heuristic: win share", True, True)]
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
        for o in covered(result.spec)
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


def pair_estimate(result: Result, pair: int, metric: Metric) -> Estimate | None:
    """The paired difference B - A; None where the metric is not paired (per hand in matches)."""
    if metric.good:
        return result.good_pairs[pair].estimate(metric.key)
    if _per_hand_in_matches(result, metric.key):
        return None
    return result.pairs[pair].estimate(metric.key)


def histogram(result: Result, index: int) -> dict[int, int]:
    return dict(sorted(_source(result, index, "tricks").distribution("tricks").items()))


def _estimate_json(e: Estimate) -> dict[str, float]:
    return {"mean": e.mean, "low": e.low, "high": e.high, "n": e.n}


def to_json(result: Result, same: Sequence[Sameness] = ()) -> str:
    """The result: each metric's name, label and whether it is a share, in reading order;
    each profile's estimates and hand lengths; each pair's differences. `same` adds what
    the analysis says of each pair before the table (differing options that never act,
    identical games) as `sameness`."""
    spec = result.spec
    labels = spec.labels
    data: dict[str, Any] = {
        "players": spec.players,
        "units": result.units.n,
        "unit": "match" if spec.matches else "hand",
        "seed": spec.seed,
        "bots": list(spec.seat_bots()),
        "good_play": spec.good_play,
        "interrupted": result.interrupted,
        "metrics": [{"name": m.name, "label": m.label, "share": m.share} for m in metrics(result)],
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
    data["sameness"] = [pair.to_dict() for pair in same]
    return json.dumps(data, indent=2)


def to_csv(result: Result, same: Sequence[Sameness] = ()) -> str:
    """One row per estimate; then, from `same`, a `never_acts` row per differing option
    that never acts (the option as its metric), an `identical` row per pair of profiles
    that play identical games, and a `same_hands` row per pair that play the same hands
    under other match rules, each with its sentence as `note`."""
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


def render(result: Result, page: Page) -> str:
    """The report as text for `page`: one column per profile while they fit, else one block
    per profile; then one block of paired differences per pair."""
    return page.render(_parts(result, page))


def _parts(result: Result, page: Page) -> list[Any]:
    spec = result.spec
    unit = "matches" if spec.matches else "hands"
    title = (
        f"{result.units.n:,} paired {unit}, {spec.players} players, bots "
        f"{','.join(spec.seat_bots())}, seed {spec.seed}"
        + (" (interrupted)" if result.interrupted else "")
    )
    parts: list[Any] = [text(title)]
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


def plot(result: Result, path: str) -> None:
    """Seat win shares and hand-length distributions, side by side, to PNG or SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spec = result.spec
    fig, (seats, lengths) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(spec.labels)
    for index, label in enumerate(spec.labels):
        shares = [
            profile_estimate(result, index, Metric(f"win_seat_{r}", "", True))
            for r in range(spec.players)
        ]
        xs = [r + index * width for r in range(spec.players)]
        seats.bar(
            xs,
            [e.mean for e in shares],
            width,
            label=label,
            yerr=[[e.mean - e.low for e in shares], [e.high - e.mean for e in shares]],
        )
        counts = histogram(result, index)
        total = sum(counts.values()) or 1
        lengths.step(list(counts), [c / total for c in counts.values()], where="mid", label=label)
    seats.set_xticks(
        [r + 0.4 - width / 2 for r in range(spec.players)],
        [_seat(r).split(" ")[0] for r in range(spec.players)],
    )
    seats.set_title("win share by seat, relative to the dealer")
    seats.set_ylabel("share of hands won")
    lengths.set_title("hand length")
    lengths.set_xlabel("tricks")
    lengths.set_ylabel("share of hands")
    for axes in (seats, lengths):
        axes.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
