"""Rules a profile states itself (section 5 of docs/rules.md): the language, its checker, and the
step functions generated from it.

The seam to the engines: a resolved profile's `Rules.house_rules` holds its HouseRules in
the order they apply, each with `.steps_for(deck strengths)` (step -> generated function);
the rule model (rulesdsl/model/contributions.py) puts them at their steps, and the
engine's plan (rulesdsl/play/engine/plan.py) asks them there.
"""
