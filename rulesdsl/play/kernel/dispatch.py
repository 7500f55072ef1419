"""The calls of the kernel at each step: `CALLS` names, for each step where a rule acts, the
function the skeleton calls there, its parameters, and what it gives where no rule acts.

`source()` writes each as an `if` over the plan's code, calling the functions of
`rules.AT` by name; CPython runs that text (the functions below are made from it as this
module is imported) and the native build compiles the very same text.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

from rulesdsl.model.state import NO_END
from rulesdsl.model.units import Step
from rulesdsl.play.engine.steps import winner_leads
from rulesdsl.play.kernel.rules import AT


class Call(NamedTuple):
    name: str
    params: str
    default: str


CALLS: dict[Step, Call] = {
    Step.LEAD_FILTER: Call("lead_filter", "s, seat, allowed", "allowed"),
    Step.FOLLOW_FILTER: Call("follow_filter", "s, seat, allowed", "allowed"),
    Step.TRUMP: Call("deal_trump", "s, deck, dealt", "None"),
    Step.DRAWERS: Call("drawers_at", "s", "0"),
    Step.DRAW_COUNT: Call("count_at", "s, seat", "0"),
    Step.REFILL: Call("refill_at", "s", "0"),
    Step.DRAW_END: Call("draw_end_at", "s, seat", "NO_END"),
    Step.ALL_OUT: Call("all_out_at", "s", "s.winner"),
    Step.END_CHECK: Call("end_at", "s", "NO_END"),
    Step.NEXT_LEAD: Call("next_lead_at", "s", "winner_leads(s)"),
    Step.SCORE: Call("score_at", "s, winner", "1"),
}


def source() -> str:
    """The text of every call: `NAME(code, PARAMS, arg)`."""
    lines = []
    for step, call in CALLS.items():
        lines.append(f"def {call.name}(code, {call.params}, arg):")
        for code, function in enumerate(AT[step], 1):
            args = call.params + (", arg" if takes_arg(function, call) else "")
            lines.append(f"    if code == {code}:")
            lines.append(f"        return {function.__name__}({args})")
        lines += [f"    return {call.default}", "", ""]
    return "\n".join(lines)


def takes_arg(function: Callable[..., Any], call: Call) -> bool:
    """Whether `function` takes the rule's value after the step's parameters."""
    return len(inspect.signature(function).parameters) > len(call.params.split(", "))


def _made() -> dict[str, object]:
    names = {f.__name__: f for functions in AT.values() for f in functions}
    space: dict[str, object] = {**names, "NO_END": NO_END, "winner_leads": winner_leads}
    exec(compile(source(), "<rulesdsl kernel calls>", "exec"), space)
    return {call.name: space[call.name] for call in CALLS.values()}


globals().update(_made())
