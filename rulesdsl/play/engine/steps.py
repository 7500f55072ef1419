"""The fixed order of a trick (section 2 of docs/rules.md) as functions over the int State, asking
the profile's rules (its Plan) at each step.

Both engines run these functions: the reference engine (`hand.py`) one card at a time, with
`s.trace` on, and the fast path (`fast.py`) a whole hand at a time, specialised for a
profile by inlining them (`inline.py`). So every step function is plain Python over ints
and lists, ends in one `return`, and calls only module constants and other step functions.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from rulesdsl.model.state import (
    ALL_OUT,
    CORE,
    LAST_PLAYER,
    NO_CARD,
    NO_END,
    ROTATIONS,
    TRICK_LIMIT,
    TRICK_LIMIT_TRICKS,
    State,
    beats,
)

Filter = Callable[[State, int, list[int]], list[int]]


class PlayRule(NamedTuple):
    """A filter on the allowed cards, with the rule it belongs to and its coverage bit."""

    keep: Filter
    rule: str
    bit: int


class SeatRule(NamedTuple):
    """A rule that names a seat (who leads the first trick, who draws too), -1 for none:
    the rule it belongs to and its coverage bit."""

    seat: Callable[[State], int]
    rule: str
    bit: int


class EndRule(NamedTuple):
    """An end check: whether the hand ends, and who wins (`NO_END`: it goes on); the rule it
    belongs to, its coverage bit, and the reason a hand it ends ends with."""

    check: Callable[..., int]
    rule: str
    bit: int
    reason: int


class OutRule(NamedTuple):
    """A rule of who is out at step 6: the players still in it puts out, with the rule it
    belongs to and its coverage bit."""

    out: Callable[[State], list[int]]
    rule: str
    bit: int


class Decision(NamedTuple):
    """The rule that decides a step where one rule decides: what it does there (a function,
    or a flag), its name and its coverage bit. A rule the profile states in an option's
    place keeps that option's function in `replaced`: it changes play where the two give
    different results."""

    act: Any
    rule: str
    bit: int
    replaced: Any = None


class Plan(NamedTuple):
    """The profile's rules, as the skeleton asks them: at the steps that compose, every
    rule's part in order; at the others, the one rule that decides."""

    first_lead: tuple[SeatRule, ...]  # after the deal: who leads the first trick, in order
    lead_rules: tuple[PlayRule, ...]  # step 1
    follow_rules: tuple[PlayRule, ...]  # step 1
    trump: Decision  # the deal's trump: (deck, dealt) -> (suit, stock); step 2
    eliminate: Decision  # a flag: empty hands are out at step 3 rather than at step 6
    out_rules: tuple[OutRule, ...]  # step 6, who else is out, in order: (s) -> seats
    drawers: Decision  # step 4, who draws, in order: (s) -> seats
    also_draws: tuple[SeatRule, ...]  # step 4, who draws a card too, after the winner
    draw_count: Decision  # step 4, how many cards: (s, seat) -> count
    refill: Decision  # step 4, an empty stock: a Refill
    draw_end: EndRule  # step 5: (s, seat) -> winner or NO_END
    all_out: Decision  # step 8: (s) -> winner or -1
    end_checks: tuple[EndRule, ...]  # step 9 and after, in order: (s) -> winner or NO_END
    next_lead: Decision  # step 10: (s) -> seat
    score: Decision  # the hand winner's match points: (s, winner) -> points
    match_end: Decision  # between hands: (points, hands, players) -> the match is over
    next_dealer: Decision  # between hands: (dealer, winner, players) -> seat
    fired_names: Mapping[int, frozenset[str]]  # the rules that fired, by `State.fired`
    remembers: bool  # the profile's rules read the hand's memory: keep it (`remember_trick`)


# -- the rules' defaults, where no option acts --------------------------------------


def winner_draws(s: State) -> list[int]:
    """Step 4: the trick winner draws, if still active."""
    return [s.winner] if s.active[s.winner] else []


def no_refill(s: State) -> bool:
    return False


def no_end(s: State) -> int:
    return NO_END


def no_draw_end(s: State, drawn: int) -> int:
    return NO_END


def winner_leads(s: State) -> int:
    """Step 10: the trick winner if still active, else the next active seat clockwise."""
    seat = s.winner
    while not s.active[seat]:
        seat = (seat + 1) % s.players
    return seat


def trick_winner_wins(s: State) -> int:
    return s.winner


# -- the skeleton -------------------------------------------------------------------


def lead_first(s: State, p: Plan) -> str:
    """After the deal: the first rule the profile states that names a seat still in, with
    cards, leads the first trick (it fires where that is not the seat after the dealer);
    the rule that decided, CORE where none did."""
    decided = CORE
    for rule in p.first_lead:  # no break: the fast path unrolls a loop over the rules
        seat = rule.seat(s)
        if decided == CORE and seat >= 0 and s.active[seat] and s.hands[seat]:
            decided = rule.rule
            if seat != s.leader:
                s.fired |= rule.bit
                s.leader = seat
                s.first_leader = seat
    return decided


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
    s.played_by = [NO_CARD] * n
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
    s.played_by[seat] = card
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
    s.played_by[seat] = card
    if s.trace:
        s.log.append(("play", s.trick_number + 1, seat, card))
    if beats(card, s.best, s.led, s.trump):
        s.best = card
        s.winner = seat
    return None


def eliminate(s: State, number: int, rule: str) -> None:
    """Steps 3 and 6: every active player with no cards is out, in the order they played;
    `rule` decides when."""
    for seat in s.trick_seats:
        if not s.hands[seat]:
            s.active[seat] = False
            s.remaining -= 1
            s.eliminated.append((number, seat))
            if s.trace:
                s.log.append(("out", number, seat, rule))
    return None


def eliminate_ruled(s: State, p: Plan, number: int) -> None:
    """Step 6 where the profile's rules say who is out: the players they put out and, where
    empty hands go out at step 6, the empty hands, in the order they played to the trick.
    Every rule reads the state before anyone goes; the cards of a player a rule puts out
    leave play."""
    ruled: dict[int, OutRule] = {}
    for rule in p.out_rules:
        for seat in rule.out(s):
            if seat not in ruled:
                ruled[seat] = rule
    empties = not p.eliminate.act
    for seat in s.trick_seats:
        emptied = empties and not s.hands[seat]
        if s.active[seat] and (emptied or seat in ruled):
            rule_name = p.eliminate.rule
            if not emptied:
                rule_name = ruled[seat].rule
                s.fired |= ruled[seat].bit
                s.hands[seat] = []
            s.active[seat] = False
            s.remaining -= 1
            s.eliminated.append((number, seat))
            if s.trace:
                s.log.append(("out", number, seat, rule_name))
    return None


def refill(s: State, p: Plan, number: int) -> None:
    """Step 4, the stock empty as a card is to be drawn: the exhaustion rule acts."""
    if p.refill.act.refill(s):
        s.fired |= p.refill.bit
        if s.trace and s.stock:
            s.log.append(("reshuffle", number, len(s.stock), p.refill.rule))
    return None


def draw_cards(s: State, p: Plan, seat: int, wanted: int, number: int, rule: str) -> int:
    """Step 4: `seat` draws up to `wanted` cards from the top of the stock; when the stock
    is empty, the exhaustion rule may refill it. The number drawn; the trace names `rule`,
    or the rule of the count (the winner's draw) or of who draws (another's)."""
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
    if s.trace and drawn:
        rule = rule or (p.draw_count.rule if seat == s.winner else p.drawers.rule)
        s.log.append(("draw", number, seat, cards, len(s.stock), rule))
    return drawn


def count_for(s: State, p: Plan, seat: int) -> int:
    """Step 4: the cards `seat` is to draw. A count the profile states changes play where
    it draws other cards than the count of the option it replaces would: where the two
    differ, and the stock (with the cards a reshuffle would bring) holds more than the
    smaller."""
    wanted = p.draw_count.act(s, seat)
    if p.draw_count.replaced is not None:
        instead = p.draw_count.replaced(s, seat)
        there = len(s.stock) + (len(s.set_aside) if p.refill.act.reshuffles else 0)
        if wanted != instead and min(wanted, instead) < there:
            s.fired |= p.draw_count.bit
    return wanted


def draw_for(s: State, p: Plan, seat: int, number: int) -> int:
    """Step 4: `seat` draws its count; an option's count fires when it takes cards, the
    draw of a player other than the trick winner fires the rule of who draws."""
    drawn = draw_cards(s, p, seat, count_for(s, p, seat), number, "")
    if drawn:
        if p.draw_count.replaced is None:
            s.fired |= p.draw_count.bit
        if seat != s.winner:
            s.fired |= p.drawers.bit
    return drawn


def draw_too(s: State, p: Plan, number: int) -> int:
    """Step 4, right after the trick winner's draw: the first rule the profile states that
    names a player still in other than the winner has them draw one card; step 5 after
    it. Whether that ends the hand (its winner, or NO_END)."""
    ended = NO_END
    decided = False
    for rule in p.also_draws:  # no break: as `lead_first`
        seat = rule.seat(s)
        if not decided and seat >= 0 and seat != s.winner and s.active[seat]:
            decided = True
            if draw_cards(s, p, seat, 1, number, rule.rule):
                s.fired |= rule.bit
                ended = p.draw_end.check(s, seat)
    return ended


def end_hand(s: State, winner: int, reason: int, rule: str, bit: int) -> None:
    s.over = True
    s.hand_winner = winner
    s.end_reason = reason
    s.fired |= bit
    if s.trace:
        s.log.append(("hand_end", winner, reason, s.trick_number, rule))
    return None


def end_by(s: State, end: EndRule) -> None:
    """After step 8: an end check, unless the hand is over already."""
    if not s.over:
        ended = end.check(s)
        if ended != NO_END:
            end_hand(s, ended, end.reason, end.rule, end.bit)
    return None


def remember_trick(s: State, winner: int) -> None:
    """The hand's memory of the trick just won (`s.trick` still holds its cards)."""
    s.history_leader.append(s.leader)
    s.history_led.append(s.led)
    s.history_winner.append(winner)
    s.history_best.append(s.best)
    s.history_cards.append(s.trick)
    s.history_plays.append(s.played_by)
    won = s.won[winner]
    for card in s.trick:
        if card not in s.hand_played:
            s.hand_played.append(card)
        if card not in won:
            won.append(card)
    if s.streak_seat == winner:
        s.streak += 1
    else:
        s.streak_seat = winner
        s.streak = 1
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
        s.fired |= p.trump.bit
    if s.trace:
        rule = p.trump.rule if trumped else CORE
        s.log.append(("trick_won", number, winner, list(s.trick), rule))
    if p.remembers:
        remember_trick(s, winner)
    last_card = not s.hands[winner]
    s.set_aside.extend(s.trick)
    s.trick = []
    s.trick_number = number
    s.tricks_won[winner] += 1
    s.last_win[winner] = number
    s.trick_winners.append(winner)
    s.opening = False
    if p.eliminate.act:  # step 3
        eliminate(s, number, p.eliminate.rule)
        if last_card and (s.stock or p.refill.act.reshuffles):
            wanted = p.draw_count.act(s, winner)
            if wanted > 0:  # the winner would have drawn, and stayed in, at step 6
                s.fired |= p.eliminate.bit
    ended = NO_END
    if p.drawers.act is winner_draws:  # step 4, as usual: the winner, if still active
        if s.active[winner]:
            drawn = draw_for(s, p, winner, number)
            if drawn:
                ended = p.draw_end.check(s, winner)  # step 5
        if p.also_draws and ended == NO_END:
            ended = draw_too(s, p, number)
    else:
        drawers = p.drawers.act(s)
        after = 1 if drawers and drawers[0] == winner else 0  # who draws too comes next
        for k, seat in enumerate(drawers):  # step 4
            if k == after and p.also_draws:
                ended = draw_too(s, p, number)
                if ended != NO_END:
                    break
            drawn = draw_for(s, p, seat, number)
            if drawn:
                ended = p.draw_end.check(s, seat)  # step 5
                if ended != NO_END:
                    break
        if len(drawers) == after and p.also_draws and ended == NO_END:
            ended = draw_too(s, p, number)
    if ended != NO_END:
        end_hand(s, ended, p.draw_end.reason, p.draw_end.rule, p.draw_end.bit)
    else:
        if p.out_rules:  # step 6, with the profile's rules of who is out
            eliminate_ruled(s, p, number)
        elif not p.eliminate.act:  # step 6
            eliminate(s, number, p.eliminate.rule)
        if not p.eliminate.act and last_card and s.active[winner]:
            s.fired |= p.eliminate.bit
            s.saves += 1
        if s.remaining == 1:  # step 7
            end_hand(s, s.active.index(True), LAST_PLAYER, CORE, 0)
        elif s.remaining == 0:  # step 8
            end_hand(s, p.all_out.act(s), ALL_OUT, p.all_out.rule, p.all_out.bit)
        else:
            for end in p.end_checks:  # step 9 and after, in order
                end_by(s, end)
            if not s.over:
                if number >= TRICK_LIMIT_TRICKS:
                    end_hand(s, -1, TRICK_LIMIT, CORE, 0)
                else:
                    s.leader = p.next_lead.act(s)  # step 10
                    moved = False
                    if p.next_lead.act is not winner_leads:
                        fixed = winner_leads(s)
                        moved = s.leader != fixed
                    if moved:  # the lead passes elsewhere than the fixed order says
                        s.fired |= p.next_lead.bit
                    if s.trace:
                        rule = p.next_lead.rule if moved else CORE
                        s.log.append(("lead", number + 1, s.leader, rule))
    return None


def hand_points(s: State, p: Plan) -> int:
    """The match points of the hand's winner (there is one). A score the profile states
    changes play where it differs from the score of the option it replaces."""
    points = p.score.act(s, s.hand_winner)
    if p.score.replaced is not None and points != p.score.replaced(s, s.hand_winner):
        s.fired |= p.score.bit
    return points
