"""A profile's Plan: the rule model (`rulesdsl.model.contributions`) as the skeleton asks it.

At a step that composes, every rule's part, in order; at any other, the one rule that
decides it: the option that holds the step, the rule the profile states in its place, or
the fixed order of a trick (CORE) where no rule says anything. Each carries its name and
its coverage bit; nothing here names an option.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rulesdsl.model.contributions import HOLDERS, Contribution, model
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.result import EndReason
from rulesdsl.model.rules import COUNTED, PROFILES_KEPT, UNITS, Rules
from rulesdsl.model.state import CORE, Refill, reads_memory
from rulesdsl.model.units import Step
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.steps import Decision, EndRule, OutRule, Plan, PlayRule, SeatRule

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


def bit_of(rules: Rules, rule: str) -> int:
    """The coverage bit of a rule: an option rule coverage counts, or the profile's own."""
    own = [r.name for r in rules.house_rules]
    if rule in own:
        return 1 << (HOUSE_SHIFT + own.index(rule))
    return FIRED_BITS.get(rule, 0)


UNITS_BY_NAME = {unit.name: unit for unit in UNITS}
REASON_CODES = {reason: code for code, reason in enumerate(EndReason)}
"""The int of each EndReason, as the state keeps it (`STOCK_EXHAUSTED`...)."""


def reason_of(rule: str, step: Step) -> int:
    """The reason a hand ends with when `rule` ends it at `step`: what its unit declares,
    else (a rule the profile states) HOUSE_RULE."""
    unit = UNITS_BY_NAME.get(rule)
    return REASON_CODES[unit.ends[step] if unit else EndReason.HOUSE_RULE]


# What the skeleton does where no rule contributes a step.
DEFAULTS: dict[Step, Any] = {
    Step.ELIMINATE: False,
    Step.DRAWERS: steps.winner_draws,
    Step.REFILL: Refill(steps.no_refill, False),
    Step.DRAW_END: steps.no_draw_end,
    Step.ALL_OUT: steps.trick_winner_wins,
    Step.NEXT_LEAD: steps.winner_leads,
}


def decision(rules: Rules, step: Step) -> Decision:
    """Who decides `step`: the rule the profile states there (keeping the function of the
    option it replaces), else the option that holds it, else the fixed order of a trick."""
    found = model(rules)
    own = found.option_at(step)
    option = own.function if own is not None else DEFAULTS.get(step)
    stated = [c for c in found.at(step) if c.stated]
    if stated:
        rule = stated[0].rule
        return Decision(stated[0].function, rule, bit_of(rules, rule), option)
    holder = HOLDERS.get(step)
    rule = holder.name if holder is not None else CORE
    return Decision(option, rule, bit_of(rules, rule))


def play_rules(rules: Rules, step: Step) -> tuple[PlayRule, ...]:
    return tuple(PlayRule(c.function, c.rule, bit_of(rules, c.rule)) for c in _at(rules, step))


def end_rule(rules: Rules, contribution: Contribution) -> EndRule:
    rule, step = contribution.rule, contribution.step
    return EndRule(contribution.function, rule, bit_of(rules, rule), reason_of(rule, step))


def _at(rules: Rules, step: Step) -> tuple[Contribution, ...]:
    return model(rules).at(step)


@lru_cache(maxsize=PROFILES_KEPT)
def plan_for(rules: Rules) -> Plan:
    """The Plan of `rules`."""
    draw_end = decision(rules, Step.DRAW_END)
    return Plan(
        first_lead=tuple(
            SeatRule(c.function, c.rule, bit_of(rules, c.rule)) for c in _at(rules, Step.FIRST_LEAD)
        ),
        lead_rules=play_rules(rules, Step.LEAD_FILTER),
        follow_rules=play_rules(rules, Step.FOLLOW_FILTER),
        trump=decision(rules, Step.TRUMP),
        eliminate=decision(rules, Step.ELIMINATE),
        out_rules=tuple(
            OutRule(c.function, c.rule, bit_of(rules, c.rule)) for c in _at(rules, Step.OUT)
        ),
        drawers=decision(rules, Step.DRAWERS),
        also_draws=tuple(
            SeatRule(c.function, c.rule, bit_of(rules, c.rule)) for c in _at(rules, Step.EXTRA_DRAW)
        ),
        draw_count=decision(rules, Step.DRAW_COUNT),
        refill=decision(rules, Step.REFILL),
        draw_end=EndRule(
            draw_end.act, draw_end.rule, draw_end.bit, reason_of(draw_end.rule, Step.DRAW_END)
        ),
        all_out=decision(rules, Step.ALL_OUT),
        end_checks=tuple(end_rule(rules, c) for c in _at(rules, Step.END_CHECK)),
        next_lead=decision(rules, Step.NEXT_LEAD),
        score=decision(rules, Step.SCORE),
        match_end=decision(rules, Step.MATCH_END),
        next_dealer=decision(rules, Step.NEXT_DEALER),
        fired_names=FiredNames(rules.house_rules),
        remembers=any(reads_memory(rule.source) for rule in rules.house_rules),
    )
