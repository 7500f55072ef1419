"""`--plot`: what a comparison found, as a figure for a paper. On the left a forest plot,
one panel a measure: each profile's difference from the baseline with its 95% interval,
around a line at zero; on the right the hand lengths of each profile, on whole tricks.
Profiles the analysis proves to play the same hands are drawn once and named together
(`A = B`); measures equal on every deal are left out and counted below the figure; the
legend stands outside the data. A simulation of one profile draws its estimates instead
of differences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.reason.analysis.sameness import Sameness
from rulesdsl.reason.sim import Estimate, Result
from rulesdsl.words.report import Metric, histogram, metrics, pair_estimate, profile_estimate

PANEL_INCHES = 0.6, 0.22
"""The height of a measure's panel: its axis, and each profile drawn in it."""


@dataclass(frozen=True)
class Group:
    """Profiles that play the same hands, drawn once: their indices, the first drawn."""

    members: tuple[int, ...]

    def name(self, labels: Sequence[str]) -> str:
        return " = ".join(labels[i] for i in self.members)


@dataclass(frozen=True)
class Row:
    """A measure's panel: each group's estimate (a difference, or a value alone)."""

    metric: Metric
    estimates: tuple[Estimate, ...]


def groups(result: Result, same: Sequence[Sameness]) -> list[Group]:
    """The profiles in groups that play the same hands (the same matches, under
    `--matches`), as `same` proves, in the order given; the baseline's first."""
    spec = result.spec
    labels = spec.labels
    parent = list(range(len(labels)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for pair in same:
        if pair.identical or (pair.same_hands and not spec.matches):
            a, b = root(labels.index(pair.first)), root(labels.index(pair.second))
            parent[max(a, b)] = min(a, b)
    found: dict[int, list[int]] = {}
    for i in range(len(labels)):
        found.setdefault(root(i), []).append(i)
    drawn = [Group(tuple(members)) for members in found.values()]
    reference = reference_of(result)
    return sorted(drawn, key=lambda g: reference not in g.members)


def reference_of(result: Result) -> int:
    """The profile the differences are from: the baseline (the first under all pairs)."""
    return 0 if result.spec.all_pairs else result.spec.baseline


def difference(result: Result, metric: Metric, group: Group) -> Estimate | None:
    """The group's first profile less the reference, where it is paired."""
    reference = reference_of(result)
    first = group.members[0]
    for pair, (a, b) in enumerate(result.spec.pairs):
        if (a, b) == (reference, first):
            return pair_estimate(result, pair, metric)
    return None


def rows(result: Result, drawn: Sequence[Group]) -> tuple[list[Row], int]:
    """The panels to draw, and how many measures are left out as equal on every deal."""
    found, equal = [], 0
    compared = drawn[1:]
    for metric in metrics(result):
        if not compared:
            estimates = [profile_estimate(result, g.members[0], metric) for g in drawn]
        else:
            estimates = [difference(result, metric, g) for g in compared]
        if any(e is None for e in estimates):
            continue
        kept = tuple(e for e in estimates if e is not None)
        if compared and all(e.low == e.high == 0 for e in kept):
            equal += 1
            continue
        found.append(Row(metric, kept))
    return found, equal


def plot(result: Result, path: str, same: Sequence[Sameness] = ()) -> None:
    """Draw the comparison (see the module's docstring) to PNG or SVG at `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    labels = result.spec.labels
    drawn = groups(result, same)
    panels, equal = rows(result, drawn)
    shown = drawn[1:] if len(drawn) > 1 else drawn
    colours = [f"C{k}" for k in range(len(drawn))]
    axis, each = PANEL_INCHES
    height = max(3.0, sum(axis + each * len(r.estimates) for r in panels))
    fig = plt.figure(figsize=(12, height))
    grid = fig.add_gridspec(max(len(panels), 1), 2, width_ratios=(3, 2), wspace=0.6, hspace=1.2)
    for k, row in enumerate(panels):
        axes = fig.add_subplot(grid[k, 0])
        _panel(axes, row, colours[len(drawn) - len(shown) :], len(drawn) > 1)
        axes.xaxis.set_major_locator(MaxNLocator(nbins=4))
        if len(drawn) > 1:
            axes.axvline(0, color="0.5", linewidth=0.8)
    if panels and len(drawn) > 1:
        reference = drawn[0].name(labels)
        fig.axes[0].set_title(f"difference from {reference}, 95% intervals", loc="left")
    lengths = fig.add_subplot(grid[:, 1])
    for colour, group in zip(colours, drawn, strict=True):
        counts = histogram(result, group.members[0])
        total = sum(counts.values()) or 1
        lengths.step(list(counts), [c / total for c in counts.values()], where="mid", color=colour)
    lengths.xaxis.set_major_locator(MaxNLocator(integer=True))
    lengths.set_title("hand length")
    lengths.set_xlabel("tricks")
    lengths.set_ylabel("share of hands")
    handles = [plt.Line2D([], [], color=c, marker="o") for c in colours]
    names = [g.name(labels) for g in drawn]
    lengths.legend(handles, names, loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    if equal:
        lengths.text(
            0,
            -0.08,
            f"{equal} more measures equal on every deal, not drawn",
            transform=lengths.transAxes,
            va="top",
        )
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def _panel(axes: Any, row: Row, colours: Sequence[str], differences: bool) -> None:
    """One measure: each estimate as a point on its interval, a row each; a share's
    difference in percentage points."""
    for y, (estimate, colour) in enumerate(zip(row.estimates, colours, strict=True)):
        error = [[estimate.mean - estimate.low], [estimate.high - estimate.mean]]
        axes.errorbar(estimate.mean, y, xerr=error, fmt="o", color=colour, capsize=3)
    axes.set_ylim(-0.7, len(row.estimates) - 0.3)
    from matplotlib.ticker import FuncFormatter

    axes.set_yticks([])
    axes.set_ylabel(row.metric.label, rotation=0, ha="right", va="center")
    scale = 100 if row.metric.share else 1
    unit = (" pp" if differences else "%") if row.metric.share else ""
    axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x * scale:g}{unit}"))
