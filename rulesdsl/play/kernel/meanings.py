"""What each word of the rules' language (`rulesdsl.model.language.vocab`) means on the
kernel's state, written once: the vocabulary's own `code` reads the engine's lists, these
read the kernel's numbers and masks (a set of cards or of seats is a mask).

Each table is keyed as the vocabulary keys its words; a word's number in a program
(`program.py`) is its place in its table. `source()` writes, from the tables, the functions
the interpreter (`machine.py`) calls for a word: `leaf_value`, `attr_value`, `set_of`,
`cards_where` and `operate`, each an `if` over the word's number. CPython runs that text
(the functions are made from it as this module is imported); the native build compiles the
same text.
"""

from __future__ import annotations

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW
from rulesdsl.model.kinds import PlayerRange
from rulesdsl.model.language.tree import OPERATORS
from rulesdsl.model.language.vocab import ATTRIBUTES, CALLS, CARD_SETS, NAMES, SUITS, Type, guarded
from rulesdsl.model.language.vocab import SETS as NAMED_SETS
from rulesdsl.play.engine.masks import ALL_CARDS, popcount, suit_cards
from rulesdsl.play.kernel.rules import active_seats, beating, played_by, played_cards

LEAVES: dict[str, str] = {
    "players": "s.players",
    "trump": "s.trump",
    "led": "s.led",
    "me": "seat",
    "drawer": "seat",
    "true": "1",
    "false": "0",
    "none": "-1",
    **{word: str(suit) for suit, word in enumerate(SUITS)},
    "trick.number": "s.trick_number + 1",
    "trick.size": "s.trick_len",
    "trick.best": "s.best",
    "trick.winner": "s.winner",
    "trick.leader": "s.leader",
    "previous": "s.trick_number",
    "hand.last_trick": "s.trick_number",
    "hand.trump_played": "s.trumps_broken",
    "hand.winner": "winner",
    "stock.size": "s.stock_len",
}
"""Each name that is a value: its meaning with the player to move (or who draws) `seat`,
the cards the rules before allow `allowed` and the hand's winner `winner`."""

RESOLVED: dict[str, str] = {
    "trick.number": "s.trick_number",  # the order of a trick counts the trick once won
    "trick.size": "s.seats_len",  # the won cards are set aside by then
    "previous": "s.trick_number - 1",
}
"""A name's meaning in draw and end rules, where it differs (`Name.resolved`)."""

SETS: dict[str, str] = {
    "allowed": "allowed",
    "held": "s.hands[seat]",
    "played": "played_cards(s)",
    "active": "active_seats(s)",
    "seats": "(1 << s.players) - 1",
    "hand.played": "s.hand_played",
    "hand.tricks": "-s.trick_number",
}
"""Each name that is a set, as a mask (cards by card, seats by seat); a set of tricks, the
tricks 1 to n, as -n (`machine.take_member`)."""

CARDS_WHERE: dict[str, str] = {
    "trump": "suit_cards(s.trump)",
    "beats_best": f"{ALL_CARDS} if s.best < 0 else beating(s.best, s.led, s.trump)",
}
"""The cards for which each yes-or-no attribute of a card holds, as a mask; a card's
attribute is its bit of it."""
STRENGTHS = len(RANKS_HIGH_TO_LOW)
CARDS_EQUAL: dict[str, str] = {
    "card": f"1 << {{a}} if 0 <= {{a}} < {len(SUITS) * STRENGTHS} else 0",
    "suit": f"suit_cards({{a}}) if {{a}} < {len(SUITS)} else 0",
    "rank": f"{(1 << len(SUITS)) - 1} << {len(SUITS)} * {{a}} if 0 <= {{a}} < {STRENGTHS} else 0",
}
"""The cards that are the value `{a}`, or whose suit or rank is."""
RANKS_ABOVE = (
    f"{ALL_CARDS} >> 4 * {{a}} + 4 << 4 * {{a}} + 4 if 0 <= {{a}} < {STRENGTHS}"
    f" else ({ALL_CARDS} if {{a}} < 0 else 0)"
)
"""The cards of a rank above the value `{a}`."""
HOLDS = "(({cards}) >> {{x}}) & 1 != 0"
"""A yes-or-no attribute of the card `{x}`: its bit of the cards that have it."""
ON_SETS = {
    1: {
        "~": f"{ALL_CARDS} & ~{{a}}",
        "ranks above": RANKS_ABOVE,
        **{f"cards of {name}": cards for name, cards in CARDS_EQUAL.items()},
    },
    2: {"&": "{a} & {b}", "|": "{a} | {b}", "&~": "{a} & ~{b}"},
}
"""The operations a program makes sets of cards (masks) with, by how many values they take:
every card but, the cards of a rank above a value, the cards that are a value or whose
suit or rank is; both, either, the first but the second."""

ATTRIBUTES_MEANT: dict[tuple[Type, str], str] = {
    (Type.CARD, "suit"): "{x} & 3",
    (Type.CARD, "trump"): HOLDS.format(cards=CARDS_WHERE["trump"]),
    (Type.CARD, "strength"): "{x} >> 2",
    (Type.CARD, "rank"): "{x} >> 2",  # a rank is its strength (program.py names ranks so)
    (Type.CARD, "beats_best"): HOLDS.format(cards=CARDS_WHERE["beats_best"]),
    (Type.SEAT, "cards"): "popcount(s.hands[{x}])",
    (Type.SEAT, "tricks"): "s.tricks_won[{x}]",
    (Type.SEAT, "active"): "s.active[{x}]",
    (Type.SEAT, "streak"): "s.streak if s.streak_seat == {x} else 0",
    (Type.SEAT, "won"): "s.won[{x}]",
    (Type.SEAT, "hand"): "s.hands[{x}]",
    (Type.SEAT, "played"): "played_by(s, {x})",
    (Type.TRICK, "number"): "{x}",
    (Type.TRICK, "leader"): "s.history_leader[{x}]",
    (Type.TRICK, "led"): "s.history_led[{x}]",
    (Type.TRICK, "winner"): "s.trick_winners[{x} - 1] if {x} > 0 else -1",
    (Type.TRICK, "best"): "s.history_best[{x}]",
    (Type.TRICK, "cards"): "s.history_cards[{x}]",
}
"""Each attribute, of the value `{x}` (a set of cards is a mask); a card's or none's is the
card's, with none guarded (`vocab.guarded`)."""
ATTRIBUTES_MEANT.update(
    ((owner, name), guarded(ATTRIBUTES[owner, name], ATTRIBUTES_MEANT[Type.CARD, name]))
    for owner, name in ATTRIBUTES
    if owner == Type.MAYBE_CARD
)

SEATS = PlayerRange.highest
"""The seats of a trick's row of `history_plays` (`state.SEATS`)."""
FUNCTIONS_MEANT: dict[str, str] = {
    "card_of": f"s.history_plays[{{b}} * {SEATS} + {{a}}] if {{a}} >= 0 else -1",
}
"""Each function of the vocabulary (`vocab.FUNCTIONS`), of the values `{a}` and `{b}`."""

SHORT = ("and", "or")
"""`and` and `or`, which a program makes of choices (`program.Compiler.value`)."""
UNARY = {"not": "{a} == 0", "-": "-{a}", **ON_SETS[1]}
BINARY = {
    **{op: f"{{a}} {op} {{b}}" for op in OPERATORS if op not in SHORT},
    **{fn: f"{fn}({{a}}, {{b}})" for fn in CALLS},  # of many numbers: two at a time
    **FUNCTIONS_MEANT,
    **ON_SETS[2],
}

OPERATIONS: tuple[tuple[int, str], ...] = (*((1, op) for op in UNARY), *((2, op) for op in BINARY))
"""Each operation by its number: (how many values it takes, its word): the language's, and
those of sets of cards (ON_SETS)."""
OPERATED = tuple((UNARY if n == 1 else BINARY)[word] for n, word in OPERATIONS)
"""Each operation's meaning, by its number, of the values `{a}` and `{b}`."""


def leaf_names() -> tuple[tuple[str, bool], ...]:
    """Each (name, resolved) a program reads by number: every name's meaning, and its
    resolved meaning where it has one."""
    return (*((n, False) for n in LEAVES), *((n, True) for n in RESOLVED))


def leaf_meaning(leaf: tuple[str, bool]) -> str:
    name, resolved = leaf
    return RESOLVED[name] if resolved else LEAVES[name]


def _vocabulary_codes() -> dict[str, int]:
    codes: dict[str, int] = {}
    for number, (name, resolved) in enumerate(leaf_names()):
        codes.setdefault(NAMES[name].resolved if resolved else NAMES[name].code, number)
    return codes


LEAF_CODES = _vocabulary_codes()
"""The number of each name, by its vocabulary code (a checked tree's leaf)."""
ATTRIBUTE_CODES = {ATTRIBUTES[key].code: k for k, key in enumerate(ATTRIBUTES_MEANT)}
"""The number of each attribute, by its vocabulary code (a checked tree's `Attr.code`)."""
SET_CODES = {
    NAMED_SETS[name] if name in NAMED_SETS else CARD_SETS[NAMES[name].code]: k
    for k, name in enumerate(SETS)
}
"""The number of each set, by how the vocabulary iterates it (a checked tree's `Over.over`)."""


def _chain(header: str, meanings: list[str]) -> list[str]:
    lines = [header]
    for number, meaning in enumerate(meanings):
        lines += [f"    if code == {number}:", f"        return int({meaning})"]
    return [*lines, "    return 0", "", ""]


def source() -> str:
    """The text of the functions that give each word's value by its number."""
    chains = (
        ("leaf_value(code, s, seat, allowed, winner)", list(map(leaf_meaning, leaf_names()))),
        ("attr_value(code, s, x)", [m.format(x="x") for m in ATTRIBUTES_MEANT.values()]),
        ("set_of(code, s, seat, allowed)", list(SETS.values())),
        ("cards_where(code, s)", list(CARDS_WHERE.values())),
        ("operate(code, s, a, b)", [m.format(a="a", b="b") for m in OPERATED]),
    )
    return "\n".join(line for head, meanings in chains for line in _chain(f"def {head}:", meanings))


def _made() -> list[object]:
    called = (popcount, played_cards, played_by, active_seats, suit_cards, beating)
    space: dict[str, object] = {f.__name__: f for f in called}
    exec(compile(source(), "<rulesdsl kernel words>", "exec"), space)
    return [space[f] for f in ("leaf_value", "attr_value", "set_of", "cards_where", "operate")]


leaf_value, attr_value, set_of, cards_where, operate = _made()
