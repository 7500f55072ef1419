"""The loops over a chunk of deals, as compiled code runs them: the text of each generated
module ends with these functions (`kernel.py` names the hand functions they call).

Each deal is shuffled from the deals' stream and takes the next number of it as its hand
seed, as `rulesdsl.sim` deals; the dealer of deal `unit` is `unit % players`. Random bots
draw from one stream through the chunk.
"""

# ruff: noqa: F821  (the names are the generated module's)

from __future__ import annotations

from typing import Any


def play_deals(
    cards: Any, deal_seed: int, bot_seed: int, first: int, count: int, players: int
) -> Any:
    """Every deal of the chunk with the profile's bots: rows, trick winners, eliminations."""
    out = np.zeros((count, FIELD_COUNT), np.int64)
    trick_winners = [0 for _ in range(0)]
    eliminated = [0 for _ in range(0)]
    deals = new_stream(deal_seed)
    bots = new_stream(bot_seed)
    for row in range(count):
        deck = [c for c in cards]
        shuffle(deck, deals)
        hand_seed = next_seed(deals)
        dealer = (first + row) % players
        hand(deck, hand_seed, bots, dealer, out, row, trick_winners, eliminated)
    return out, np.array(trick_winners, np.int64), np.array(eliminated, np.int64)


def play_skill(
    cards: Any, deal_seed: int, bot_seed: int, first: int, count: int, players: int
) -> Any:
    """Every deal of the chunk with the heuristic bot at one seat, turning relative to the
    dealer every `players` deals, and random bots elsewhere."""
    out = np.zeros((count, FIELD_COUNT), np.int64)
    trick_winners = [0 for _ in range(0)]
    eliminated = [0 for _ in range(0)]
    deals = new_stream(deal_seed)
    bots = new_stream(bot_seed)
    for row in range(count):
        deck = [c for c in cards]
        shuffle(deck, deals)
        hand_seed = next_seed(deals)
        unit = first + row
        dealer = unit % players
        seat = (dealer + unit // players) % players
        skill(seat, deck, hand_seed, bots, dealer, out, row, trick_winners, eliminated)
    return out, np.array(trick_winners, np.int64), np.array(eliminated, np.int64)
