"""The order of a trick (docs/rules.md, "The order of a trick") on the kernel's state, asking
the plan at each step: the deal, the tricks and the bots, for one hand.

CPython runs these functions as they are; the native build compiles the same text with
numba. So they are written in the part of Python both run alike: ints, `s.field` and
`s.field[i]`, loops and `if`, calls of the kernel's own functions.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.model.state import (
    ALL_OUT,
    LAST_PLAYER,
    NO_CARD,
    NO_END,
    TRICK_LIMIT,
    TRICK_LIMIT_TRICKS,
    beats,
)
from rulesdsl.play.engine.heuristic import heuristic_card
from rulesdsl.play.engine.masks import highest, lowest, nth, popcount, suit_cards
from rulesdsl.play.engine.steps import winner_leads
from rulesdsl.play.kernel.dispatch import (
    all_out_at,
    also_draws_at,
    count_at,
    deal_trump,
    draw_end_at,
    drawers_at,
    end_at,
    first_lead_at,
    follow_filter,
    lead_filter,
    next_lead_at,
    out_at,
    refill_at,
    score_at,
)
from rulesdsl.play.kernel.primitives import stream_number, uniform
from rulesdsl.play.kernel.rules import active_seats, clockwise_active, left_of, played_cards
from rulesdsl.play.kernel.state import SEATS, clear_hand

RANDOM, LOWEST, HIGHEST, HEURISTIC, PLAYOUT = range(5)
"""The bots the kernel plays, by their index in `rulesdsl.play.engine.fast.BOTS`."""
EXPLORE = 0.2
"""The chance that the playout policy plays a random legal card."""

# -- the deal ---------------------------------------------------------------------------


def lead_first(s: Any, p: Any) -> None:
    """After the deal, who leads the first trick, as `rulesdsl.play.engine.steps.lead_first`
    decides it: the first rule the profile states that names a seat still in, with cards."""
    for k in range(p.first_len):
        seat = first_lead_at(p.first_code[k], p, s, p.first_arg[k])
        if seat >= 0 and s.active[seat] == 1 and s.hands[seat] != 0:
            if seat != s.leader:
                s.fired |= p.first_bit[k]
                s.leader = seat
                s.first_leader = seat
            return


def deal(s: Any, p: Any, deck: Any, players: int, dealt: int, dealer: int, seed: int) -> None:
    """Deal `deck` (cards as the profile ranks them): card k to seat dealer + 1 + k, the
    first `dealt`; then the trump and the stock. `seed` seeds the reshuffles."""
    clear_hand(s)
    s.players = players
    for seat in range(SEATS):
        s.active[seat] = 1 if seat < players else 0
    seat = dealer
    for k in range(dealt):
        seat = left_of(seat, players)
        s.hands[seat] = s.hands[seat] | (1 << deck[k])
    deal_trump(p.trump_code, s, deck, dealt, p.trump_arg)
    s.remaining = players
    s.leader = left_of(dealer, players)
    s.first_leader = s.leader
    s.shuffle_seed = stream_number(seed, 1)
    if p.remembers != 0:
        start_memory(s)
    lead_first(s, p)


def start_memory(s: Any) -> None:
    """The hand's memory, at the deal: no trick won (the none before the first); its other
    fields are cleared with the hand's (`clear_hand`)."""
    for seat in range(SEATS):
        s.history_plays[seat] = -1
    s.history_leader[0] = -1
    s.history_led[0] = NO_CARD
    s.history_best[0] = NO_CARD
    s.history_cards[0] = 0
    s.remembered = 1


# -- step 1 and 2: the cards played ------------------------------------------------------


def start_trick(s: Any) -> None:
    """The active seats clockwise from the leader play to this trick."""
    s.seats_len = clockwise_active(s, s.leader, s.trick_seats)
    s.trick_len = 0
    s.led = NO_CARD
    s.best = NO_CARD
    s.winner = -1


def allowed_for(s: Any, p: Any, seat: int) -> int:
    """The cards `seat`, to move, may play: each play rule (the lead's, or a follower's)
    keeps some of those the rules before it allowed; a rule that would keep none does not
    apply (so none applies to one card). A follower's `s.holding` is what it holds of the
    led suit."""
    allowed = s.hands[seat]
    leading = s.trick_len == 0
    if not leading:
        s.holding = allowed & suit_cards(s.led)
    for k in range(p.lead_len if leading else p.follow_len):
        if allowed & (allowed - 1) != 0:
            if leading:
                kept = lead_filter(p.lead_code[k], p, s, seat, allowed, p.lead_arg[k])
            else:
                kept = follow_filter(p.follow_code[k], p, s, seat, allowed, p.follow_arg[k])
            if kept != 0 and popcount(kept) < popcount(allowed):
                s.fired |= p.lead_bit[k] if leading else p.follow_bit[k]
                allowed = kept
    return allowed


def play_card(s: Any, seat: int, card: int) -> None:
    """`seat` plays `card` to the trick: the lead names the led suit; is it the best."""
    s.hands[seat] = s.hands[seat] & ~(1 << card)
    s.trick[s.trick_len] = card
    s.trick_len += 1
    if s.best < 0:
        s.led = card & 3
    if s.best < 0 or beats(card, s.best, s.led, s.trump):
        s.best = card
        s.winner = seat


# -- steps 3 to 10 ----------------------------------------------------------------------


def eliminate(s: Any, number: int) -> None:
    """Every player of the trick with no cards is out, in the order they played."""
    for k in range(s.seats_len):
        seat = s.trick_seats[k]
        if s.hands[seat] == 0:
            put_out(s, seat, number)


def put_out(s: Any, seat: int, number: int) -> None:
    """`seat` is out, at the end of trick `number`."""
    s.active[seat] = 0
    s.remaining -= 1
    s.eliminated[s.eliminated_len] = number * SEATS + seat
    s.eliminated_len += 1


def eliminate_ruled(s: Any, p: Any, number: int) -> None:
    """Step 6 where the profile's rules say who is out, as
    `rulesdsl.play.engine.steps.eliminate_ruled` does it: the players they put out and,
    where empty hands go out at step 6, the empty hands, in the order they played to the
    trick. Each rule fires where it puts out a player no earlier rule or empty hand did;
    the cards of a player a rule puts out leave play."""
    in_trick = 0
    out = 0  # the empty hands that go out at step 6, then the players the rules put out
    for k in range(s.seats_len):
        seat = s.trick_seats[k]
        in_trick |= 1 << seat
        if p.eliminate == 0 and s.hands[seat] == 0:
            out |= 1 << seat
    for k in range(p.out_len):
        gone = out_at(p.out_code[k], p, s, p.out_arg[k]) & in_trick & ~out
        if gone != 0:
            s.fired |= p.out_bit[k]
        out |= gone
    for k in range(s.seats_len):
        seat = s.trick_seats[k]
        if s.active[seat] != 0 and out & (1 << seat) != 0:
            s.hands[seat] = 0
            put_out(s, seat, number)


def draw_cards(s: Any, p: Any, seat: int, wanted: int) -> int:
    """`seat` draws up to `wanted` cards from the top of the stock, which the exhaustion
    rule may refill as it runs out; how many it drew."""
    drawn = 0
    for _ in range(wanted):
        if s.stock_len == 0:
            if refill_at(p.refill_code, s, p.refill_arg) != 0:
                s.fired |= p.refill_bit
            if s.stock_len == 0:
                break
            s.refills += 1
        s.stock_len -= 1
        s.hands[seat] = s.hands[seat] | (1 << s.stock[s.stock_len])
        drawn += 1
    return drawn


def count_for(s: Any, p: Any, seat: int) -> int:
    """The cards `seat` is to draw. A count the profile states in an option's place fires
    where the two differ and the stock (with the cards a reshuffle would bring) holds more
    than the smaller."""
    wanted = count_at(p.count_code, p, s, seat, p.count_arg)
    if p.count_replaces != 0:
        instead = count_at(p.count_instead_code, p, s, seat, p.count_instead_arg)
        there = s.stock_len + (s.set_aside_len if p.reshuffles != 0 else 0)
        if wanted != instead and min(wanted, instead) < there:
            s.fired |= p.count_bit
    return wanted


def draw_for(s: Any, p: Any, seat: int) -> int:
    """`seat` draws its count; an option's count fires when it takes cards, and the rule of
    who draws when another than the trick winner draws."""
    drawn = draw_cards(s, p, seat, count_for(s, p, seat))
    if drawn > 0:
        if p.count_replaces == 0:
            s.fired |= p.count_bit
        if seat != s.winner:
            s.fired |= p.drawers_bit
    return drawn


def end_hand(s: Any, winner: int, reason: int, bit: int) -> None:
    s.over = 1
    s.hand_winner = winner
    s.end_reason = reason
    s.fired |= bit


def draw_too(s: Any, p: Any) -> int:
    """Step 4, right after the trick winner's draw, as `rulesdsl.play.engine.steps.draw_too`
    does it: the first rule the profile states that names a player still in other than the
    winner has them draw one card; step 5 after it."""
    for k in range(p.also_len):
        seat = also_draws_at(p.also_code[k], p, s, p.also_arg[k])
        if seat >= 0 and seat != s.winner and s.active[seat] != 0:
            if draw_cards(s, p, seat, 1) > 0:
                s.fired |= p.also_bit[k]
                return draw_end_at(p.draw_end_code, s, seat, p.draw_end_arg)
            return NO_END
    return NO_END


def draw(s: Any, p: Any) -> int:
    """Step 4 and 5: who draws, in order (where the profile's rules do not say, the trick
    winner if still in), who draws too right after the winner (`draw_too`); a draw may end
    the hand (its winner, or NO_END)."""
    alone = p.drawers_code == 0
    if alone:
        drawers = 1 if s.active[s.winner] != 0 else 0
    else:
        drawers = drawers_at(p.drawers_code, s, p.drawers_arg)
    after = 1 if drawers > 0 and (alone or s.drawers[0] == s.winner) else 0
    ended = NO_END
    for k in range(drawers):
        if k == after and ended == NO_END and p.also_len != 0:
            ended = draw_too(s, p)
        seat = s.winner if alone else s.drawers[k]
        if ended == NO_END and draw_for(s, p, seat) > 0:
            ended = draw_end_at(p.draw_end_code, s, seat, p.draw_end_arg)
    if drawers == after and ended == NO_END and p.also_len != 0:
        ended = draw_too(s, p)
    return ended


def after_draw(s: Any, p: Any, number: int, last_card: bool) -> None:
    """Steps 6 to 10, when the draw has not ended the hand."""
    if p.out_len != 0:
        eliminate_ruled(s, p, number)
    elif p.eliminate == 0:
        eliminate(s, number)
    if p.eliminate == 0 and last_card and s.active[s.winner] != 0:
        s.fired |= p.eliminate_bit
        s.saves += 1
    if s.remaining == 1:
        end_hand(s, lowest(active_seats(s)), LAST_PLAYER, 0)
    elif s.remaining == 0:
        end_hand(s, all_out_at(p.all_out_code, s, p.all_out_arg), ALL_OUT, p.all_out_bit)
    else:
        for k in range(p.end_len):  # the first end check that ends the hand ends it
            ended = end_at(p.end_code[k], p, s, p.end_arg[k])
            if ended != NO_END:
                end_hand(s, ended, p.end_reason[k], p.end_bit[k])
                return
        if number >= TRICK_LIMIT_TRICKS:
            end_hand(s, -1, TRICK_LIMIT, 0)
        else:
            s.leader = next_lead_at(p.next_lead_code, s, p.next_lead_arg)
            if p.next_lead_code != 0 and s.leader != winner_leads(s):
                s.fired |= p.next_lead_bit


def remember_trick(s: Any, number: int, winner: int) -> None:
    """The hand's memory of the trick `number` just won (`s.trick` still holds its cards),
    as `rulesdsl.play.engine.steps.remember_trick` keeps it."""
    cards = played_cards(s)
    s.history_leader[number] = s.leader
    s.history_led[number] = s.led
    s.history_best[number] = s.best
    s.history_cards[number] = cards
    for seat in range(s.players):  # a seat beyond the table plays no card
        s.history_plays[number * SEATS + seat] = -1
    for k in range(s.seats_len):
        s.history_plays[number * SEATS + s.trick_seats[k]] = s.trick[k]
    s.remembered = number + 1
    s.hand_played |= cards
    s.won[winner] |= cards
    s.streak = s.streak + 1 if s.streak_seat == winner else 1
    s.streak_seat = winner


def finish_trick(s: Any, p: Any) -> None:
    """Steps 2 to 10, once everyone active at the lead has played."""
    number = s.trick_number + 1
    winner = s.winner
    s.plays += s.seats_len
    if s.best & 3 == s.trump:  # a trump played to a trick wins it
        s.trumps_broken = 1
        if s.led != s.trump:
            s.fired |= p.trump_bit
    if p.remembers != 0:
        remember_trick(s, number, winner)
    last_card = s.hands[winner] == 0
    aside = s.set_aside_len  # a local: a write to the row could be one to the length
    for k in range(s.trick_len):
        s.set_aside[aside + k] = s.trick[k]
    s.set_aside_len = aside + s.trick_len
    s.trick_len = 0
    s.trick_number = number
    s.tricks_won[winner] += 1
    s.last_win[winner] = number
    s.trick_winners[number - 1] = winner
    s.opening = 0
    if p.eliminate != 0:
        eliminate(s, number)
        refilled = s.stock_len > 0 or p.reshuffles != 0
        if last_card and refilled and count_at(p.count_code, p, s, winner, p.count_arg) > 0:
            s.fired |= p.eliminate_bit
    ended = draw(s, p)
    if ended != NO_END:
        end_hand(s, ended, p.draw_end_reason, p.draw_end_bit)
    else:
        after_draw(s, p, number, last_card)


def hand_points(s: Any, p: Any) -> int:
    """The match points of the hand's winner (there is one). A score the profile states in
    an option's place fires where it differs from the option's."""
    won = s.hand_winner
    points = score_at(p.score_code, p, s, won, p.score_arg)
    if p.score_replaces != 0:
        instead = score_at(p.score_instead_code, p, s, won, p.score_instead_arg)
        if instead != points:
            s.fired |= p.score_bit
    return points


# -- the bots ---------------------------------------------------------------------------


def random_card(cards: int, rng: Any) -> int:
    """A card of `cards` (not none) drawn uniformly from `rng`."""
    return nth(cards, int(uniform(rng) * popcount(cards)))


def pick(bot: int, s: Any, allowed: int, rng: Any, last: bool) -> int:
    """The card `bot` plays of `allowed`; random choices draw from `rng`."""
    if bot == LOWEST:
        return lowest(allowed)
    if bot == HIGHEST:
        return highest(allowed)
    if bot == HEURISTIC or (bot == PLAYOUT and uniform(rng) >= EXPLORE):
        return heuristic_card(allowed, s.trump, s.led, s.best, last)
    return random_card(allowed, rng)


def allowed_now(s: Any, p: Any) -> int:
    """The cards the seat to move may play."""
    return allowed_for(s, p, s.trick_seats[s.trick_len])


def play_now(s: Any, p: Any, card: int) -> None:
    """The seat to move plays `card`; a complete trick is finished and the next begun."""
    play_card(s, s.trick_seats[s.trick_len], card)
    if s.trick_len == s.seats_len:
        finish_trick(s, p)
        if s.over == 0:
            start_trick(s)


def last_to_play(s: Any) -> bool:
    """Whether the seat to move plays the trick's last card (and not its lead)."""
    return s.trick_len > 0 and s.trick_len == s.seats_len - 1


def play_out(s: Any, p: Any, bot: int, rng: Any) -> None:
    """Play the hand from its position to its end, every seat by `bot`."""
    while s.over == 0:
        play_now(s, p, pick(bot, s, allowed_now(s, p), rng, last_to_play(s)))
