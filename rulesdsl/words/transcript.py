"""Readers of the event stream: a readable transcript and a JSON-lines trace."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import IO

import click

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.result import EndReason
from rulesdsl.model.rules import Rules
from rulesdsl.model.text import safe_text
from rulesdsl.play.engine import events as ev
from rulesdsl.words.explain import phrases, rule_text


class Style:
    """Card and seat text, coloured or plain."""

    def __init__(self, color: bool, names: Sequence[str]) -> None:
        self.color = color
        self.names = list(names)

    def card(self, card: Card) -> str:
        text = card.pretty if self.color else str(card)
        if self.color and card.suit in (Suit.DIAMONDS, Suit.HEARTS):
            return click.style(text, fg="red", bold=True)
        return click.style(text, bold=True) if self.color else text

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def seat(self, seat: int) -> str:
        name = self.names[seat] if seat < len(self.names) else ""
        text = f"seat {seat}" + (f" ({name})" if name else "")
        return click.style(text, fg="cyan") if self.color else text

    def suit(self, suit: Suit | None) -> str:
        if suit is None:
            return "no trump"
        return f"{suit.word} {suit.symbol}" if self.color else suit.word

    def strong(self, text: str) -> str:
        return click.style(text, bold=True) if self.color else text

    def faint_cards(self, cards: Sequence[Card]) -> str:
        """Cards shown but not offered: dimmed, in one colour."""
        text = " ".join(c.pretty if self.color else str(c) for c in cards)
        return click.style(text, dim=True) if self.color else text


class Transcript:
    """Writes each event as readable lines. With the `rules` played, a hand that a rule
    the profile states ended says that rule's sentence too."""

    def __init__(
        self,
        style: Style,
        write: Callable[[str], None],
        hidden: Sequence[int] = (),
        rules: Rules | None = None,
    ) -> None:
        self.style = style
        self.write = write
        self.hidden = set(hidden)
        self.hand = 0
        self.rules = rules

    def __call__(self, event: ev.Event) -> None:
        handler = getattr(self, "_" + event.kind, None)
        if handler is not None:
            handler(event)

    def _deal(self, e: ev.Deal) -> None:
        self.hand += 1
        s = self.style
        self.write(
            s.strong(f"Hand {self.hand}") + f": {s.seat(e.dealer)} deals; {e.stock} in stock"
        )
        for seat, cards in enumerate(e.hands):
            if seat not in self.hidden:
                self.write(f"  {s.seat(seat)}: {s.cards(cards)}")

    def _trump(self, e: ev.TrumpShown) -> None:
        s = self.style
        how = {
            "dealer_last_card": "shown by the dealer and kept",
            "stock_turnup": "turned up from the stock and set aside",
            "stock_bottom": "turned up and put at the bottom of the stock",
        }
        shown = f" ({s.card(e.card)} {how[e.source]})" if e.card is not None else ""
        self.write(f"Trump: {s.suit(e.suit)}{shown}")

    def _play(self, e: ev.Play) -> None:
        self.write(f"  trick {e.trick}: {self.style.seat(e.seat)} plays {self.style.card(e.card)}")

    def _trick_won(self, e: ev.TrickWon) -> None:
        self.write(f"  trick {e.trick}: {self.style.seat(e.seat)} wins")

    def _reshuffle(self, e: ev.Reshuffle) -> None:
        self.write(f"  the {e.cards} set-aside cards are shuffled into a new stock")

    def _draw(self, e: ev.Draw) -> None:
        drawn = self.style.cards(e.cards)
        if e.seat in self.hidden:
            drawn = "a card" if len(e.cards) == 1 else f"{len(e.cards)} cards"
        self.write(f"  {self.style.seat(e.seat)} draws {drawn}; {e.stock_left} left")

    def _lead(self, e: ev.Lead) -> None:
        """The first lead a rule the profile states gives (the others go unsaid)."""
        if self._stated(e.rule) is not None:
            seat = self.style.seat(e.seat)
            self.write(f"  {seat} leads trick {e.trick} by rule {e.rule}")

    def _out(self, e: ev.Out) -> None:
        by = f" by rule {e.rule}" if self._stated(e.rule) is not None else ""
        self.write(f"  {self.style.seat(e.seat)} is out{by}")

    def _stated(self, name: str | None) -> HouseRule | None:
        """The rule the profile states named `name`, if there is one."""
        rules = self.rules.house_rules if self.rules is not None else ()
        return next((r for r in rules if r.name == name), None)

    def _hand_end(self, e: ev.HandEnd) -> None:
        if e.reason is EndReason.HOUSE_RULE:
            self._ended_by_rule(e)
            return
        if e.winner is None:
            every = e.reason is EndReason.ALL_OUT
            why = "every hand emptied" if every else "the trick limit was reached"
            self.write(self.style.strong(f"Hand {self.hand} has no winner: {why}"))
            return
        why = phrases().end(e.reason)
        text = f"Hand {self.hand}: {self.style.seat(e.winner)} wins; it {why}"
        self.write(self.style.strong(text) + f" ({e.tricks} tricks)")

    def _ended_by_rule(self, e: ev.HandEnd) -> None:
        """A hand a rule the profile states ended: who won, that rule, and what it says."""
        tricks = f"{e.tricks} trick" + ("" if e.tricks == 1 else "s")
        if e.winner is None:
            head = f"Hand {self.hand} has no winner after {tricks}"
        else:
            head = f"Hand {self.hand}: {self.style.seat(e.winner)} wins after {tricks}"
        self.write(self.style.strong(head) + f"; the hand ends by {e.rule}{self._says(e.rule)}")

    def _says(self, name: str) -> str:
        """`: ` and what the rule the profile states named `name` says (its control
        characters as escapes); empty without the rules."""
        rule = self._stated(name)
        if rule is None or self.rules is None:
            return ""
        said = rule_text(rule, phrases(), self.rules.deck).removesuffix(".")
        return ": " + safe_text(said)

    def _score(self, e: ev.Score) -> None:
        self.write(f"Points: {' '.join(str(p) for p in e.points)}")

    def _match_end(self, e: ev.MatchOver) -> None:
        who = ", ".join(self.style.seat(s) for s in e.winners)
        self.write(self.style.strong(f"Match over after {e.hands} hands: {who} wins") + "\n")


class Trace:
    """Writes each event as one JSON line, with the number of the hand it belongs to."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.hand = 0

    def __call__(self, event: ev.Event) -> None:
        if isinstance(event, ev.Deal):
            self.hand += 1
        self.stream.write(json.dumps({"hand": self.hand, **event.to_dict()}) + "\n")
