"""A profile's Plan: the step functions its rule units contribute, for the skeleton."""

from __future__ import annotations

from functools import cache
from typing import Any

from rulesdsl.engine import steps
from rulesdsl.engine.steps import Plan, PlayRule, Refill
from rulesdsl.rules import Rules
from rulesdsl.units import COUNTED, UNITS, Step

FIRED_BITS = {name: 1 << i for i, name in enumerate(COUNTED)}
"""Each counted rule's bit in `State.fired`."""

FIRED_NAMES = tuple(
    frozenset(name for name, bit in FIRED_BITS.items() if bits & bit)
    for bits in range(1 << len(COUNTED))
)
"""The names of the rules that fired, for each set of bits."""

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
    ender = by.get(Step.END_CHECK, "core")

    def play_rules(step: Step) -> tuple[PlayRule, ...]:
        return tuple(
            PlayRule(fn, rule, FIRED_BITS.get(rule, 0)) for rule, at, fn in given if at is step
        )

    return Plan(
        lead_rules=play_rules(Step.LEAD_FILTER),
        follow_rules=play_rules(Step.FOLLOW_FILTER),
        early_elimination=chosen[Step.ELIMINATE],
        drawers=chosen[Step.DRAWERS],
        draw_count=chosen[Step.DRAW_COUNT],
        refill=chosen[Step.REFILL],
        draw_end=chosen[Step.DRAW_END],
        all_out=chosen[Step.ALL_OUT],
        end_check=chosen[Step.END_CHECK],
        end_check_reason=steps.MOST_TRICKS,
        end_check_rule=ender,
        end_check_bit=FIRED_BITS.get(ender, 0),
        next_lead=chosen[Step.NEXT_LEAD],
        trump_bit=FIRED_BITS["trump"],
        draw_bit=FIRED_BITS["draw"],
        elimination_bit=FIRED_BITS["elimination"],
        exhaustion_bit=FIRED_BITS["exhaustion"],
        all_out_bit=FIRED_BITS["all_out"],
    )
