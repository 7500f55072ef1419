"""The option registry and the frozen Rules the engine reads.

Every variation point of RULES.md section 3 is one field of `Rules`, declared once
with its kind, default (the equal-hands value) and a one-line description.
`OPTIONS` is derived from those fields; nothing else lists the option names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from rulesdsl.cards import Card, Suit, is_usual_order, make_deck, rank_strength
from rulesdsl.expr import Expr
from rulesdsl.hints import suggest
from rulesdsl.house import ENGINE_PLAYS_HOUSE_RULES
from rulesdsl.house.unit import HouseRule, check_house_rules
from rulesdsl.options import (
    Choice,
    CountOrWord,
    DeckRanks,
    IntExpr,
    Kind,
    MatchEnd,
    MatchKind,
    OptionError,
    PlayerRange,
    choice,
)

SUIT_WORDS = tuple(s.word for s in Suit)


# A longer value is refused unread: no rule needs one, and reading a number that long or
# an expression nested that deep would hit Python's limits.
MAX_VALUE = 200


@dataclass(frozen=True)
class Option:
    """One variation point: its name, kind, default, description and rule-sheet section."""

    name: str
    kind: Kind
    default: Any
    description: str
    section: str

    def parse(self, text: Any) -> Any:
        """Read a value from text; anything it cannot read is an OptionError."""
        if isinstance(text, bool):
            text = "yes" if text else "no"
        text = str(text)
        if len(text) > MAX_VALUE:
            raise OptionError(
                f"the value is {len(text):,} characters; a value is {MAX_VALUE} at most"
            )
        if "\n" in text or "\r" in text:
            raise OptionError("a value is one line", "write it on one line")
        try:
            return self.kind.parse(text)
        except OptionError:
            raise
        except ValueError:  # int() of a digit it does not read, such as '²'
            raise OptionError(
                f"'{text.strip()}' is not allowed; expected {self.kind.expected}"
            ) from None

    def text(self, value: Any) -> str:
        return self.kind.text(value)

    def check(self, value: Any) -> None:
        """Raise OptionError unless `value` is one the kind could have read: its text reads
        back to the very same value, of the very same types."""
        try:
            back = self.parse(self.text(value))
        except Exception:  # any object at all may arrive here; what it raises is no matter
            back = _UNREADABLE
        if not same_value(back, value):
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise OptionError(
                f"{self.name}: {shown} ({type(value).__name__}) is not a value of this option; "
                f"expected {self.kind.expected}",
                "build Rules from text with Rules().with_options({...})",
            )


_UNREADABLE = object()


def same_value(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (so `1` is not `True`, nor `"1"`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a):
        return all(same_value(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a == b


def option(kind: Kind, default: str, description: str, section: str) -> Any:
    """A field of `Rules`; `section` is the part of a rule sheet the option belongs in."""
    return field(
        default=kind.parse(default),
        metadata={"kind": kind, "description": description, "section": section},
    )


class RulesError(ValueError):
    """Rules that cannot be played as asked (e.g. a player count the profile does not allow)."""


@dataclass(frozen=True)
class Rules:
    """One version of the rules; the default is the equal-hands profile.

    Every field is checked on construction, whatever the route: a value its option could
    not have read is an OptionError. The constructor takes values, not text (`hand_size`
    is an Expr, `must_head` a bool); `with_options` reads text.
    """

    players: tuple[int, int] = option(
        PlayerRange(), "3..6", "the player counts the profile allows", "setup"
    )
    deck: tuple[int, ...] = option(
        DeckRanks(),
        "standard",
        "cards in play and their order: the 52-card deck, or the ranks of each suit, highest first",
        "setup",
    )
    hand_size: Expr = option(IntExpr(), "players", "cards each player is dealt", "setup")
    trump: str = option(
        choice("dealer_last_card", "stock_turnup", "none", *SUIT_WORDS),
        "dealer_last_card",
        "how the trump suit is fixed",
        "setup",
    )
    opening_lead: str = option(
        choice("any", "trump_if_able"), "any", "constraint on the first lead of each hand", "play"
    )
    follow: str = option(
        choice("suit", "suit_or_trump"), "suit", "obligation when holding the led suit", "play"
    )
    when_void: str = option(
        choice("any", "trump_if_able"), "any", "obligation when void in the led suit", "play"
    )
    must_head: bool = option(
        Choice({"no": False, "yes": True}),
        "no",
        "obligation to beat the best card so far",
        "play",
    )
    draw: int | str = option(
        CountOrWord(("per_card_in_trick",)), "1", "cards the trick winner draws", "drawing"
    )
    elimination: str = option(
        choice("after_draw", "immediate"),
        "after_draw",
        "when an empty hand drops out",
        "drawing",
    )
    exhaustion: str = option(
        choice("last_draw_wins", "play_out", "reshuffle", "most_tricks"),
        "last_draw_wins",
        "what happens as the stock runs out",
        "ending",
    )
    all_out: str = option(
        choice("last_trick_winner", "no_winner"),
        "last_trick_winner",
        "who wins when every remaining hand empties in the same trick",
        "ending",
    )
    scoring: str = option(
        choice("one_per_hand", "cards_in_hand"),
        "one_per_hand",
        "match points for winning a hand",
        "scoring",
    )
    match: MatchEnd = option(MatchKind(), "target 3", "when the match ends", "scoring")
    next_dealer: str = option(
        choice("left", "hand_winner"), "left", "who deals the next hand", "scoring"
    )
    # The rules the profile states itself (RULES.md section 5), in the order they apply.
    # Each has a name and `.steps`: the step functions the engine asks at those steps.
    house_rules: tuple[HouseRule, ...] = ()

    def __post_init__(self) -> None:
        for name, opt in OPTIONS.items():
            opt.check(getattr(self, name))
        check_house_rules(self.house_rules)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play, in canonical order."""
        return make_deck(self.deck)

    @cached_property
    def rank_strength(self) -> dict[int, int]:
        """Each rank's strength in the deck's rank order: the higher beats the lower."""
        return rank_strength(self.deck)

    @property
    def usual_order(self) -> bool:
        """Whether the ranks play in the usual order (ace high), as the cards sort."""
        return is_usual_order(self.deck)

    def card_key(self, card: Card) -> tuple[int, int]:
        """A card's place in play order: by the strength of its rank, then by suit."""
        return self.rank_strength[card.rank], card.suit

    @property
    def fixed_trump(self) -> Suit | None:
        return Suit.from_word(self.trump) if self.trump in SUIT_WORDS else None

    def hand_size_for(self, players: int) -> int:
        return self.hand_size.eval(players)

    def match_count_for(self, players: int) -> int:
        return self.match.count.eval(players)

    def text(self, name: str) -> str:
        """The canonical text of one option's value."""
        return OPTIONS[name].text(getattr(self, name))

    def changed(self) -> dict[str, str]:
        """Options whose value differs from the default, as text."""
        return {
            name: self.text(name)
            for name, opt in OPTIONS.items()
            if getattr(self, name) != opt.default
        }

    def with_options(self, values: Mapping[str, Any]) -> Rules:
        """A copy with options set from text (or values); names and values are validated."""
        parsed = {}
        for name, value in values.items():
            opt = lookup(name)
            try:
                parsed[name] = opt.parse(value)
            except OptionError as error:
                raise OptionError(f"{name}: {error}") from None
        return dataclasses.replace(self, **parsed)

    def check_players(self, players: int) -> None:
        """Raise RulesError unless a hand for this many players can be dealt, and played
        with every rule these rules state."""
        if self.house_rules and not ENGINE_PLAYS_HOUSE_RULES:
            names = ", ".join(r.name for r in self.house_rules)
            raise RulesError(
                f"these rules state rules ({names}) that this engine does not play yet"
            )
        low, high = self.players
        if not low <= players <= high:
            allowed = self.text("players")
            raise RulesError(
                f"{players} players are not allowed by these rules (players {allowed})"
            )
        size = self.hand_size_for(players)
        if size < 1:
            raise RulesError(f"hand_size {self.hand_size} gives {size} cards for {players} players")
        needed = players * size + (self.trump == "stock_turnup")
        if needed > len(self.cards):
            raise RulesError(
                f"{players} players x {size} cards"
                + (" + 1 trump card" if self.trump == "stock_turnup" else "")
                + f" = {needed} cards, but the deck holds {len(self.cards)}"
            )

    def check_players_of(self, profile: str, players: int) -> None:
        """`check_players`, with the message naming the profile these rules come from."""
        try:
            self.check_players(players)
        except RulesError as error:
            raise RulesError(f"profile {profile}: {error}") from None


OPTIONS: dict[str, Option] = {
    f.name: Option(
        f.name, f.metadata["kind"], f.default, f.metadata["description"], f.metadata["section"]
    )
    for f in fields(Rules)
    if "kind" in f.metadata
}

SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(opt.section for opt in OPTIONS.values()))
"""The rule-sheet sections, in the order their first option is declared."""


def section_options(section: str) -> list[Option]:
    """The options of one rule-sheet section, in declaration order."""
    return [opt for opt in OPTIONS.values() if opt.section == section]


def lookup(name: str) -> Option:
    """The option called `name`, or OptionError with a 'did you mean'."""
    if name in OPTIONS:
        return OPTIONS[name]
    raise OptionError(f"unknown option '{name}'", suggest(name, OPTIONS))


def option_values(opt: Option, code: Callable[[str], str] = str) -> str:
    """The values an option takes, in words; `code` marks each word of a choice."""
    kind = opt.kind
    return ", ".join(code(w) for w in kind.words()) if isinstance(kind, Choice) else kind.expected


def options_table() -> str:
    """The options as a Markdown table: name, values, default, meaning."""
    rows = ["| option | values | default | meaning |", "|---|---|---|---|"]
    for opt in OPTIONS.values():
        values = option_values(opt, lambda word: f"`{word}`")
        rows.append(f"| `{opt.name}` | {values} | `{opt.text(opt.default)}` | {opt.description} |")
    return "\n".join(rows)


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Read `NAME=VALUE` settings, as given to `--set`."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(f"'{item}' is not NAME=VALUE, e.g. hand_size=7")
        lookup(name)
        values[name] = value.strip()
    return values


DEFAULT_RULES = Rules()
