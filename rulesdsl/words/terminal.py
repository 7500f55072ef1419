"""A person at one seat, playing in the terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import click

from rulesdsl.model.cards import QUOTED, Card, CardError
from rulesdsl.model.text import safe_text, shorten
from rulesdsl.play.engine.hand import Hand, Refusal
from rulesdsl.words import refusals
from rulesdsl.words.explain import DEFAULT_LANGUAGE
from rulesdsl.words.transcript import Style

HELP_WORDS = ("help", "?")


class HumanPlayer:
    """Shows the table and the cards that may be played, numbered, and asks for one until
    the person names a legal one (by its number or its text); `help` or `?` explains. A
    refused card says why in `lang`: a rule's sentence, or a rule the profile states in its
    own words."""

    name = "you"

    def __init__(
        self,
        style: Style,
        read: Callable[[str], str],
        write: Callable[[str], None],
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.style = style
        self.read = read
        self.write = write
        self.lang = lang

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        refused = hand.refusals()
        self.show(hand, legal, refused)
        prompt = f"Your card ({numbers(legal)}, a card such as {legal[0]}, or ? for help): "
        while True:
            answer = self.read(prompt).strip()
            if answer.lower() in HELP_WORDS:
                self.write(help_text(legal, refused, self.lang))
                continue
            card = self.pick(answer, hand, legal)
            if card is not None:
                return card

    def pick(self, answer: str, hand: Hand, legal: Sequence[Card]) -> Card | None:
        """The card the answer names, or None after saying what is wrong with it."""
        hint = f"type a number from the list or a card such as {legal[0]} (? for help)"
        if not answer:
            self.write(hint[0].upper() + hint[1:] + ".")
            return None
        if answer.isascii() and answer.isdigit():
            # A long run of digits is no number in the list (nor one Python would read).
            if len(answer) <= len(str(len(legal))) and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            said = shorten(answer, QUOTED)
            self.write(f"{said} is not {numbers(legal, in_words=True)} nor a card; {hint}.")
            return None
        try:
            card = Card.parse(answer)
        except CardError as error:
            self.write(f"{error}; or {hint}.")
            return None
        refusal = hand.check(card)
        if refusal is None:
            return card
        if refusal.rule == "hand":
            self.write(f"You do not hold {card}; {hint}.")
        else:
            self.write(f"{card} is not allowed: {why(refusal, self.lang)}.")
        return None

    def show(self, hand: Hand, legal: Sequence[Card], refused: dict[Card, Refusal]) -> None:
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
        numbered = "  ".join(f"{s.strong(str(i))}:{s.card(c)}" for i, c in enumerate(legal, 1))
        self.write(f"You may play: {numbered}")
        for message, cards in refusal_groups(refused, self.lang):
            self.write(f"Not allowed:  {s.faint_cards(cards)}: {message}")


def numbers(legal: Sequence[Card], in_words: bool = False) -> str:
    """The numbers that name the legal cards: `1-4`, or in words `a number from 1 to 4`."""
    count = len(legal)
    if in_words:
        return "the number 1" if count == 1 else f"a number from 1 to {count}"
    return "1" if count == 1 else f"1-{count}"


def why(refusal: Refusal, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why a card is refused, in `lang`, and the rule that refuses it; a sentence from a
    profile is shown with its control characters as escapes."""
    return f"{safe_text(refusals.said(refusal, lang))} ({refusal.rule})"


def refusal_groups(
    refused: dict[Card, Refusal], lang: str = DEFAULT_LANGUAGE
) -> list[tuple[str, list[Card]]]:
    """The refused cards grouped by why: the rule's sentence and option, and its cards."""
    groups: dict[str, list[Card]] = {}
    for card, refusal in refused.items():
        groups.setdefault(why(refusal, lang), []).append(card)
    return list(groups.items())


def help_text(
    legal: Sequence[Card], refused: dict[Card, Refusal], lang: str = DEFAULT_LANGUAGE
) -> str:
    """What can be typed at the prompt, and why the cards not in the list are refused."""
    lines = [
        f"Type the number of a card in the list ({numbers(legal)}), or the card itself:",
        "rank then suit, e.g. 10H (or TH), KC, A♠. `help` or `?` shows this; Ctrl-C stops.",
    ]
    if not refused:
        lines.append("Every card you hold may be played now.")
    for message, cards in refusal_groups(refused, lang):
        lines.append(f"Not allowed now: {' '.join(map(str, cards))}: {message}.")
    return "\n".join(lines)


def prompt_reader(prompt: str) -> str:
    return click.prompt(prompt, prompt_suffix="", default="", show_default=False)
