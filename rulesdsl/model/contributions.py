"""The rule model: what every rule of a profile contributes to the steps of a trick.

The options (the rule units) and the rules a profile states are one list of contributions,
each naming its rule and its step. A step composes them as `COMPOSITION` says: play
filters and end checks act in order, the options' first and then the profile's own in the
order written; at any other step one rule decides. A rule the profile states at such a
step (a draw count, a score) takes it over from the option that holds it: the option
*is replaced*, and every tool that reasons about rules reads that here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.rules import PROFILES_KEPT, UNITS, Rules
from rulesdsl.model.units.base import COMPOSITION, Composition, Step, Unit


@dataclass(frozen=True)
class Contribution:
    """One rule's part in one step: its function there; for a rule the profile states at a
    step where one rule decides, the option it replaces, and for that option, the rule it
    is replaced by (its part then does not act)."""

    rule: str
    step: Step
    function: Any
    stated: bool = False
    replaces: str | None = None
    replaced_by: str | None = None


HOLDERS: dict[Step, Unit] = {
    step: unit
    for unit in UNITS
    for step in unit.steps
    if COMPOSITION[step] is Composition.EXCLUSIVE
}
"""The option that decides each step where one rule decides (the registry refuses a
second)."""


@dataclass(frozen=True)
class Model:
    """A profile's rules as contributions, step by step."""

    rules: Rules
    contributions: tuple[Contribution, ...]

    def at(self, step: Step) -> tuple[Contribution, ...]:
        """The contributions that act at `step`, in the order they act."""
        return tuple(c for c in self.contributions if c.step is step and not c.replaced_by)

    def option_at(self, step: Step) -> Contribution | None:
        """The option's own contribution to `step`, acting or replaced; None where the
        option's value keeps the fixed order of a trick there."""
        return next((c for c in self.contributions if c.step is step and not c.stated), None)

    @property
    def replaced(self) -> dict[str, str]:
        """Each option a rule the profile states replaces, with that rule's name."""
        return {c.replaces: c.rule for c in self.contributions if c.replaces}

    def qualifies(self, rule: HouseRule) -> tuple[str, ...]:
        """The options that act at the steps where a filter or end rule of the profile
        also acts: the rule adds to what they say."""
        steps = set(rule.step_names)
        return tuple(
            unit.name
            for unit in UNITS
            if any(COMPOSITION[s] is Composition.ORDERED for s in unit.steps & steps)
        )


def _contributions(rules: Rules) -> Iterator[Contribution]:
    steps = {rule.name: rule.steps_for(rules.rank_strength) for rule in rules.house_rules}
    stated_at = {step: rule for rule in reversed(rules.house_rules) for step in steps[rule.name]}
    for unit in UNITS:
        for step, fn in unit.plays(getattr(rules, unit.name)).items():
            taker = stated_at.get(step) if COMPOSITION[step] is Composition.EXCLUSIVE else None
            yield Contribution(unit.name, step, fn, replaced_by=taker and taker.name)
    for rule in rules.house_rules:
        for step, fn in steps[rule.name].items():
            holder = HOLDERS.get(step)
            exclusive = COMPOSITION[step] is Composition.EXCLUSIVE
            replaces = holder.name if exclusive and holder is not None else None
            first = stated_at[step] if exclusive else rule
            taker = None if first is rule else first.name
            yield Contribution(
                rule.name, step, fn, stated=True, replaces=replaces, replaced_by=taker
            )


@lru_cache(maxsize=PROFILES_KEPT)
def model(rules: Rules) -> Model:
    """The rule model of `rules`."""
    return Model(rules, tuple(_contributions(rules)))
