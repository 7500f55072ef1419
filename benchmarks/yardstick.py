"""A minimal player of the default rules with random play, written for speed alone.

It knows one rule set (equal hands, 4 players by default): cards are ints (rank * 4 +
suit), there are no events, options or checks. It shuffles as `simulate` does. It exists
only to measure rulesdsl's simulation against; `benchmarks/sim_speed.py` runs both side
by side.
"""

from __future__ import annotations

import random

from rulesdsl.model.seeds import shuffle


def play_hand(rng: random.Random, players: int = 4) -> tuple[int, int]:
    """One hand; returns (winner, cards played)."""
    uniform = rng.random
    deck = list(range(52))
    shuffle(deck, rng)
    dealer = int(uniform() * players)
    hands: list[list[int]] = [[] for _ in range(players)]
    dealt = players * players
    for k in range(dealt):
        hands[(dealer + 1 + k) % players].append(deck[k])
    trump = deck[dealt - 1] & 3
    stock = deck[dealt:]
    stock.reverse()
    active = [True] * players
    remaining = players
    leader = (dealer + 1) % players
    plays = 0
    while True:
        order = [s % players for s in range(leader, leader + players) if active[s % players]]
        hand = hands[order[0]]
        best = hand.pop(int(uniform() * len(hand)))
        led = best & 3
        winner = order[0]
        for seat in order[1:]:
            hand = hands[seat]
            follow = [i for i, c in enumerate(hand) if c & 3 == led]
            index = follow[int(uniform() * len(follow))] if follow else int(uniform() * len(hand))
            card = hand.pop(index)
            suit = card & 3
            if (suit == best & 3 and card > best) or (suit == trump and best & 3 != trump):
                best, winner = card, seat
        plays += len(order)
        if stock:
            hands[winner].append(stock.pop())
            if not stock:
                return winner, plays
        for seat in order:
            if not hands[seat]:
                active[seat] = False
                remaining -= 1
        if remaining == 1:
            return active.index(True), plays
        leader = winner
        while not active[leader]:
            leader = (leader + 1) % players


def play(hands: int, seed: int = 0, players: int = 4) -> int:
    """Play `hands` hands; returns the cards played."""
    rng = random.Random(seed)
    return sum(play_hand(rng, players)[1] for _ in range(hands))
