"""The rule units, in the order of section 3 of docs/rules.md: the one registry of the options.

`Rules`, `OPTIONS`, the rule sheet's sections, the checks across options and rule coverage
are all derived from UNITS. A new rule is a module here with its UNIT, whose `place` puts it
in the fixed order: it is found as the package is imported (BUILT_IN), and declared in the
entry point group `rulesdsl.rules` with the others, as their family; other packages add
theirs through the same group, one entry point per rule (see registry.py). The registry
itself, UNITS, is loaded where the Rules are derived from it (`rulesdsl.model.rules`): a
unit's module imports this package (for `base`), so it may be imported before the registry
is loaded, and is whole when it is.
"""

import importlib
import pkgutil
from types import ModuleType

from rulesdsl.model.state import CORE
from rulesdsl.model.units.all_out import AllOut
from rulesdsl.model.units.base import RuleProblem, RuleTag, Section, Step, Unit
from rulesdsl.model.units.draw import DrawWord
from rulesdsl.model.units.draw_by import DrawBy
from rulesdsl.model.units.elimination import Elimination
from rulesdsl.model.units.exhaustion import Exhaustion
from rulesdsl.model.units.follow import Follow
from rulesdsl.model.units.next_dealer import NextDealer
from rulesdsl.model.units.next_lead import NextLead
from rulesdsl.model.units.opening_lead import OpeningLead
from rulesdsl.model.units.scoring import Scoring
from rulesdsl.model.units.trump import Trump
from rulesdsl.model.units.when_void import WhenVoid


def built_in() -> tuple[ModuleType, ...]:
    """The modules of this package that declare a UNIT, in the order of their places."""
    modules = [
        importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)
    ]
    rules = [m for m in modules if isinstance(getattr(m, "UNIT", None), Unit)]
    return tuple(sorted(rules, key=lambda m: m.UNIT.place))


BUILT_IN = built_in()
"""The built-in rules' modules, found in this package, in their fixed order."""

BUILT_IN_UNITS = tuple(module.UNIT for module in BUILT_IN)
"""The built-in units: the family rulesdsl declares in the entry point group."""


__all__ = [
    "CORE",
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
