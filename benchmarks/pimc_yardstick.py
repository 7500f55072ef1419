"""A yardstick for search: the default rules (equal hands, section 1 of docs/rules.md) and a
determinized Monte-Carlo player written by hand in numba, with nothing configurable.

At every decision with more than one legal card the player draws WORLDS hidden deals
consistent with what its seat has seen (its own cards, every card played, the trump card
while the dealer still holds it, who has failed to follow which suit, how many cards each
player holds and the stock's size), plays each legal card in each world and plays the
world out at random, and keeps the card that won most often. All four seats play so.

This measures what search costs when nothing is configurable: the native engine's
`pimc:N` is held against it (benchmarks/native_speed.py). Run it alone:

    .venv/bin/python benchmarks/pimc_yardstick.py [--hands 2000] [--worlds 50]

It needs numba (`pip install -e '.[fast]'`).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

PLAYERS = 4
CARDS = 52
DEALT = PLAYERS * PLAYERS
ALL = (1 << CARDS) - 1
SUIT_MASKS = np.array([sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)], np.int64)

# The state of a hand, one int64 array, so a world is copied in one call.
HANDS = 0  # 4 masks
ACTIVE = 4  # 4 flags
REMAINING, LEADER, TRUMP, LED, BEST, WINNER = 8, 9, 10, 11, 12, 13
PLAYED, IN_TRICK, TO_MOVE, TOP, OVER, HAND_WINNER = 14, 15, 16, 17, 18, 19
SEEN, SHOWN, DEALER, VOIDS = 20, 21, 22, 23  # VOIDS: 4 masks of suits, one per seat
SIZE = 27

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def below(rng, n):
    """One of 0 .. n - 1, from the SplitMix64 stream in rng[0] (as rulesdsl.model.stream)."""
    z = rng[0] + GAMMA
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z ^= z >> np.uint64(31)
    return int((z >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


@njit(cache=True)
def count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True)
def nth(mask, k):
    """The k-th lowest card of a mask."""
    for _ in range(k):
        mask &= mask - 1
    low = mask & -mask
    card = 0
    while low > 1:
        low >>= 1
        card += 1
    return card


@njit(cache=True)
def deal(s, stock, deck, dealer):
    s[:] = 0
    for k in range(DEALT):
        s[HANDS + (dealer + 1 + k) % PLAYERS] |= 1 << deck[k]
    for seat in range(PLAYERS):
        s[ACTIVE + seat] = 1
    stock[: CARDS - DEALT] = deck[DEALT:]
    s[REMAINING] = PLAYERS
    s[LEADER] = (dealer + 1) % PLAYERS
    s[TO_MOVE] = s[LEADER]
    s[TRUMP] = deck[DEALT - 1] & 3
    s[LED] = -1
    s[SHOWN] = deck[DEALT - 1]
    s[DEALER] = dealer
    s[IN_TRICK] = PLAYERS


@njit(cache=True)
def legal(s, suits):
    hand = s[HANDS + s[TO_MOVE]]
    if s[LED] >= 0:
        follow = hand & suits[s[LED]]
        if follow:
            return follow
    return hand


@njit(cache=True)
def play(s, stock, suits, card):
    """The player to move plays `card`; a complete trick is resolved, drawn for and
    ended as section 2 of docs/rules.md says for the default profile."""
    seat = s[TO_MOVE]
    s[HANDS + seat] &= ~(1 << card)
    s[SEEN] |= 1 << card
    if card == s[SHOWN]:
        s[SHOWN] = -1
    if s[LED] < 0:
        s[LED] = card & 3
        s[BEST] = card
        s[WINNER] = seat
    else:
        if card & 3 != s[LED]:
            s[VOIDS + seat] |= 1 << s[LED]
        best, trump, led = s[BEST], s[TRUMP], s[LED]
        if card & 3 == trump:
            wins = best & 3 != trump or card > best
        else:
            wins = card > best and card & 3 == led and best & 3 == led
        if wins:
            s[BEST] = card
            s[WINNER] = seat
    s[PLAYED] += 1
    if s[PLAYED] < s[IN_TRICK]:
        nxt = (seat + 1) % PLAYERS
        while not s[ACTIVE + nxt]:
            nxt = (nxt + 1) % PLAYERS
        s[TO_MOVE] = nxt
        return
    winner = s[WINNER]
    if s[TOP] < CARDS - DEALT:  # step 4: the winner (active: after_draw) draws one
        s[HANDS + winner] |= 1 << stock[s[TOP]]
        s[TOP] += 1
        if s[TOP] == CARDS - DEALT:  # step 5: the last stock card ends the hand
            s[OVER] = 1
            s[HAND_WINNER] = winner
            return
    for q in range(PLAYERS):  # step 6
        if s[ACTIVE + q] and s[HANDS + q] == 0:
            s[ACTIVE + q] = 0
            s[REMAINING] -= 1
    if s[REMAINING] <= 1:  # step 7 (step 8 cannot happen: the winner holds a card)
        s[OVER] = 1
        for q in range(PLAYERS):
            if s[ACTIVE + q]:
                s[HAND_WINNER] = q
        return
    leader = winner
    while not s[ACTIVE + leader]:
        leader = (leader + 1) % PLAYERS
    s[LEADER] = leader
    s[TO_MOVE] = leader
    s[LED] = -1
    s[PLAYED] = 0
    s[IN_TRICK] = s[REMAINING]


@njit(cache=True)
def play_out(s, stock, suits, rng):
    while not s[OVER]:
        allowed = legal(s, suits)
        play(s, stock, suits, nth(allowed, below(rng, count(allowed))))
    return s[HAND_WINNER]


@njit(cache=True)
def sample(s, stock, suits, rng, world, world_stock):
    """A hidden deal consistent with what the seat to move has seen: False when the
    dealing ran into a corner (the caller draws again)."""
    me = s[TO_MOVE]
    world[:] = s
    hidden = ALL & ~s[SEEN] & ~s[HANDS + me]
    shown = s[SHOWN]
    if shown >= 0 and s[DEALER] != me:
        hidden &= ~(1 << shown)
    for q in range(PLAYERS):
        if q == me or not s[ACTIVE + q]:
            continue
        need = count(s[HANDS + q])
        mine = 0
        if shown >= 0 and q == s[DEALER]:
            mine = 1 << shown
            need -= 1
        allowed = hidden
        for suit in range(4):
            if s[VOIDS + q] & (1 << suit):
                allowed &= ~suits[suit]
        for _ in range(need):
            n = count(allowed)
            if n == 0:
                return False
            card = nth(allowed, below(rng, n))
            mine |= 1 << card
            allowed &= ~(1 << card)
            hidden &= ~(1 << card)
        world[HANDS + q] = mine
    left = CARDS - DEALT - s[TOP]
    for k in range(left):  # the stock, in a random order
        card = nth(hidden, below(rng, left - k))
        world_stock[s[TOP] + k] = card
        hidden &= ~(1 << card)
    return True


@njit(cache=True)
def decide(s, stock, suits, rng, worlds, world, world_stock, trial, trial_stock):
    allowed = legal(s, suits)
    n = count(allowed)
    if n == 1:
        return nth(allowed, 0)
    me = s[TO_MOVE]
    wins = np.zeros(n, np.int64)
    for _ in range(worlds):
        while not sample(s, stock, suits, rng, world, world_stock):
            pass
        for i in range(n):
            trial[:] = world
            trial_stock[:] = world_stock
            play(trial, trial_stock, suits, nth(allowed, i))
            if play_out(trial, trial_stock, suits, rng) == me:
                wins[i] += 1
    best = 0
    for i in range(1, n):
        if wins[i] > wins[best]:
            best = i
    return nth(allowed, best)


@njit(cache=True)
def play_hands(hands, seed, worlds, suits):
    """Play `hands` deals with pimc at every seat: hands won by seat relative to the
    dealer, and the card plays."""
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    deck = np.arange(CARDS)
    s = np.zeros(SIZE, np.int64)
    stock = np.zeros(CARDS, np.int64)
    world = np.zeros(SIZE, np.int64)
    world_stock = np.zeros(CARDS, np.int64)
    trial = np.zeros(SIZE, np.int64)
    trial_stock = np.zeros(CARDS, np.int64)
    won = np.zeros(PLAYERS, np.int64)
    plays = 0
    for h in range(hands):
        for i in range(CARDS - 1, 0, -1):
            j = below(rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        dealer = h % PLAYERS
        deal(s, stock, deck, dealer)
        while not s[OVER]:
            card = decide(s, stock, suits, rng, worlds, world, world_stock, trial, trial_stock)
            play(s, stock, suits, card)
            plays += 1
        won[(s[HAND_WINNER] - dealer) % PLAYERS] += 1
    return won, plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=50)
    args = parser.parse_args()
    start = time.perf_counter()
    play_hands(4, 1, 2, SUIT_MASKS)
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    won, plays = play_hands(args.hands, 7, args.worlds, SUIT_MASKS)
    seconds = time.perf_counter() - start
    shares = ", ".join(f"{w / args.hands:.1%}" for w in won)
    print(f"hand-written numba pimc:{args.worlds} at all four seats, default rules")
    print(f"  {args.hands / seconds:,.0f} hands/s ({plays / args.hands:.1f} plays a hand)")
    print(f"  win share by seat from the dealer: {shares}")
    print(f"  compile and first call: {compiled:.1f} s")


if __name__ == "__main__":
    main()
