"""The loops over chunks of deals, as compiled code runs them: the text of each generated
module ends with these functions (`kernel.py` names the hand functions they call).

A call plays several chunks, one after the other: chunk `k` is the deals `starts[k]` ..
`starts[k] + counts[k] - 1`, shuffled from the deals' stream `deal_seeds[k]`, each deal
taking the next number of it as its hand seed, as `rulesdsl.reason.sim` deals; the dealer of deal
`unit` is `unit % players`. Random bots draw from the chunk's stream `bot_seeds[k]`.
"""

# ruff: noqa: F821  (the names are the generated module's)

from __future__ import annotations

from typing import Any


def play_deals(
    cards: Any, deal_seeds: Any, bot_seeds: Any, starts: Any, counts: Any, players: int
) -> Any:
    """Every deal of the chunks, each played by `seated(seat, ...)` for the seat of the
    deal (the one a heuristic bot takes in the skill games, turning relative to the dealer
    every `players` deals): rows, trick winners, eliminations. `kernel.py` makes one copy
    per hand function, `seated` naming a dispatcher over them."""
    out = np.zeros((counts.sum(), FIELD_COUNT), np.int64)
    trick_winners = [0 for _ in range(0)]
    eliminated = [0 for _ in range(0)]
    row = 0
    deck = np.empty(len(cards), np.int64)  # each deal's order, dealt in this one array
    for piece in range(len(starts)):
        deals = new_stream(deal_seeds[piece])
        bots = new_stream(bot_seeds[piece])
        for unit in range(starts[piece], starts[piece] + counts[piece]):
            deck[:] = cards
            shuffle(deck, deals)
            hand_seed = next_seed(deals)
            dealer = unit % players
            seat = (dealer + unit // players) % players
            seated(seat, deck, hand_seed, bots, dealer, out, row, trick_winners, eliminated)
            row += 1
    return out, np.array(trick_winners, np.int64), np.array(eliminated, np.int64)
