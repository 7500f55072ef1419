"""A hand-written numba player of the default rules, the yardstick of the native path.

Equal hands, 4 players, 4 cards each, trump the suit of the dealer's last card, follow
suit, the winner draws one, the last draw wins; random play over 64-bit card masks with
the project's random stream, dealing from one int array shuffled in place as the native
kernels do. `benchmarks/native_speed.py` times it in process; as a whole process:

    .venv/bin/python benchmarks/yardstick_numba.py [--hands 20000] [--seed 0]

plays the hands and prints the cards played. Its own functions are compiled in every
process, never cached (no `cache=True`), so a whole process includes its JIT compile, as a
hand-written player's would. It draws the project's random stream (`rulesdsl.model.stream`)
with helpers of its own, so it plays the deals `simulate` plays.
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

from rulesdsl.model.stream import GAMMA, MIX1, MIX2, UNIT

PLAYERS = 4


@numba.njit
def new_stream(seed: int) -> np.ndarray:
    stream = np.zeros(2, np.uint64)
    stream[0] = np.uint64(seed)
    return stream


@numba.njit
def next_uniform(stream: np.ndarray) -> float:
    """The stream's next float in [0, 1), as `Stream.random()` draws it."""
    k = stream[1] + np.uint64(1)
    stream[1] = k
    z = stream[0] + k * np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return float((z ^ (z >> np.uint64(31))) >> np.uint64(11)) * UNIT


@numba.njit
def shuffle(cards: np.ndarray, stream: np.ndarray) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = int(next_uniform(stream) * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@numba.njit
def popcount(mask: int) -> int:
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((mask * 0x0101010101010101) & 0x7FFFFFFFFFFFFFFF) >> 56


@numba.njit
def nth(mask: int, index: int) -> int:
    """The card at `index` of the set in ascending order."""
    for _ in range(index):
        mask &= mask - 1
    return popcount((mask & -mask) - 1)


@numba.njit
def yardstick_hand(deck: np.ndarray, stream: np.ndarray, dealer: int) -> int:
    """One hand of the default rules (4 players, 4 cards each, trump the dealer's last
    card, follow suit, the winner draws one, the last draw wins); the cards played."""
    hands = np.zeros(PLAYERS, np.int64)
    for k in range(PLAYERS * PLAYERS):
        hands[(dealer + 1 + k) % PLAYERS] |= 1 << deck[k]
    trump = deck[PLAYERS * PLAYERS - 1] & 3
    top = len(deck) - 1  # the stock is deck[16:], drawn from its start
    drawn = PLAYERS * PLAYERS
    active = np.ones(PLAYERS, np.bool_)
    remaining = PLAYERS
    leader = (dealer + 1) % PLAYERS
    plays = 0
    while True:
        hand = hands[leader]
        best = nth(hand, int(next_uniform(stream) * popcount(hand)))
        hands[leader] = hand & ~(1 << best)
        led, winner, played = best & 3, leader, 1
        for step in range(1, PLAYERS):
            seat = (leader + step) % PLAYERS
            if not active[seat]:
                continue
            hand = hands[seat]
            suit = hand & (0x1111111111111 << led)
            allowed = suit if suit != 0 else hand
            card = nth(allowed, int(next_uniform(stream) * popcount(allowed)))
            hands[seat] = hand & ~(1 << card)
            played += 1
            if (card & 3 == trump and (best & 3 != trump or card > best)) or (
                card & 3 == led and best & 3 == led and card > best
            ):
                best, winner = card, seat
        plays += played
        if active[winner] and drawn <= top:
            hands[winner] |= 1 << deck[drawn]
            drawn += 1
            if drawn > top:
                return plays
        for seat in range(PLAYERS):
            if active[seat] and hands[seat] == 0:
                active[seat] = False
                remaining -= 1
        if remaining <= 1:
            return plays
        leader = winner
        while not active[leader]:
            leader = (leader + 1) % PLAYERS


@numba.njit
def yardstick(hands: int, seed: int) -> int:
    """`hands` hands; the cards played."""
    deals, bots = new_stream(seed), new_stream(seed + 1)
    plays = 0
    deck = np.arange(52)
    for unit in range(hands):
        shuffle(deck, deals)
        plays += yardstick_hand(deck, bots, unit % PLAYERS)
    return plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{args.hands} hands, {yardstick(args.hands, args.seed)} cards played")


if __name__ == "__main__":
    main()
