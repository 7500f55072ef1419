"""Cards, suits, ranks, decks and the card text of section 4 of docs/rules.md."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

from rulesdsl.model.text import safe_text, shorten


class Suit(IntEnum):
    """Suits in tie-break order: C < D < H < S. `str()` gives the letter, as in card text."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return self.letter

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def word(self) -> str:
        return self.name.lower()

    @classmethod
    def from_word(cls, word: str) -> Suit:
        return cls[word.upper()]


RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
QUOTED = 24  # the most characters of a typed text quoted back
RANKS_HIGH_TO_LOW: tuple[int, ...] = tuple(range(14, 1, -1))
RANK_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
"""Each rank's name in words, as the rules' language names it."""
_RANK_READ = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10, "10": 10}
_SUIT_READ = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}
_SUIT_READ.update({s.symbol: s for s in Suit})
_SUIT_READ.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})


class CardError(ValueError):
    """A card or deck text that cannot be read; `column` (1-based) is where in the text the
    culprit starts, 0 when the text as a whole is wrong."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


def quoted(text: str) -> str:
    """A text a person typed, quoted to print: cut to a card's worth or so, escaped."""
    return f"'{safe_text(shorten(text, QUOTED))}'"


def rank_text(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def parse_rank(text: str) -> int:
    word = text.strip().upper()
    if word in _RANK_READ:
        return _RANK_READ[word]
    if word.isascii() and word.isdigit() and len(word) <= 2 and 2 <= int(word) <= 9:
        return int(word)
    raise CardError(f"{quoted(text)} is not a rank; expected 2-9, 10 (or T), J, Q, K or A")


def rank_strength(order: Sequence[int]) -> dict[int, int]:
    """Each rank's strength under a rank order written highest first: the last rank is 0."""
    return {rank: len(order) - 1 - i for i, rank in enumerate(order)}


def is_usual_order(order: Sequence[int]) -> bool:
    """Whether the ranks run in the usual order, ace high and 2 low."""
    return tuple(order) == tuple(sorted(order, reverse=True))


class Card(NamedTuple):
    """A card; tuples order it by (rank, suit) under the usual order, aces high. Play
    compares cards by the strength of their rank in the profile's order (`Rules.card_key`)."""

    rank: int
    suit: Suit

    def __str__(self) -> str:
        return rank_text(self.rank) + self.suit.letter

    @property
    def pretty(self) -> str:
        return rank_text(self.rank) + self.suit.symbol

    @classmethod
    def parse(cls, text: str) -> Card:
        word = text.strip().upper()
        if len(word) < 2:
            raise CardError(f"{quoted(text)} is not a card; write rank then suit, e.g. 10H, KC, A♠")
        rank_part, suit_part = word[:-1], word[-1]
        if suit_part not in _SUIT_READ:
            raise CardError(
                f"{quoted(text)} is not a card: {quoted(text.strip()[-1])} is not a suit; "
                "expected C, D, H or S (or ♣ ♦ ♥ ♠)"
            )
        try:
            rank = parse_rank(rank_part)
        except CardError:
            raise CardError(
                f"{quoted(text)} is not a card: {quoted(rank_part)} is not a rank; "
                "expected 2-9, 10 (or T), J, Q, K or A"
            ) from None
        return cls(rank, _SUIT_READ[suit_part])


def make_deck(ranks: Iterable[int] = RANKS_HIGH_TO_LOW) -> tuple[Card, ...]:
    """The cards in play, in the canonical order: by suit, then rank low to high (aces high),
    whatever order the ranks play in: the same cards are the same deck."""
    rank_set = sorted(set(ranks))
    return tuple(Card(r, s) for s in Suit for r in rank_set)


FULL_DECK = make_deck()


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas."""
    return [Card.parse(word) for word in text.replace(",", " ").split()]


# The longest deck order read: 52 cards written at their longest ("10♠, ") take 260.
MAX_ORDER = 1000
ORDER_EXPECTED = "a deck order: cards top first, separated by spaces, e.g. AS 10H 2C"
# What a deck order is written with: ranks, suits (letters in either case, or symbols),
# and the spaces and commas between cards.
ORDER_CHARS = re.compile(r"[0-9A-Za-z \t\r," + "".join(_SUIT_READ) + "]*")
_WORD = re.compile(r"[^\s,]+")
LONGEST_CARD = 3  # 10H, 10♠


def parse_deck(text: str, deck: Sequence[Card] = FULL_DECK) -> list[Card]:
    """Read a deck order and check it is a permutation of `deck`; a mistake in one card is a
    CardError with its column."""
    if len(text) > MAX_ORDER:
        raise CardError(
            f"this is {len(text):,} characters; a deck order is {MAX_ORDER:,} at most "
            f"(cards top first, separated by spaces, e.g. AS 10H 2C)"
        )
    odd = ORDER_CHARS.match(text)
    end = odd.end() if odd is not None else 0
    if end < len(text):
        raise CardError(
            f"{char_name(text[end])} is not part of a card; expected {ORDER_EXPECTED}", end + 1
        )
    order = [_card_at(word) for word in _WORD.finditer(text)]
    check_permutation(order, deck)
    return order


def char_name(char: str) -> str:
    """A character as a person can tell it apart, escaped: `'Д' (U+0414, CYRILLIC CAPITAL
    LETTER DE)`, `U+001B`."""
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    said = f"{code}, {name}" if name else code
    return f"'{char}' ({said})" if char.isprintable() and not char.isspace() else said


def _card_at(word: re.Match[str]) -> Card:
    text = word.group()
    if len(text) > LONGEST_CARD:
        shown = text[: LONGEST_CARD + 2] + "…"
        raise CardError(
            f"'{shown}' is not a card; a card is a rank then a suit, e.g. 10H, KC, A♠",
            word.start() + 1,
        )
    try:
        return Card.parse(text)
    except CardError as error:
        raise CardError(str(error), word.start() + 1) from None


def check_permutation(order: Sequence[Card], deck: Sequence[Card] = FULL_DECK) -> None:
    seen: set[Card] = set()
    duplicates = [c for c in order if c in seen or seen.add(c)]
    if duplicates:
        raise CardError(f"the deck lists {cards_text(duplicates)} more than once")
    foreign = [c for c in order if c not in set(deck)]
    if foreign:
        raise CardError(f"the deck holds {cards_text(foreign)}, which is not in the deck in play")
    missing = [c for c in deck if c not in seen]
    if missing:
        raise CardError(
            f"the deck has {len(order)} cards, not {len(deck)}: missing {cards_text(missing)}"
        )


def cards_text(cards: Iterable[Card], most: int = 10) -> str:
    """Cards as text; a long list is cut after `most` cards."""
    listed = list(cards)
    text = " ".join(str(c) for c in listed[:most])
    return text + (f" and {len(listed) - most} more" if len(listed) > most else "")
