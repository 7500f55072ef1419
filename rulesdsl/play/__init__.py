"""Playing hands: the skeleton of a trick and the reference engine, the fast and native paths,
and every player.

The API for playing: rules from options, a hand you can step through, matches, and bots.
"""

from rulesdsl.model.cards import Card, Suit, parse_cards, parse_deck
from rulesdsl.model.result import EndReason, HandResult
from rulesdsl.model.rules import DEFAULT_RULES, OPTIONS, Rules, RulesError
from rulesdsl.play.engine.driver import Player, play_hand, play_match
from rulesdsl.play.engine.hand import Hand, IllegalMove, Refusal, card_beats
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.bots import BOTS
from rulesdsl.play.players.registry import make_bot

__all__ = [
    "BOTS",
    "DEFAULT_RULES",
    "OPTIONS",
    "Card",
    "EndReason",
    "Hand",
    "HandResult",
    "IllegalMove",
    "Match",
    "Player",
    "Refusal",
    "Rules",
    "RulesError",
    "Suit",
    "card_beats",
    "make_bot",
    "parse_cards",
    "parse_deck",
    "play_hand",
    "play_match",
]
