"""The calls of the kernel at each step: `CALLS` names, for each step where a rule acts, the
function the skeleton calls there, its parameters, and what it gives where no rule acts.

`source()` writes each as an `if` over the plan's code, calling the functions of
`rules.AT` by name, and at a step where a profile may state a rule, the run of its program
(`machine.run_rule`: its native code where the plan has some, else the interpreter); CPython
runs that text (the functions below are made from
it as this module is imported) and the native build compiles the very same text.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

from rulesdsl.model.state import NO_END
from rulesdsl.model.units import Step
from rulesdsl.play.engine.steps import winner_leads
from rulesdsl.play.kernel.machine import run_rule
from rulesdsl.play.kernel.rules import AT


class Call(NamedTuple):
    name: str
    params: str
    default: str
    stated: str = ""  # where a profile may state a rule: the run of its program


RULE = "run_rule(p, arg, s, -1, 0, -1)"
FILTER = "run_rule(p, arg, s, seat, allowed, -1)"
"""The run of a stated rule's program: of a rule that reads no seat, of a play filter."""

CALLS: dict[Step, Call] = {
    Step.FIRST_LEAD: Call("first_lead_at", "s", "-1", RULE),
    Step.LEAD_FILTER: Call("lead_filter", "s, seat, allowed", "allowed", FILTER),
    Step.FOLLOW_FILTER: Call("follow_filter", "s, seat, allowed", "allowed", FILTER),
    Step.TRUMP: Call("deal_trump", "s, deck, dealt", "None"),
    Step.DRAWERS: Call("drawers_at", "s", "0"),
    Step.EXTRA_DRAW: Call("also_draws_at", "s", "-1", RULE),
    Step.DRAW_COUNT: Call("count_at", "s, seat", "0", "run_rule(p, arg, s, seat, 0, -1)"),
    Step.REFILL: Call("refill_at", "s", "0"),
    Step.DRAW_END: Call("draw_end_at", "s, seat", "NO_END"),
    Step.ALL_OUT: Call("all_out_at", "s", "s.winner"),
    Step.OUT: Call("out_at", "s", "0", RULE),
    Step.END_CHECK: Call("end_at", "s", "NO_END", RULE),
    Step.NEXT_LEAD: Call("next_lead_at", "s", "winner_leads(s)"),
    Step.SCORE: Call("score_at", "s, winner", "1", "run_rule(p, arg, s, -1, 0, winner)"),
}


def stated_code(step: Step) -> int:
    """The code of a rule the profile states at `step`: its value is where its program
    starts in the plan's `program` (`machine.run_program`)."""
    return len(AT[step]) + 1


def source() -> str:
    """The text of every call: `NAME(code, PARAMS, arg)`, or where a profile may state a
    rule, `NAME(code, p, PARAMS, arg)`."""
    lines = []
    for step, call in CALLS.items():
        plan = "p, " if call.stated else ""
        lines.append(f"def {call.name}(code, {plan}{call.params}, arg):")
        returns = [f"{function.__name__}({arguments(function, call)})" for function in AT[step]]
        # a stated rule's, where a profile may state one: the next code, `stated_code(step)`
        for code, value in enumerate([*returns, call.stated] if call.stated else returns, 1):
            lines += [f"    if code == {code}:", f"        return {value}"]
        lines += [f"    return {call.default}", "", ""]
    return "\n".join(lines)


def arguments(function: Callable[..., Any], call: Call) -> str:
    """What `function` is called with: the step's parameters, and the rule's value where it
    takes it after them."""
    takes_arg = len(inspect.signature(function).parameters) > len(call.params.split(", "))
    return call.params + (", arg" if takes_arg else "")


def _made() -> dict[str, object]:
    space: dict[str, object] = {f.__name__: f for functions in AT.values() for f in functions}
    space.update(NO_END=NO_END, winner_leads=winner_leads, run_rule=run_rule)
    exec(compile(source(), "<rulesdsl kernel calls>", "exec"), space)
    return {call.name: space[call.name] for call in CALLS.values()}


globals().update(_made())
