"""Integer expressions over the player count: `players`, `5`, `players + 1`, `min(players, 5)`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rulesdsl.model.hints import closest, mean

GRAMMAR = Path(__file__).with_name("expr.lark")
NAMES = ("players",)
FUNCTIONS = {"min": min, "max": max}


class ExprError(ValueError):
    """An expression that cannot be read; `column` is 1-based within the expression text;
    `replacement` is the name a did-you-mean hint suggests for the span."""

    def __init__(
        self,
        message: str,
        column: int = 1,
        hint: str = "",
        length: int = 1,
        replacement: str = "",
    ) -> None:
        super().__init__(message + (f"; {hint}" if hint else ""))
        self.message = message
        self.hint = hint
        self.column = column
        self.length = length
        self.replacement = replacement


@dataclass(frozen=True)
class Expr:
    """A parsed expression; `str()` gives its canonical text."""

    op: str
    args: tuple[Expr | int, ...] = ()

    def eval(self, players: int) -> int:
        if self.op == "number":
            return int(self.args[0])  # type: ignore[arg-type]
        if self.op == "players":
            return players
        values = [a.eval(players) for a in self.args]  # type: ignore[union-attr]
        if self.op == "neg":
            return -values[0]
        if self.op in FUNCTIONS:
            return FUNCTIONS[self.op](values)
        left, right = values
        return {"+": left + right, "-": left - right, "*": left * right}[self.op]

    def __str__(self) -> str:
        return self._text(0)

    def _text(self, outer: int) -> str:
        if self.op == "number":
            return str(self.args[0])
        if self.op == "players":
            return "players"
        if self.op == "neg":
            return "-" + self.args[0]._text(3)  # type: ignore[union-attr]
        if self.op in FUNCTIONS:
            return f"{self.op}({', '.join(str(a) for a in self.args)})"
        level = 1 if self.op in "+-" else 2
        left, right = self.args
        text = f"{left._text(level)} {self.op} {right._text(level + 1)}"  # type: ignore[union-attr]
        return f"({text})" if level < outer else text


def number(value: int) -> Expr:
    return Expr("number", (value,))


PLAYERS = Expr("players")


def _build(tree: Any) -> Expr:
    """The Expr of a parse tree (lark imports stay inside _parser)."""
    kind, items = tree.data, tree.children
    if kind == "number":
        return number(int(items[0]))
    if kind == "name":
        word = str(items[0])
        if word == "players":
            return PLAYERS
        fix = closest(word, NAMES)
        raise ExprError(f"unknown name '{word}'", items[0].column or 1, mean(fix), len(word), fix)
    if kind == "call":
        word, *args = items
        if str(word) not in FUNCTIONS:
            fix = closest(str(word), FUNCTIONS)
            raise ExprError(
                f"unknown function '{word}'; expected min or max",
                word.column,
                mean(fix),
                len(word),
                fix,
            )
        if len(args) < 2:
            raise ExprError(f"{word}() takes at least two values", word.column)
        return Expr(str(word), tuple(_build(a) for a in args))
    operator = {"add": "+", "sub": "-", "mul": "*", "neg": "neg"}[kind]
    return Expr(operator, tuple(_build(item) for item in items))


@cache
def _parser() -> Any:
    from lark import Lark

    return Lark.open(str(GRAMMAR), start="expr", parser="lalr", propagate_positions=True)


def parse_expr(text: str) -> Expr:
    """Read an expression; raise ExprError with a plain message and a column."""
    word = text.strip()
    if not word:
        raise ExprError("expected a number or an expression over players, found nothing")
    if word.isascii() and word.isdigit():  # the common cases need no parser
        return number(int(word))
    if word == "players":
        return PLAYERS
    from lark import UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        at_end = getattr(getattr(error, "token", None), "type", None) == "$END"
        column = len(text.rstrip()) + 1 if at_end else max(int(error.column or 1), 1)
        found = (
            f"'{text[column - 1]}' in expression" if column <= len(text) else "end of expression"
        )
        raise ExprError(
            f"unexpected {found}; expected a number, players, "
            "min(...), max(...), or an operator + - *",
            column,
        ) from None
    return _build(tree)


# Past this many digits a number is said by its length: no one reads its digits.
DIGITS_SAID = 15
# The most characters of an expression quoted in a message about its value.
EXPR_SAID = 60


def amount(value: int, noun: str) -> str:
    """A count of `noun` as people read it: `600,000,000,000 cards`, `-3 cards`; a number
    longer than DIGITS_SAID digits by how many it has: `a 138-digit number of cards`."""
    digits = len(str(abs(value)))
    if digits <= DIGITS_SAID:
        return f"{value:,} {noun}"
    sign = "minus " if value < 0 else ""
    return f"{sign}a {digits}-digit number of {noun}"


def gives(name: str, expr: Expr, players: int, noun: str) -> str:
    """What an option's expression gives at a player count, in words: `hand_size players *
    100000 gives 600,000 cards for 6 players` (a long expression quoted cut)."""
    text = str(expr)
    if len(text) > EXPR_SAID:
        text = text[: EXPR_SAID - 1] + "…"
    return f"{name} {text} gives {amount(expr.eval(players), noun)} for {players} players"
