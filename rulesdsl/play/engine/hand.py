"""One hand of Linger Longer as a step-by-step state machine: the reference engine.

It plays the order of a trick of `rulesdsl.play.engine.steps` (docs/rules.md#the-order-of-a-trick)
one card at a time, on the int State, with tracing on: each step's events and refusals are
logged in ints and read back here as Cards and Events.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, Card, Suit, check_permutation
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import OPTIONS, PROFILES_KEPT, Rules, RulesError
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.state import TRICK_LIMIT_TRICKS, State, beats
from rulesdsl.model.stream import Stream
from rulesdsl.model.units import CORE, RuleTag, Trump
from rulesdsl.model.units.trump import out_of_play, turned_up
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.events import (
    Deal,
    Draw,
    Event,
    HandEnd,
    Lead,
    Out,
    Play,
    Reshuffle,
    TrickWon,
    TrumpShown,
)
from rulesdsl.play.engine.fast import REASONS, result
from rulesdsl.play.engine.plan import plan_for

TRICK_LIMIT = TRICK_LIMIT_TRICKS

Said = tuple[tuple[str, str | Suit], ...]


@dataclass(frozen=True)
class Refusal:
    """Why a card may not be played: the rule that forbids it, and where its sentence lies
    in the phrase files (`refusals` RULE WORD, or `refused` KEY) with what fills it; for a
    rule the profile states, that rule (`stated`), whose own sentence says why, its cards
    named under the deck's rank order (`deck`, highest first). `rulesdsl.words.refusals`
    says it in a player's language."""

    card: Card
    rule: RuleTag
    phrase: tuple[str, ...]
    params: Said = ()
    stated: HouseRule | None = None
    deck: tuple[int, ...] = RANKS_HIGH_TO_LOW

    def __str__(self) -> str:
        return f"{self.card} is not allowed by the rule {self.rule}"


class IllegalMove(ValueError):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def check_seat(seat: int, players: int, role: str) -> None:
    """Raise RulesError unless `seat` is one of the table's seats."""
    if not 0 <= seat < players:
        raise RulesError(f"{role} seat {seat} does not exist; seats are 0 to {players - 1}")


def card_beats(
    card: Card, best: Card, led: Suit, trump: Suit | None, strength: Mapping[int, int]
) -> bool:
    """Whether `card` beats `best`, the best card so far of a trick led in `led`, where
    `strength` ranks the ranks (`Rules.rank_strength`): the engine's own rule, on Cards."""

    def code(c: Card) -> int:
        return strength[c.rank] * 4 + int(c.suit)

    return beats(code(card), code(best), int(led), -1 if trump is None else int(trump))


class Codes:
    """The int of each card in play under one rank order (strength * 4 + suit), and back."""

    def __init__(self, rules: Rules) -> None:
        strength = rules.rank_strength
        self.of = {card: strength[card.rank] * 4 + int(card.suit) for card in rules.cards}
        self.card = {code: card for card, code in self.of.items()}

    def ints(self, cards: Iterable[Card]) -> list[int]:
        return [self.of[c] for c in cards]

    def cards(self, codes: Iterable[int]) -> list[Card]:
        return [self.card[c] for c in codes]


@lru_cache(maxsize=PROFILES_KEPT)
def codes_for(rules: Rules) -> Codes:
    return Codes(rules)


class Hand:
    """The state of one hand, played by the steps of `rulesdsl.play.engine.steps` one card at a
    time on the int State; Cards at its methods, events and outcome. Build it with `deal`
    or `from_position`, then `play` cards."""

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
        self.codes = codes_for(rules)
        self.plan = plan_for(rules)
        self.turnup = turnup
        self.trump = trump
        self.dealer = dealer
        self.order: tuple[Card, ...] | None = None  # the deck order dealt, for `deal`
        self.events: list[Event] = []
        self.outcome: HandResult | None = None
        self._check_setup(hands, stock, set_aside, leader, out)
        ints = self.codes.ints
        active = [seat not in out and bool(hands[seat]) for seat in range(self.players)]
        self.s = State(
            [sorted(ints(h)) for h in hands],
            ints(reversed(stock)),
            -1 if trump is None else int(trump),
            leader,
            active,
            True,
        )
        self.s.set_aside = ints(set_aside)
        self.s.opening = opening
        self.s.rng = Stream(seed)
        steps.start_trick(self.s)

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
        stream = Stream(seed)
        if order is None:
            order = list(rules.cards)
            shuffle(order, stream)
        else:
            check_permutation(order, rules.cards)
        dealt = players * rules.hand_size_for(players)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for k, card in enumerate(order[:dealt]):
            hands[(dealer + 1 + k) % players].append(card)
        codes = codes_for(rules)
        trump_of = plan_for(rules).trump
        suit, stock = trump_of.act(codes.ints(order), dealt)
        rest = codes.cards(stock)
        trump = None if suit < 0 else Suit(suit)
        turnup = order[dealt] if out_of_play(rules) else None
        shown = order[dealt - 1] if rules.trump is Trump.DEALER_LAST_CARD else None
        shown = order[dealt] if turned_up(rules) else shown
        hand = cls(
            rules,
            hands,
            rest,
            trump,
            (dealer + 1) % players,
            dealer=dealer,
            turnup=turnup,
            seed=stream.split(),
        )
        hand.order = tuple(order)
        hand.events.append(Deal(dealer, tuple(tuple(h) for h in hands), len(rest)))
        hand.events.append(TrumpShown(trump, shown, rules.trump, rule=trump_of.rule))
        decided = steps.lead_first(hand.s, hand.plan)
        steps.start_trick(hand.s)
        lead = hand.first_lead()
        hand.events.append(lead if decided == CORE else dataclasses.replace(lead, rule=decided))
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
        hand = cls(rules, hands, stock, trump, leader, **kwargs)
        hand.events.append(hand.first_lead())
        return hand

    def first_lead(self) -> Lead:
        """Who leads the hand's first trick played here: the opening lead of a hand, else
        a position set up mid-hand."""
        rule = "opening_lead" if self.s.opening else CORE
        return Lead(self.s.trick_number + 1, self.s.leader, rule=rule)

    def _check_setup(
        self,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        set_aside: Sequence[Card],
        leader: int,
        out: Sequence[int],
    ) -> None:
        if self.players < 2:
            raise RulesError("a hand needs at least two players")
        if not 0 <= leader < self.players or leader in out or not hands[leader]:
            raise RulesError(f"the leader, seat {leader}, must be an active seat")
        every = [c for h in hands for c in h] + list(stock) + list(set_aside)
        every += [self.turnup] if self.turnup else []
        if len(set(every)) != len(every):
            raise RulesError("a card appears twice in the position")
        strange = [c for c in every if c not in self.codes.of]
        if strange:
            raise RulesError(f"{strange[0]} is not a card of this deck")

    # -- reading the position and copying it -----------------------------------------

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, sorted in play order (new lists)."""
        return [self.codes.cards(h) for h in self.s.hands]

    @property
    def stock(self) -> list[Card]:
        """The stock, top card first (a new list)."""
        return self.codes.cards(reversed(self.s.stock))

    @property
    def set_aside(self) -> list[Card]:
        return self.codes.cards(self.s.set_aside)

    @property
    def active(self) -> list[bool]:
        return list(self.s.active)

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The trick so far: (seat, card) in the order played."""
        s = self.s
        played = zip(s.trick_seats[: len(s.trick)], s.trick, strict=True)
        return [(seat, self.codes.card[c]) for seat, c in played]

    @property
    def trick_seats(self) -> list[int]:
        """Who plays to this trick, from the leader."""
        return list(self.s.trick_seats)

    @property
    def tricks_played(self) -> int:
        return self.s.trick_number

    @property
    def eliminated(self) -> list[tuple[int, int]]:
        """(trick, seat) of each player out, in order."""
        return list(self.s.eliminated)

    @property
    def trick_winners(self) -> list[int]:
        return list(self.s.trick_winners)

    @property
    def tricks_won(self) -> list[int]:
        return list(self.s.tricks_won)

    @property
    def leader(self) -> int:
        return self.s.leader

    @property
    def rng(self) -> Stream | None:
        """The stream of reshuffles."""
        return self.s.rng

    @property
    def opening(self) -> bool:
        return self.s.opening

    @property
    def saves(self) -> int:
        return self.s.saves

    @property
    def fired(self) -> frozenset[str]:
        """The rules that have fired in this hand so far (rule coverage)."""
        return self.plan.fired_names[self.s.fired]

    def cards(self, seat: int) -> list[Card]:
        """The cards `seat` holds, sorted; a new list (changing it leaves the hand alone)."""
        check_seat(seat, self.players, "the")
        return self.codes.cards(self.s.hands[seat])

    def copy(self) -> Hand:
        """An independent copy of the game, for search: playing on either never changes the
        other (hands, stock, set-aside cards, trick, events, counters and the generator of
        reshuffles are all its own). Only the frozen `rules` and its tables are shared."""
        shared = (self.rules, self.codes, self.plan)
        return copy.deepcopy(self, {id(x): x for x in shared})

    def __str__(self) -> str:
        """The position: trump, each seat's cards, the stock, the trick so far, who is out."""
        trump = "no trump" if self.trump is None else f"trump {self.trump.word} ({self.trump})"
        lines = [f"{self.players} players, seat {self.dealer} deals, {trump}"]
        out = {seat: trick for trick, seat in self.eliminated}
        hands, active = self.hands, self.s.active
        for seat in range(self.players):
            if not active[seat]:
                after = f" after trick {out[seat]}" if seat in out else ""
                lines.append(f"seat {seat}: out{after}")
                continue
            held = " ".join(map(str, hands[seat])) or "-"
            lines.append(f"seat {seat}: {held}" + ("  <- to play" if seat == self.to_move else ""))
        shown = "" if self.turnup is None else f", turn-up {self.turnup}"
        lines.append(f"stock {len(self.s.stock)}, set aside {len(self.s.set_aside)}{shown}")
        if self.outcome is not None:
            lines.append(f"over: {self.outcome}")
        else:
            played = ", ".join(f"seat {seat} {card}" for seat, card in self.trick)
            lines.append(f"trick {self.tricks_played + 1}: {played or 'to be led'}")
        return "\n".join(lines)

    # -- whose turn, and what they may play -------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def to_move(self) -> int | None:
        if self.outcome is not None:
            return None
        return self.s.trick_seats[len(self.s.trick)]

    @property
    def led_suit(self) -> Suit | None:
        return Suit(self.s.led) if self.s.trick else None

    def best_so_far(self) -> tuple[int, Card] | None:
        """The seat and card currently winning the trick."""
        if not self.s.trick:
            return None
        return self.s.winner, self.codes.card[self.s.best]

    def refusals(self) -> dict[Card, Refusal]:
        """Every card in the mover's hand that the rules forbid, with the rule that forbids it.

        Each rule keeps the cards it allows among those the rules before it allowed; a rule
        that would keep none (the player cannot comply) keeps them all.
        """
        seat = self.to_move
        if seat is None:
            return {}
        s = self.s
        fired = s.fired
        if s.trick:
            steps.follow_allowed(s, self.plan, seat)
        else:
            steps.allowed_cards(s, self.plan.lead_rules, seat)
        s.fired = fired  # asking is not playing: a refusal fires when the card is played
        refused: dict[Card, Refusal] = {}
        for rule, cards in s.refused:
            why = self._why(rule)
            refused.update({c: Refusal(c, rule, *why) for c in self.codes.cards(cards)})
        return refused

    def _why(self, rule: str) -> tuple[tuple[str, ...], Said, HouseRule | None, tuple[int, ...]]:
        """Where the sentence of a refusal by `rule` lies, what fills it, and the rule the
        profile states that says it, with the deck's rank order."""
        if rule not in OPTIONS:  # a rule the profile states
            stated = next((r for r in self.rules.house_rules if r.name == rule), None)
            return ("refused", "house"), (("name", rule),), stated, self.rules.deck
        s = self.s
        word = OPTIONS[rule].text(getattr(self.rules, rule))
        led = Suit(s.led) if s.trick else ""
        trump = Suit(s.trump) if s.trump >= 0 else ""
        best = str(self.codes.card[s.best]) if s.trick else ""
        said = (("led", led), ("trump", trump), ("best", best))
        return ("refusals", rule, word), said, None, self.rules.deck

    def legal_moves(self) -> list[Card]:
        seat = self.to_move
        if seat is None:
            return []
        refused = self.refusals()
        return [c for c in self.codes.cards(self.s.hands[seat]) if c not in refused]

    def check(self, card: Card) -> Refusal | None:
        """Why `card` may not be played now, or None if it may."""
        return self._check(card, self.refusals())

    def _check(self, card: Card, refused: dict[Card, Refusal]) -> Refusal | None:
        seat = self.to_move
        if seat is None:
            return Refusal(card, "hand", ("refused", "hand_over"))
        code = self.codes.of.get(card)
        if code is None or code not in self.s.hands[seat]:
            return Refusal(
                card, "hand", ("refused", "not_held"), (("seat", str(seat)), ("card", str(card)))
            )
        return refused.get(card)

    # -- playing ------------------------------------------------------------------------

    def play(self, card: Card) -> list[Event]:
        """Play a card for the player to move; return the events it caused."""
        seat = self.to_move
        refusal = self._check(card, self.refusals())
        if refusal is not None:
            raise IllegalMove(refusal)
        s, plan = self.s, self.plan
        start = len(self.events)
        logged = len(s.log)
        # The rules that refused a card fire as it is played (asked again, they fire now).
        if s.trick:
            steps.follow_allowed(s, plan, seat)
            steps.follow_card(s, seat, self.codes.of[card])
        else:
            steps.allowed_cards(s, plan.lead_rules, seat)
            steps.lead_card(s, seat, self.codes.of[card])
        if len(s.trick) == len(s.trick_seats):  # step 1: everyone at the lead has played
            steps.finish_trick(s, plan)
            if s.over:
                self.outcome = result(s, plan)
            else:
                steps.start_trick(s)
        self.events += [self._event(entry) for entry in s.log[logged:]]
        return self.events[start:]

    def _event(self, entry: tuple) -> Event:
        """An event of the log in ints, with Cards."""
        kind, *fields = entry
        cards = self.codes.card
        match kind:
            case "play":
                number, seat, card = fields
                return Play(number, seat, cards[card])
            case "lead":
                number, seat, rule = fields
                return Lead(number, seat, rule=rule)
            case "trick_won":
                number, seat, played, rule = fields
                return TrickWon(number, seat, tuple(cards[c] for c in played), rule=rule)
            case "out":
                number, seat, rule = fields
                return Out(number, seat, rule=rule)
            case "reshuffle":
                number, count, rule = fields
                return Reshuffle(number, count, rule=rule)
            case "draw":
                number, seat, drawn, left, rule = fields
                return Draw(number, seat, tuple(cards[c] for c in drawn), left, rule=rule)
        winner, reason, tricks, rule = fields
        return HandEnd(None if winner < 0 else winner, REASONS[reason], tricks, rule=rule)

    def cards_in_play(self) -> list[Card]:
        """Every card the hand holds anywhere: hands, trick, stock, set aside, turn-up."""
        s = self.s
        codes = [c for h in s.hands for c in h] + s.trick + s.stock + s.set_aside
        return self.codes.cards(codes) + ([self.turnup] if self.turnup else [])
