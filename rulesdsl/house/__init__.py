"""Rules a profile states itself (RULES.md section 5): the language, its checker, and the
step functions generated from it.

The seam to the engines: a resolved profile's `Rules.house_rules` holds its HouseRules in
the order they apply, each with `.steps` (step -> generated function); `unit.at_step`
gives those of one step, in order, as (name, function). Until an engine
asks them at those steps, `ENGINE_PLAYS_HOUSE_RULES` is False and every command that plays
refuses a profile that states rules, rather than play it without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl.rules import Rules

ENGINE_PLAYS_HOUSE_RULES = False


def unplayed(rules: Rules, profile: str) -> str | None:
    """Why `rules` cannot be played yet (one line), or None when they can."""
    if ENGINE_PLAYS_HOUSE_RULES or not rules.house_rules:
        return None
    names = ", ".join(r.name for r in rules.house_rules)
    return f"profile {profile} states rules ({names}) that this engine does not play yet"
