"""A person at one seat, playing in the terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import click

from rulesdsl.cards import Card, CardError
from rulesdsl.engine.hand import Hand
from rulesdsl.transcript import Style


class HumanPlayer:
    """Shows the table and asks for a card until the person names a legal one."""

    name = "you"

    def __init__(
        self,
        style: Style,
        read: Callable[[str], str],
        write: Callable[[str], None],
    ) -> None:
        self.style = style
        self.read = read
        self.write = write

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        self.show(hand)
        mine = hand.hands[hand.to_move]
        while True:
            answer = self.read("Your card (e.g. 10H, or its number): ").strip()
            card = self.pick(answer, mine)
            if card is None:
                continue
            refusal = hand.check(card)
            if refusal is None:
                return card
            self.write(f"Not allowed: {refusal.message} ({refusal.option}).")

    def pick(self, answer: str, mine: Sequence[Card]) -> Card | None:
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(mine):
            return mine[int(answer) - 1]
        try:
            card = Card.parse(answer)
        except CardError as error:
            self.write(str(error))
            return None
        if card not in mine:
            self.write(f"You do not hold {card}.")
            return None
        return card

    def show(self, hand: Hand) -> None:
        s = self.style
        out = [seat for seat in range(hand.players) if not hand.active[seat]]
        self.write("")
        self.write(
            f"Trump: {s.suit(hand.trump)}   Stock: {len(hand.stock)}   "
            f"Out: {', '.join(s.seat(x) for x in out) or 'nobody'}"
        )
        counts = ", ".join(
            f"{s.seat(x)} {len(hand.hands[x])}" for x in range(hand.players) if hand.active[x]
        )
        self.write(f"Cards held: {counts}")
        played = "; ".join(f"{s.seat(x)} {s.card(c)}" for x, c in hand.trick)
        self.write(f"Trick {hand.tricks_played + 1}: {played or 'you lead'}")
        mine = hand.hands[hand.to_move]
        numbered = "  ".join(f"{i}:{s.card(c)}" for i, c in enumerate(mine, 1))
        self.write(f"Your hand: {numbered}")


def prompt_reader(prompt: str) -> str:
    return click.prompt(prompt, prompt_suffix="", default="", show_default=False)
