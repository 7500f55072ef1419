"""players: the player counts the profile allows."""

from rulesdsl.options import PlayerRange
from rulesdsl.units.base import Section, Step, Unit

UNIT = Unit(
    "players",
    PlayerRange(),
    "3..6",
    "the player counts the profile allows",
    Section.SETUP,
    frozenset({Step.TABLE}),
    place=10,
)
