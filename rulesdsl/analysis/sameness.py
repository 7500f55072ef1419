"""Which options that differ between two profiles can never act, and whether the two
therefore play identical games (for `compare`).

Profiles A and B differ in options X1..Xk. Change A into B one option at a time; if each
option is proved never to act in the profile it is changed in, each step plays the same
games as the one before (the games agree up to the first time the option acts, and it
never does), so A and B play identical games.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from rulesdsl.analysis.report import DeadRule, dead_rules
from rulesdsl.rules import OPTIONS, Rules

# The player counts a profile allows decide where it can be played, not how.
NOT_PLAYED = ("players",)


@dataclass(frozen=True)
class Sameness:
    """Two profiles at one player count: the options they differ in, those of them that
    never act (with the proofs), and whether the games are therefore identical."""

    first: str
    second: str
    players: int
    differing: tuple[str, ...]
    dead: dict[str, DeadRule]  # differing options that never act in either profile
    identical: bool


def sameness(first: tuple[str, Rules], second: tuple[str, Rules], players: int) -> Sameness:
    (a, rules), (b, other) = first, second
    differing = tuple(
        name
        for name in OPTIONS
        if name not in NOT_PLAYED and getattr(rules, name) != getattr(other, name)
    )
    in_other = dead_rules(other, [players])
    dead = {
        n: d for n, d in dead_rules(rules, [players]).items() if n in differing and n in in_other
    }
    current, identical = rules, True
    for name in differing:
        identical = identical and name in dead_rules(current, [players])
        current = dataclasses.replace(current, **{name: getattr(other, name)})
    return Sameness(a, b, players, differing, dead, identical)


def sameness_lines(profiles: Sequence[tuple[str, Rules]], players: int) -> list[str]:
    """What `compare` says before its table: for each profile against the first, the
    differing options that never act at `players`, and which pairs play identical games."""
    lines = []
    for other in profiles[1:]:
        same = sameness(profiles[0], other, players)
        for name, dead in same.dead.items():
            lines.append(
                f"{name} differs between {same.first} and {same.second} but never acts with "
                f"{players} players: {dead.proof}"
            )
        if same.identical:
            lines.append(
                f"{same.first} and {same.second} play identical games with {players} players"
            )
    return lines + ([""] if lines else [])
