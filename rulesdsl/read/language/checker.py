"""Read one clause of a profile rule and check it: a typed tree, or problems with positions.

A clause's text sits at a position in the profile file (`base`); every problem points into
it. Unknown names get a did-you-mean from the vocabulary, offered only where the clause,
checked again with it written in, checks (`Checker.fix`); an unknown attribute says what
the value has. A type error names both types; a name used where it has no value
(`trick.winner` while a card is played) is an error at its column, saying where it has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from rulesdsl.model.cards import Card
from rulesdsl.model.hints import Fit, Suggestion, mean, verified
from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.vocab import (
    AGGREGATE_TYPES,
    ATTRIBUTES,
    CALLS,
    CARD_SETS,
    ELEMENTS,
    FUNCTIONS,
    NAMES,
    PLAYING,
    SEAT_ONLY,
    SETS,
    SUBJECTS,
    Aggregate,
    SetCode,
    Type,
    Where,
)
from rulesdsl.model.text import Pos
from rulesdsl.read import GRAMMAR_DIR

COMPARISONS = ir.COMPARISONS
ORDERED = ("<", "<=", ">", ">=")
ORDERED_TYPES = (Type.INT, Type.RANK)
"""The types whose values are in order: numbers, and ranks by the deck's order."""
# Types that may be compared with == and !=, and what `none` may stand for.
NULLABLE = {
    Type.SUIT: Type.SUIT,
    Type.SEAT: Type.MAYBE_SEAT,
    Type.MAYBE_SEAT: Type.MAYBE_SEAT,
    Type.CARD: Type.MAYBE_CARD,
    Type.MAYBE_CARD: Type.MAYBE_CARD,
}
MAYBE = {Type.SEAT: Type.MAYBE_SEAT, Type.CARD: Type.MAYBE_CARD}
"""A value's type, and the type of it or none."""
PATTERN_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "CARD": "a card such as `QS`",
    "COMPARE": "a comparison such as `==`",
    "$END": "the end of the clause",
}
"""How a syntax error names an expected token that is not one fixed text."""
MOST_EXPECTED = 10
"""The most expected tokens a syntax error lists."""


@cache
def keywords() -> dict[str, str]:
    """Each fixed text of the clause grammar (`where`, `:`), by its token's name."""
    return {
        t.name: t.pattern.value for t in parser().terminals if isinstance(t.pattern, PatternStr)
    }


def expected_words(names: Iterable[str]) -> list[str]:
    """The expected tokens as a reader names them: names and numbers, then words, then
    signs, each in order."""
    fixed = keywords()
    texts = sorted(fixed[n] for n in names if n in fixed)
    patterns = sorted(PATTERN_WORDS[n] for n in names if n in PATTERN_WORDS)
    words = [f"`{w}`" for w in texts if w.isalpha()]
    signs = [f"`{w}`" for w in texts if not w.isalpha()]
    return [*patterns, *words, *signs]


@cache
def parser() -> Lark:
    return Lark.open(
        str(GRAMMAR_DIR / "house.lark"),
        parser="lalr",
        start=["refuse", "out", "end", "expr"],
        propagate_positions=True,
    )


@dataclass(frozen=True)
class Problem:
    pos: Pos
    code: str
    message: str
    hint: str = ""


# The first problem of a clause's text as checked again, given how many did-you-means in a
# row its own problem may lean on (`Checker.fix`); None when it checks.
Recheck = Callable[[str, int], "Problem | None"]
# How many did-you-means in a row a fix may need: one for its own word, then for each
# problem it leaves after it (another misspelling of the same clause).
CHAINED = 3


class ClauseError(Exception):
    """The first problem of a clause that cannot be read or checked."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


@cache
def card_pattern() -> str:
    """The pattern of a card named in a clause (`QS`, `10H`): the grammar's CARD."""
    return next(t.pattern.value for t in parser().terminals if t.name == "CARD")


@cache
def _token() -> re.Pattern[str]:
    """A token of a clause: a card named, a name, a number, an operator."""
    return re.compile(rf"{card_pattern()}|[A-Za-z_][A-Za-z0-9_]*|\d+|==|!=|<=|>=|\S")


def canonical(text: str) -> str:
    """The clause with its spacing made regular: equal for texts that read the same."""
    tokens = [found.group() for found in _token().finditer(text)]
    out = ""
    for token in tokens:
        glued = out.endswith(("(", ".")) or token in (".", ",", ":", ")")
        glued = glued or (token == "(" and out[-1:].isalnum())
        out += token if glued or not out else " " + token
    return out


@dataclass
class BoundNames:
    """The bound variables in scope, by name, with their index and type."""

    names: dict[str, tuple[int, Type]] = field(default_factory=dict)
    count: int = 1  # index 0 is `card`


class Checker:
    """Checks one clause. `recheck` checks the clause's text again as this checker does (with
    a did-you-mean written in); without it, no did-you-mean is offered."""

    def __init__(
        self, base: Pos, where: Where, recheck: Recheck | None = None, chained: int = CHAINED
    ) -> None:
        self.base = base
        self.where = where
        self.scope = BoundNames()
        self.override: Pos | None = None  # inside a `means`: the use-site's position
        self.recheck = recheck
        self.chained = chained
        self.text: str | None = None  # the clause's text, as first parsed

    # positions

    def pos(self, item: Tree | Token) -> Pos:
        if self.override is not None:
            return self.override
        if isinstance(item, Token):
            line, column, end = item.line, item.column, item.end_column
        else:
            line, column, end = item.meta.line, item.meta.column, item.meta.end_column
        if line != 1:
            return Pos(self.base.line + line - 1, column, max(1, end - column))
        return Pos(self.base.line, self.base.column + column - 1, max(1, end - column))

    def fail(self, item: Tree | Token, code: str, message: str, hint: str = "") -> ClauseError:
        return ClauseError(Problem(self.pos(item), code, message, hint))

    def fix(self, word: str, first: Token, last: Token, choices: Iterable[str]) -> Suggestion:
        """The did-you-mean for the clause's text from `first` to `last` (read as `word`): the
        closest choice with which the clause checks again, else one that leaves its first
        problem after it, with a did-you-mean of its own; none when no choice does."""
        text = self.text
        if self.recheck is None or self.chained < 1 or self.override is not None or not text:
            return mean("")
        if first.line != 1 or last.line != 1 or first.start_pos is None or last.end_pos is None:
            return mean("")
        start, end = first.start_pos, last.end_pos
        recheck, chained = self.recheck, self.chained - 1

        def verdict(choice: str) -> Fit:
            problem = recheck(text[:start] + choice + text[end:], chained)
            if problem is None:
                return Fit.CHECKS
            after = (self.base.line, self.base.column + start + len(choice))
            past = (problem.pos.line, problem.pos.column) >= after
            fixed = isinstance(problem.hint, Suggestion) and bool(problem.hint.fix)
            return Fit.FIXABLE if past and fixed else Fit.FAILS

        return verified(word, choices, verdict)

    # parsing

    def parse(self, text: str, start: str) -> Tree:
        if self.text is None:
            self.text = text
        if len(text) > MAX_CLAUSE:
            raise ClauseError(
                Problem(
                    self.base,
                    "rule-size",
                    f"the clause is {len(text):,} characters; a clause is {MAX_CLAUSE} at most",
                    "split the rule, or name a part of it in a rule of its own",
                )
            )
        try:
            tree = parser().parse(text, start=start)
        except UnexpectedInput as error:
            raise ClauseError(self._syntax(error, text)) from None
        if _depth(tree) > MAX_DEPTH:
            raise ClauseError(
                Problem(
                    self.base,
                    "rule-size",
                    f"the clause nests deeper than {MAX_DEPTH} levels",
                    "write it flatter: fewer parentheses and chained operators",
                )
            )
        return tree

    def _syntax(self, error: UnexpectedInput, text: str) -> Problem:
        column = int(error.column) if isinstance(error.column, int) and error.column > 0 else 1
        if isinstance(error, UnexpectedToken) and error.token.type == "$END":
            column = len(text.rstrip()) + 1
            found = "end of the clause"
        elif isinstance(error, UnexpectedCharacters):
            found = f"`{text[error.pos_in_stream]}`"
        else:
            found = f"`{error.token}`"
        expected = set(getattr(error, "expected", ()))
        words = expected_words(expected)
        listed = ", ".join(words[:MOST_EXPECTED]) + (", ..." if len(words) > MOST_EXPECTED else "")
        said = f"; expected {listed}" if words else ""
        pos = Pos(self.base.line, self.base.column + column - 1)
        return Problem(pos, "rule-syntax", f"unexpected {found}{said}", self._keyword_fix(error))

    def _keyword_fix(self, error: UnexpectedInput) -> str:
        """A did-you-mean for a misspelt word of the grammar (`whre` for `where`) with which
        the clause checks, else an example of a clause."""
        token = getattr(error, "token", None)
        if isinstance(token, Token) and token.type == "NAME":
            fixed = keywords()
            words = [fixed[n] for n in error.expected if fixed.get(n, "").isalpha()]
            fix = self.fix(str(token), token, token, words)
            if fix:
                return fix
        return _SYNTAX_HINT

    # checking

    def expect(self, tree: Tree | Token, wanted: Type) -> ir.Node:
        node = self.node(tree)
        if not _fits(node.type, wanted):
            raise self.fail(
                tree, "rule-type", f"this is {node.type}, but {wanted} is needed here", _TYPE_HINT
            )
        return node

    def node(self, tree: Tree | Token) -> ir.Node:
        handler = getattr(self, "_" + tree.data, None) if isinstance(tree, Tree) else None
        if handler is None:
            raise self.fail(tree, "rule-syntax", "this cannot be read as an expression")
        return handler(tree)

    def _number(self, tree: Tree) -> ir.Node:
        (token,) = tree.children
        if len(token) > 9:
            raise self.fail(token, "rule-range", "this number is too large", "use at most 9 digits")
        return ir.Number(Type.INT, self.pos(tree), int(token))

    def _card(self, tree: Tree) -> ir.Node:
        card = Card.parse(str(tree.children[0]))
        return ir.Named(Type.CARD, self.pos(tree), card.rank, int(card.suit))

    def _path(self, tree: Tree) -> ir.Node:
        parts: list[Token] = list(tree.children)
        node, used = self._head(parts)
        for token in parts[used:]:
            node = self._attribute(node, token, tree)
        return node

    def _head(self, parts: list[Token]) -> tuple[ir.Node, int]:
        first = parts[0]
        if str(first) in self.scope.names:
            index, kind = self.scope.names[str(first)]
            return ir.Var(kind, self.pos(first), index, free=frozenset({index})), 1
        for used in (2, 1):
            dotted = ".".join(str(p) for p in parts[:used])
            if len(parts) >= used and dotted in NAMES:
                return self._name(dotted, parts[0], parts[used - 1]), used
        raise self._unknown(parts)

    def _unknown(self, parts: list[Token]) -> ClauseError:
        """An unknown name; the hint suggests a dotted name for the first two parts (and
        then points at both), else a name for the first. Of a dotted name's head (`trick`),
        the message says what follows it here."""
        head, known = str(parts[0]), [*NAMES, *self.scope.names]
        following = [n.partition(".")[2] for n in NAMES if n.startswith(head + ".")]
        dotted = len(parts) > 1 and bool(following)  # `trick.foo`: no name follows `trick.`
        fix, span = mean(""), self._span(parts[0], parts[1]) if dotted else self.pos(parts[0])
        if len(parts) > 1:
            fix = self.fix(f"{head}.{parts[1]}", parts[0], parts[1], known)
            span = self._span(parts[0], parts[1]) if fix else span
        if not fix:
            fix = self.fix(head, parts[0], parts[0], known)
            span = self.pos(parts[0]) if fix else span
        hint = fix or "docs/house-rules.md lists the names a rule may use"
        if not dotted:
            return ClauseError(Problem(span, "rule-name", f"unknown name `{head}`", hint))
        here = [n.partition(".")[2] for n in _names_here(self.where, head + ".")]
        message = f"unknown name `{head}.{parts[1]}`; {self._has(f'`{head}`', following, here)}"
        return ClauseError(Problem(span, "rule-name", message, hint))

    def _has(self, owner: str, every: list[str], here: list[str]) -> str:
        """`a card has: suit, trump`, saying the place when some have no value here."""
        said = ", ".join(here) if here else "none"
        if here == every:
            return f"{owner} has: {said}"
        return f"at {self.where.value}, {owner} has: {said}"

    def _span(self, first: Token, last: Token) -> Pos:
        """From the first token to the end of the last, on the first token's line."""
        if self.override is not None:
            return self.override
        start = self.pos(first)
        return Pos(start.line, start.column, last.end_column - first.column)

    def _name(self, dotted: str, first: Token, last: Token) -> ir.Node:
        name = NAMES[dotted]
        span = self._span(first, last)
        if self.where not in name.where:
            raise ClauseError(
                Problem(
                    span,
                    "rule-context",
                    f"`{dotted}` has no value at {self.where.value}",
                    _places(name.where),
                )
            )
        if name.means:
            return self._means(name.means, span)
        if dotted in SUBJECTS:
            return ir.Var(name.type, span, ir.CARD_VAR, free=frozenset({ir.CARD_VAR}))
        if name.type == Type.RANK:
            return ir.Named(Type.RANK, span, name.rank)
        if name.type in (Type.SEATS, Type.TRICKS):
            raise ClauseError(
                Problem(
                    span,
                    "rule-type",
                    f"`{dotted}` is {name.type}: it can only be ranged over",
                    f"e.g. count(x in {dotted}: ...)",
                )
            )
        return ir.Leaf(name.type, span, name.code_at(self.where))

    def _means(self, text: str, span: Pos) -> ir.Node:
        outer, self.override = self.override, span
        saved, self.scope = self.scope, BoundNames(count=self.scope.count)
        try:
            return self.node(self.parse(text, "expr"))
        finally:
            saved.count = self.scope.count
            self.override, self.scope = outer, saved

    def _attribute(self, node: ir.Node, token: Token, tree: Tree) -> ir.Node:
        attribute = ATTRIBUTES.get((node.type, str(token)))
        if attribute is None:
            raise self._no_attribute(node.type, token)
        if self.where not in attribute.where:
            raise self.fail(
                token,
                "rule-context",
                f"`.{token}` has no value at {self.where.value}",
                _places(attribute.where),
            )
        return ir.Attr(attribute.type, self.pos(tree), node, attribute.code, free=node.free)

    def _no_attribute(self, owner: Type, token: Token) -> ClauseError:
        """An attribute the value does not have: the message says what it has here, the
        hint a did-you-mean that checks."""
        message = f"{owner} has no attribute `{token}`"
        if owner == Type.MAYBE_SEAT:
            hint = "`most` and `least` give a seat or none: compare it (`== me`) or name a winner"
            return self.fail(token, "rule-name", message, hint)
        every = [a.name for a in ATTRIBUTES.values() if a.owner == owner]
        here = [a.name for a in ATTRIBUTES.values() if a.owner == owner and self.where in a.where]
        hint = self.fix(str(token), token, token, every)
        return self.fail(token, "rule-name", f"{message}; {self._has(owner, every, here)}", hint)

    def _not_(self, tree: Tree) -> ir.Node:
        operand = self.expect(tree.children[1], Type.BOOL)
        return ir.Unary(Type.BOOL, self.pos(tree), "not", operand, free=operand.free)

    def _minus(self, tree: Tree) -> ir.Node:
        operand = self.expect(tree.children[1], Type.INT)
        return ir.Unary(Type.INT, self.pos(tree), "-", operand, free=operand.free)

    def _and_(self, tree: Tree) -> ir.Node:
        return self._binary(tree, "and", Type.BOOL)

    def _or_(self, tree: Tree) -> ir.Node:
        return self._binary(tree, "or", Type.BOOL)

    def _arith(self, tree: Tree) -> ir.Node:
        return self._binary(tree, str(tree.children[1]), Type.INT)

    def _binary(self, tree: Tree, op: str, kind: Type) -> ir.Node:
        left = self.expect(tree.children[0], kind)
        right = self.expect(tree.children[2], kind)
        return ir.Binary(kind, self.pos(tree), op, left, right, free=ir.uses(left, right))

    def _comparison(self, tree: Tree) -> ir.Node:
        first, op, second = tree.children
        left, right = self.node(first), self.node(second)
        op = str(op)
        if op in ORDERED:
            ordered = left.type if left.type in ORDERED_TYPES else Type.INT
            left, right = self.expect(first, ordered), self.expect(second, ordered)
        elif _common(left.type, right.type) in (None, *_SETS):
            raise self.fail(
                tree,
                "rule-type",
                f"{left.type} cannot be compared with {right.type}",
                _TYPE_HINT,
            )
        return ir.Binary(Type.BOOL, self.pos(tree), op, left, right, free=ir.uses(left, right))

    def _ternary(self, tree: Tree) -> ir.Node:
        then_tree, _, condition_tree, _, otherwise_tree = tree.children
        condition = self.expect(condition_tree, Type.BOOL)
        then, otherwise = self.node(then_tree), self.node(otherwise_tree)
        kind = _common(then.type, otherwise.type)
        if kind is None or kind in _SETS:
            raise self.fail(
                tree,
                "rule-type",
                f"the two branches differ: {then.type} and {otherwise.type}",
                "both sides of `x if c else y` must be of one type",
            )
        free = ir.uses(condition, then, otherwise)
        return ir.Ternary(kind, self.pos(tree), condition, then, otherwise, free=free)

    def _call(self, tree: Tree) -> ir.Node:
        fn, *arg_trees = tree.children
        if str(fn) in FUNCTIONS:
            return self._function(tree)
        if str(fn) not in CALLS:
            choices = [*CALLS, *FUNCTIONS, *Aggregate]
            every = ", ".join([*CALLS, *FUNCTIONS])
            hint = self.fix(str(fn), fn, fn, choices) or f"functions: {every}"
            raise self.fail(fn, "rule-name", f"unknown function `{fn}`", hint)
        args = tuple(self.expect(a, Type.INT) for a in arg_trees)
        return ir.Call(Type.INT, self.pos(tree), str(fn), args, free=ir.uses(*args))

    def _call_path(self, tree: Tree) -> ir.Node:
        """A function's value and its attributes: `card_of(me, previous).suit`."""
        call, *names = tree.children
        node = self.node(call)
        for token in names:
            node = self._attribute(node, token, tree)
        return node

    def _function(self, tree: Tree) -> ir.Node:
        fn, *arg_trees = tree.children
        function = FUNCTIONS[str(fn)]
        if len(arg_trees) != len(function.params):
            wanted = ", ".join(str(p) for p in function.params)
            raise self.fail(tree, "rule-type", f"`{fn}` takes {len(function.params)}: {wanted}")
        args = tuple(self.expect(a, p) for a, p in zip(arg_trees, function.params, strict=True))
        return ir.Call(function.type, self.pos(tree), str(fn), args, free=ir.uses(*args))

    def _aggregate(self, tree: Tree) -> ir.Node:
        fn, var, _, set_tree, _, where_tree, body_tree = tree.children
        if str(fn) not in set(Aggregate):
            hint = self.fix(str(fn), fn, fn, Aggregate) or "aggregates: " + ", ".join(Aggregate)
            raise self.fail(fn, "rule-name", f"unknown aggregate `{fn}`", hint)
        kind = Aggregate(str(fn))
        over, element, members = self._set(set_tree)
        if kind in SEAT_ONLY and element != Type.SEAT:
            raise self.fail(set_tree, "rule-type", f"`{kind}` ranges over seats, not cards")
        if str(var) in NAMES or str(var) in self.scope.names:
            raise self.fail(
                var, "rule-name", f"`{var}` is already a name here", "choose another letter"
            )
        index = self.scope.count
        self.scope.count += 1
        self.scope.names[str(var)] = (index, element)
        try:
            where = None if where_tree is None else self.expect(where_tree, Type.BOOL)
            body = self.expect(body_tree, AGGREGATE_TYPES[kind][0])
        finally:
            del self.scope.names[str(var)]
        base = members.base if isinstance(members, ir.Attr) else None
        free = (ir.uses(*(n for n in (where, body) if n is not None)) - {index}) | members.free
        result = AGGREGATE_TYPES[kind][1]
        pos = self.pos(tree)
        return ir.Over(result, pos, kind, index, over, body, base, where, free=free)

    def _set(self, tree: Tree | Token) -> tuple[SetCode, Type, ir.Node]:
        """How the set an aggregate ranges over is iterated, its members' type, and the set
        (a name, or an attribute: `p.won`)."""
        if isinstance(tree, Tree) and tree.data == "path":
            word = ".".join(str(c) for c in tree.children)
            if word in SETS:
                self._name_here(word, tree)
                name = NAMES[word]
                return SETS[word], ELEMENTS[name.type], ir.Leaf(name.type, self.pos(tree), "")
        node = self.node(tree)
        if node.type != Type.CARDS:
            raise self.fail(
                tree,
                "rule-type",
                f"this is {node.type}; a set of cards, seats or tricks is needed here",
                "sets: " + ", ".join(n for n, v in NAMES.items() if v.type in _SETS),
            )
        assert isinstance(node, ir.Leaf | ir.Attr)
        return CARD_SETS[node.code], Type.CARD, node

    def _name_here(self, word: str, tree: Tree) -> None:
        if self.where not in NAMES[word].where:
            raise self.fail(tree, "rule-context", f"`{word}` has no value at {self.where.value}")


_SETS = tuple(ELEMENTS)


def _names_here(where: Where, prefix: str = "") -> list[str]:
    """The names that begin with `prefix` and have a value at the place."""
    return [n for n, name in NAMES.items() if n.startswith(prefix) and where in name.where]


def _places(where: frozenset[Where]) -> str:
    """Where a name or attribute has a value, as a hint."""
    if where >= PLAYING and not where - PLAYING:
        return "it is known only while cards are played"
    return "it has one at: " + (", ".join(sorted(w.value for w in where)) or "no rule")


MAX_CLAUSE = 1000
MAX_DEPTH = 40


def _depth(tree: Tree) -> int:
    """How deep the tree nests, found without recursion (so any tree can be measured)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(c, depth + 1) for c in node.children if isinstance(c, Tree)]
    return deepest


_SYNTAX_HINT = "a clause is one line, e.g. `refuse lead if card.trump and trick.number == 1`"
_TYPE_HINT = "the table of docs/house-rules.md gives the type of every name"


def _fits(actual: Type, wanted: Type) -> bool:
    return actual == wanted or (wanted in MAYBE.values() and actual in (Type.NONE, *_plain(wanted)))


def _plain(maybe: Type) -> list[Type]:
    """The types whose values, or none, make the type `maybe`."""
    return [plain for plain, either in MAYBE.items() if either == maybe]


def _common(a: Type, b: Type) -> Type | None:
    """The type both sides share, for == and `if else`; None when they share none."""
    if a == b:
        return a
    if Type.NONE in (a, b):
        other = b if a == Type.NONE else a
        return NULLABLE.get(other)
    for plain, maybe in MAYBE.items():
        if {a, b} == {plain, maybe}:
            return maybe
    return None


def begins(actual: Type, wanted: Type, where: Where) -> bool:
    """Whether an expression of the wanted type at the place can begin with a value of
    the actual type: the value itself, one of its attributes (`hand.winner.tricks` is a
    number), or, for a condition, one side of a comparison (`trick.number == 1`)."""
    if _fits(actual, wanted):
        return True
    if wanted == Type.BOOL and _common(actual, actual) not in (None, *_SETS):
        return True
    return any(
        begins(a.type, wanted, where)
        for a in ATTRIBUTES.values()
        if a.owner == actual and where in a.where and a.type != actual
    )
