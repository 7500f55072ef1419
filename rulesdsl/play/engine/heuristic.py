"""The heuristic bot's choice, written once on a set of cards: the reference engine's bot
(`rulesdsl.play.players.bots`), the pure-Python fast path (`fast.py`) and the kernel,
compiled or not, all play by it."""

from __future__ import annotations

from rulesdsl.play.engine.masks import cards_above, highest, lowest, popcount, suit_cards


def heuristic_card(allowed: int, trump: int, led: int, best: int, last: bool) -> int:
    """The heuristic bot's card of the set `allowed`: leading, a card of its highest side
    rank (its highest trump when it holds only trumps); following, a side card that wins the
    trick (the lowest when last to play, else the highest), else its lowest winning trump
    when last to play or holding no side card, else its lowest side card."""
    if popcount(allowed) == 1:
        return lowest(allowed)
    side = allowed & ~suit_cards(trump)
    if best < 0:
        if side == 0:
            return highest(allowed)
        top = highest(side) >> 2
        return lowest(side & (15 << (top * 4)))
    bs = best & 3
    winners = allowed & suit_cards(trump)
    if bs == trump:
        winners &= cards_above(best)
    if bs == led:
        winners |= allowed & suit_cards(led) & cards_above(best)
    side_winners = winners & ~suit_cards(trump)
    if side_winners != 0:
        return lowest(side_winners) if last else highest(side_winners)
    if winners != 0 and (last or side == 0):
        return lowest(winners)
    return lowest(side) if side != 0 else lowest(allowed)
