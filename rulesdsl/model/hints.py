"""'Did you mean' suggestions for misspelt names and values."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from enum import Enum

# How many close choices a did-you-mean weighs, closest first.
CLOSE = 5


def ranked(word: str, choices: Iterable[str], n: int = CLOSE) -> list[str]:
    """The choices close to `word`, closest first (at most n). Case does not count against
    a choice: `IMMEDIATE` is close to `immediate`."""
    by_lower = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    return [by_lower[c] for c in close]


def closest(word: str, choices: Iterable[str]) -> str:
    """The choice closest to `word`, or an empty string when none is close."""
    return next(iter(ranked(word, choices, 1)), "")


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


class Fit(Enum):
    """What writing a choice in place of a misspelt word does to the text."""

    CHECKS = "checks"  # no problem is left that the text did not have
    FIXABLE = "fixable"  # problems are left only after it, each with a did-you-mean of its own
    FAILS = "fails"


def verified(word: str, choices: Iterable[str], verdict: Callable[[str], Fit]) -> Suggestion:
    """`did you mean 'x'?` for the closest choice with which the text checks, else for the
    closest that leaves only problems after it that have did-you-means of their own; an
    empty string when no close choice does either. Every did-you-mean of a rule a profile
    states is made here: a fix is offered only where, written in, it checks."""
    fixable = ""
    for choice in ranked(word, choices):
        said = verdict(choice)
        if said is Fit.CHECKS:
            return mean(choice)
        if said is Fit.FIXABLE and not fixable:
            fixable = choice
    return mean(fixable)
