"""The rule units, in the order of RULES.md section 3: the one registry of the options.

`Rules`, `OPTIONS`, the rule sheet's sections, the checks across options and rule coverage
are all derived from UNITS. A new rule is a module here with its UNIT, added to BUILT_IN
and declared as an entry point of the group `rulesdsl.rules` in pyproject.toml; other
packages add theirs through the same group (see registry.py).
"""

from functools import cache
from typing import Any

from rulesdsl.units import (
    all_out,
    deck,
    draw,
    draw_by,
    elimination,
    exhaustion,
    follow,
    hand_size,
    match,
    must_head,
    next_dealer,
    next_lead,
    opening_lead,
    players,
    scoring,
    trump,
    when_void,
)
from rulesdsl.units.all_out import AllOut
from rulesdsl.units.base import CORE, RuleProblem, RuleTag, Section, Step, Unit
from rulesdsl.units.draw import DrawWord
from rulesdsl.units.draw_by import DrawBy
from rulesdsl.units.elimination import Elimination
from rulesdsl.units.exhaustion import Exhaustion
from rulesdsl.units.follow import Follow
from rulesdsl.units.next_dealer import NextDealer
from rulesdsl.units.next_lead import NextLead
from rulesdsl.units.opening_lead import OpeningLead
from rulesdsl.units.registry import Registry, load, report
from rulesdsl.units.scoring import Scoring
from rulesdsl.units.trump import Trump
from rulesdsl.units.when_void import WhenVoid

BUILT_IN = (
    players,
    deck,
    hand_size,
    trump,
    opening_lead,
    follow,
    when_void,
    must_head,
    draw,
    draw_by,
    elimination,
    exhaustion,
    all_out,
    scoring,
    match,
    next_lead,
    next_dealer,
)

UNITS: tuple[Unit, ...]
"""The built-in units in their fixed order, then other packages' units by name."""

COUNTED: tuple[str, ...]
"""The rules whose firing rule coverage counts, in registry order."""


@cache
def registry() -> Registry:
    """The units, loaded on first use: a unit's module may import this package while it is
    imported itself (it is loaded once its module is done)."""
    found = load([module.UNIT for module in BUILT_IN])
    report(found)
    return found


def __getattr__(name: str) -> Any:
    if name == "UNITS":
        return registry().units
    if name == "COUNTED":
        return tuple(unit.name for unit in registry().units if unit.counted)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CORE",
    "COUNTED",
    "UNITS",
    "AllOut",
    "DrawBy",
    "DrawWord",
    "Elimination",
    "Exhaustion",
    "Follow",
    "NextDealer",
    "NextLead",
    "OpeningLead",
    "RuleProblem",
    "RuleTag",
    "Scoring",
    "Section",
    "Step",
    "Trump",
    "Unit",
    "WhenVoid",
]
