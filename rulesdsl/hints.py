"""'Did you mean' suggestions for misspelt names and values."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, choices: Iterable[str]) -> str:
    """The choice closest to `word`, or an empty string when none is close. Case does not
    count against a choice: `IMMEDIATE` is close to `immediate`."""
    by_lower = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else ""


class Suggestion(str):
    """A did-you-mean hint that carries its fix: the text to put in place of what the
    diagnostic points at. A diagnostic made with it has the fix as its replacement, so
    every did-you-mean can be applied (by an editor's code action)."""

    fix: str

    def __new__(cls, fix: str) -> Suggestion:
        hint = super().__new__(cls, f"did you mean '{fix}'?" if fix else "")
        hint.fix = str(fix)
        return hint

    def __getnewargs__(self) -> tuple[str]:
        """A copy or an unpickled one is made from the fix, as this one was."""
        return (self.fix,)


def mean(fix: str) -> Suggestion:
    """`did you mean 'x'?` for a suggested fix, or an empty string when there is none."""
    return Suggestion(fix)


def suggest(word: str, choices: Iterable[str]) -> Suggestion:
    """`did you mean 'x'?` for the closest choice, or an empty string when none is close."""
    return mean(closest(word, choices))


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`; did you mean 'x'?` to end a message, or an empty string."""
    hint = suggest(word, choices)
    return f"; {hint}" if hint else ""
