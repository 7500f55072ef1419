"""The fast path: one real driver that plays a whole hand over the int State, through the
skeleton of `steps.py` and the profile's Plan. `inline.py` specialises it for a profile
(the step functions inlined, the profile's choices folded in, tracing dropped, the state
held in locals); `play_plain` runs it as written, for the tests.

A hand is played as `play(deck, hand_seed, rng, dealer)`: `deck` is the deck order as ints
rank * 4 + suit (`to_int`), recoded as it enters to strength * 4 + suit so that int order
is the profile's play order; `hand_seed` seeds reshuffles as `Hand.deal(..., seed=...)`
does; `rng` (a rulesdsl.model.stream.Stream) serves every random bot's choice, in the order they
play. Every engine draws from the same stream alike, so they play the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any, NamedTuple

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.result import EndReason, HandResult
from rulesdsl.model.rules import PROFILES_KEPT, Rules
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.heuristic import heuristic_card
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Plan

REASONS = tuple(EndReason)
SUITS = (*Suit, None)  # by suit int; -1 is no trump
BOTS = ("random", "lowest", "highest", "heuristic", "playout")
EXPLORE = 0.2
"""The chance that the playout policy of the search bots plays a random legal card."""

Pick = Callable[[State, int, list[int], Callable[[], float], bool], int]
HandPlayer = Callable[[list[int], int, Stream, int], HandResult]


def to_int(card: Card) -> int:
    return card.rank * 4 + int(card.suit)


def int_deck(rules: Rules) -> tuple[int, ...]:
    """The cards in play as ints, in the canonical order of `rules.cards`."""
    return tuple(to_int(c) for c in rules.cards)


def recode(rules: Rules) -> tuple[int, ...]:
    """Each card int (rank * 4 + suit) as the engine plays it: strength * 4 + suit."""
    strength = rules.rank_strength
    return tuple(strength.get(c >> 2, 0) * 4 + (c & 3) for c in range(max(strength) * 4 + 4))


def recoded(rules: Rules) -> bool:
    """Whether the deal is recoded (`recode`) for play: where the ranks play in an order of
    their own, and where the profile states rules, which may read a card's strength (its
    place in the order); elsewhere the card ints play as they are."""
    return not rules.usual_order or bool(rules.house_rules)


# -- the bots, on int cards ----------------------------------------------------------


def pick_random(
    s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool
) -> int:
    return allowed[int(uniform() * len(allowed))]


def pick_lowest(
    s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool
) -> int:
    return allowed[0]


def pick_highest(
    s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool
) -> int:
    return allowed[-1]


def pick_heuristic(
    s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool
) -> int:
    return heuristic(allowed, s.trump, s.led, s.best, last)


def pick_playout(
    s: State, seat: int, allowed: list[int], uniform: Callable[[], float], last: bool
) -> int:
    """The search bots' playout policy: the heuristic's card, or with probability EXPLORE
    a legal card drawn uniformly."""
    if uniform() < EXPLORE:
        card = allowed[int(uniform() * len(allowed))]
    else:
        card = heuristic(allowed, s.trump, s.led, s.best, last)
    return card


def pick_by_seat(
    s: State,
    seat: int,
    allowed: list[int],
    uniform: Callable[[], float],
    last: bool,
    kinds: tuple[int, ...],
) -> int:
    """Each seat's own bot: `kinds` holds each seat's index in BOTS."""
    kind = kinds[seat]
    if kind == 0:
        card = allowed[int(uniform() * len(allowed))]
    elif kind == 1:
        card = allowed[0]
    elif kind == 2:
        card = allowed[-1]
    elif kind == 3:
        card = heuristic(allowed, s.trump, s.led, s.best, last)
    else:
        card = pick_playout(s, seat, allowed, uniform, last)
    return card


PICKS = dict(
    zip(BOTS, (pick_random, pick_lowest, pick_highest, pick_heuristic, pick_playout), strict=True)
)


def heuristic(allowed: list[int], trump: int, led: int, best: int, plays_last: bool) -> int:
    """The heuristic bot's card of `allowed` (`heuristic.heuristic_card`, on its set). The
    cards not recoded count strength from rank 2 (`to_int`), past the 52 cards of a set: as
    the heuristic only compares cards with one another, they are all moved down alike by
    the lowest strength among them."""
    low = min(allowed) >> 2
    if best >= 0:
        low = min(low, best >> 2)
    shift = low * 4
    cards = 0
    for card in allowed:
        cards |= 1 << (card - shift)
    moved = best - shift if best >= 0 else best
    return heuristic_card(cards, trump, led, moved, plays_last) + shift


# -- the driver ----------------------------------------------------------------------


class HandTable(NamedTuple):
    """What the driver needs besides the deal: the profile's plan and set-up, the table
    size and the bots."""

    plan: Plan
    players: int
    dealt: int
    trump_of: Callable[[list[int], int], tuple[int, list[int]]]
    own_order: bool
    recode: tuple[int, ...]
    pick: Pick


def table_for(rules: Rules, players: int, bots: tuple[str, ...]) -> HandTable:
    rules.check_players(players)
    kinds = tuple(BOTS.index(name) for name in bots)
    if len(set(kinds)) == 1:
        pick: Any = PICKS[bots[0]]
    else:
        pick = partial(pick_by_seat, kinds=kinds)
    plan = plan_for(rules)
    return HandTable(
        plan=plan,
        players=players,
        dealt=players * rules.hand_size_for(players),
        trump_of=plan.trump.act,
        own_order=recoded(rules),
        recode=recode(rules),
        pick=pick,
    )


def deal_hands(deck: list[int], dealer: int, players: int, dealt: int) -> list[list[int]]:
    """Deal card k to seat (dealer + 1 + k) mod players; each hand sorted."""
    return [
        sorted(deck[(seat - dealer - 1) % players : dealt : players]) for seat in range(players)
    ]


def result(s: State, p: Plan) -> HandResult:
    """The hand's HandResult, from its state; the winner's points by the plan's score."""
    won = s.hand_winner
    points = None
    if won >= 0:
        points = steps.hand_points(s, p)
    return HandResult(
        None if won < 0 else won,
        REASONS[s.end_reason],
        s.trick_number,
        tuple(s.eliminated),
        len(s.stock),
        SUITS[s.trump],
        tuple(s.trick_winners),
        len(s.hands[won]) if won >= 0 else 0,
        s.plays,
        s.saves,
        p.fired_names[s.fired],
        points,
    )


def play_tricks(s: State, p: Plan, pick: Pick, uniform: Callable[[], float]) -> None:
    """Play tricks until the hand is over."""
    while not s.over:
        steps.start_trick(s)
        seats = s.trick_seats
        seat = s.leader
        allowed = steps.allowed_cards(s, p.lead_rules, seat)
        card = pick(s, seat, allowed, uniform, False)
        steps.lead_card(s, seat, card)
        last = seats[-1]
        for seat in seats[1:]:
            allowed = steps.follow_allowed(s, p, seat)
            card = pick(s, seat, allowed, uniform, seat == last)
            steps.follow_card(s, seat, card)
        steps.finish_trick(s, p)
    return None


def play(t: HandTable, deck: list[int], hand_seed: int, rng: Stream, dealer: int) -> HandResult:
    """Deal and play one hand: the driver `inline.py` specialises."""
    if t.own_order:
        deck = [t.recode[c] for c in deck]
    hands = deal_hands(deck, dealer, t.players, t.dealt)
    trump, stock = t.trump_of(deck, t.dealt)
    stock.reverse()
    s = State(hands, stock, trump, (dealer + 1) % t.players, [True] * t.players, False)
    s.hand_seed = hand_seed
    if t.plan.first_lead:
        steps.lead_first(s, t.plan)
    play_tricks(s, t.plan, t.pick, rng.random)
    return result(s, t.plan)


def play_plain(rules: Rules, players: int, bots: tuple[str, ...]) -> HandPlayer:
    """The driver as written, not specialised: what the specialised one must equal."""
    return partial(play, table_for(rules, players, bots))


@lru_cache(maxsize=PROFILES_KEPT)
def compile_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> HandPlayer:
    """A function playing one hand of `rules` with `bots` (one name per seat), specialised."""
    from rulesdsl.play.engine.inline import specialise

    fixed = {"trace": False, "players": players}
    return specialise(play, {"t": table_for(rules, players, bots)}, fixed)
