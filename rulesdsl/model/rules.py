"""The frozen Rules the engine reads, derived from the rule units.

Every variation point of section 3 of docs/rules.md is one unit of
`rulesdsl.model.units`, declared once with its kind, default (the equal-hands value),
description and section; the fields of `Rules` and `OPTIONS` are derived from those
units; nothing else lists the option names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field, make_dataclass
from functools import cached_property
from typing import Any

from rulesdsl.model.cards import Card, Suit, is_usual_order, make_deck, rank_strength
from rulesdsl.model.hints import suggest
from rulesdsl.model.kinds import Choice, OptionError
from rulesdsl.model.language.rule import HouseRule, check_house_rules
from rulesdsl.model.units import BUILT_IN_UNITS, Section, Trump
from rulesdsl.model.units.base import Unit
from rulesdsl.model.units.registry import load, report
from rulesdsl.model.units.trump import turned_up

PROFILES_KEPT = 128
"""The most profiles' rules a process keeps what it made of each for (its plans, its rule
model, its compiled hand), as `functools.lru_cache` keeps them: a server or an editor meets
new rules at every edit, so what it keeps stays bounded."""

REGISTRY = load(BUILT_IN_UNITS)
"""The units to use, and the units of other packages refused (each said once on stderr),
loaded as this module is first imported. A unit's module imports `rulesdsl.model.units.base`
and the like, never this module: it may be imported first (before rulesdsl is), and it is
whole when its entry point is loaded here."""
report(REGISTRY)

UNITS: tuple[Unit, ...] = REGISTRY.units
"""The built-in units in their fixed order, then other packages' units by name."""

COUNTED: tuple[str, ...] = tuple(unit.name for unit in UNITS if unit.counted)
"""The rules whose firing rule coverage counts, in registry order."""


class RulesError(ValueError):
    """Rules that cannot be played as asked (e.g. a player count the profile does not allow)."""


class _RulesMethods:
    """One version of the rules; the default is the equal-hands profile.

    There is one field per unit. Every field is checked on construction, whatever the
    route: a value its option could not have read is an OptionError. The constructor takes
    values, not text (`hand_size` is an Expr, `must_head` a bool, `follow` a Follow);
    `with_options` reads text.
    """

    # The fields, as the units declare them (set by make_dataclass below).
    players: tuple[int, int]
    deck: tuple[int, ...]
    trump: Trump
    hand_size: Any
    match: Any
    # The rules the profile states itself (section 5 of docs/rules.md), in the order they apply.
    # Each has a name and `.steps`: the step functions the engine asks at those steps.
    house_rules: tuple[HouseRule, ...]

    def __post_init__(self) -> None:
        for name, opt in OPTIONS.items():
            opt.check(getattr(self, name))
        check_house_rules(self.house_rules)

    @cached_property
    def _hash(self) -> int:
        """The hash of the fields, computed once: the analyses key their caches by rules,
        and a version holds its stated rules' trees."""
        return hash(tuple(getattr(self, name) for name in self.__dataclass_fields__))

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps: not the hash, which another process computes anew."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

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
        return self.trump.suit

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

    def with_options(self, values: Mapping[str, Any]) -> Any:
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
        """Raise RulesError unless a hand for this many players can be dealt."""
        low, high = self.players
        if not low <= players <= high:
            allowed = self.text("players")
            raise RulesError(
                f"{players} players are not allowed by these rules (players {allowed})"
            )
        size = self.hand_size_for(players)
        if size < 1:
            raise RulesError(f"hand_size {self.hand_size} gives {size} cards for {players} players")
        needed = players * size + turned_up(self)
        if needed > len(self.cards):
            raise RulesError(
                f"{players} players x {size} cards"
                + (" + 1 trump card" if turned_up(self) else "")
                + f" = {needed} cards, but the deck holds {len(self.cards)}"
            )

    def check_players_of(self, profile: str, players: int) -> None:
        """`check_players`, with the message naming the profile these rules come from."""
        try:
            self.check_players(players)
        except RulesError as error:
            raise RulesError(f"profile {profile}: {error}") from None


Rules = make_dataclass(
    "Rules",
    [
        *((unit.name, Any, field(default=unit.default)) for unit in UNITS),
        ("house_rules", tuple[HouseRule, ...], field(default=())),
    ],
    bases=(_RulesMethods,),
    frozen=True,
    namespace={"__hash__": lambda self: self._hash},
)
Rules.__module__ = __name__
Rules.__doc__ = _RulesMethods.__doc__

OPTIONS: dict[str, Unit] = {unit.name: unit for unit in UNITS}

SECTIONS: tuple[Section, ...] = tuple(dict.fromkeys(unit.section for unit in UNITS))
"""The rule-sheet sections, in the order their first option is declared."""


def section_options(section: str) -> list[Unit]:
    """The options of one rule-sheet section, in declaration order."""
    return [opt for opt in OPTIONS.values() if opt.section == section]


def lookup(name: str) -> Unit:
    """The option called `name`, or OptionError with a 'did you mean'."""
    if name in OPTIONS:
        return OPTIONS[name]
    raise OptionError(f"unknown option '{name}'", suggest(name, OPTIONS))


def option_values(opt: Unit, code: Callable[[str], str] = str) -> str:
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
