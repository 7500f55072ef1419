"""Compile a resolved profile into a specialised play loop for simulation.

The loop below is Python source with the profile's rules written in as constants: the
compiler drops every branch a profile cannot take, so a profile pays only for the rules
it has. Cards are ints, rank * 4 + suit, so int order is (rank, suit) order. A deck whose
ranks play in another order (aces low, say) is recoded as it enters the loop, to strength
* 4 + suit (`Rules.rank_strength`), so int order is always play order; hands stay sorted,
and the loop draws random numbers exactly as the reference engine and its bots do, so
both give the same games. `tests/test_compiled.py` holds them to that.

A compiled hand returns a HandResult, the same as the reference engine's for the same
game (`rulesdsl.engine.result`).

A compiled hand is called as `play(deck, hand_seed, rng, dealer)`: `deck` is the deck
order as ints, `hand_seed` seeds reshuffles as `Hand.deal(..., seed=hand_seed)` does, and
`rng` (a random.Random) serves every random bot's choice, in the order they play.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from functools import cache
from string import Template

from rulesdsl.cards import Card, Suit
from rulesdsl.engine.hand import REASONS, TRICK_LIMIT
from rulesdsl.engine.result import HandResult
from rulesdsl.rules import Rules
from rulesdsl.units import COUNTED, Elimination, Exhaustion, Follow, OpeningLead, Trump, WhenVoid
from rulesdsl.units.all_out import AllOut
from rulesdsl.units.draw import DrawWord

BOT_CODES = {"random": 0, "lowest": 1, "highest": 2, "heuristic": 3}
FIRED_BITS = {name: 1 << i for i, name in enumerate(COUNTED)}
# The names of the rules that fired, for each set of bits.
FIRED_NAMES = tuple(
    frozenset(name for name, bit in FIRED_BITS.items() if bits & bit)
    for bits in range(1 << len(COUNTED))
)


def to_int(card: Card) -> int:
    return card.rank * 4 + int(card.suit)


def int_deck(rules: Rules) -> tuple[int, ...]:
    """The cards in play as ints, in the canonical order of `rules.cards`."""
    return tuple(to_int(c) for c in rules.cards)


def recode(rules: Rules) -> tuple[int, ...]:
    """Each card int (rank * 4 + suit) as the loop plays it: strength * 4 + suit."""
    strength = rules.rank_strength
    return tuple(strength.get(c >> 2, 0) * 4 + (c & 3) for c in range(max(strength) * 4 + 4))


_LOOP = Template("""
def play(deck, hand_seed, rng, dealer):
    if $OWN_ORDER:
        deck = [RECODE[c] for c in deck]
    hand_rng = None
    uniform = rng.random
    hands = [None] * $N
    for k in range($N):
        hands[(dealer + 1 + k) % $N] = sorted(deck[k:$DEALT:$N])
    rest = deck[$DEALT:]
    if $TRUMP_MODE == 0:
        trump = deck[$DEALT - 1] & 3
    elif $TRUMP_MODE == 1:
        trump = rest[0] & 3
        rest = rest[1:]
    else:
        trump = $FIXED_TRUMP
    rest.reverse()
    stock = rest
    if $RESHUFFLE:
        set_aside = []
    if $MOST_TRICKS:
        tricks_won = [0] * $N
        last_win = [-1] * $N
    trick_winners = []
    record_winner = trick_winners.append
    active = [True] * $N
    remaining = $N
    eliminated = []
    fired = 0
    saves = 0
    tricks = 0
    plays = 0
    opening = True
    leader = (dealer + 1) % $N
    while True:
        order = [s % $N for s in range(leader, leader + $N) if active[s % $N]]
        last_seat = order[-1]
        seat = leader
        hand = hands[seat]
        allowed = hand
        if $OPENING_TRUMP:
            if opening:
                opening = False
                kept = [c for c in hand if c & 3 == trump]
                if kept:
                    if len(kept) < len(hand):
                        fired |= $F_OPENING
                    allowed = kept
        led = -1
        best = -1
$CHOOSE
        hand.remove(card)
        if $RESHUFFLE:
            set_aside.append(card)
        led = card & 3
        best = card
        winner = seat
        for seat in order[1:]:
            hand = hands[seat]
            allowed = hand
            holding = [c for c in hand if c & 3 == led]
            if holding:
                if $FOLLOW_OR_TRUMP:
                    kept = [c for c in hand if c & 3 == led or c & 3 == trump]
                else:
                    kept = holding
                if len(kept) < len(hand):
                    fired |= $F_FOLLOW
                allowed = kept
            elif $VOID_TRUMP:
                kept = [c for c in hand if c & 3 == trump]
                if kept:
                    if len(kept) < len(hand):
                        fired |= $F_VOID
                    allowed = kept
            if $MUST_HEAD:
                bs = best & 3
                kept = [
                    c for c in allowed
                    if (c & 3 == trump and (bs != trump or c > best))
                    or (c & 3 == led and bs == led and c > best)
                ]
                if kept:
                    if len(kept) < len(allowed):
                        fired |= $F_HEAD
                    allowed = kept
$CHOOSE
            hand.remove(card)
            if $RESHUFFLE:
                set_aside.append(card)
            cs = card & 3
            if cs == trump:
                if best & 3 != trump or card > best:
                    best = card
                    winner = seat
            elif cs == led and card > best and best & 3 == led:
                best = card
                winner = seat
        tricks += 1
        plays += len(order)
        if best & 3 == trump and led != trump:
            fired |= $F_TRUMP
        last_card = not hands[winner]
        if $MOST_TRICKS:
            tricks_won[winner] += 1
            last_win[winner] = tricks
        record_winner(winner)
        if $IMMEDIATE:
$ELIMINATE
            if last_card:
                if stock or $RESHUFFLE:
                    fired |= $F_ELIM
        if active[winner]:
$DRAW
        if not $IMMEDIATE:
$ELIMINATE
            if last_card:
                if active[winner]:
                    fired |= $F_ELIM
                    saves += 1
        if remaining == 1:
            final, reason = active.index(True), 1
            break
        if remaining == 0:
            final, reason = (winner if $ALL_OUT_WINNER else -1), 2
            fired |= $F_ALL_OUT
            break
        if $MOST_TRICKS:
            if not stock:
                final, reason = max(range($N), key=lambda s: (tricks_won[s], last_win[s])), 3
                fired |= $F_EXHAUST
                break
        if tricks >= $TRICK_LIMIT:
            final, reason = -1, 4
            break
        leader = winner
        while not active[leader]:
            leader = (leader + 1) % $N
    return HandResult(
        None if final < 0 else final,
        REASONS[reason],
        tricks,
        tuple(eliminated),
        len(stock),
        SUIT[trump],
        tuple(trick_winners),
        len(hands[final]) if final >= 0 else 0,
        plays,
        saves,
        FIRED_NAMES[fired],
    )
""")

# Every player with no cards is out (steps 3 and 6 of a trick).
_ELIMINATE = """
for seat in order:
    if not hands[seat]:
        active[seat] = False
        remaining -= 1
        eliminated.append((tricks, seat))
"""

# The winner's draw: the general form, and the common one of one card with no reshuffle;
# both end with what follows a draw that took cards.
_DRAWN = """
    fired |= $F_DRAW
    if $LAST_DRAW_WINS:
        if not stock:
            final, reason = winner, 0
            fired |= $F_EXHAUST
            break
"""
_DRAW_MANY = """
drawn = 0
for _ in range($DRAW_COUNT):
    if $RESHUFFLE:
        if not stock and set_aside:
            if hand_rng is None:
                hand_rng = Random(Random(hand_seed).getrandbits(64))
            hand_rng.shuffle(set_aside)
            set_aside.reverse()
            stock = set_aside
            set_aside = []
            fired |= $F_EXHAUST
    if not stock:
        if $PLAY_OUT:
            fired |= $F_EXHAUST
        break
    insort(hands[winner], stock.pop())
    drawn += 1
if drawn:
$DRAWN
"""
_DRAW_ONE = """
if stock:
    insort(hands[winner], stock.pop())
$DRAWN
elif $PLAY_OUT:
    fired |= $F_EXHAUST
"""

# How a seat chooses its card from `allowed`, by bot; `KINDS` holds each seat's bot.
_CHOICES = {
    "random": "card = allowed[int(uniform() * len(allowed))]",
    "lowest": "card = allowed[0]",
    "highest": "card = allowed[-1]",
    "heuristic": "card = heuristic(allowed, trump, led, best, seat == last_seat)",
}


def _choose(bots: tuple[str, ...]) -> str:
    """The code that picks a card: one line when every seat has the same bot."""
    if len(set(bots)) == 1:
        lines = [_CHOICES[bots[0]]]
    else:
        lines = []
        for code, name in enumerate(BOT_CODES):
            lines += [
                f"{'if' if not lines else 'elif'} KINDS[seat] == {code}:",
                "    " + _CHOICES[name],
            ]
    return "\n".join(lines)


def _indent(code: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in code.strip("\n").splitlines())


def _heuristic(allowed: list[int], trump: int, led: int, best: int, plays_last: bool) -> int:
    """The heuristic bot of rulesdsl.bots, on int cards."""
    if len(allowed) == 1:
        return allowed[0]
    side = [c for c in allowed if c & 3 != trump]
    if best < 0:
        if not side:
            return allowed[-1]
        top = side[-1] >> 2
        return next(c for c in side if c >> 2 == top)
    bs = best & 3
    winners = [
        c
        for c in allowed
        if (c & 3 == trump and (bs != trump or c > best))
        or (c & 3 == led and bs == led and c > best)
    ]
    side_winners = [c for c in winners if c & 3 != trump]
    if side_winners:
        return side_winners[0] if plays_last else side_winners[-1]
    if winners and (plays_last or not side):
        return winners[0]
    return (side or allowed)[0]


def _constants(rules: Rules, players: int) -> dict[str, object]:
    fixed = rules.fixed_trump
    return {
        "N": players,
        "OWN_ORDER": not rules.usual_order,
        "DEALT": players * rules.hand_size_for(players),
        "TRUMP_MODE": {Trump.DEALER_LAST_CARD: 0, Trump.STOCK_TURNUP: 1}.get(rules.trump, 2),
        "FIXED_TRUMP": int(fixed) if fixed is not None else -1,
        "OPENING_TRUMP": rules.opening_lead is OpeningLead.TRUMP_IF_ABLE,
        "FOLLOW_OR_TRUMP": rules.follow is Follow.SUIT_OR_TRUMP,
        "VOID_TRUMP": rules.when_void is WhenVoid.TRUMP_IF_ABLE,
        "MUST_HEAD": rules.must_head,
        "IMMEDIATE": rules.elimination is Elimination.IMMEDIATE,
        "LAST_DRAW_WINS": rules.exhaustion is Exhaustion.LAST_DRAW_WINS,
        "PLAY_OUT": rules.exhaustion is Exhaustion.PLAY_OUT,
        "RESHUFFLE": rules.exhaustion is Exhaustion.RESHUFFLE,
        "MOST_TRICKS": rules.exhaustion is Exhaustion.MOST_TRICKS,
        "ALL_OUT_WINNER": rules.all_out is AllOut.LAST_TRICK_WINNER,
        "TRICK_LIMIT": TRICK_LIMIT,
        **{f"F_{key}": FIRED_BITS[name] for key, name in _BIT_KEYS.items()},
    }


_BIT_KEYS = {
    "OPENING": "opening_lead",
    "FOLLOW": "follow",
    "VOID": "when_void",
    "HEAD": "must_head",
    "TRUMP": "trump",
    "ELIM": "elimination",
    "DRAW": "draw",
    "EXHAUST": "exhaustion",
    "ALL_OUT": "all_out",
}


def source(rules: Rules, players: int, bots: tuple[str, ...]) -> str:
    """The play loop's Python source for these rules, players and bots."""
    values = {k: repr(v) for k, v in _constants(rules, players).items()}
    count = rules.draw
    values["DRAW_COUNT"] = "len(order)" if count is DrawWord.PER_CARD_IN_TRICK else str(int(count))
    one = rules.draw == 1 and rules.exhaustion is not Exhaustion.RESHUFFLE
    values["DRAWN"] = Template(_DRAWN.strip("\n")).substitute(values)
    snippets = {
        "DRAW": _indent(Template(_DRAW_ONE if one else _DRAW_MANY).substitute(values), 12),
        "ELIMINATE": _indent(_ELIMINATE, 12),
        "CHOOSE": "$CHOOSE",
    }
    text = _LOOP.substitute(values, **snippets)
    choose = _choose(bots)
    text = text.replace("$CHOOSE\n", _indent(choose, 8) + "\n", 1)
    return text.replace("$CHOOSE\n", _indent(choose, 12) + "\n", 1)


@cache
def compile_hand(
    rules: Rules, players: int, bots: tuple[str, ...]
) -> Callable[[list[int], int, random.Random, int], HandResult]:
    """A function playing one hand of `rules` with `bots` (one name per seat)."""
    rules.check_players(players)
    namespace = {
        "KINDS": tuple(BOT_CODES[name] for name in bots),
        "RECODE": recode(rules),
        "Random": random.Random,
        "insort": insort,
        "heuristic": _heuristic,
        "HandResult": HandResult,
        "REASONS": REASONS,
        "FIRED_NAMES": FIRED_NAMES,
        "SUIT": (*Suit, None),
    }
    exec(
        compile(source(rules, players, bots), f"<rulesdsl: {players} players>", "exec"),
        namespace,
    )
    return namespace["play"]
