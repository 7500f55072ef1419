"""Which rule caused what: each measured difference between two profiles split among the
options and stated rules in which they differ, as Shapley values.

A and B differ in parts: an option set otherwise, a rule one of them states (a rule both
state otherwise is one part, taken away and added). Every profile on the way, A with some
of the parts made as B has them, plays the same deals (`sim.deal_keys`). A part's effect
on a measure is its marginal effect, the profile with it less the profile without it,
averaged over the orders in which the parts could be made: over every order for up to
MOST_EXACT parts (the Shapley value), over ORDERS orders drawn from the seed beyond. On each
deal the effects of the parts add up to B's value less A's, so their means add up to the
measured difference exactly. The interval of an effect is over the deals (the orders drawn
are fixed by the seed). A part the analysis proves never to act in every profile on the
way (checked for up to MOST_EXACT parts) gets zero without play.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import REASONS
from rulesdsl.reason.analysis.sameness import (
    RuleChange,
    RuleEdit,
    Sameness,
    apply,
    edits,
    never_acts,
)
from rulesdsl.reason.estimate import Estimate
from rulesdsl.reason.sim import NUMBERS, Spec, deal_keys

MOST_EXACT = 6
"""The most parts whose effects are averaged over every order (2**6 profiles played)."""
ORDERS = 32
"""The orders drawn beyond MOST_EXACT parts."""


@dataclass(frozen=True)
class Part:
    """A rule in which A and B differ, and the changes that make it as B has it."""

    name: str
    edits: tuple[RuleEdit, ...]


@dataclass(frozen=True)
class Effect:
    """A part's share of the difference in one measure (B less A), with its interval."""

    metric: str
    rule: str
    effect: Estimate
    proven_idle: bool = False


@dataclass(frozen=True)
class Attribution:
    """The difference in each measure between A and B, and its split among the parts."""

    first: str
    second: str
    exact: bool  # every order of the parts, else ORDERS of them
    profiles: int  # the profiles played on the way
    totals: dict[str, Estimate]
    effects: tuple[Effect, ...]


def parts(a: Rules, b: Rules) -> list[Part]:
    """The parts in which `a` and `b` differ, in the order of their first change."""
    grouped: dict[str, list[RuleEdit]] = {}
    for edit in edits(a, b):
        grouped.setdefault(edit.name, []).append(edit)
    return [Part(name, tuple(found)) for name, found in grouped.items()]


def on_the_way(a: Rules, b: Rules, made: frozenset[str]) -> Rules:
    """`a` with the parts named in `made` as `b` has them."""
    rules = a
    for edit in edits(a, b):
        if edit.name in made:
            rules = apply(rules, edit, b)
    return rules


def measures(players: int) -> dict[str, Callable[[Any], Any]]:
    """The measures split, by name: each a function of `deal_keys` rows to a value a deal."""
    found: dict[str, Callable[[Any], Any]] = {
        f"win_seat_{r}": (lambda k, r=r: k[:, 0] == r) for r in range(players)
    }
    found["no_winner"] = lambda k: k[:, 0] == -1
    found |= {f"end_{reason}": (lambda k, i=i: k[:, 1] == i) for i, reason in enumerate(REASONS)}
    found |= {name: (lambda k, c=2 + i: k[:, c]) for i, name in enumerate(NUMBERS)}
    return found


def weights(names: Sequence[str], seed: int) -> tuple[dict[frozenset[str], dict[str, float]], bool]:
    """For each profile on the way (the parts made), each part's weight in its effect; and
    whether every order is counted."""
    found: dict[frozenset[str], dict[str, float]] = {}

    def add(before: frozenset[str], name: str, weight: float) -> None:
        found.setdefault(before | {name}, {}).setdefault(name, 0.0)
        found.setdefault(before, {}).setdefault(name, 0.0)
        found[before | {name}][name] += weight
        found[before][name] -= weight

    k = len(names)
    exact = k <= MOST_EXACT
    if exact:
        for name in names:
            others = [n for n in names if n != name]
            for size in range(k):
                weight = math.factorial(size) * math.factorial(k - size - 1) / math.factorial(k)
                for before in itertools.combinations(others, size):
                    add(frozenset(before), name, weight)
    else:
        stream = Stream(derive(seed, "attribution orders", *names))
        for _ in range(ORDERS):
            order = list(names)
            shuffle(order, stream)
            for place, name in enumerate(order):
                add(frozenset(order[:place]), name, 1 / ORDERS)
    return found, exact


def idle_parts(a: Rules, b: Rules, proven: frozenset[str], players: int) -> set[str]:
    """The parts of `proven` (those the analysis proved never to act on the way from A to
    B) proved never to act in every profile on the way, with any of the other parts made:
    checked where there are at most MOST_EXACT parts; beyond, none is taken as idle."""
    found = parts(a, b)
    if len(found) > MOST_EXACT:
        return set()
    names = [p.name for p in found]
    return {p.name for p in found if p.name in proven and _idle(a, b, p, names, players)}


def _idle(a: Rules, b: Rules, part: Part, names: Sequence[str], players: int) -> bool:
    if len(part.edits) != 1:
        return False
    (edit,) = part.edits
    others = [n for n in names if n != part.name]
    for size in range(len(others) + 1):
        for made in itertools.combinations(others, size):
            before = frozenset(made)
            change = RuleChange(
                part.name,
                edit.kind,
                edit.between_hands,
                on_the_way(a, b, before),
                on_the_way(a, b, before | {part.name}),
            )
            if not never_acts(change, players):
                return False
    return True


def attribute(
    first: tuple[str, Rules], second: tuple[str, Rules], spec: Spec, proven: frozenset[str]
) -> Attribution:
    """The split of each measure's difference between `first` and `second`, on the deals,
    bots and seed of `spec`; `proven` names the parts the analysis proved idle on the way
    from A to B, the only ones checked for being idle everywhere."""
    (label_a, a), (label_b, b) = first, second
    names = [p.name for p in parts(a, b)]
    idle = idle_parts(a, b, proven, spec.players)
    played = [n for n in names if n not in idle]
    plan, exact = weights(played, spec.seed)
    ways = sorted(plan, key=lambda m: (len(m), sorted(m)))
    profiles = tuple((f"{label_a}+{'+'.join(sorted(m))}", on_the_way(a, b, m)) for m in ways)
    keys = deal_keys(dataclasses.replace(spec, profiles=profiles)) if played else []
    totals, effects = {}, []
    for metric, value in measures(spec.players).items():
        values = {m: value(k).astype(float) for m, k in zip(ways, keys, strict=True)}
        totals[metric] = _difference(values, frozenset(played), spec.units)
        for name in names:
            if name in idle:
                effects.append(Effect(metric, name, _none(spec.units), proven_idle=True))
            else:
                per_deal = sum(w[name] * values[m] for m, w in plan.items() if name in w)
                effects.append(Effect(metric, name, _estimate(per_deal)))
    return Attribution(label_a, label_b, exact, len(ways), totals, tuple(effects))


def _difference(values: dict[frozenset[str], Any], everything: frozenset[str], n: int) -> Estimate:
    """B's value less A's; none where every part is idle (B plays A's hands)."""
    if not everything:
        return _none(n)
    return _estimate(values[everything] - values[frozenset()])


def _none(n: int) -> Estimate:
    return Estimate(0.0, 0.0, 0.0, n)


def _estimate(values: Any) -> Estimate:
    return Estimate.of(len(values), float(values.sum()), float((values * values).sum()))


def attributions(spec: Spec, same: Sequence[Sameness], hands: int) -> list[Attribution]:
    """The split of each pair of `spec` (`same`, the analysis of each), on its first
    `hands` deals, its bots and its seed, as plain play (without the skill gap, good play
    or seat rotation: each deal's hands apart, as the intervals here read them)."""
    plain = dataclasses.replace(
        spec, skill=False, good_play=None, first=0, units=hands, rotate=False
    )
    return [
        attribute(spec.profiles[a], spec.profiles[b], plain, frozenset(pair.dead))
        for (a, b), pair in zip(spec.pairs, same, strict=True)
    ]
