"""The game engine: hands, matches, events and the drivers that play them."""

from rulesdsl.engine.driver import Player, play_hand, play_match
from rulesdsl.engine.hand import Hand, HandOutcome, IllegalMove, Refusal, beats
from rulesdsl.engine.match import Match
from rulesdsl.engine.result import EndReason, HandResult

__all__ = [
    "EndReason",
    "Hand",
    "HandOutcome",
    "HandResult",
    "IllegalMove",
    "Match",
    "Player",
    "Refusal",
    "beats",
    "play_hand",
    "play_match",
]
