"""A profile's Plan as numbers: at each step, the code of the function that decides it (its
place in `rules.AT` + 1; 0 where the order of a trick decides), its value and its coverage
bit; at the steps that compose, each rule's in order. The kernel reads it at run time, so
one compiled kernel plays every profile.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.model.units import Step
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Decision, EndRule, PlayRule
from rulesdsl.play.kernel.rules import AT, TWINS
from rulesdsl.play.kernel.state import Field, record_class, record_type

RULES_AT = 16
"""The most rules at one step that composes."""


def _ordered(prefix: str) -> tuple[Field, ...]:
    return (
        Field(f"{prefix}_len"),
        Field(f"{prefix}_code", RULES_AT),
        Field(f"{prefix}_arg", RULES_AT),
        Field(f"{prefix}_bit", RULES_AT),
    )


def _decided(prefix: str) -> tuple[Field, ...]:
    return (Field(f"{prefix}_code"), Field(f"{prefix}_arg"), Field(f"{prefix}_bit"))


PLAN_FIELDS = (
    *_ordered("lead"),
    *_ordered("follow"),
    *_ordered("end"),
    Field("end_reason", RULES_AT),
    *_decided("trump"),
    Field("eliminate", meaning="1: an empty hand is out at step 3, before the draw"),
    Field("eliminate_bit"),
    *_decided("drawers"),
    *_decided("count"),
    *_decided("refill"),
    Field("reshuffles", meaning="1: an empty stock can be refilled"),
    *_decided("draw_end"),
    Field("draw_end_reason"),
    *_decided("all_out"),
    *_decided("next_lead"),
    *_decided("score"),
)
"""Every field of a plan."""

PLAN = record_type(PLAN_FIELDS)
"""The numpy type of a plan record."""
KernelPlan = record_class("KernelPlan", PLAN_FIELDS)
"""A plan for CPython."""

DEFAULTS = frozenset(
    {
        steps.winner_draws,
        steps.no_refill,
        steps.no_draw_end,
        steps.trick_winner_wins,
        steps.winner_leads,
    }
)
"""The order of a trick's own functions: code 0."""


class NotNative(Exception):
    """A profile the kernel cannot play: the reason, to say once."""


def code_of(step: Step, function: Any, rule: str) -> tuple[int, int]:
    """The code and the value of a step function (a partial gives its one value)."""
    if function in DEFAULTS:
        return 0, 0
    arg = 0
    if isinstance(function, partial):
        (arg,) = function.keywords.values()
        function = function.func
    twin = TWINS.get(function, function)
    if twin not in AT[step]:
        raise NotNative(f"the rule {rule} has no step function the kernel plays")
    return AT[step].index(twin) + 1, int(arg)


def _put_ordered(plan: Any, prefix: str, step: Step, rules: tuple[PlayRule | EndRule, ...]) -> None:
    if len(rules) > RULES_AT:
        raise NotNative(f"more than {RULES_AT} rules at one step")
    setattr(plan, f"{prefix}_len", len(rules))
    for k, rule in enumerate(rules):
        function = rule.keep if isinstance(rule, PlayRule) else rule.check
        code, arg = code_of(step, function, rule.rule)
        getattr(plan, f"{prefix}_code")[k] = code
        getattr(plan, f"{prefix}_arg")[k] = arg
        getattr(plan, f"{prefix}_bit")[k] = rule.bit
        if isinstance(rule, EndRule):
            plan.end_reason[k] = rule.reason


def _put(plan: Any, prefix: str, step: Step, decision: Decision | EndRule) -> None:
    if isinstance(decision, Decision) and decision.replaced is not None:
        raise NotNative(f"the rule {decision.rule} is stated by the profile")
    function = decision.check if isinstance(decision, EndRule) else decision.act
    code, arg = code_of(step, function, decision.rule)
    setattr(plan, f"{prefix}_code", code)
    setattr(plan, f"{prefix}_arg", arg)
    setattr(plan, f"{prefix}_bit", decision.bit)


@cache
def kernel_plan(rules: Rules) -> Any:
    """The plan of `rules` as numbers, for CPython (NotNative if the kernel cannot play it)."""
    if rules.house_rules:
        raise NotNative("the profile states rules of its own")
    p = plan_for(rules)
    plan = KernelPlan()
    _put_ordered(plan, "lead", Step.LEAD_FILTER, p.lead_rules)
    _put_ordered(plan, "follow", Step.FOLLOW_FILTER, p.follow_rules)
    _put_ordered(plan, "end", Step.END_CHECK, p.end_checks)
    _put(plan, "trump", Step.TRUMP, p.trump)
    plan.eliminate = int(bool(p.eliminate.act))
    plan.eliminate_bit = p.eliminate.bit
    _put(plan, "drawers", Step.DRAWERS, p.drawers)
    _put(plan, "count", Step.DRAW_COUNT, p.draw_count)
    refill = p.refill.act
    _put(plan, "refill", Step.REFILL, p.refill._replace(act=refill.refill))
    plan.reshuffles = int(refill.reshuffles)
    _put(plan, "draw_end", Step.DRAW_END, p.draw_end)
    plan.draw_end_reason = p.draw_end.reason
    _put(plan, "all_out", Step.ALL_OUT, p.all_out)
    _put(plan, "next_lead", Step.NEXT_LEAD, p.next_lead)
    _put(plan, "score", Step.SCORE, p.score)
    return plan


def plan_record(plan: Any) -> Any:
    """The plan as a numpy record, for numba."""
    import numpy as np

    record = np.zeros(1, PLAN)
    for field in PLAN_FIELDS:
        record[0][field.name] = getattr(plan, field.name)
    return record
