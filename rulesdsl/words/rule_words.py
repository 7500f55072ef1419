"""A rule's expression in words, for `explain` when the profile gives no sentence.

The words come from the phrase table of a language (`house.words` in phrases/<lang>.yaml):
a phrase for every name and attribute of the vocabulary, every operator and aggregate,
each with `{a}`, `{b}`, `{x}`, `{v}`, `{set}` where its parts go. Bound variables keep
their letter. A clause that does not read (it cannot happen for a checked rule) is shown
as written.

Grammar: a phrase may come in several forms (`nom`, the plain one, and any other the
language needs, such as a genitive `gen`); a template asks for a part's form as
`{x_gen}`. A part that has no such form takes the language's default for it (`forms`,
e.g. Portuguese `de: "de {x}"`), else its plain form.

Cards are said as players say them: a comparison of a card's `.strength` with a number
names the ranks of the profile's deck order (`cards` and `ranks`: "the card is a jack or
higher"), `card.strength == N and card.suit == S` names the card ("the queen of spades"),
and a comparison of two strengths says which ranks higher. A strength no rank of the deck
has is said to be impossible, never as a number. A rank named (`card.rank >= jack`) is said
the same way, and a card named (`QS`) as players name it ("the queen of spades").

Where a phrase depends on what its part is (`cards` of a seat is a number, of a trick a
set), its entry holds a phrase for each type of part, keyed by the type's name (`seat`,
`trick`): the type of a name or attribute comes from the vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lark import Token, Tree, UnexpectedInput

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, Card, rank_text
from rulesdsl.model.language.tree import OPERATORS
from rulesdsl.model.language.vocab import (
    ATTRIBUTES,
    ELEMENTS,
    FUNCTIONS,
    NAMES,
    RANK_OF,
    SUITS,
    Type,
)
from rulesdsl.read.language.checker import parser

Forms = Mapping[str, str]
"""A phrase in its grammatical forms: `nom` the plain one, others as the language needs."""

PLAIN = "nom"

# `a OP b` said the other way round: `b FLIPPED[OP] a`.
FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
STRENGTH, RANK, SUIT = "strength", "rank", "suit"
RANKED = (STRENGTH, RANK)
"""The attributes that say a card's rank: its place in the order, and its rank."""
NOT_HELD = -1
"""The strength of a rank the deck does not hold."""


def plain(text: str) -> Forms:
    return {PLAIN: text}


def forms(found: str | Forms) -> Forms:
    """A table's entry as forms: a mapping of them, or one text, the plain form."""
    return found if isinstance(found, Mapping) else plain(found)


def for_type(entry: str | Mapping[str, Any], kind: Type | None) -> str | Mapping[str, Any]:
    """A table's entry for a part of the type: the phrase for its type (keyed by the type's
    name), where the entry holds one for each; else the entry itself."""
    if not isinstance(entry, Mapping):
        return entry
    if kind is not None and kind.name.lower() in entry:
        return entry[kind.name.lower()]
    if PLAIN in entry or not entry:
        return entry
    return next(iter(entry.values()))  # unknown type (text that does not check): any


class _Parts(dict[str, str]):
    """The values a template is filled with; a form no part has is its plain text."""

    def __missing__(self, key: str) -> str:
        name = key.rpartition("_")[0]
        if name and name in self:
            return self[name]
        raise KeyError(key)


class Words:
    """Says parsed expressions in one language's words, under one deck order (the ranks,
    highest first: strength 0 is the last)."""

    def __init__(self, table: Mapping[str, Any], deck: Sequence[int] = RANKS_HIGH_TO_LOW) -> None:
        self.table = table
        self.by_strength = tuple(reversed(deck))
        self.bound: dict[str, Type | None] = {}  # each letter and its type

    # -- phrases and their forms ----------------------------------------------------------

    def phrase(self, group: str, key: str, kind: Type | None = None, **parts: Forms) -> Forms:
        """The phrase `key` of `group` with its parts filled in, in every form it has (the
        phrase for a part of type `kind`, where it differs by type)."""
        template = for_type(self.table.get(group, {}).get(key), kind)
        if template is None:
            return plain(" ".join([key, *(p[PLAIN] for p in parts.values())]))
        templates = template if isinstance(template, Mapping) else {PLAIN: template}
        filled = self._parts(parts)
        return {form: text.format_map(filled) for form, text in templates.items()}

    def _parts(self, parts: Mapping[str, Forms]) -> _Parts:
        defaults: Mapping[str, str] = self.table.get("forms", {})
        filled = _Parts()
        for name, forms in parts.items():
            filled[name] = forms[PLAIN]
            own = _Parts({"x": forms[PLAIN], **{f"x_{f}": text for f, text in forms.items()}})
            for form, default in defaults.items():
                filled[f"{name}_{form}"] = forms.get(form) or default.format_map(own)
        return filled

    def say(self, item: Tree | Token) -> Forms:
        if isinstance(item, Token):
            return plain(str(item))
        method = getattr(self, "_" + item.data, None)
        if method is None:
            return plain(" ".join(self.say(c)[PLAIN] for c in item.children))
        return method(item)

    # -- names --------------------------------------------------------------------------

    def _number(self, tree: Tree) -> Forms:
        return plain(str(tree.children[0]))

    def _path(self, tree: Tree) -> Forms:
        return self.path([str(p) for p in tree.children])

    def path(self, parts: Sequence[str]) -> Forms:
        """A name (a bound letter, a name of the vocabulary) and its attributes."""
        return self.typed(parts)[0]

    def typed(self, parts: Sequence[str]) -> tuple[Forms, Type | None]:
        """A path in words, and its type (None where the vocabulary does not give one)."""
        names = self.table.get("names", {})
        if parts[0] in self.bound:
            used, said, kind = 1, plain(parts[0]), self.bound[parts[0]]
        else:
            used = 2 if ".".join(parts[:2]) in names and len(parts) > 1 else 1
            head = ".".join(parts[:used])
            said = forms(names.get(head, head))
            kind = NAMES[head].type if head in NAMES else None
        for attribute in parts[used:]:
            said = self.phrase("attributes", attribute, kind, x=said)
            found = ATTRIBUTES.get((kind, attribute)) if kind is not None else None
            kind = found.type if found is not None else None
        return said, kind

    def _type(self, tree: Tree | Token) -> Type | None:
        parts = _path_parts(tree)
        return self.typed(parts)[1] if parts is not None else None

    def _is_suit(self, tree: Tree | Token) -> str | None:
        """The suit word, if `tree` is a suit named as such."""
        parts = _path_parts(tree)
        if parts is not None and len(parts) == 1 and parts[0] in SUITS:
            return None if parts[0] in self.bound else parts[0]
        return None

    def _is_none(self, tree: Tree | Token) -> bool:
        return _path_parts(tree) == ("none",) and "none" not in self.bound

    def _rank_named(self, tree: Tree | Token) -> int | None:
        """The strength of the rank named (`queen`) in the deck's order, NOT_HELD where the
        deck does not hold it; None if `tree` names no rank."""
        parts = _path_parts(tree)
        if parts is None or len(parts) != 1 or parts[0] not in RANK_OF or parts[0] in self.bound:
            return None
        rank = RANK_OF[parts[0]]
        return self.by_strength.index(rank) if rank in self.by_strength else NOT_HELD

    # -- operators ------------------------------------------------------------------------

    def _not_(self, tree: Tree) -> Forms:
        return self.phrase("ops", "not", a=self.say(tree.children[1]))

    def _minus(self, tree: Tree) -> Forms:
        return plain("-" + self.say(tree.children[1])[PLAIN])

    def _and_(self, tree: Tree) -> Forms:
        said = [self.say(c) if isinstance(c, Tree | Token) else c for c in self._named(tree)]
        joined = said[0]
        for part in said[1:]:
            joined = self.phrase("ops", "and", a=joined, b=part)
        return joined

    def _named(self, tree: Tree) -> list[Tree | Token | Forms]:
        """The conjuncts of an `and` chain, where `X.strength == N and X.suit == S` (in
        any order) is said once, as the card it names."""
        conjuncts = _conjuncts(tree)
        ranks = {i: r for i, c in enumerate(conjuncts) if (r := self._rank_equal(c))}
        suits = {i: s for i, c in enumerate(conjuncts) if (s := self._suit_equal(c))}
        merged: list[Tree | Token | Forms | None] = list(conjuncts)
        used: set[int] = set()
        for i, (owner, strength) in ranks.items():
            j = next((j for j, s in suits.items() if s[0] == owner and j not in used), None)
            if j is None:
                continue
            used |= {i, j}
            merged[min(i, j)] = self._card_is(owner, strength, suits[j][1])
            merged[max(i, j)] = None  # said with the other
        return [c for c in merged if c is not None]

    def _or_(self, tree: Tree) -> Forms:
        return self.phrase("ops", "or", a=self.say(tree.children[0]), b=self.say(tree.children[2]))

    def _arith(self, tree: Tree) -> Forms:
        left, op, right = tree.children
        return self.phrase("ops", str(op), a=self.say(left), b=self.say(right))

    def _comparison(self, tree: Tree) -> Forms:
        left, op, right = tree.children
        said = self._about_cards(left, str(op), right)
        if said is None:
            said = self._about_cards(right, FLIPPED[str(op)], left)
        if said is not None:
            return said
        if str(op) in ("==", "!=") and (self._is_none(left) or self._is_none(right)):
            other = right if self._is_none(left) else left
            key = "is_none" if str(op) == "==" else "is_not_none"
            return self.phrase("ops", key, a=self.say(other))
        return self.phrase("ops", str(op), a=self.say(left), b=self.say(right))

    def _ternary(self, tree: Tree) -> Forms:
        then, _, condition, _, otherwise = tree.children
        parts = {"a": self.say(then), "c": self.say(condition), "b": self.say(otherwise)}
        return self.phrase("ops", "if", **parts)

    def _call(self, tree: Tree) -> Forms:
        fn, *args = tree.children
        if str(fn) in FUNCTIONS:
            a, b = (self.say(arg) for arg in args)
            return self.phrase("ops", str(fn), a=a, b=b)
        listed = plain(", ".join(self.say(a)[PLAIN] for a in args))
        return self.phrase("ops", str(fn), a=listed)

    def _call_path(self, tree: Tree) -> Forms:
        """A function's value and its attributes: `card_of(me, previous).suit`."""
        call, *names = tree.children
        said = self.say(call)
        function = FUNCTIONS.get(str(call.children[0]))
        kind = function.type if function is not None else Type.INT
        for attribute in names:
            said = self.phrase("attributes", str(attribute), kind, x=said)
            found = ATTRIBUTES.get((kind, str(attribute))) if kind is not None else None
            kind = found.type if found is not None else None
        return said

    def _aggregate(self, tree: Tree) -> Forms:
        """`{set}` of an aggregate with a filter is its set and the filter, in the words of
        `sets.where` ({c} the condition)."""
        fn, var, _, over, _, where, body = tree.children
        over_said = self.say(over)
        self.bound[str(var)] = ELEMENTS.get(self._type(over))
        try:
            if where is not None:
                over_said = self.phrase("sets", "where", set=over_said, c=self.say(where))
            parts = {"v": plain(str(var)), "set": over_said, "x": self.say(body)}
        finally:
            del self.bound[str(var)]
        return self.phrase("aggregates", str(fn), **parts)

    # -- cards by rank and suit -----------------------------------------------------------

    def _owner(self, tree: Tree | Token, attribute: str) -> tuple[str, ...] | None:
        """The card whose `attribute` this is (its path), if `tree` is `X.attribute`."""
        parts = _path_parts(tree)
        if parts is None or len(parts) < 2 or parts[-1] != attribute:
            return None
        return parts[:-1]

    def _about_cards(self, subject: Tree | Token, op: str, other: Tree | Token) -> Forms | None:
        """`X.strength OP N`, `X.rank OP queen`, `X.strength OP Y.strength` (or `.rank`)
        and `X.suit OP S` by rank and suit names; None for any other comparison."""
        for ranked in RANKED:
            owner = self._owner(subject, ranked)
            if owner is None:
                continue
            strength = _number(other) if ranked == STRENGTH else self._rank_named(other)
            if ranked == RANK and strength == NOT_HELD:  # the rule never acts in this deck
                return self.phrase("cards", "never", x=self.path(owner))
            if strength is not None:
                return self._ranks(owner, op, strength)
            other_owner = self._owner(other, ranked)
            if other_owner is not None:
                return self.phrase("rank_ops", op, a=self.path(owner), b=self.path(other_owner))
        owner = self._owner(subject, SUIT)
        suit = self._is_suit(other)
        if owner is not None and suit is not None and op in ("==", "!="):
            key = "suit_is" if op == "==" else "suit_is_not"
            return self.phrase("cards", key, x=self.path(owner), suit=self._suit_one(suit))
        return None

    def _ranks(self, owner: Sequence[str], op: str, number: int) -> Forms:
        """`X.strength OP number` as the ranks it keeps: none, all, one, all but one, or
        every rank from one up or down."""
        count = len(self.by_strength)
        kept = [s for s in range(count) if OPERATORS[op](s, number)]
        x = self.path(owner)
        if not kept:
            return self.phrase("cards", "never", x=x)
        if len(kept) == count:
            return self.phrase("cards", "always", x=x)
        if len(kept) == 1:
            return self.phrase("cards", "is", x=x, card=self._rank(kept[0], "a"))
        if kept[-1] == count - 1 and kept == list(range(kept[0], count)):
            return self.phrase("cards", "or_higher", x=x, card=self._rank(kept[0], "a"))
        if kept[0] == 0 and kept == list(range(kept[-1] + 1)):
            return self.phrase("cards", "or_lower", x=x, card=self._rank(kept[-1], "a"))
        (left_out,) = set(range(count)) - set(kept)
        return self.phrase("cards", "is_not", x=x, card=self._rank(left_out, "a"))

    def _rank(self, strength: int, form: str, **parts: Forms) -> Forms:
        """A rank of the deck by its strength: `a` (a card of it) or `of` (of one suit)."""
        said = self.table["ranks"][rank_text(self.by_strength[strength])][form]
        return {PLAIN: said.format_map(self._parts(parts))}

    def _suit_one(self, suit: str) -> Forms:
        return forms(self.table["suit_one"][suit])

    def _rank_equal(self, tree: Tree | Token) -> tuple[tuple[str, ...], int] | None:
        """(owner, strength) of `X.strength == N` or `X.rank == queen`, either way round."""
        for subject, other in _equal_sides(tree):
            owner, number = self._owner(subject, STRENGTH), _number(other)
            if owner is None:
                owner, number = self._owner(subject, RANK), self._rank_named(other)
            if owner is not None and number is not None:
                return owner, number
        return None

    def _suit_equal(self, tree: Tree | Token) -> tuple[tuple[str, ...], str] | None:
        """(owner, suit) of `X.suit == S` or `S == X.suit`."""
        for subject, other in _equal_sides(tree):
            owner, suit = self._owner(subject, SUIT), self._is_suit(other)
            if owner is not None and suit is not None:
                return owner, suit
        return None

    def _card_is(self, owner: Sequence[str], strength: int, suit: str) -> Forms:
        """`X.strength == strength and X.suit == suit`: the card it names, or never."""
        x = self.path(owner)
        if not 0 <= strength < len(self.by_strength):
            return self.phrase("cards", "never", x=x)
        card = self._rank(strength, "of", suit=forms(self.table["suits_of"][suit]))
        return self.phrase("cards", "is", x=x, card=card)

    def _card(self, tree: Tree) -> Forms:
        """A card named (`QS`): "the queen of spades"."""
        card = Card.parse(str(tree.children[0]))
        of = self.table["ranks"][rank_text(card.rank)]["of"]
        suit = forms(self.table["suits_of"][card.suit.word])
        return {PLAIN: of.format_map(self._parts({"suit": suit}))}


def _path_parts(tree: Tree | Token) -> tuple[str, ...] | None:
    if isinstance(tree, Tree) and tree.data == "path":
        return tuple(str(p) for p in tree.children)
    return None


def _number(tree: Tree | Token) -> int | None:
    """The value of a number written out, or of a minus sign and one."""
    if isinstance(tree, Tree) and tree.data == "number":
        return int(tree.children[0])
    if isinstance(tree, Tree) and tree.data == "minus":
        inner = _number(tree.children[1])
        return None if inner is None else -inner
    return None


def _conjuncts(tree: Tree | Token) -> list[Tree | Token]:
    if isinstance(tree, Tree) and tree.data == "and_":
        return _conjuncts(tree.children[0]) + _conjuncts(tree.children[2])
    return [tree]


def _equal_sides(tree: Tree | Token) -> list[tuple[Tree | Token, Tree | Token]]:
    """Both readings of `a == b`, (a, b) and (b, a); none for anything else."""
    if isinstance(tree, Tree) and tree.data == "comparison" and str(tree.children[1]) == "==":
        left, _, right = tree.children
        return [(left, right), (right, left)]
    return []


def in_words(text: str, table: Mapping[str, Any], deck: Sequence[int] = RANKS_HIGH_TO_LOW) -> str:
    """The expression `text` in the words of `table`, its cards named under `deck` (the
    ranks, highest first); the text itself if it does not read."""
    try:
        tree = parser().parse(text, start="expr")
    except UnexpectedInput:
        return text
    return Words(table, deck).say(tree)[PLAIN]
