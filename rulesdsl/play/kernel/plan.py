"""A profile's Plan as numbers: at each step, the code of the function that decides it (its
place in `rules.AT` + 1; 0 where the order of a trick decides), its value and its coverage
bit; at the steps that compose, each rule's in order. A rule the profile states is the
code `dispatch.stated_code(step)`, its value the start of its program (`program.py`) in
`program`; where it takes an option's place, the option's code and value are kept to tell
where the two differ, as `rulesdsl.play.engine.steps` does. The kernel reads it at run time,
so one compiled kernel plays every profile.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from rulesdsl.model.language.rule import MAX_RULES
from rulesdsl.model.rules import PROFILES_KEPT, Rules
from rulesdsl.model.units import BUILT_IN_UNITS, Step
from rulesdsl.model.units.base import ORDERED_STEPS
from rulesdsl.play.engine.plan import DEFAULTS as SKELETON
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Decision, EndRule, OutRule, PlayRule, SeatRule
from rulesdsl.play.kernel.dispatch import stated_code
from rulesdsl.play.kernel.machine import WIDTH
from rulesdsl.play.kernel.program import PROGRAM, ProgramError, program
from rulesdsl.play.kernel.rules import AT, TWINS
from rulesdsl.play.kernel.state import Field, record_class

RULES_AT = MAX_RULES + max(
    sum(step in unit.steps for unit in BUILT_IN_UNITS) for step in ORDERED_STEPS
)
"""The most rules at one step that composes: every built-in option acting there, and every
rule a profile may state."""


def _decided(prefix: str, rules: int = 0) -> tuple[Field, ...]:
    return tuple(Field(f"{prefix}_{part}", rules) for part in ("code", "arg", "bit"))


def _ordered(prefix: str) -> tuple[Field, ...]:
    return (Field(f"{prefix}_len"), *_decided(prefix, RULES_AT))


def _replaceable(prefix: str) -> tuple[Field, ...]:
    return (
        *_decided(prefix),
        Field(f"{prefix}_replaces", meaning="1: a stated rule takes the option's place"),
        Field(f"{prefix}_instead_code", meaning="the option it replaces: its code"),
        Field(f"{prefix}_instead_arg"),
    )


PLAN_FIELDS = (
    *_ordered("first"),
    *_ordered("lead"),
    *_ordered("follow"),
    *_ordered("out"),
    *_ordered("end"),
    Field("end_reason", RULES_AT),
    *_decided("trump"),
    Field("eliminate", meaning="1: an empty hand is out at step 3, before the draw"),
    Field("eliminate_bit"),
    *_decided("drawers"),
    *_ordered("also"),
    *_replaceable("count"),
    *_decided("refill"),
    Field("reshuffles", meaning="1: an empty stock can be refilled"),
    *_decided("draw_end"),
    Field("draw_end_reason"),
    *_decided("all_out"),
    *_decided("next_lead"),
    *_replaceable("score"),
    Field("program", PROGRAM * WIDTH, meaning="the programs of the stated rules, in order"),
    Field("program_len", meaning="the instructions of `program`, each program ending at RETURN"),
    Field("native", meaning="the address of the programs' native code (`native.programs`), or 0"),
    Field("remembers", meaning="1: the stated rules read the hand's memory, which is kept"),
)
"""Every field of a plan."""

KernelPlan = record_class("KernelPlan", PLAN_FIELDS)
"""A plan for CPython."""

DEFAULTS = frozenset(getattr(act, "refill", act) for act in SKELETON.values()) - {False}
"""The order of a trick's own functions (a refill's, unpacked): code 0."""


class NotNative(Exception):
    """A profile the kernel cannot play: the reason, to say once."""


Programs = dict[Callable[..., Any], int]
"""Where each stated rule's program starts, by the rule's step function."""
Ordered = tuple[PlayRule | EndRule | SeatRule | OutRule, ...]
"""The rules of a step that composes, in order."""


def code_of(step: Step, function: Any, rule: str, programs: Programs) -> tuple[int, int]:
    """The code and the value of a step function (a partial gives its one value; a stated
    rule's, where its program starts)."""
    if function in programs:
        return stated_code(step), programs[function]
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


def _put_ordered(plan: Any, prefix: str, step: Step, rules: Ordered, programs: Programs) -> None:
    if len(rules) > RULES_AT:
        raise NotNative(f"more than {RULES_AT} rules at one step")
    setattr(plan, f"{prefix}_len", len(rules))
    for k, rule in enumerate(rules):
        # rule[0] is the rule's function: what it keeps, checks or names
        code, arg = code_of(step, rule[0], rule.rule, programs)
        for part, number in (("code", code), ("arg", arg), ("bit", rule.bit)):
            getattr(plan, f"{prefix}_{part}")[k] = number
        if isinstance(rule, EndRule):
            plan.end_reason[k] = rule.reason


def _put(plan: Any, prefix: str, step: Step, rule: Decision | EndRule, programs: Programs) -> None:
    function = rule.check if isinstance(rule, EndRule) else rule.act
    code, arg = code_of(step, function, rule.rule, programs)
    numbers = {"code": code, "arg": arg, "bit": rule.bit}
    if isinstance(rule, Decision) and rule.replaced is not None:
        instead, value = code_of(step, rule.replaced, rule.rule, programs)
        numbers |= {"replaces": 1, "instead_code": instead, "instead_arg": value}
    for part, number in numbers.items():
        setattr(plan, f"{prefix}_{part}", number)


def _put_programs(plan: Any, rules: Rules) -> Programs:
    """Each stated rule's program, one after another in `plan.program`; where each starts."""
    programs: Programs = {}
    start = 0
    for rule in rules.house_rules:
        functions = rule.steps_for(rules.rank_strength).values()
        if not functions:
            continue  # it names a rank the deck does not hold: it never acts
        try:
            code = program(rule, start, rules.rank_strength)
        except ProgramError as error:
            raise NotNative(f"the rule {rule.name} cannot be the kernel's: {error}") from None
        if start + len(code) > PROGRAM:
            raise NotNative(f"the profile's rules compile to more than {PROGRAM} instructions")
        plan.program[start * WIDTH : (start + len(code)) * WIDTH] = [n for i in code for n in i]
        programs.update(dict.fromkeys(functions, start))
        start += len(code)
    plan.program_len = start
    return programs


@lru_cache(maxsize=PROFILES_KEPT)
def kernel_plan(rules: Rules) -> Any:
    """The plan of `rules` as numbers, for CPython (NotNative if the kernel cannot play it)."""
    p = plan_for(rules)
    plan = KernelPlan()
    programs = _put_programs(plan, rules)
    _put_ordered(plan, "first", Step.FIRST_LEAD, p.first_lead, programs)
    _put_ordered(plan, "lead", Step.LEAD_FILTER, p.lead_rules, programs)
    _put_ordered(plan, "follow", Step.FOLLOW_FILTER, p.follow_rules, programs)
    _put_ordered(plan, "out", Step.OUT, p.out_rules, programs)
    _put_ordered(plan, "end", Step.END_CHECK, p.end_checks, programs)
    _put(plan, "trump", Step.TRUMP, p.trump, programs)
    plan.eliminate = int(bool(p.eliminate.act))
    plan.eliminate_bit = p.eliminate.bit
    _put(plan, "drawers", Step.DRAWERS, p.drawers, programs)
    _put_ordered(plan, "also", Step.EXTRA_DRAW, p.also_draws, programs)
    _put(plan, "count", Step.DRAW_COUNT, p.draw_count, programs)
    _put(plan, "refill", Step.REFILL, p.refill._replace(act=p.refill.act.refill), programs)
    plan.reshuffles = int(p.refill.act.reshuffles)
    _put(plan, "draw_end", Step.DRAW_END, p.draw_end, programs)
    plan.draw_end_reason = p.draw_end.reason
    _put(plan, "all_out", Step.ALL_OUT, p.all_out, programs)
    _put(plan, "next_lead", Step.NEXT_LEAD, p.next_lead, programs)
    _put(plan, "score", Step.SCORE, p.score, programs)
    plan.remembers = int(p.remembers)
    return plan
