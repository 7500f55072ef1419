"""`compare --attribute` in words, JSON and CSV: each difference between a profile and its
baseline split among the rules in which they differ (`rulesdsl.reason.attribution`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesdsl.reason.attribution import MOST_EXACT, ORDERS, Attribution, Effect
from rulesdsl.reason.sim import Spec
from rulesdsl.words.report import Metric, figures, measured


def _metrics(spec: Spec) -> dict[str, Metric]:
    return {m.key: m for m in measured(spec) if not m.good}


def heading(found: Attribution) -> str:
    """What was played to split the differences of `found`."""
    count = len({e.rule for e in found.effects if not e.proven_idle})
    acting = f"the {count} rules that act" if count != 1 else "the 1 rule that acts"
    orders = (
        f"every order of {acting}"
        if found.exact
        else f"{ORDERS} orders, drawn from the seed, of {acting} (every order up to {MOST_EXACT})"
    )
    return (
        f"which rule caused what, {found.second} against {found.first}: Shapley values over "
        f"{orders}, {found.profiles} profiles on the same deals; 95% intervals"
    )


def lines(found: Attribution, spec: Spec) -> list[str]:
    """The heading; a line for each measure whose difference is clear of zero, its parts
    largest first; the rules proved never to act; how many measures did not differ."""
    metrics = _metrics(spec)
    said = [heading(found)]
    quiet = 0
    for key, total in found.totals.items():
        if not total.clear_of_zero:
            quiet += 1
            continue
        metric = metrics[key]
        mean, interval = figures(total, metric.share, "+")
        acting = [e for e in found.effects if e.metric == key and not e.proven_idle]
        acting.sort(key=lambda e: -abs(e.effect.mean))
        split = ", ".join(_part(e, metric.share) for e in acting)
        said.append(f"  {metric.label}: {mean} ({interval}) = {split}")
    idle = sorted({e.rule for e in found.effects if e.proven_idle})
    if idle:
        said.append(f"  never acts on the way, so 0 in every measure (proved): {', '.join(idle)}")
    if quiet:
        said.append(f"  {quiet} measures with no difference clear of zero to split")
    return said


def _part(effect: Effect, share: bool) -> str:
    mean, interval = figures(effect.effect, share, "+")
    return f"{effect.rule} {mean} ({interval})"


def json_fields(found: Sequence[Attribution], spec: Spec) -> dict[str, Any]:
    """`attribution` in JSON, an object per profile, measure and rule, and
    `attribution_summary`, the lines the text says (which the page shows)."""
    return {
        "attribution": json_items(found),
        "attribution_summary": [line for a in found for line in lines(a, spec)],
    }


def json_items(found: Sequence[Attribution]) -> list[dict[str, Any]]:
    """An object per profile, measure and rule."""
    return [
        {
            "profile": a.second,
            "baseline": a.first,
            "metric": e.metric,
            "rule": e.rule,
            "effect": e.effect.mean,
            "low": e.effect.low,
            "high": e.effect.high,
            "proven_idle": e.proven_idle,
            "exact": a.exact,
        }
        for a in found
        for e in a.effects
    ]


def csv_rows(found: Sequence[Attribution]) -> list[list[object]]:
    """An `attribution` row per profile, measure and rule, in the columns of `to_csv`:
    the rule as `note`."""
    rows: list[list[object]] = []
    for a in found:
        for e in a.effects:
            figures = [e.effect.mean, e.effect.low, e.effect.high, e.effect.n]
            rows.append(["attribution", a.first, a.second, e.metric, *figures])
            rows[-1] += [e.effect.clear_of_zero, e.rule]
    return rows
