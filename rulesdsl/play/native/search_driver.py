"""The steps of a hand that the compiled search plays one at a time (`search.py`), over the
int State and the profile's Plan, as `driver.py`'s drivers are: `inline.py` specialises
each for a profile and `lower.py` makes it numba's, so the legality a sampled world is
checked against is the engine's own, options and profile-stated rules alike.

A position between tricks is held in arrays, as `driver.play_rest` reads one: each seat's
cards (a row of `table`, -1 for no card), the stock (top card last, padded with -1), the
cards set aside (padded), `heads` (the trump and the leader), the seats out (1 for out),
the counters (`COUNTS`), each seat's tricks won and last trick won, and the stream of
reshuffles as far as it is drawn. The cards already `played` to the trick (from the
leader on, padded with -1) go with it.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.model.state import State, reshuffle_rng
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.fast import HandTable, deal_hands
from rulesdsl.play.native.driver import SEATS, record, replay_trick, restore

COUNTS = ("trick_number", "trumps_broken", "first_leader", "plays", "saves", "fired", "opening")
"""The counters of a position, in the order of its `counts` array (as `play_rest`'s)."""


def store(
    s: State,
    table: Any,
    stock: Any,
    set_aside: Any,
    heads: Any,
    out_seats: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    players: int,
) -> None:
    """Write the position of `s` between tricks into the arrays (the reshuffles' stream is
    the array `s.rng` itself)."""
    for seat in range(players):
        cards = s.hands[seat]
        for k in range(table.shape[1]):
            table[seat, k] = cards[k] if k < len(cards) else -1
        out_seats[seat] = 0 if s.active[seat] else 1
        tricks_won[seat] = s.tricks_won[seat]
        last_win[seat] = s.last_win[seat]
    left = s.stock
    for k in range(len(stock)):
        stock[k] = left[k] if k < len(left) else -1
    aside = s.set_aside
    for k in range(len(set_aside)):
        set_aside[k] = aside[k] if k < len(aside) else -1
    heads[0] = s.trump
    heads[1] = s.leader
    counts[0] = s.trick_number
    counts[1] = 1 if s.trumps_broken else 0
    counts[2] = s.first_leader
    counts[3] = s.plays
    counts[4] = s.saves
    counts[5] = s.fired
    counts[6] = 1 if s.opening else 0
    return None


def deal_position(
    t: HandTable,
    deck: Any,
    hand_seed: int,
    dealer: int,
    order: Any,
    table: Any,
    stock: Any,
    set_aside: Any,
    heads: Any,
    out_seats: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
) -> None:
    """Deal the hand as `fast.play` does: the deck order as the engine plays it goes to
    `order`, the position before the first trick to the arrays."""
    cards = [c for c in deck]
    if t.own_order:
        cards = [t.recode[c] for c in cards]
    for k in range(len(cards)):
        order[k] = cards[k]
    hands = deal_hands(cards, dealer, t.players, t.dealt)
    trump, rest = t.trump_of(cards, t.dealt)
    rest.reverse()
    s = State(hands, rest, trump, (dealer + 1) % t.players, [True] * t.players, False)
    s.hand_seed = hand_seed
    rng = reshuffle_rng(s)
    reshuffles[0] = rng[0]
    reshuffles[1] = rng[1]
    store(s, table, stock, set_aside, heads, out_seats, counts, tricks_won, last_win, t.players)
    return None


def legal_at(
    t: HandTable,
    table: Any,
    stock: Any,
    set_aside: Any,
    heads: Any,
    out_seats: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
    played: Any,
    held: Any,
    swap: bool,
    picks: Any,
    rng: Any,
) -> tuple[int, int, int, int, int, bool, int]:
    """The cards the seat to move may play after `played` (as a mask: bit `card` for each),
    holding its own cards or (with `swap`) those of the row `held` instead (padded with
    -1); the card its bot picks (drawing from `rng`) where `picks[seat]` is 1, else -1;
    the led suit, the best card so far, the seat, whether it plays last and how many seats
    play to the trick."""
    hands = [sorted([c for c in table[seat] if c >= 0]) for seat in range(t.players)]
    active = [out_seats[seat] == 0 for seat in range(t.players)]
    s = State(hands, [c for c in stock if c >= 0], heads[0], heads[1], active, False)
    restore(s, set_aside, counts, tricks_won, last_win, reshuffles, t.players)
    done = replay_trick(t, s, played)
    seats = s.trick_seats
    seat = seats[done]
    if swap:
        s.hands[seat] = sorted([c for c in held if c >= 0])
    if done == 0:
        allowed = steps.allowed_cards(s, t.plan.lead_rules, seat)
    else:
        allowed = steps.follow_allowed(s, t.plan, seat)
    last = seat == seats[len(seats) - 1]
    card = -1
    if picks[seat] == 1:
        card = t.pick(s, seat, allowed, rng.random, last)
    cards = 0
    for c in allowed:
        cards |= 1 << c
    return cards, card, s.led, s.best, seat, last, len(seats)


def finish_at(
    t: HandTable,
    table: Any,
    stock: Any,
    set_aside: Any,
    heads: Any,
    out_seats: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
    played: Any,
    out: Any,
    row: int,
    trick_winners: list[int],
    eliminated: list[int],
) -> bool:
    """Play the trick of `played` (every seat's card) and finish it: the position after it
    goes back into the arrays, its winner and eliminations onto the lists and, when the
    hand is over, the hand's numbers into `out[row]`. Whether the hand is over."""
    hands = [sorted([c for c in table[seat] if c >= 0]) for seat in range(t.players)]
    active = [out_seats[seat] == 0 for seat in range(t.players)]
    s = State(hands, [c for c in stock if c >= 0], heads[0], heads[1], active, False)
    restore(s, set_aside, counts, tricks_won, last_win, reshuffles, t.players)
    replay_trick(t, s, played)
    steps.finish_trick(s, t.plan)
    store(s, table, stock, set_aside, heads, out_seats, counts, tricks_won, last_win, t.players)
    for seat in s.trick_winners:
        trick_winners.append(seat)
    for trick, seat in s.eliminated:
        eliminated.append(trick * SEATS + seat)
    if s.over:
        record(s, t.plan, out, row, trick_winners, eliminated, False)
    return s.over
