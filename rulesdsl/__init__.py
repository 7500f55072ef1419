"""rulesdsl: a rules-variant DSL and interpreter for the card game Linger Longer.

The public API: rules from options, a hand you can step through, matches, and bots.
"""

import importlib

from rulesdsl import engine

# Names are imported on first use (PEP 562), so `import rulesdsl.cli` stays light; the
# engine's names are its own list (`rulesdsl.engine` loads nothing until asked).
_WHERE = {
    "BOTS": "bots",
    "make_bot": "bots",
    "Card": "cards",
    "Suit": "cards",
    "parse_cards": "cards",
    "parse_deck": "cards",
    **dict.fromkeys(engine.__all__, "engine"),
    "DEFAULT_RULES": "rules",
    "OPTIONS": "rules",
    "Rules": "rules",
    "RulesError": "rules",
}


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")
    return getattr(importlib.import_module(f"rulesdsl.{_WHERE[name]}"), name)


__all__ = sorted(_WHERE)
