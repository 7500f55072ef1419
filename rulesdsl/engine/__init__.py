"""The game engine: hands, matches, events and the drivers that play them.

Names are imported on first use (PEP 562), so the rule units can import the step
functions of `rulesdsl.engine.steps` without loading the whole engine.
"""

import importlib

_WHERE = {
    "EndReason": "result",
    "Hand": "hand",
    "HandOutcome": "hand",
    "HandResult": "result",
    "IllegalMove": "hand",
    "Match": "match",
    "Player": "driver",
    "Refusal": "hand",
    "beats": "hand",
    "play_hand": "driver",
    "play_match": "driver",
}


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module 'rulesdsl.engine' has no attribute {name!r}")
    return getattr(importlib.import_module(f"rulesdsl.engine.{_WHERE[name]}"), name)


__all__ = sorted(_WHERE)
