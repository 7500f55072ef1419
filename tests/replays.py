"""A hand replayed through the reference engine, for the search tests: they check the
sampler and the bots against it, so it must not be the sampler's own replay."""

from __future__ import annotations

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.hand import Hand, IllegalMove
from rulesdsl.play.players.bots import HeuristicBot


def replay(
    rules: Rules,
    players: int,
    order: list[Card],
    plays: list[Card],
    read: frozenset[int] = frozenset(),
) -> Hand | None:
    """The hand dealt from `order` by seat 0 with `plays` played, or None if one is illegal
    or one by a seat of `read` is not the heuristic bot's card."""
    hand = Hand.deal(rules, players, 0, order=order)
    try:
        for card in plays:
            if hand.to_move in read and HeuristicBot().choose(hand, hand.legal_moves()) != card:
                return None
            hand.play(card)
    except IllegalMove:
        return None
    return hand
