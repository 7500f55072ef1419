"""What one seat knows of a hand: its information set.

A seat sees its own cards as dealt and drawn, every card played and by whom, the card that
named trump and where it went, how many cards every player drew, and every reshuffle. It
does not see the other players' cards, what they drew, or the order of the stock.

The information set also lays the hand out as *slots*: the places a card can be in the
deck order (the deal and the stock) and in each reshuffled stock, each with the seat that
took it and when. A hidden world is a filling of the slots the seat cannot see; the
sampler (`sampler.py`) draws such fillings.

Where the cards go in the deck order is learnt from the engine, by dealing a known order
(`Hand.deal`), so a trump rule's set-up is never written twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import NamedTuple

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.events import Deal, Draw, Event, Play, Reshuffle, TrickWon
from rulesdsl.play.engine.events import TrumpShown as TrumpEvent
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.rows import SearchError

STOCK = -1
"""The owner of a slot still in the stock."""
OUT = -2
"""The owner of the card set aside out of play for trump."""


class Place(StrEnum):
    """Where the card that named trump went at the deal."""

    NONE = "none"  # no card names trump
    HAND = "hand"  # the dealer holds it
    STOCK_BOTTOM = "stock_bottom"  # face up at the bottom of the stock
    OUT_OF_PLAY = "out_of_play"  # set aside


class Layout(NamedTuple):
    """Where the deal puts the deck order: the positions each seat is dealt (in deal
    order), the stock's positions (top first) and the position of the card shown for
    trump (None when none is)."""

    deal: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    shown: int | None


@cache
def layout(rules: Rules, players: int, dealer: int) -> Layout:
    """The deal's layout, read off a deal of the deck in its canonical order."""
    order = list(rules.cards)
    hand = Hand.deal(rules, players, dealer, order=order)
    where = {card: k for k, card in enumerate(order)}
    deal = next(e for e in hand.events if isinstance(e, Deal))
    shown = next(e for e in hand.events if isinstance(e, TrumpEvent)).card
    return Layout(
        tuple(tuple(where[c] for c in cards) for cards in deal.hands),
        tuple(where[c] for c in hand.stock),
        None if shown is None else where[shown],
    )


class WorldSlot(NamedTuple):
    """A place a card can be: `epoch` 0 is the deck order, k the k-th reshuffled stock;
    `index` the position in it; `owner` the seat that took the card (STOCK while it is in
    the stock); `time` the number of cards played before the owner took it."""

    epoch: int
    index: int
    owner: int
    time: int


class SeenPlay(NamedTuple):
    """A card played: by whom, to which trick (1 first), and which stock it came from
    (`epoch`, as in WorldSlot)."""

    seat: int
    card: Card
    trick: int
    epoch: int


class SeenDraw(NamedTuple):
    """A draw: who drew how many cards after trick `trick`, after `time` cards were played;
    the cards only when the seat itself drew them."""

    trick: int
    seat: int
    count: int
    time: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True)
class InfoSet:
    """What `seat` knows of a hand, from the events every seat sees."""

    rules: Rules
    players: int
    seat: int
    dealer: int
    dealt: tuple[Card, ...]  # the seat's own cards as dealt, in deal order
    trump: Suit | None
    shown: Card | None  # the card that named trump
    place: Place  # where it went at the deal
    plays: tuple[SeenPlay, ...]
    draws: tuple[SeenDraw, ...]
    pools: tuple[tuple[Card, ...], ...]  # the cards of each reshuffled stock (epoch 1 on)
    hand: tuple[Card, ...]  # the seat's cards now
    held: tuple[int, ...]  # how many cards each seat holds now
    stock: int  # cards in the stock now
    slots: tuple[WorldSlot, ...]
    fixed: dict[tuple[int, int], Card]  # the cards the seat knows in their slots

    @property
    def drawn(self) -> tuple[int, ...]:
        """How many cards each seat has drawn this hand."""
        counts = [0] * self.players
        for draw in self.draws:
            counts[draw.seat] += draw.count
        return tuple(counts)

    def hidden(self) -> list[WorldSlot]:
        """The slots whose card the seat does not know."""
        return [s for s in self.slots if (s.epoch, s.index) not in self.fixed]

    def trump_holder(self) -> int | None:
        """The seat known to hold the trump card now, if any: the dealer's card stays in
        the dealer's hand until played; the stock's bottom card goes to the seat that
        draws it."""
        if self.shown is None or any(p.card == self.shown for p in self.plays):
            return None
        slot = next(s for s in self.slots if self.fixed.get(s[:2]) == self.shown)
        return slot.owner if slot.owner >= 0 else None


def observe(hand: Hand, seat: int) -> InfoSet:
    """The information set of `seat` in `hand`, read from its public events alone."""
    rules, n = hand.rules, hand.players
    deal = next((e for e in hand.events if isinstance(e, Deal)), None)
    if deal is None:
        raise SearchError(
            "a search bot reads the hand's history from its deal: play a hand made by "
            "Hand.deal (or Match.deal), not one set up with Hand.from_position"
        )
    shown = next(e for e in hand.events if isinstance(e, TrumpEvent))
    lay = layout(rules, n, deal.dealer)
    fixed: dict[tuple[int, int], Card] = {}
    for k, card in zip(lay.deal[seat], deal.hands[seat], strict=True):
        fixed[(0, k)] = card
    if lay.shown is not None:
        fixed[(0, lay.shown)] = shown.card
    slots = [WorldSlot(0, k, owner, 0) for owner, ks in enumerate(lay.deal) for k in ks]
    if _place(lay) is Place.OUT_OF_PLAY:
        slots.append(WorldSlot(0, lay.shown, OUT, 0))
    walk = _History(seat, [(0, k) for k in lay.stock], slots, fixed)
    for event in hand.events:
        walk.read(event)
    slots += [WorldSlot(e, k, STOCK, len(walk.plays)) for e, k in walk.stock]
    return InfoSet(
        rules=rules,
        players=n,
        seat=seat,
        dealer=deal.dealer,
        dealt=tuple(deal.hands[seat]),
        trump=shown.suit,
        shown=shown.card,
        place=_place(lay),
        plays=tuple(walk.plays),
        draws=tuple(walk.draws),
        pools=tuple(walk.pools),
        hand=tuple(hand.cards(seat)),
        held=tuple(len(h) for h in hand.hands),
        stock=len(hand.stock),
        slots=tuple(slots),
        fixed=fixed,
    )


@dataclass
class _History:
    """A walk through a hand's events as `seat` sees them: which slot each card drawn came
    from (the stock's, top first, then each reshuffled stock's), the plays and draws."""

    seat: int
    stock: list[tuple[int, int]]  # the slots still in the stock, top first
    slots: list[WorldSlot]
    fixed: dict[tuple[int, int], Card]
    plays: list[SeenPlay] = field(default_factory=list)
    draws: list[SeenDraw] = field(default_factory=list)
    pools: list[tuple[Card, ...]] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    origin: dict[Card, int] = field(default_factory=dict)  # the stock a card came back in

    def read(self, event: Event) -> None:
        if isinstance(event, Play):
            epoch = self.origin.get(event.card, 0)
            self.plays.append(SeenPlay(event.seat, event.card, event.trick, epoch))
        elif isinstance(event, TrickWon):
            self.set_aside.extend(event.cards)
        elif isinstance(event, Reshuffle):
            self._reshuffle()
        elif isinstance(event, Draw):
            self._draw(event)

    def _reshuffle(self) -> None:
        epoch = len(self.pools) + 1
        self.pools.append(tuple(self.set_aside))
        self.origin.update(dict.fromkeys(self.set_aside, epoch))
        # A draw the old stock could not fill ends from the new one (one event).
        self.stock += [(epoch, j) for j in range(len(self.set_aside))]
        self.set_aside = []

    def _draw(self, event: Draw) -> None:
        count = len(event.cards)
        taken, self.stock = self.stock[:count], self.stock[count:]
        time = len(self.plays)
        self.slots += [WorldSlot(e, k, event.seat, time) for e, k in taken]
        own = event.seat == self.seat
        if own:
            self.fixed.update(zip(taken, event.cards, strict=True))
        self.draws.append(
            SeenDraw(event.trick, event.seat, count, time, event.cards if own else None)
        )


def _dealt(lay: Layout) -> set[int]:
    """The positions of the deck order that are dealt."""
    return {k for ks in lay.deal for k in ks}


def _place(lay: Layout) -> Place:
    if lay.shown is None:
        return Place.NONE
    if lay.shown in _dealt(lay):
        return Place.HAND
    return Place.STOCK_BOTTOM if lay.shown in lay.stock else Place.OUT_OF_PLAY
