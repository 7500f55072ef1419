"""Helpers shared by the tests: card lists and deck orders built from the hands wanted."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.cards import FULL_DECK, Card, parse_cards


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def deck_order(hands: Sequence[str], stock: str = "", dealer: int = 0) -> list[Card]:
    """The deck order that deals `hands` (one string per seat, in the order each seat
    receives its cards) with `dealer` dealing, followed by `stock` and then every other card."""
    players = len(hands)
    wanted = [cards(h) for h in hands]
    size = len(wanted[0])
    order = [wanted[(dealer + 1 + k) % players][k // players] for k in range(players * size)]
    order += cards(stock)
    return order + [c for c in FULL_DECK if c not in order]


def deck_text(order: Sequence[Card]) -> str:
    return " ".join(str(c) for c in order)
