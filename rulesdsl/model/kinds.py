"""Option kinds: how one option's value is read, written and described.

The options themselves are declared once each, as the units of `rulesdsl.model.units`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, CardError, parse_rank, rank_text
from rulesdsl.model.expr import Expr, ExprError, parse_expr
from rulesdsl.model.hints import closest, mean

EXPR_PATTERN = r"^[\s0-9a-z_+*(),-]+$"


class OptionError(ValueError):
    """A value an option does not accept: what was expected, a hint, and the column
    (1-based, within the value's text) of the culprit and how many columns it spans (0: the
    whole value); `replacement` is the text a did-you-mean hint suggests for that span."""

    def __init__(
        self,
        message: str,
        hint: str = "",
        column: int = 1,
        length: int = 0,
        replacement: str = "",
    ) -> None:
        super().__init__(message + (f"; {hint}" if hint else ""))
        self.message = message
        self.hint = hint
        self.column = column
        self.length = length
        self.replacement = replacement

    @classmethod
    def from_expr(cls, error: ExprError, prefix: str = "", offset: int = 0) -> OptionError:
        return cls(
            prefix + error.message,
            error.hint,
            error.column + offset,
            error.length,
            error.replacement,
        )

    @classmethod
    def unknown_word(cls, word: str, expected: str, words: Iterable[str]) -> OptionError:
        """`word` is none of `words`: the closest is the suggested fix."""
        fix = closest(word, words)
        return cls(f"'{word}' is not allowed; expected {expected}", mean(fix), replacement=fix)

    def fixed(self, value: str) -> str:
        """`value` with the suggested replacement put in its span (empty without one)."""
        if not self.replacement:
            return ""
        if self.length == 0:
            return self.replacement
        start = self.column - 1
        return value[:start] + self.replacement + value[start + self.length :]


class OptionKind(Protocol):
    """How the values of one option are read and written."""

    expected: str

    def parse(self, text: str) -> Any: ...

    def text(self, value: Any) -> str: ...

    def words(self) -> tuple[str, ...]: ...

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of a value written in YAML."""
        ...


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of words; `values` maps each word to the value the engine reads."""

    values: dict[str, Any]

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(self.values)

    def parse(self, text: str) -> Any:
        word = text.strip()
        if word not in self.values:
            raise OptionError.unknown_word(word, self.expected, self.values)
        return self.values[word]

    def text(self, value: Any) -> str:
        return next(word for word, v in self.values.items() if v == value)

    def words(self) -> tuple[str, ...]:
        return tuple(self.values)

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}


def enum_choice(values: type[StrEnum]) -> Choice:
    """One of the members of a StrEnum, written as its value."""
    return Choice({member.value: member for member in values})


@dataclass(frozen=True)
class IntExpr:
    """An integer expression over `players`."""

    expected: str = "an integer or an expression over players, e.g. 5, players + 1"

    def parse(self, text: str) -> Expr:
        try:
            return parse_expr(str(text))
        except ExprError as error:
            raise OptionError.from_expr(error) from None

    def text(self, value: Expr) -> str:
        return str(value)

    def words(self) -> tuple[str, ...]:
        return ("players",)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": EXPR_PATTERN}]}


@dataclass(frozen=True)
class CountOrWord:
    """A whole number from `minimum` to `maximum`, or one of a few words (StrEnum members)."""

    word_values: tuple[StrEnum, ...]
    minimum: int = 0
    maximum: int = 999  # all nines: the schema's pattern allows as many digits

    @property
    def expected(self) -> str:
        numbers = f"an integer from {self.minimum} to {self.maximum}"
        return f"{numbers} or " + " or ".join(self.word_values)

    def parse(self, text: str) -> int | StrEnum:
        word = str(text).strip()
        for member in self.word_values:
            if member.value == word:
                return member
        if re.fullmatch(r"-?[0-9]+", word):
            if len(word) > len(str(self.maximum)) + 1 or int(word) > self.maximum:
                shown = word if len(word) <= 12 else f"a number of {len(word)} digits"
                raise OptionError(f"{shown} is too large; expected {self.expected}")
            if int(word) < self.minimum:
                raise OptionError(f"{word} is too small; expected {self.expected}")
            return int(word)
        raise OptionError.unknown_word(word, self.expected, self.word_values)

    def text(self, value: int | str) -> str:
        return str(value)

    def words(self) -> tuple[str, ...]:
        return tuple(member.value for member in self.word_values)

    def schema(self) -> dict[str, Any]:
        return {
            "anyOf": [
                {"type": "integer", "minimum": self.minimum, "maximum": self.maximum},
                {"type": "string", "pattern": rf"^\s*[0-9]{{1,{len(str(self.maximum))}}}\s*$"},
                {"enum": list(self.words())},
            ]
        }


def _count(text: str) -> bool:
    return bool(re.fullmatch(r"\s*[0-9]+\s*", text))


@dataclass(frozen=True)
class PlayerRange:
    """`3..6` or a single count `4`; a table seats 2 to 10 players."""

    lowest: int = 2
    highest: int = 10
    expected: str = "a player count or range, e.g. 4 or 3..6"

    def parse(self, text: str) -> tuple[int, int]:
        word = str(text).strip()
        low, sep, high = word.partition("..")
        if not (_count(low) and (not sep or _count(high))):
            raise OptionError(f"'{word}' is not a player range; expected {self.expected}")
        lo, hi = int(low), int(high) if sep else int(low)
        if lo > hi:
            raise OptionError(
                f"'{word}' is an empty range; write the smaller count first, e.g. {hi}..{lo}"
            )
        if lo < self.lowest or hi > self.highest:
            raise OptionError(
                f"'{word}' is out of range; a game needs {self.lowest} to {self.highest} players"
            )
        return (lo, hi)

    def text(self, value: tuple[int, int]) -> str:
        lo, hi = value
        return str(lo) if lo == hi else f"{lo}..{hi}"

    def words(self) -> tuple[str, ...]:
        return ()

    def schema(self) -> dict[str, Any]:
        count = {"type": "integer", "minimum": self.lowest, "maximum": self.highest}
        return {"anyOf": [count, {"type": "string", "pattern": r"^\s*\d+\s*(\.\.\s*\d+\s*)?$"}]}


@dataclass(frozen=True)
class DeckRanks:
    """`standard` (52 cards, aces high) or the ranks in play in every suit, highest first:
    the order written is the order the ranks play in, e.g. `K Q J 10 9 8 7 6 5 4 3 2 A`
    (aces low) or `A 10 K Q J 9 8 7` (ten above king)."""

    expected: str = "standard, or the ranks of each suit, highest first, e.g. A K Q J 10 9 8 7"

    def parse(self, text: str) -> tuple[int, ...]:
        word = str(text).strip()
        if word == "standard":
            return RANKS_HIGH_TO_LOW
        parts = word.replace(",", " ").split()
        try:
            ranks = tuple(parse_rank(p) for p in parts)
        except CardError as error:
            raise OptionError(f"{error}; the deck is {self.expected}") from None
        if len(set(ranks)) != len(ranks):
            raise OptionError(f"'{word}' names a rank twice; list each rank once")
        if len(ranks) < 2:
            raise OptionError(f"'{word}' is too few ranks; expected {self.expected}")
        return ranks

    def text(self, value: tuple[int, ...]) -> str:
        if tuple(value) == RANKS_HIGH_TO_LOW:
            return "standard"
        return " ".join(rank_text(r) for r in value)

    def words(self) -> tuple[str, ...]:
        return ("standard",)

    def schema(self) -> dict[str, Any]:
        rank = {"type": ["string", "integer"], "pattern": r"^(10|[2-9TJQKAtjqka])$"}
        ranks = r"^\s*(10|[2-9TJQKAtjqka])([\s,]+(10|[2-9TJQKAtjqka]))+\s*$"
        order = "the ranks of each suit, highest first: the order they play in"
        return {
            "anyOf": [
                {"const": "standard"},
                {"type": "string", "pattern": ranks, "description": order},
                {"type": "array", "items": rank, "minItems": 2, "description": order},
            ]
        }


@dataclass(frozen=True)
class MatchEnd:
    """When a match ends: `target N` (first to N points) or `hands N` (a fixed number of hands)."""

    kind: str
    count: Expr

    def __str__(self) -> str:
        return f"{self.kind} {self.count}"


@dataclass(frozen=True)
class MatchKind:
    expected: str = "target N (first to N points) or hands N / hands players"

    def parse(self, text: str) -> MatchEnd:
        stated = str(text).strip()
        word, _, rest = stated.partition(" ")
        offset = len(word) + 1 + len(rest) - len(rest.lstrip())
        if word not in self.words():
            fix = closest(word, self.words())
            raise OptionError(
                f"'{text}' is not a match rule; expected {self.expected}",
                mean(fix),
                replacement=fix + stated[len(word) :] if fix else "",
            )
        if not rest.strip():
            raise OptionError(f"'{word}' needs a count, e.g. {word} 3")
        try:
            count = parse_expr(rest)
        except ExprError as error:
            raise OptionError.from_expr(error, f"match {word}: ", offset) from None
        return MatchEnd(word, count)

    def text(self, value: MatchEnd) -> str:
        return str(value)

    def words(self) -> tuple[str, ...]:
        return ("target", "hands")

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": r"^\s*(target|hands)\s+\S.*$"}
