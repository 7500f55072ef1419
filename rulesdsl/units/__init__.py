"""The rule units, in the order of RULES.md section 3: the one registry of the options.

`Rules`, `OPTIONS`, the rule sheet's sections, the checks across options and rule coverage
are all derived from UNITS. A new rule is a module here with its UNIT, added to BUILT_IN.
"""

from rulesdsl.units import (
    all_out,
    deck,
    draw,
    elimination,
    exhaustion,
    follow,
    hand_size,
    match,
    must_head,
    next_dealer,
    opening_lead,
    players,
    scoring,
    trump,
    when_void,
)
from rulesdsl.units.all_out import AllOut
from rulesdsl.units.base import CORE, RuleProblem, RuleTag, Section, Step, Unit
from rulesdsl.units.draw import DrawWord
from rulesdsl.units.elimination import Elimination
from rulesdsl.units.exhaustion import Exhaustion
from rulesdsl.units.follow import Follow
from rulesdsl.units.next_dealer import NextDealer
from rulesdsl.units.opening_lead import OpeningLead
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
    elimination,
    exhaustion,
    all_out,
    scoring,
    match,
    next_dealer,
)

UNITS: tuple[Unit, ...] = tuple(module.UNIT for module in BUILT_IN)

COUNTED: tuple[str, ...] = tuple(unit.name for unit in UNITS if unit.counted)
"""The rules whose firing rule coverage counts, in registry order."""

__all__ = [
    "CORE",
    "COUNTED",
    "UNITS",
    "AllOut",
    "DrawWord",
    "Elimination",
    "Exhaustion",
    "Follow",
    "NextDealer",
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
