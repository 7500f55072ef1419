"""'Did you mean' suggestions for misspelt names and values."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(word: str, choices: Iterable[str]) -> str:
    """`did you mean 'x'?` for the closest choice, or an empty string when none is close.

    Case does not count against a choice: `IMMEDIATE` is close to `immediate`."""
    by_lower = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f"did you mean '{by_lower[close[0]]}'?" if close else ""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`; did you mean 'x'?` to end a message, or an empty string."""
    hint = suggest(word, choices)
    return f"; {hint}" if hint else ""
