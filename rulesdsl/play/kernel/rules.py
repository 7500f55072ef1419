"""The step functions of the built-in rules, on the kernel's state (cards as masks).

Each is the twin of a unit's step function (`rulesdsl.model.units`) that reads lists, and
takes the step's parameters and one int, `arg`: the value of a rule that has one (the draw
count, the fixed trump suit), else 0. `TWINS` pairs each unit's function with its twin;
`AT` lists, for each step, the functions the kernel may call there, in the order of their
codes (0 is the order of a trick where no rule acts): the twins, and the units' functions
that read only numbers the kernel's state holds alike (they run as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesdsl.model import units
from rulesdsl.model.state import NO_END
from rulesdsl.model.units import Step
from rulesdsl.play.engine.masks import cards_above, popcount, suit_cards
from rulesdsl.play.kernel.primitives import shuffle_cards

# -- step 1: the cards a player may play ---------------------------------------------


def follow_suit(s: Any, seat: int, allowed: int, arg: int) -> int:
    return s.holding


def suit_or_trump(s: Any, seat: int, allowed: int, arg: int) -> int:
    return allowed & (suit_cards(s.led) | suit_cards(s.trump)) if s.holding != 0 else 0


def trump_when_void(s: Any, seat: int, allowed: int, arg: int) -> int:
    return allowed & suit_cards(s.trump) if s.holding == 0 else allowed


def head_the_trick(s: Any, seat: int, allowed: int, arg: int) -> int:
    return allowed & beating(s.best, s.led, s.trump)


def trump_on_opening(s: Any, seat: int, allowed: int, arg: int) -> int:
    return allowed & suit_cards(s.trump) if s.opening != 0 else allowed


def beating(best: int, led: int, trump: int) -> int:
    """Every card that beats `best` in a trick led in `led` (steps.beats, as a set)."""
    if best < 0:
        return 0
    if best & 3 == trump:
        return suit_cards(trump) & cards_above(best)
    if best & 3 == led:
        return suit_cards(trump) | (suit_cards(led) & cards_above(best))
    return suit_cards(trump)


def played_cards(s: Any) -> int:
    """The cards played to this trick so far."""
    cards = 0
    for k in range(s.trick_len):
        cards |= 1 << s.trick[k]
    return cards


def played_by(s: Any, seat: int) -> int:
    """The card `seat` played to this trick, -1 for none. At a draw and at the end of a
    trick (the trick is complete, `s.trick_len` 0 again), the cards of the trick just won,
    which stay in `s.trick` until the next begins."""
    played = s.seats_len if s.trick_len == 0 and s.best >= 0 else s.trick_len
    for k in range(played):
        if s.trick_seats[k] == seat:
            return s.trick[k]
    return -1


def left_of(seat: int, players: int) -> int:
    """The seat clockwise after `seat` at a table of `players` (without a division)."""
    return seat + 1 if seat + 1 < players else 0


def clockwise_active(s: Any, first: int, seats: Any) -> int:
    """The seats still in the hand clockwise from `first`, written into `seats`; how many."""
    n = 0
    seat = first
    for _ in range(s.players):
        if s.active[seat] != 0:
            seats[n] = seat
            n += 1
        seat = left_of(seat, s.players)
    return n


def active_seats(s: Any) -> int:
    """The seats still in the hand, as a mask of seats."""
    seats = 0
    for seat in range(s.players):
        if s.active[seat] != 0:
            seats |= 1 << seat
    return seats


# -- the deal: the trump suit and the stock --------------------------------------------


def stock_from(s: Any, deck: Any, start: int, stop: int, n: int) -> None:
    """The stock is deck[start:stop], top first, on the `n` cards at its bottom already."""
    for k in range(stop - 1, start - 1, -1):
        s.stock[n] = deck[k]
        n += 1
    s.stock_len = n


def fixed_suit(s: Any, deck: Any, dealt: int, arg: int) -> None:
    s.trump = arg
    stock_from(s, deck, dealt, len(deck), 0)


def dealer_last_card(s: Any, deck: Any, dealt: int, arg: int) -> None:
    s.trump = deck[dealt - 1] & 3
    s.shown = deck[dealt - 1]
    stock_from(s, deck, dealt, len(deck), 0)


def stock_turnup(s: Any, deck: Any, dealt: int, arg: int) -> None:
    dealer_last_card(s, deck, dealt + 1, arg)  # the card after the deal, as the dealer's last


def stock_bottom(s: Any, deck: Any, dealt: int, arg: int) -> None:
    s.trump = deck[dealt] & 3
    s.shown = deck[dealt]
    s.stock[0] = deck[dealt]
    stock_from(s, deck, dealt + 1, len(deck), 1)


def no_trump(s: Any, deck: Any, dealt: int, arg: int) -> None:
    fixed_suit(s, deck, dealt, -1)


# -- step 4: who draws, how many, and an empty stock -------------------------------------


def everyone_draws(s: Any, arg: int) -> int:
    """Every active seat clockwise from the trick winner, in `s.drawers`; how many."""
    return clockwise_active(s, s.winner, s.drawers)


def per_card_in_trick(s: Any, seat: int, arg: int) -> int:
    return s.seats_len


def reshuffle(s: Any, arg: int) -> int:
    """The set-aside tricks, shuffled, are the new stock; whether there were any."""
    n = s.set_aside_len
    if n > 0:
        shuffle_cards(s, s.set_aside, n)
        stock_from(s, s.set_aside, 0, n, 0)
        s.set_aside_len = 0
    return 1 if n > 0 else 0


def play_on(s: Any, arg: int) -> int:
    return 1


# -- steps 5, 8, 9 and 10: the end of a hand, and the next lead -------------------------


def last_draw_wins(s: Any, seat: int, arg: int) -> int:
    return NO_END if s.stock_len > 0 else seat


def most_tricks(s: Any, arg: int) -> int:
    best = NO_END
    if s.stock_len == 0:
        best = 0
        for seat in range(1, s.players):
            won, most = s.tricks_won[seat], s.tricks_won[best]
            if won > most or (won == most and s.last_win[seat] > s.last_win[best]):
                best = seat
    return best


def cards_in_hand(s: Any, winner: int, arg: int) -> int:
    return popcount(s.hands[winner])


AT: dict[Step, tuple[Callable[..., Any], ...]] = {
    Step.FIRST_LEAD: (),
    Step.LEAD_FILTER: (trump_on_opening,),
    Step.FOLLOW_FILTER: (follow_suit, suit_or_trump, trump_when_void, head_the_trick),
    Step.TRUMP: (dealer_last_card, fixed_suit, stock_turnup, stock_bottom, no_trump),
    Step.DRAWERS: (everyone_draws,),
    Step.EXTRA_DRAW: (),
    Step.DRAW_COUNT: (units.draw.fixed_count, per_card_in_trick),
    Step.REFILL: (reshuffle, play_on),
    Step.DRAW_END: (last_draw_wins,),
    Step.OUT: (),
    Step.ALL_OUT: (units.all_out.no_winner,),
    Step.END_CHECK: (most_tricks,),
    Step.NEXT_LEAD: (units.next_lead.left_of_winner, units.next_lead.opening_leader),
    Step.SCORE: (units.scoring.one_point, cards_in_hand),
}
"""The functions the kernel may call at each step; a function's code is its place + 1."""

TWINS: dict[Callable[..., Any], Callable[..., Any]] = {
    getattr(unit, twin.__name__): twin
    for functions in AT.values()
    for twin in functions
    if twin.__module__ == __name__
    for unit in units.BUILT_IN
    if hasattr(unit, twin.__name__)
}
"""Each unit's step function that reads lists, and the kernel's twin of it on masks: the
function of `AT` defined here that bears its name. A unit's function that reads only what
the kernel's state holds alike is the kernel's own."""
