"""One hand of Linger Longer as a step-by-step state machine: the reference engine.

The order of a trick follows docs/rules.md#the-order-of-a-trick step by step; the comments
name the steps.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.cards import Card, Suit, check_permutation
from rulesdsl.engine.events import (
    Deal,
    Draw,
    Event,
    HandEnd,
    Out,
    Play,
    Reshuffle,
    TrickWon,
)
from rulesdsl.engine.events import Trump as TrumpEvent
from rulesdsl.engine.result import EndReason, HandResult
from rulesdsl.rules import Rules, RulesError
from rulesdsl.units import (
    CORE,
    AllOut,
    Elimination,
    Exhaustion,
    Follow,
    OpeningLead,
    RuleTag,
    Trump,
    WhenVoid,
)
from rulesdsl.units.draw import DrawWord

# A hand that has not ended after this many tricks stops with reason `trick_limit`.
# Only profiles that the validator flags as possibly endless can reach it.
TRICK_LIMIT = 2000

REASONS = tuple(EndReason)

HandOutcome = HandResult
"""The earlier name of a hand's result."""


@dataclass(frozen=True)
class Refusal:
    """Why a card may not be played: the rule that forbids it and a sentence."""

    card: Card
    rule: RuleTag
    message: str

    def __str__(self) -> str:
        return f"{self.card} is not allowed: {self.message} ({self.rule})"


class IllegalMove(ValueError):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def check_seat(seat: int, players: int, role: str) -> None:
    """Raise RulesError unless `seat` is one of the table's seats."""
    if not 0 <= seat < players:
        raise RulesError(f"{role} seat {seat} does not exist; seats are 0 to {players - 1}")


def beats(
    card: Card, best: Card, led: Suit, trump: Suit | None, strength: Mapping[int, int]
) -> bool:
    """Whether `card` beats `best`, the best card so far of a trick led in `led`, where
    `strength` ranks the ranks (`Rules.rank_strength`)."""
    higher = strength[card.rank] > strength[best.rank]
    if card.suit == trump:
        return best.suit != trump or higher
    return card.suit == led and best.suit == led and higher


class Hand:
    """The state of one hand. Build it with `deal` or `from_position`, then `play` cards."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        trump: Suit | None,
        leader: int,
        *,
        dealer: int = 0,
        out: Sequence[int] = (),
        set_aside: Sequence[Card] = (),
        turnup: Card | None = None,
        opening: bool = True,
        seed: int = 0,
    ) -> None:
        self.rules = rules
        self.players = len(hands)
        self.hands = [sorted(h, key=rules.card_key) for h in hands]
        self.stock = list(stock)
        self.set_aside = list(set_aside)
        self.turnup = turnup
        self.trump = trump
        self.dealer = dealer
        self.active = [seat not in out and bool(self.hands[seat]) for seat in range(self.players)]
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        self.trick: list[tuple[int, Card]] = []
        self.tricks_played = 0
        self.tricks_won = [0] * self.players
        self.last_win = [-1] * self.players
        self.trick_winners: list[int] = []
        self.eliminated: list[tuple[int, int]] = []
        self.opening = opening
        self.outcome: HandResult | None = None
        # How often each rule fired, by name, as its unit's `fires` says: a constraint that
        # refused a card, a draw, a trick won by trumping, an elimination rule that decided
        # a last-card winner's fate, an exhaustion or all-out rule that acted.
        self.fired: Counter[RuleTag] = Counter()
        self.plays = 0
        self.saves = 0
        self._check_setup(leader)
        self.leader = leader
        self.trick_seats = self._seats_from(leader)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int,
        dealer: int = 0,
        order: Sequence[Card] | None = None,
        seed: int = 0,
    ) -> Hand:
        """Deal from a deck order, or from a shuffle seeded by `seed`, as
        docs/rules.md#reproducible-deals says."""
        rules.check_players(players)
        check_seat(dealer, players, "dealer")
        rng = random.Random(seed)
        if order is None:
            order = list(rules.cards)
            rng.shuffle(order)
        else:
            check_permutation(order, rules.cards)
        size = rules.hand_size_for(players)
        dealt = players * size
        hands: list[list[Card]] = [[] for _ in range(players)]
        for k, card in enumerate(order[:dealt]):
            hands[(dealer + 1 + k) % players].append(card)
        rest = list(order[dealt:])
        turnup = rest.pop(0) if rules.trump is Trump.STOCK_TURNUP else None
        shown = order[dealt - 1] if rules.trump is Trump.DEALER_LAST_CARD else None
        named_by = shown if shown is not None else turnup
        trump = named_by.suit if named_by is not None else rules.fixed_trump
        hand = cls(
            rules,
            hands,
            rest,
            trump,
            (dealer + 1) % players,
            dealer=dealer,
            turnup=turnup,
            seed=rng.getrandbits(64),
        )
        hand.events.append(Deal(dealer, tuple(tuple(h) for h in hands), len(rest)))
        hand.events.append(TrumpEvent(trump, named_by, rules.trump, rule="trump"))
        return hand

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card] = (),
        trump: Suit | None = None,
        leader: int = 0,
        **kwargs: Any,
    ) -> Hand:
        """Set up any position: hands, stock (top first), trump, leader, and who is `out`."""
        return cls(rules, hands, stock, trump, leader, **kwargs)

    def _check_setup(self, leader: int) -> None:
        if self.players < 2:
            raise RulesError("a hand needs at least two players")
        if not 0 <= leader < self.players or not self.active[leader]:
            raise RulesError(f"the leader, seat {leader}, must be an active seat")
        every = [c for h in self.hands for c in h] + self.stock + self.set_aside
        every += [self.turnup] if self.turnup else []
        if len(set(every)) != len(every):
            raise RulesError("a card appears twice in the position")

    # -- reading the position and copying it -----------------------------------------

    def cards(self, seat: int) -> list[Card]:
        """The cards `seat` holds, sorted; a new list (changing it leaves the hand alone)."""
        check_seat(seat, self.players, "the")
        return list(self.hands[seat])

    def copy(self) -> Hand:
        """An independent copy of the game, for search: playing on either never changes the
        other (hands, stock, set-aside cards, trick, events, counters and the generator of
        reshuffles are all its own). Only the frozen `rules` are shared."""
        return copy.deepcopy(self, {id(self.rules): self.rules})

    def __str__(self) -> str:
        """The position: trump, each seat's cards, the stock, the trick so far, who is out."""
        trump = "no trump" if self.trump is None else f"trump {self.trump.word} ({self.trump})"
        lines = [f"{self.players} players, seat {self.dealer} deals, {trump}"]
        out = {seat: trick for trick, seat in self.eliminated}
        for seat in range(self.players):
            if not self.active[seat]:
                after = f" after trick {out[seat]}" if seat in out else ""
                lines.append(f"seat {seat}: out{after}")
                continue
            held = " ".join(map(str, self.hands[seat])) or "-"
            lines.append(f"seat {seat}: {held}" + ("  <- to play" if seat == self.to_move else ""))
        shown = "" if self.turnup is None else f", turn-up {self.turnup}"
        lines.append(f"stock {len(self.stock)}, set aside {len(self.set_aside)}{shown}")
        if self.outcome is not None:
            lines.append(f"over: {self.outcome}")
        else:
            played = ", ".join(f"seat {seat} {card}" for seat, card in self.trick)
            lines.append(f"trick {self.tricks_played + 1}: {played or 'to be led'}")
        return "\n".join(lines)

    # -- whose turn, and what they may play -------------------------------------------

    def _seats_from(self, leader: int) -> list[int]:
        """The active seats, clockwise from the leader: who plays to this trick."""
        return [
            (leader + i) % self.players
            for i in range(self.players)
            if self.active[(leader + i) % self.players]
        ]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def to_move(self) -> int | None:
        if self.outcome is not None:
            return None
        return self.trick_seats[len(self.trick)]

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    def best_so_far(self) -> tuple[int, Card] | None:
        """The seat and card currently winning the trick."""
        if not self.trick:
            return None
        led = self.trick[0][1].suit
        best = self.trick[0]
        for seat, card in self.trick[1:]:
            if beats(card, best[1], led, self.trump, self.rules.rank_strength):
                best = (seat, card)
        return best

    def refusals(self) -> dict[Card, Refusal]:
        """Every card in the mover's hand that the rules forbid, with the rule that forbids it.

        Each rule keeps the cards it allows among those the rules before it allowed; a rule
        that would keep none (the player cannot comply) keeps them all.
        """
        seat = self.to_move
        if seat is None:
            return {}
        refused: dict[Card, Refusal] = {}
        allowed = list(self.hands[seat])
        for rule, allows, message in self._constraints():
            kept = [c for c in allowed if allows(c)] or allowed
            refused.update({c: Refusal(c, rule, message) for c in allowed if c not in kept})
            allowed = kept
        return refused

    def legal_moves(self) -> list[Card]:
        seat = self.to_move
        if seat is None:
            return []
        refused = self.refusals()
        return [c for c in self.hands[seat] if c not in refused]

    def _constraints(self) -> Iterator[tuple[RuleTag, Callable[[Card], bool], str]]:
        """The rules that narrow a move, in order: rule, the cards it allows, and why."""
        rules, trump = self.rules, self.trump
        if not self.trick:
            asked = rules.opening_lead is OpeningLead.TRUMP_IF_ABLE
            if self.opening and asked and trump is not None:
                why = f"the first lead must be a trump ({trump.word}) when you hold one"
                yield "opening_lead", lambda c: c.suit == trump, why
            return
        led = self.trick[0][1].suit
        if any(c.suit == led for c in self.hands[self.to_move]):
            if rules.follow is Follow.SUIT_OR_TRUMP:
                why = f"you hold a {led.word[:-1]}: follow suit or play a trump"
                yield "follow", lambda c: c.suit in (led, trump), why
            else:
                yield "follow", lambda c: c.suit == led, f"you hold a {led.word[:-1]}: follow suit"
        elif rules.when_void is WhenVoid.TRUMP_IF_ABLE and trump is not None:
            why = f"you hold no {led.word}: play a trump ({trump.word})"
            yield "when_void", lambda c: c.suit == trump, why
        if rules.must_head:
            best = self.best_so_far()[1]
            yield (
                "must_head",
                lambda c: beats(c, best, led, trump, rules.rank_strength),
                f"you must beat {best} when you can",
            )

    def check(self, card: Card) -> Refusal | None:
        """Why `card` may not be played now, or None if it may."""
        return self._check(card, self.refusals())

    def _check(self, card: Card, refused: dict[Card, Refusal]) -> Refusal | None:
        seat = self.to_move
        if seat is None:
            return Refusal(card, "hand", "the hand is over")
        if card not in self.hands[seat]:
            return Refusal(card, "hand", f"seat {seat} does not hold {card}")
        return refused.get(card)

    # -- playing ------------------------------------------------------------------------

    def play(self, card: Card) -> list[Event]:
        """Play a card for the player to move; return the events it caused."""
        seat = self.to_move
        refused = self.refusals()
        refusal = self._check(card, refused)
        if refusal is not None:
            raise IllegalMove(refusal)
        for rule in {r.rule for r in refused.values()}:
            self.fired[rule] += 1
        start = len(self.events)
        self.plays += 1
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.events.append(Play(self.tricks_played + 1, seat, card))
        if len(self.trick) == len(self.trick_seats):  # step 1: everyone at the lead has played
            self._finish_trick()
        return self.events[start:]

    def _finish_trick(self) -> None:
        number = self.tricks_played + 1
        winner, best = self.best_so_far()  # step 2
        trumped = best.suit == self.trump and self.trick[0][1].suit != self.trump
        if trumped:
            self.fired["trump"] += 1
        last_card = not self.hands[winner]
        cards = tuple(c for _, c in self.trick)
        played_order = [s for s, _ in self.trick]
        self.set_aside.extend(cards)
        self.tricks_played = number
        self.tricks_won[winner] += 1
        self.last_win[winner] = number
        self.trick_winners.append(winner)
        self.trick = []
        self.opening = False
        self.events.append(TrickWon(number, winner, cards, rule="trump" if trumped else CORE))
        if self.rules.elimination is Elimination.IMMEDIATE:  # step 3
            self._eliminate(played_order, number)
            if last_card and (self.stock or self.rules.exhaustion is Exhaustion.RESHUFFLE):
                self.fired["elimination"] += 1  # out before a draw that would have saved it
        if self._draw(winner, len(cards), number):  # steps 4 and 5
            return self._end(winner, EndReason.STOCK_EXHAUSTED, "exhaustion")
        if self.rules.elimination is Elimination.AFTER_DRAW:  # step 6
            self._eliminate(played_order, number)
            if last_card and self.active[winner]:
                self.fired["elimination"] += 1
                self.saves += 1
        remaining = [s for s in range(self.players) if self.active[s]]
        if len(remaining) == 1:  # step 7
            return self._end(remaining[0], EndReason.LAST_PLAYER, CORE)
        if not remaining:  # step 8
            last = self.rules.all_out is AllOut.LAST_TRICK_WINNER
            return self._end(winner if last else None, EndReason.ALL_OUT, "all_out")
        if self.rules.exhaustion is Exhaustion.MOST_TRICKS and not self.stock:  # step 9
            return self._end(self._most_tricks(), EndReason.MOST_TRICKS, "exhaustion")
        if number >= TRICK_LIMIT:
            return self._end(None, EndReason.TRICK_LIMIT, CORE)
        self.leader = self._next_leader(winner)  # step 10
        self.trick_seats = self._seats_from(self.leader)

    def _eliminate(self, played_order: list[int], number: int) -> None:
        for seat in played_order:
            if self.active[seat] and not self.hands[seat]:
                self.active[seat] = False
                self.eliminated.append((number, seat))
                self.events.append(Out(number, seat, rule="elimination"))

    def _draw(self, winner: int, in_trick: int, number: int) -> bool:
        """The winner's draw; True when it took the last card and that ends the hand."""
        if not self.active[winner]:
            return False
        draw = self.rules.draw
        wanted = in_trick if draw is DrawWord.PER_CARD_IN_TRICK else int(draw)
        drawn: list[Card] = []
        for _ in range(wanted):
            exhaustion = self.rules.exhaustion
            if not self.stock and exhaustion is Exhaustion.RESHUFFLE and self.set_aside:
                self.stock = self.set_aside
                self.set_aside = []
                self.rng.shuffle(self.stock)
                self.events.append(Reshuffle(number, len(self.stock), rule="exhaustion"))
                self.fired["exhaustion"] += 1
            if not self.stock:
                if exhaustion is Exhaustion.PLAY_OUT:
                    self.fired["exhaustion"] += 1  # play goes on without drawing
                break
            drawn.append(self.stock.pop(0))
        if not drawn:
            return False
        self.fired["draw"] += 1
        self.hands[winner].extend(drawn)
        self.hands[winner].sort(key=self.rules.card_key)
        self.events.append(Draw(number, winner, tuple(drawn), len(self.stock), rule="draw"))
        return self.rules.exhaustion is Exhaustion.LAST_DRAW_WINS and not self.stock

    def _most_tricks(self) -> int:
        return max(range(self.players), key=lambda s: (self.tricks_won[s], self.last_win[s]))

    def _next_leader(self, winner: int) -> int:
        for i in range(self.players):
            seat = (winner + i) % self.players
            if self.active[seat]:
                return seat
        raise AssertionError("no active seat to lead")

    def _end(self, winner: int | None, reason: EndReason, rule: RuleTag) -> None:
        """End the hand, as the rule `rule` decides."""
        if rule != CORE:
            self.fired[rule] += 1
        self.outcome = HandResult(
            winner=winner,
            reason=reason,
            tricks=self.tricks_played,
            eliminated=tuple(self.eliminated),
            stock_left=len(self.stock),
            trump=self.trump,
            trick_winners=tuple(self.trick_winners),
            winner_cards=len(self.hands[winner]) if winner is not None else 0,
            plays=self.plays,
            saves=self.saves,
            fired=frozenset(name for name, count in self.fired.items() if count),
        )
        self.events.append(HandEnd(winner, reason, self.tricks_played, rule=rule))

    def cards_in_play(self) -> list[Card]:
        """Every card the hand holds anywhere: hands, trick, stock, set aside, turn-up."""
        cards = [c for h in self.hands for c in h] + [c for _, c in self.trick]
        cards += self.stock + self.set_aside
        return cards + ([self.turnup] if self.turnup else [])
