"""rulesdsl: a rules-variant DSL and interpreter for the card game Linger Longer.

The public API: rules from options, a hand you can step through, matches, and bots.
"""

from rulesdsl.bots import BOTS, make_bot
from rulesdsl.cards import Card, Suit, parse_cards, parse_deck
from rulesdsl.engine import (
    Hand,
    HandOutcome,
    IllegalMove,
    Match,
    Player,
    Refusal,
    play_hand,
    play_match,
)
from rulesdsl.rules import DEFAULT_RULES, OPTIONS, Rules, RulesError

__all__ = [
    "BOTS",
    "DEFAULT_RULES",
    "OPTIONS",
    "Card",
    "Hand",
    "HandOutcome",
    "IllegalMove",
    "Match",
    "Player",
    "Refusal",
    "Rules",
    "RulesError",
    "Suit",
    "make_bot",
    "parse_cards",
    "parse_deck",
    "play_hand",
    "play_match",
]
