"""The fixed order of a trick (RULES.md section 2) as functions over the int State, asking
the profile's rules (its Plan) at each step.

Both engines run these functions: the reference engine (`hand.py`) one card at a time, with
`s.trace` on, and the fast path (`fast.py`) a whole hand at a time, specialised for a
profile by inlining them (`inline.py`). So every step function is plain Python over ints
and lists, ends in one `return`, and calls only module constants and other step functions.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Mapping
from typing import NamedTuple

from rulesdsl.engine.state import NO_CARD, State
from rulesdsl.stream import Stream, number

NO_END = -2
"""What an end check returns when the hand goes on; -1 is an end with no winner."""

# The index of each EndReason (rulesdsl.engine.result), as the state keeps it.
STOCK_EXHAUSTED, LAST_PLAYER, ALL_OUT, MOST_TRICKS, TRICK_LIMIT, HOUSE_RULE = range(6)

# A hand that has not ended after this many tricks stops with reason `trick_limit`.
# Only profiles that the validator flags as possibly endless can reach it.
TRICK_LIMIT_TRICKS = 2000

Filter = Callable[[State, int, list[int]], list[int]]


class PlayRule(NamedTuple):
    """A filter on the allowed cards, with the rule it belongs to and its coverage bit."""

    keep: Filter
    rule: str
    bit: int


class Refill(NamedTuple):
    """What an empty stock does as a card is to be drawn: `refill(s)` says whether the rule
    acted (it fires); `reshuffles` whether it can ever put cards back in the stock."""

    refill: Callable[[State], bool]
    reshuffles: bool


class Plan(NamedTuple):
    """The profile's rules, as the skeleton asks them: the functions each step calls, and
    the coverage bits of the rules that decide (0 for a rule coverage does not count)."""

    lead_rules: tuple[PlayRule, ...]
    follow_rules: tuple[PlayRule, ...]
    early_elimination: bool  # step 3 (immediate) rather than step 6 (after_draw)
    drawers: Callable[[State], list[int]]  # step 4, who draws, in order
    draw_count: Callable[[State, int], int]  # step 4, how many cards
    refill: Refill  # step 4, an empty stock
    draw_end: Callable[[State, int], int]  # step 5
    all_out: Callable[[State], int]  # step 8
    end_check: Callable[[State], int]  # step 9
    end_check_reason: int
    end_check_rule: str  # the rule that contributes the end check, and its coverage bit
    end_check_bit: int
    next_lead: Callable[[State], int]  # step 10
    trump_bit: int
    draw_bit: int
    draw_by_bit: int
    next_lead_bit: int
    elimination_bit: int
    exhaustion_bit: int
    all_out_bit: int
    # The rules the profile states (RULES.md section 5) and rule coverage by name.
    draw_rule: str  # the rule whose count the drawer takes: `draw`, or a profile's rule
    house_ends: tuple[PlayRule, ...]  # end checks after step 9, in the order written
    score: Callable[[State, int], int | None]  # the hand winner's points, a profile's rule
    score_rule: str  # the rule that gives them: `scoring`, or a profile's rule
    score_bit: int  # its coverage bit: it fires when the hand has a winner
    fired_names: Mapping[int, frozenset[str]]  # the rules that fired, by `State.fired`


# -- the rules' defaults, where no option acts --------------------------------------


def winner_draws(s: State) -> list[int]:
    """Step 4: the trick winner draws, if still active."""
    return [s.winner] if s.active[s.winner] else []


def no_refill(s: State) -> bool:
    return False


def fixed_count(s: State, seat: int, count: int) -> int:
    """Step 4: a fixed number of cards."""
    return count


def fixed_suit(deck: list[int], dealt: int, suit: int) -> tuple[int, list[int]]:
    """A fixed trump suit; the stock is the rest of the deck, top first."""
    return suit, deck[dealt:]


def no_end(s: State) -> int:
    return NO_END


def no_draw_end(s: State, drawn: int) -> int:
    return NO_END


def option_scores(s: State, winner: int) -> int | None:
    """No score of the profile's own: the match scores by its `scoring` option."""
    return None


def winner_leads(s: State) -> int:
    """Step 10: the trick winner if still active, else the next active seat clockwise."""
    seat = s.winner
    while not s.active[seat]:
        seat = (seat + 1) % s.players
    return seat


def trick_winner_wins(s: State) -> int:
    return s.winner


# -- the skeleton -------------------------------------------------------------------


def beats(card: int, best: int, led: int, trump: int) -> bool:
    """Step 2: whether `card` beats `best` in a trick led in `led`: a trump beats any other
    suit and a lower trump; otherwise only a higher card of the led suit wins."""
    return (
        (best & 3 != trump or card > best)
        if card & 3 == trump
        else (card > best and card & 3 == led and best & 3 == led)
    )


# The seats clockwise from each leader, for every table size: ROTATIONS[players][leader].
ROTATIONS = tuple(
    tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in range(11)
)


def start_trick(s: State) -> None:
    """The active seats clockwise from the leader play to this trick."""
    n = s.players
    if s.remaining == n:
        s.trick_seats = ROTATIONS[n][s.leader]
    else:
        active = s.active
        s.trick_seats = [seat % n for seat in range(s.leader, s.leader + n) if active[seat % n]]
    s.led = NO_CARD
    s.best = NO_CARD
    s.winner = -1
    return None


def follow_allowed(s: State, p: Plan, seat: int) -> list[int]:
    """Step 1 for a follower: `s.holding` is what it holds of the led suit; then the play
    rules."""
    led = s.led  # a local: comprehensions read no field of the state
    s.holding = [c for c in s.hands[seat] if c & 3 == led]
    return allowed_cards(s, p.follow_rules, seat)


def allowed_cards(s: State, rules: tuple[PlayRule, ...], seat: int) -> list[int]:
    """Step 1: the cards `seat` may play. Each rule keeps the cards it allows among those
    the rules before it allowed; a rule that would keep none does not apply."""
    allowed = s.hands[seat]
    if s.trace:
        s.refused = []
    for rule in rules:
        kept = rule.keep(s, seat, allowed)
        if kept is not allowed and kept and len(kept) < len(allowed):
            s.fired |= rule.bit
            if s.trace:
                s.refused.append((rule.rule, [c for c in allowed if c not in kept]))
            allowed = kept
    return allowed


def lead_card(s: State, seat: int, card: int) -> None:
    """Step 1: the leader plays `card`: it names the led suit and is the best so far."""
    s.hands[seat].remove(card)
    s.trick.append(card)
    if s.trace:
        s.log.append(("play", s.trick_number + 1, seat, card))
    s.led = card & 3
    s.best = card
    s.winner = seat
    return None


def follow_card(s: State, seat: int, card: int) -> None:
    """Step 1: a follower plays `card`; step 2 as it goes: is it the best so far."""
    s.hands[seat].remove(card)
    s.trick.append(card)
    if s.trace:
        s.log.append(("play", s.trick_number + 1, seat, card))
    if beats(card, s.best, s.led, s.trump):
        s.best = card
        s.winner = seat
    return None


def eliminate(s: State, number: int) -> None:
    """Steps 3 and 6: every active player with no cards is out, in the order they played."""
    for seat in s.trick_seats:
        if not s.hands[seat]:
            s.active[seat] = False
            s.remaining -= 1
            s.eliminated.append((number, seat))
            if s.trace:
                s.log.append(("out", number, seat, "elimination"))
    return None


def refill(s: State, p: Plan, number: int) -> None:
    """Step 4, the stock empty as a card is to be drawn: the exhaustion rule acts."""
    if p.refill.refill(s):
        s.fired |= p.exhaustion_bit
        if s.trace and s.stock:
            s.log.append(("reshuffle", number, len(s.stock), "exhaustion"))
    return None


def draw_cards(s: State, p: Plan, seat: int, wanted: int, number: int, rule: str) -> int:
    """Step 4: `seat` draws up to `wanted` cards from the top of the stock; when the stock
    is empty, the exhaustion rule may refill it. The number drawn; `rule` decided the draw."""
    drawn = 0
    if s.trace:
        cards = []
    if wanted == 1:  # the usual count, without a loop
        if not s.stock:
            refill(s, p, number)
        if s.stock:
            card = s.stock.pop()
            insort(s.hands[seat], card)
            drawn = 1
            if s.trace:
                cards.append(card)
    else:
        for _ in range(wanted):
            if not s.stock:
                refill(s, p, number)
                if not s.stock:
                    break
            card = s.stock.pop()
            insort(s.hands[seat], card)
            drawn += 1
            if s.trace:
                cards.append(card)
    if drawn:
        s.fired |= p.draw_bit
        if s.trace:
            s.log.append(("draw", number, seat, cards, len(s.stock), rule))
    return drawn


def end_hand(s: State, winner: int, reason: int, rule: str, bit: int) -> None:
    s.over = True
    s.hand_winner = winner
    s.end_reason = reason
    s.fired |= bit
    if s.trace:
        s.log.append(("hand_end", winner, reason, s.trick_number, rule))
    return None


def finish_trick(s: State, p: Plan) -> None:
    """Steps 2 to 10, once everyone active at the lead has played."""
    number = s.trick_number + 1
    winner = s.winner
    s.plays += len(s.trick_seats)
    trump_won = s.best & 3 == s.trump  # a trump played to a trick wins it
    trumped = trump_won and s.led != s.trump
    if trump_won:
        s.trumps_broken = True
    if trumped:
        s.fired |= p.trump_bit
    if s.trace:
        s.log.append(("trick_won", number, winner, list(s.trick), "trump" if trumped else "core"))
    last_card = not s.hands[winner]
    s.set_aside.extend(s.trick)
    s.trick = []
    s.trick_number = number
    s.tricks_won[winner] += 1
    s.last_win[winner] = number
    s.trick_winners.append(winner)
    s.opening = False
    if p.early_elimination:  # step 3
        eliminate(s, number)
        if last_card and (s.stock or p.refill.reshuffles):
            s.fired |= p.elimination_bit
    ended = NO_END
    if p.drawers is winner_draws:  # step 4, as usual: the winner, if still active
        if s.active[winner]:
            drawn = draw_cards(s, p, winner, p.draw_count(s, winner), number, p.draw_rule)
            if drawn:
                ended = p.draw_end(s, winner)  # step 5
    else:
        for seat in p.drawers(s):  # step 4
            rule = p.draw_rule if seat == winner else "draw_by"
            drawn = draw_cards(s, p, seat, p.draw_count(s, seat), number, rule)
            if drawn:
                if seat != winner:
                    s.fired |= p.draw_by_bit
                ended = p.draw_end(s, seat)  # step 5
                if ended != NO_END:
                    break
    if ended != NO_END:
        end_hand(s, ended, STOCK_EXHAUSTED, "exhaustion", p.exhaustion_bit)
    else:
        if not p.early_elimination:  # step 6
            eliminate(s, number)
            if last_card and s.active[winner]:
                s.fired |= p.elimination_bit
                s.saves += 1
        if s.remaining == 1:  # step 7
            end_hand(s, s.active.index(True), LAST_PLAYER, "core", 0)
        elif s.remaining == 0:  # step 8
            end_hand(s, p.all_out(s), ALL_OUT, "all_out", p.all_out_bit)
        else:
            ended = p.end_check(s)  # step 9
            if ended != NO_END:
                end_hand(s, ended, p.end_check_reason, p.end_check_rule, p.end_check_bit)
            for end in p.house_ends:  # after step 9: the profile's end rules, in order
                if not s.over:
                    ended = end.keep(s)
                    if ended != NO_END:
                        end_hand(s, ended, HOUSE_RULE, end.rule, end.bit)
            if not s.over:
                if number >= TRICK_LIMIT_TRICKS:
                    end_hand(s, -1, TRICK_LIMIT, "core", 0)
                else:
                    s.leader = p.next_lead(s)  # step 10
                    if s.leader != winner:
                        s.fired |= p.next_lead_bit
    return None


def reshuffle_rng(s: State) -> Stream:
    """The stream of reshuffles, made from the hand's seed on first use: seeded by the
    first number of the hand's stream, as `Hand.deal` seeds it from a deck order."""
    rng = s.rng
    if rng is None:
        rng = Stream(number(s.hand_seed, 1))
        s.rng = rng
    return rng
