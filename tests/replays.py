"""A hand replayed through the reference engine, for the search tests: they check the
sampler and the bots against it, so it must not be the sampler's own replay."""

from __future__ import annotations

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.hand import Hand, IllegalMove


def replay(rules: Rules, players: int, order: list[Card], plays: list[Card]) -> Hand | None:
    """The hand dealt from `order` by seat 0 with `plays` played, or None if one is illegal."""
    hand = Hand.deal(rules, players, 0, order=order)
    try:
        for card in plays:
            hand.play(card)
    except IllegalMove:
        return None
    return hand
