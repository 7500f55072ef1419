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
from typing import Any

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

    def dead_note(self, name: str) -> str:
        return (
            f"{name} differs between {self.first} and {self.second} but never acts with "
            f"{self.players} players: {self.dead[name].proof}"
        )

    @property
    def identical_note(self) -> str:
        return f"{self.first} and {self.second} play identical games with {self.players} players"

    def notes(self) -> list[str]:
        """What `compare` says of the pair before its table."""
        lines = [self.dead_note(name) for name in self.dead]
        return lines + ([self.identical_note] if self.identical else [])

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.first,
            "b": self.second,
            "players": self.players,
            "never_act": {name: dead.proof for name, dead in self.dead.items()},
            "identical": self.identical,
            "notes": self.notes(),
        }


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


def samenesses(profiles: Sequence[tuple[str, Rules]], players: int) -> list[Sameness]:
    """Each profile against the first, at `players`."""
    return [sameness(profiles[0], other, players) for other in profiles[1:]]


def sameness_lines(found: Sequence[Sameness]) -> list[str]:
    """What `compare` says before its table: for each profile against the first, the
    differing options that never act, and which pairs play identical games."""
    lines = [line for same in found for line in same.notes()]
    return lines + ([""] if lines else [])
