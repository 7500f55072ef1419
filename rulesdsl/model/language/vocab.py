"""The vocabulary of profile rules: types, the places a rule acts, and every name it may use.

Each name is declared once here with its type, where it has a value, a description, and
either the Python code it stands for over the engine's int state (cards are ints
`strength * 4 + suit`; see RULE_UNITS_DESIGN) or its meaning in the language itself
(`means`). The checker, the code generator, the table of docs/house-rules.md and the did-you-mean
hints all read this table.

The state is the engine's (rulesdsl/model/state.py): `trick_number` counts the tricks
won, the current one included once it is won (so in draw and end rules); `trumps_broken`
says a trump was played to an earlier trick; `best` and `winner` keep the trick's winning
card and seat until the next trick starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW
from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.state import TRICK_LIMIT_TRICKS


class Type(StrEnum):
    INT = "a number"
    BOOL = "a condition"
    SUIT = "a suit"
    CARD = "a card"
    SEAT = "a seat"
    MAYBE_SEAT = "a seat or none"
    NONE = "none"
    CARDS = "a set of cards"
    SEATS = "a set of seats"


class Where(StrEnum):
    """Where a clause is evaluated: the step of section 2 of docs/rules.md it acts at."""

    LEAD = "a lead"
    FOLLOW = "a follow"
    PLAY = "a card played"
    DRAW = "a draw"
    END = "the end of a trick"
    SCORE = "the score of a hand"


PLAYING = frozenset({Where.LEAD, Where.FOLLOW, Where.PLAY})
RESOLVED = frozenset({Where.DRAW, Where.END})
DURING = PLAYING | RESOLVED
ANYWHERE = DURING | {Where.SCORE}


SUITS = ("clubs", "diamonds", "hearts", "spades")

MOST_PLAYERS = PlayerRange.highest
MOST_CARDS = len(RANKS_HIGH_TO_LOW) * len(SUITS)
MOST_TRICKS = TRICK_LIMIT_TRICKS
PLAYERS_SPAN = (PlayerRange.lowest, MOST_PLAYERS)


@dataclass(frozen=True)
class Name:
    """A name of the language: a value (`code` over the state, or `means` in the language)."""

    name: str
    type: Type
    where: frozenset[Where]
    description: str
    code: str = ""
    means: str = ""
    resolved: str = ""  # the code in draw and end rules, when it differs
    span: tuple[int, int] = (0, 0)  # a number's least and largest value, in any game

    def code_at(self, where: Where) -> str:
        return self.resolved if self.resolved and where in RESOLVED else self.code


@dataclass(frozen=True)
class Attribute:
    """`x.name` for an `x` of type `owner`; `code` has `{x}` where x's code goes."""

    owner: Type
    name: str
    type: Type
    description: str
    code: str
    where: frozenset[Where] = ANYWHERE
    span: tuple[int, int] = (0, 0)  # a number's least and largest value, in any game


@dataclass(frozen=True)
class SetCode:
    """How a set is iterated: `for v in iterate`, keeping the `v` for which `keep` holds;
    `size` is the most elements it can have."""

    iterate: str
    keep: str = ""
    size: int = MOST_CARDS


NAMES: dict[str, Name] = {
    n.name: n
    for n in (
        Name(
            "players", Type.INT, ANYWHERE, "the number of players", "s.players", span=PLAYERS_SPAN
        ),
        Name("trump", Type.SUIT, ANYWHERE, "the trump suit (none without trumps)", "s.trump"),
        Name("led", Type.SUIT, DURING - {Where.LEAD}, "the suit led (none at the lead)", "s.led"),
        Name("card", Type.CARD, PLAYING, "the card the rule decides on", "card"),
        Name("me", Type.SEAT, PLAYING, "the player to play", "seat"),
        Name("drawer", Type.SEAT, frozenset({Where.DRAW}), "the player who draws", "seat"),
        Name(
            "allowed",
            Type.CARDS,
            PLAYING,
            "the cards the rules before this one allow",
            "allowed",
            span=(0, MOST_CARDS),
        ),
        Name(
            "held",
            Type.CARDS,
            PLAYING,
            "the cards the player holds",
            "s.hands[seat]",
            span=(0, MOST_CARDS),
        ),
        Name(
            "played",
            Type.CARDS,
            PLAYING,
            "the cards played to this trick so far",
            "s.trick",
            span=(0, MOST_PLAYERS),
        ),
        Name("active", Type.SEATS, ANYWHERE, "the players still in the hand"),
        Name("seats", Type.SEATS, ANYWHERE, "every seat"),
        Name("true", Type.BOOL, ANYWHERE, "always", "True"),
        Name("false", Type.BOOL, ANYWHERE, "never", "False"),
        Name("none", Type.NONE, ANYWHERE, "no suit, no seat", "-1"),
        *(
            Name(word, Type.SUIT, ANYWHERE, f"the suit {word}", str(i))
            for i, word in enumerate(SUITS)
        ),
        Name(
            "trick.number",
            Type.INT,
            ANYWHERE - {Where.SCORE},
            "this trick's number in the hand (1 for the first)",
            "(s.trick_number + 1)",
            resolved="s.trick_number",  # the skeleton counts the trick once it is won
            span=(1, MOST_TRICKS),
        ),
        Name(
            "trick.size",
            Type.INT,
            DURING,
            "how many cards this trick holds",
            "len(s.trick)",
            resolved="len(s.trick_seats)",  # the won cards are set aside by then
            span=(0, MOST_PLAYERS),
        ),
        Name(
            "trick.has_trump",
            Type.BOOL,
            PLAYING,
            "a trump has been played to this trick",
            means="any(c in played: c.trump)",
        ),
        Name(
            "trick.best",
            Type.CARD,
            DURING - {Where.LEAD, Where.PLAY},
            "the card winning the trick so far",
            "s.best",
        ),
        Name("trick.winner", Type.SEAT, RESOLVED, "the trick's winner", "s.winner"),
        Name(
            "trick.won_by_trump",
            Type.BOOL,
            RESOLVED,
            "the trick was won by a trump",
            means="trick.best.trump",
        ),
        Name(
            "hand.trump_played",
            Type.BOOL,
            ANYWHERE,
            "a trump was played to an earlier trick of this hand",
            "s.trumps_broken",
        ),
        Name("hand.winner", Type.SEAT, frozenset({Where.SCORE}), "the hand's winner", "winner"),
        Name(
            "stock.size",
            Type.INT,
            ANYWHERE,
            "the cards left in the stock",
            "len(s.stock)",
            span=(0, MOST_CARDS),
        ),
    )
}

CARD_SETS = {
    n.code: SetCode(n.code, size=n.span[1]) for n in NAMES.values() if n.type == Type.CARDS
}
"""How each set of cards is iterated, by its code."""

SETS: dict[str, SetCode] = {
    "active": SetCode("range(s.players)", "s.active[{v}]", MOST_PLAYERS),
    "seats": SetCode("range(s.players)", size=MOST_PLAYERS),
}

ATTRIBUTES: dict[tuple[Type, str], Attribute] = {
    (a.owner, a.name): a
    for a in (
        Attribute(Type.CARD, "suit", Type.SUIT, "its suit", "({x} & 3)"),
        Attribute(Type.CARD, "trump", Type.BOOL, "it is a trump", "(({x} & 3) == s.trump)"),
        Attribute(
            Type.CARD,
            "strength",
            Type.INT,
            "its rank's place in the order, 0 lowest",
            "({x} >> 2)",
            span=(0, len(RANKS_HIGH_TO_LOW) - 1),
        ),
        Attribute(
            Type.CARD,
            "beats_best",
            Type.BOOL,
            "it would win the trick so far",
            "(s.best < 0 or (({x} & 3) == (s.best & 3) and {x} > s.best)"
            " or (({x} & 3) == s.trump and (s.best & 3) != s.trump))",
            PLAYING,
        ),
        Attribute(
            Type.SEAT,
            "cards",
            Type.INT,
            "how many cards they hold",
            "len(s.hands[{x}])",
            span=(0, MOST_CARDS),
        ),
        Attribute(
            Type.SEAT,
            "tricks",
            Type.INT,
            "tricks they won this hand",
            "s.tricks_won[{x}]",
            span=(0, MOST_TRICKS),
        ),
        Attribute(Type.SEAT, "active", Type.BOOL, "they are still in the hand", "s.active[{x}]"),
    )
}


class Aggregate(StrEnum):
    """`NAME(v in SET: BODY)`: the bounded quantifiers and aggregates."""

    ANY = "any"
    ALL = "all"
    COUNT = "count"
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    MOST = "most"
    LEAST = "least"


# The body's type and the result's type of each aggregate; MOST and LEAST range over seats.
AGGREGATE_TYPES: dict[Aggregate, tuple[Type, Type]] = {
    Aggregate.ANY: (Type.BOOL, Type.BOOL),
    Aggregate.ALL: (Type.BOOL, Type.BOOL),
    Aggregate.COUNT: (Type.BOOL, Type.INT),
    Aggregate.SUM: (Type.INT, Type.INT),
    Aggregate.MAX: (Type.INT, Type.INT),
    Aggregate.MIN: (Type.INT, Type.INT),
    Aggregate.MOST: (Type.INT, Type.MAYBE_SEAT),
    Aggregate.LEAST: (Type.INT, Type.MAYBE_SEAT),
}
SEAT_ONLY = frozenset({Aggregate.MOST, Aggregate.LEAST})
CALLS = ("min", "max")  # min(a, b, ...) and max(a, b, ...) of numbers
