"""A profile's Plan: the step functions its rule units contribute, for the skeleton."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from rulesdsl.engine import steps
from rulesdsl.engine.result import EndReason
from rulesdsl.engine.steps import Plan, PlayRule, Refill
from rulesdsl.house.unit import HouseRule, at_step
from rulesdsl.rules import Rules
from rulesdsl.units import CORE, COUNTED, UNITS, Step

FIRED_BITS = {name: 1 << i for i, name in enumerate(COUNTED)}
"""Each counted rule's bit in `State.fired`."""

FIRED_NAMES = tuple(
    frozenset(name for name, bit in FIRED_BITS.items() if bits & bit)
    for bits in range(1 << len(COUNTED))
)
"""The names of the rules that fired, for each set of bits of the options."""

HOUSE_SHIFT = len(COUNTED)
"""The bit of the profile's own rule number i in `State.fired` is 1 << (HOUSE_SHIFT + i)."""


class FiredNames(dict[int, frozenset[str]]):
    """The names of the rules that fired, options' and the profile's own, for each set of
    bits in `State.fired`; made as asked, as the profile's rules may be many."""

    def __init__(self, house: tuple[HouseRule, ...]) -> None:
        super().__init__()
        self.house = tuple(r.name for r in house)

    def __missing__(self, bits: int) -> frozenset[str]:
        own = (n for i, n in enumerate(self.house) if bits >> (HOUSE_SHIFT + i) & 1)
        names = FIRED_NAMES[bits & ((1 << HOUSE_SHIFT) - 1)] | frozenset(own)
        self[bits] = names
        return names


def house_bit(rules: Rules, name: str) -> int:
    """The coverage bit of the profile's own rule `name`."""
    return 1 << (HOUSE_SHIFT + [r.name for r in rules.house_rules].index(name))


class Ending(NamedTuple):
    """Who ends a hand at a step: the reason (its index in EndReason), rule and its bit."""

    reason: int
    rule: str
    bit: int

    @classmethod
    def of(cls, rule: str, step: Step) -> Ending:
        """The ending the unit `rule` declares for `step` (no unit: the step never ends a
        hand, and the reason is never read)."""
        unit = UNITS_BY_NAME.get(rule)
        reason = unit.ends[step] if unit else EndReason.HOUSE_RULE
        return cls(REASON_CODES[reason], rule, FIRED_BITS.get(rule, 0))


ENDING_STEPS_ORDER = (Step.DRAW_END, Step.END_CHECK)
UNITS_BY_NAME = {unit.name: unit for unit in UNITS}
REASON_CODES = {reason: code for code, reason in enumerate(EndReason)}
"""The int of each EndReason, as the state keeps it (`steps.STOCK_EXHAUSTED`...)."""


# What the skeleton does where no rule contributes a step.
DEFAULTS: dict[Step, Any] = {
    Step.ELIMINATE: False,
    Step.DRAWERS: steps.winner_draws,
    Step.REFILL: Refill(steps.no_refill, False),
    Step.DRAW_END: steps.no_draw_end,
    Step.ALL_OUT: steps.trick_winner_wins,
    Step.END_CHECK: steps.no_end,
    Step.NEXT_LEAD: steps.winner_leads,
}


def contributions(rules: Rules) -> list[tuple[str, Step, Any]]:
    """(rule, step, function) for every step function the profile's units contribute, in
    the registry's order."""
    return [
        (unit.name, step, fn)
        for unit in UNITS
        for step, fn in unit.plays(getattr(rules, unit.name)).items()
    ]


@cache
def plan_for(rules: Rules) -> Plan:
    """The Plan of `rules`: play rules in registry order, one function for every other step."""
    given = contributions(rules)
    chosen = dict(DEFAULTS)
    chosen.update({step: fn for _, step, fn in given})
    by = {step: rule for rule, step, _ in given}
    draw_ender, ender = (Ending.of(by.get(step, CORE), step) for step in ENDING_STEPS_ORDER)

    def house(step: Step) -> tuple[PlayRule, ...]:
        """The profile's own rules at `step`, in the order written (RULES.md section 5)."""
        found = at_step(rules.house_rules, step.value)
        return tuple(PlayRule(fn, name, house_bit(rules, name)) for name, fn in found)

    def play_rules(step: Step) -> tuple[PlayRule, ...]:
        options = tuple(
            PlayRule(fn, rule, FIRED_BITS.get(rule, 0)) for rule, at, fn in given if at is step
        )
        return options + house(step)

    # A count the profile states replaces the option's (there is one at most).
    draw = house(Step.DRAW_COUNT) or (PlayRule(chosen[Step.DRAW_COUNT], "draw", 0),)
    score = house(Step.SCORE) or (PlayRule(steps.option_scores, "scoring", 0),)

    return Plan(
        lead_rules=play_rules(Step.LEAD_FILTER),
        follow_rules=play_rules(Step.FOLLOW_FILTER),
        early_elimination=chosen[Step.ELIMINATE],
        drawers=chosen[Step.DRAWERS],
        draw_count=draw[0].keep,
        refill=chosen[Step.REFILL],
        draw_end=chosen[Step.DRAW_END],
        draw_end_reason=draw_ender.reason,
        draw_end_rule=draw_ender.rule,
        draw_end_bit=draw_ender.bit,
        all_out=chosen[Step.ALL_OUT],
        end_check=chosen[Step.END_CHECK],
        end_check_reason=ender.reason,
        end_check_rule=ender.rule,
        end_check_bit=ender.bit,
        next_lead=chosen[Step.NEXT_LEAD],
        trump_bit=FIRED_BITS["trump"],
        draw_bit=draw[0].bit or FIRED_BITS["draw"],
        draw_by_bit=FIRED_BITS["draw_by"],
        next_lead_bit=FIRED_BITS["next_lead"],
        elimination_bit=FIRED_BITS["elimination"],
        exhaustion_bit=FIRED_BITS["exhaustion"],
        all_out_bit=FIRED_BITS["all_out"],
        draw_rule=draw[0].rule,
        house_ends=house(Step.END_CHECK),
        score=score[0].keep,
        score_rule=score[0].rule,
        score_bit=score[0].bit,
        fired_names=FiredNames(rules.house_rules),
    )
