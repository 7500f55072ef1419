"""The native path's driver: `fast.play` with the hand's result written as numbers.

`play_native` deals and plays one hand exactly as `rulesdsl.play.engine.fast.play` does, through
the same skeleton and the profile's Plan, and writes what the hand came to into a row of
an int array (the fields of FIELDS) and, with `details`, two flat lists (each trick's
winner; each player out as `trick * SEATS + seat`); without them (simulate counts rows)
the hand keeps no list of them either. `inline.py` specialises it for a profile and `lower.py`
makes the result numba's; `hand_result` reads a row back as the HandResult the other
engines give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesdsl.model.result import HandResult
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.fast import REASONS, SUITS, HandTable, deal_hands, play_tricks
from rulesdsl.play.engine.steps import Plan

FIELDS = (
    "winner",
    "reason",
    "tricks",
    "stock_left",
    "trump",
    "winner_cards",
    "plays",
    "saves",
    "fired",
    "points",
    "eliminated",
)
"""The numbers of a hand, in the order of a row."""

(
    WINNER,
    REASON,
    TRICKS,
    STOCK_LEFT,
    TRUMP,
    WINNER_CARDS,
    PLAYS,
    SAVES,
    FIRED,
    POINTS,
    ELIMINATED,
) = range(len(FIELDS))

NO_POINTS = -(1 << 62)
"""`points` of a hand without a winner."""

SEATS = 16
"""An elimination is written `trick * SEATS + seat`; a table has fewer seats."""


def record(
    s: State,
    p: Plan,
    out: Any,
    row: int,
    trick_winners: list[int],
    eliminated: list[int],
    details: bool,
) -> None:
    """Write the finished hand into `out[row]` and, with `details`, the two lists."""
    won = s.hand_winner
    out[row, WINNER] = won
    out[row, REASON] = s.end_reason
    out[row, TRICKS] = s.trick_number
    out[row, STOCK_LEFT] = len(s.stock)
    out[row, TRUMP] = s.trump
    out[row, WINNER_CARDS] = len(s.hands[won]) if won >= 0 else 0
    out[row, PLAYS] = s.plays
    out[row, SAVES] = s.saves
    points = NO_POINTS
    if won >= 0:
        points = steps.hand_points(s, p)
    out[row, FIRED] = s.fired
    out[row, POINTS] = points
    out[row, ELIMINATED] = len(s.eliminated)
    if details:
        for seat in s.trick_winners:
            trick_winners.append(seat)
        for trick, seat in s.eliminated:
            eliminated.append(trick * SEATS + seat)
    return None


def play_native(
    t: HandTable,
    details: bool,
    deck: list[int],
    hand_seed: int,
    rng: Any,
    dealer: int,
    out: Any,
    row: int,
    trick_winners: list[int],
    eliminated: list[int],
) -> None:
    """Deal and play one hand as `fast.play` does; its result goes to `record`."""
    if t.own_order:
        deck = [t.recode[c] for c in deck]
    hands = deal_hands(deck, dealer, t.players, t.dealt)
    trump, stock = t.trump_of(deck, t.dealt)
    stock.reverse()
    s = State(hands, stock, trump, (dealer + 1) % t.players, [True] * t.players, False)
    s.hand_seed = hand_seed
    play_tricks(s, t.plan, t.pick, rng.random)
    record(s, t.plan, out, row, trick_winners, eliminated, details)
    return None


def play_on(
    t: HandTable,
    details: bool,
    table: Any,
    stock: Any,
    set_aside: Any,
    trump: int,
    leader: int,
    out_seats: Any,
    opening: bool,
    seed: int,
    played: Any,
    rng: Any,
    out: Any,
    row: int,
    trick_winners: list[int],
    eliminated: list[int],
) -> None:
    """Play on from a position, as `Hand.from_position` sets one up and the reference
    engine plays it: each seat's cards (a row of `table`, -1 for no card), the stock (its
    top card last), the cards set aside, the trump (-1 for none), the leader, the seats out
    (1 for out), whether the next lead opens the hand, the reshuffles' seed, and the cards
    already `played` to this trick from the leader on (-1 for none). Cards are ints as the
    engine plays them (strength * 4 + suit)."""
    hands = [sorted([c for c in table[seat] if c >= 0]) for seat in range(t.players)]
    active = [out_seats[seat] == 0 and len(hands[seat]) > 0 for seat in range(t.players)]
    s = State(hands, [c for c in stock], trump, leader, active, False)
    s.set_aside = [c for c in set_aside]
    s.opening = opening
    s.rng = Stream(seed)
    play_trick_on(t, s, played, rng)
    play_tricks(s, t.plan, t.pick, rng.random)
    record(s, t.plan, out, row, trick_winners, eliminated, details)
    return None


def replay_trick(t: HandTable, s: State, played: Any) -> int:
    """Begin the trick and play to it the cards `played` (from the leader on, -1 for
    none), each checked by the play rules as it is played: how many were."""
    steps.start_trick(s)
    cards = [c for c in played if c >= 0]
    seats = s.trick_seats
    for k in range(len(cards)):
        if k == 0:
            steps.allowed_cards(s, t.plan.lead_rules, seats[0])
            steps.lead_card(s, seats[0], cards[0])
        else:
            steps.follow_allowed(s, t.plan, seats[k])
            steps.follow_card(s, seats[k], cards[k])
    return len(cards)


def play_trick_on(t: HandTable, s: State, played: Any, rng: Any) -> None:
    """Begin a trick, play to it the cards `played` from the leader on (-1 for none) and,
    if any were, finish it with the bots."""
    done = replay_trick(t, s, played)
    if done > 0:
        seats = s.trick_seats
        last = seats[-1]
        for k in range(done, len(seats)):
            seat = seats[k]
            allowed = steps.follow_allowed(s, t.plan, seat)
            card = t.pick(s, seat, allowed, rng.random, seat == last)
            steps.follow_card(s, seat, card)
        steps.finish_trick(s, t.plan)
    return None


def restore(
    s: State,
    set_aside: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
    players: int,
) -> None:
    """Put the position's counters, tricks and cards set aside into `s`."""
    s.set_aside = [c for c in set_aside if c >= 0]
    s.trick_number = counts[0]
    s.trumps_broken = counts[1] == 1
    s.first_leader = counts[2]
    s.plays = counts[3]
    s.saves = counts[4]
    s.fired = counts[5]
    s.opening = counts[6] == 1
    s.tricks_won = [0] * players  # filled seat by seat: a profile that never reads them
    s.last_win = [0] * players  # drops them (a comprehension would be kept, for its call)
    for seat in range(players):
        s.tricks_won[seat] = tricks_won[seat]
        s.last_win[seat] = last_win[seat]
    s.rng = reshuffles
    return None


def play_rest(
    t: HandTable,
    details: bool,
    table: Any,
    stock: Any,
    set_aside: Any,
    trump: int,
    leader: int,
    out_seats: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
    played: Any,
    rng: Any,
    out: Any,
    row: int,
    trick_winners: list[int],
    eliminated: list[int],
) -> None:
    """Play on from a hand in progress, its counters kept: as `play_on` (each seat's
    cards with those it has `played` to this trick), with `counts` holding the tricks
    played, whether trumps are broken, the hand's first leader, the plays, the saves,
    the rules fired and whether the next lead opens the hand; each seat's tricks won and
    last trick won; and `reshuffles` the stream of reshuffles as far as it is drawn."""
    hands = [sorted([c for c in table[seat] if c >= 0]) for seat in range(t.players)]
    active = [out_seats[seat] == 0 for seat in range(t.players)]
    s = State(hands, [c for c in stock if c >= 0], trump, leader, active, False)
    restore(s, set_aside, counts, tricks_won, last_win, reshuffles, t.players)
    play_trick_on(t, s, played, rng)
    play_tricks(s, t.plan, t.pick, rng.random)
    record(s, t.plan, out, row, trick_winners, eliminated, details)
    return None


def play_rests(
    tables: Any,
    stocks: Any,
    set_asides: Any,
    trumps: Any,
    leaders: Any,
    outs: Any,
    counts: Any,
    tricks_won: Any,
    last_win: Any,
    reshuffles: Any,
    played: Any,
    rngs: Any,
    out: Any,
) -> None:
    """`play_rest` for each row of the arrays (stocks, cards set aside and cards played
    padded with -1),
    the k-th hand's numbers in `out[k]`; `kernel.py` compiles it beside the hands."""
    for k in range(len(trumps)):
        trick_winners = [0][:0]
        eliminated = [0][:0]
        play_rest(
            tables[k],
            stocks[k],
            set_asides[k],
            trumps[k],
            leaders[k],
            outs[k],
            counts[k],
            tricks_won[k],
            last_win[k],
            reshuffles[k],
            played[k],
            rngs[k],
            out,
            k,
            trick_winners,
            eliminated,
        )


def hand_result(
    row: Sequence[int],
    trick_winners: Sequence[int],
    eliminated: Sequence[int],
    plan: Plan,
) -> HandResult:
    """The HandResult of one row, its trick winners and its eliminations."""
    won = int(row[WINNER])
    points = int(row[POINTS])
    return HandResult(
        None if won < 0 else won,
        REASONS[row[REASON]],
        int(row[TRICKS]),
        tuple((int(e) // SEATS, int(e) % SEATS) for e in eliminated),
        int(row[STOCK_LEFT]),
        SUITS[row[TRUMP]],
        tuple(int(w) for w in trick_winners),
        int(row[WINNER_CARDS]),
        int(row[PLAYS]),
        int(row[SAVES]),
        plan.fired_names[int(row[FIRED])],
        None if points == NO_POINTS else points,
    )
