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

from rulesdsl.model.cards import RANK_WORDS, RANKS_HIGH_TO_LOW
from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.state import TRICK_LIMIT_TRICKS


class Type(StrEnum):
    INT = "a number"
    BOOL = "a condition"
    SUIT = "a suit"
    CARD = "a card"
    MAYBE_CARD = "a card or none"
    RANK = "a rank"
    SEAT = "a seat"
    MAYBE_SEAT = "a seat or none"
    NONE = "none"
    TRICK = "a trick"
    CARDS = "a set of cards"
    SEATS = "a set of seats"
    TRICKS = "a set of tricks"


class Where(StrEnum):
    """Where a clause is evaluated: the step of section 2 of docs/rules.md it acts at."""

    DEAL = "the deal"
    LEAD = "a lead"
    FOLLOW = "a follow"
    PLAY = "a card played"
    DRAW = "a draw"
    ALSO_DRAWS = "who draws too"
    OUT = "who is out"
    END = "the end of a trick"
    SCORE = "the score of a hand"


PLAYING = frozenset({Where.LEAD, Where.FOLLOW, Where.PLAY})
RESOLVED = frozenset({Where.DRAW, Where.ALSO_DRAWS, Where.OUT, Where.END})
DURING = PLAYING | RESOLVED
ANYWHERE = DURING | {Where.DEAL, Where.SCORE}


SUITS = ("clubs", "diamonds", "hearts", "spades")

MOST_PLAYERS = PlayerRange.highest
MOST_CARDS = len(RANKS_HIGH_TO_LOW) * len(SUITS)
MOST_TRICKS = TRICK_LIMIT_TRICKS
PLAYERS_SPAN = (PlayerRange.lowest, MOST_PLAYERS)


RANK_OF = {word: rank for rank, word in RANK_WORDS.items()}
"""The rank of each rank's name."""
RANK_CODE = "RANK_{}"
"""A rank (2 to 14) in a rule's code: where a profile plays the rule, its deck puts the
rank's strength in its place (`rule.HouseRule.steps_for`)."""


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

    @property
    def rank(self) -> int:
        """The rank a rank's name names (2 to 14); 0 for any other name."""
        return RANK_OF.get(self.name, 0)

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


SUBJECTS = ("card", "player")
"""The names of what a rule decides on, one at a time (`tree.CARD_VAR`): the card a
filter refuses or not, the player a rule of who is out puts out or not."""

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
            "player",
            Type.SEAT,
            frozenset({Where.OUT}),
            "the player the rule decides on (each player still in, in turn)",
            "player",
        ),
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
        *(
            Name(word, Type.RANK, ANYWHERE, f"the rank {word}, placed by the deck's order")
            for word in RANK_OF
        ),
        Name("true", Type.BOOL, ANYWHERE, "always", "True"),
        Name("false", Type.BOOL, ANYWHERE, "never", "False"),
        Name("none", Type.NONE, ANYWHERE, "no suit, no seat, no card", "-1"),
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
        Name("trick.leader", Type.SEAT, DURING, "who led this trick", "s.leader"),
        Name(
            "previous",
            Type.TRICK,
            DURING,
            "the trick before this one (at the first trick, none: no leader, winner, suit or card)",
            "s.trick_number",
            resolved="(s.trick_number - 1)",  # the skeleton counts the trick once it is won
        ),
        Name(
            "hand.tricks",
            Type.TRICKS,
            ANYWHERE,
            "the tricks of this hand won so far (at a draw and at the end of a trick, this "
            "one too)",
        ),
        Name(
            "hand.played",
            Type.CARDS,
            ANYWHERE,
            "the cards played to the tricks of this hand won so far, each once (at a draw "
            "and at the end of a trick, this one's too)",
            "s.hand_played",
            span=(0, MOST_CARDS),
        ),
        Name(
            "hand.last_trick",
            Type.TRICK,
            frozenset({Where.SCORE}),
            "the trick after which the hand ended",
            "s.trick_number",
        ),
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

SETS: dict[str, SetCode] = {
    "active": SetCode("range(s.players)", "s.active[{v}]", MOST_PLAYERS),
    "seats": SetCode("range(s.players)", size=MOST_PLAYERS),
    "hand.tricks": SetCode("range(1, s.trick_number + 1)", size=MOST_TRICKS),
}
"""How each set of seats or tricks is iterated, by its name."""
ELEMENTS = {Type.CARDS: Type.CARD, Type.SEATS: Type.SEAT, Type.TRICKS: Type.TRICK}
"""The type of a set's members."""

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
        Attribute(Type.CARD, "rank", Type.RANK, "its rank", "({x} >> 2)"),
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
        Attribute(
            Type.SEAT,
            "hand",
            Type.CARDS,
            "the cards they hold",
            "s.hands[{x}]",
            frozenset({Where.DEAL, Where.SCORE}),  # hidden while the hand is played
            span=(0, MOST_CARDS),
        ),
        Attribute(
            Type.SEAT,
            "streak",
            Type.INT,
            "how many tricks in a row they won, up to the last trick won",
            "(s.streak if s.streak_seat == {x} else 0)",
            span=(0, MOST_TRICKS),
        ),
        Attribute(
            Type.SEAT,
            "won",
            Type.CARDS,
            "the cards they won in tricks this hand, each once",
            "s.won[{x}]",
            span=(0, MOST_CARDS),
        ),
        Attribute(
            Type.SEAT,
            "played",
            Type.MAYBE_CARD,
            "the card they played to this trick (none before they play)",
            "s.played_by[{x}]",
            DURING,
        ),
        Attribute(
            Type.TRICK, "number", Type.INT, "its number in the hand", "{x}", span=(0, MOST_TRICKS)
        ),
        Attribute(Type.TRICK, "leader", Type.MAYBE_SEAT, "who led it", "s.history_leader[{x}]"),
        Attribute(Type.TRICK, "led", Type.SUIT, "the suit led to it", "s.history_led[{x}]"),
        Attribute(Type.TRICK, "winner", Type.MAYBE_SEAT, "who won it", "s.history_winner[{x}]"),
        Attribute(
            Type.TRICK, "best", Type.MAYBE_CARD, "the card that won it", "s.history_best[{x}]"
        ),
        Attribute(
            Type.TRICK,
            "cards",
            Type.CARDS,
            "the cards played to it",
            "s.history_cards[{x}]",
            span=(0, MOST_PLAYERS),
        ),
    )
}


def guarded(attribute: Attribute, code: str) -> str:
    """A card attribute's `code` made to read a card or none (`{x}` < 0): none is of no
    suit and no trump, and its strength and rank are below every card's."""
    if attribute.type == Type.BOOL:
        return f"({{x}} >= 0 and {code})"
    return f"(-1 if {{x}} < 0 else {code})"


def _of_card_or_none(attribute: Attribute) -> Attribute:
    low, high = attribute.span
    return Attribute(
        Type.MAYBE_CARD,
        attribute.name,
        attribute.type,
        f"{attribute.description} (none: {NONE_SAYS[attribute.type]})",
        guarded(attribute, attribute.code),
        attribute.where,
        (min(low, -1), high) if attribute.type == Type.INT else attribute.span,
    )


NONE_SAYS = {Type.SUIT: "none", Type.BOOL: "no", Type.INT: "-1", Type.RANK: "below every rank"}

ATTRIBUTES.update(
    ((Type.MAYBE_CARD, a.name), _of_card_or_none(a))
    for a in list(ATTRIBUTES.values())
    if a.owner == Type.CARD and a.where == ANYWHERE
)


CARD_SETS = {
    **{n.code: SetCode(n.code, size=n.span[1]) for n in NAMES.values() if n.type == Type.CARDS},
    **{
        a.code: SetCode(a.code, size=a.span[1]) for a in ATTRIBUTES.values() if a.type == Type.CARDS
    },
}
"""How each set of cards is iterated, by its code (an attribute's with `{x}` for its owner's)."""


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


@dataclass(frozen=True)
class Function:
    """`name(a, b)`: a value read by its arguments' values; `code` has `{a}` and `{b}`."""

    name: str
    params: tuple[Type, ...]
    type: Type
    description: str
    code: str


FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in (
        Function(
            "card_of",
            (Type.MAYBE_SEAT, Type.TRICK),
            Type.MAYBE_CARD,
            "the card a seat played to a trick (none where they did not play to it)",
            "(s.history_plays[{b}][{a}] if {a} >= 0 else -1)",
        ),
    )
}
"""The functions of values other than numbers, by name."""
