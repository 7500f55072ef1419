"""players: the player counts the profile allows."""

from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.units.base import Section, Step, Unit

UNIT = Unit(
    "players",
    PlayerRange(),
    "3..6",
    "the player counts the profile allows",
    Section.SETUP,
    frozenset({Step.TABLE}),
    place=10,
)
