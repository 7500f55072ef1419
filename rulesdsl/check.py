"""Check a profile: each entry against the option registry, then the rules as a whole
over every player count the profile allows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulesdsl.cards import is_usual_order, rank_text
from rulesdsl.diagnostics import TOP, Diagnostic, Located, Pos
from rulesdsl.hints import closest, mean
from rulesdsl.options import OptionError
from rulesdsl.rules import OPTIONS, Rules
from rulesdsl.schema import takes_list
from rulesdsl.syntax.document import ASSUMED, HEADER, METADATA, Document, Entry


@dataclass(frozen=True)
class Parsed:
    """An option value read from an entry."""

    value: Any
    entry: Entry


def check_entries(doc: Document) -> tuple[dict[str, Parsed], list[Diagnostic]]:
    """Read every option entry; report unknown names, missing or bad values (the readers
    report a key given twice)."""
    where = Located(doc.path, doc.source)
    found: dict[str, Parsed] = {}
    problems: list[Diagnostic] = []
    for entry in doc.entries:
        key, pos = entry.key, entry.key_pos
        if key in METADATA:
            continue
        if key not in OPTIONS:
            # A misspelt `assumed` (in the profile language) or header key (in YAML) reads
            # as an option name.
            known = [*OPTIONS, *METADATA, *([ASSUMED] if doc.syntax == "dsl" else HEADER)]
            fix = closest(key, known)
            problems.append(
                where.at(
                    pos,
                    "unknown-option",
                    f"unknown option `{key}`",
                    mean(fix) or "`rulesdsl options` lists every option",
                    replacement=fix,
                )
            )
            continue
        option = OPTIONS[key]
        if entry.listed and not takes_list(option.kind):
            problems.append(
                where.at(
                    entry.value_pos,
                    "yaml-shape",
                    f"`{key}` takes one value, not a list",
                    f"expected {option.kind.expected}",
                )
            )
            continue
        if entry.value is None or not entry.value.strip():
            problems.append(
                where.at(
                    pos,
                    "missing-value",
                    f"`{key}` needs a value",
                    f"expected {option.kind.expected}",
                )
            )
            continue
        try:
            found[key] = Parsed(option.parse(entry.value), entry)
        except OptionError as error:
            vpos = entry.value_pos
            inside = doc.syntax == "dsl" and error.length > 0
            column = vpos.column + error.column - 1 if inside else vpos.column
            length = error.length if inside else vpos.length
            fix = error.replacement if inside else error.fixed(entry.value)
            message = f"{key}: {error.message}"
            problems.append(
                where.at(
                    Pos(vpos.line, column, length),
                    "bad-value",
                    message,
                    error.hint,
                    replacement=fix,
                )
            )
    return found, problems


def anchor(doc: Document, *names: str) -> Pos:
    """Where to point at a problem involving `names`: the last of them set in this file,
    else the `extends` clause, else the profile's name, else the top of the file."""
    set_here = [e for e in doc.entries if e.key in names]
    if set_here:
        return set_here[-1].value_pos
    return doc.extends_pos or doc.name_pos or TOP


@dataclass(frozen=True)
class RuleProblem:
    """A problem of the rules as a whole: the options it involves, a code, a message, a hint."""

    options: tuple[str, ...]
    code: str
    message: str
    hint: str = ""
    severity: str = "error"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def check_rules(rules: Rules, doc: Document) -> list[Diagnostic]:
    """Cross-field checks of the resolved rules, located in `doc`."""
    where = Located(doc.path, doc.source)
    return [
        where.at(anchor(doc, *p.options), p.code, p.message, p.hint, p.severity)
        for p in rule_problems(rules)
    ]


def rule_problems(rules: Rules) -> list[RuleProblem]:
    """Cross-field checks of the rules, wherever they come from (a file, the command line)."""
    return list(_rule_problems(rules))


def _rule_problems(rules: Rules) -> Iterator[RuleProblem]:
    low, high = rules.players
    deck = len(rules.cards)
    turnup = int(rules.trump == "stock_turnup")
    for n in range(low, high + 1):
        size = rules.hand_size_for(n)
        if size < 1:
            yield RuleProblem(
                ("hand_size", "players"),
                "expr-range",
                f"hand_size {rules.hand_size} gives {size} cards for {n} players",
                "every player needs at least one card",
            )
            return
        stock = deck - n * size - turnup
        if stock < 0:
            extra = " + 1 trump card turned up" if turnup else ""
            yield RuleProblem(
                ("hand_size", "players", "deck", "trump"),
                "deal-too-large",
                f"{n} players x {size} cards{extra} = {n * size + turnup} cards, "
                f"but the deck holds {deck}",
                f"lower hand_size or allow at most {_most_players(rules)} players",
            )
            return
        if stock == 0 and rules.exhaustion == "last_draw_wins" and rules.draw != 0:
            yield RuleProblem(
                ("hand_size", "players", "deck", "exhaustion"),
                "empty-stock",
                f"with {n} players the deal leaves no stock, and exhaustion "
                "last_draw_wins has no last card to draw",
                "use exhaustion play_out, or a smaller hand_size",
            )
            return
        if rules.match_count_for(n) < 1:
            yield RuleProblem(
                ("match",),
                "expr-range",
                f"match {rules.match} gives {rules.match_count_for(n)} for {n} players",
                "a match needs a count of at least 1",
            )
            return
    yield from _warnings(rules)


def _most_players(rules: Rules) -> int:
    turnup = int(rules.trump == "stock_turnup")
    fits = [
        n
        for n in range(2, rules.players[1] + 1)
        if n * rules.hand_size_for(n) + turnup <= len(rules.cards)
    ]
    return max(fits, default=2)


def _warnings(rules: Rules) -> Iterator[RuleProblem]:
    draws_a_trick = rules.draw == "per_card_in_trick" or int(rules.draw) >= 2
    if rules.exhaustion == "reshuffle" and draws_a_trick:
        yield RuleProblem(
            ("draw", "exhaustion"),
            "endless-hand",
            f"draw {rules.draw} with exhaustion reshuffle: a hand might never end "
            "(the winner can draw back every card played)",
            "use draw 1, or another exhaustion rule",
            "warning",
        )
    if len(rules.deck) > 2 and is_usual_order(rules.deck[::-1]):
        low, high = rank_text(rules.deck[-1]), rank_text(rules.deck[0])
        yield RuleProblem(
            ("deck",),
            "ranks-low-first",
            f"deck lists its ranks lowest first, so here {high} is the highest rank and "
            f"{low} the lowest",
            f"ranks are listed highest first: write `{OPTIONS['deck'].text(rules.deck[::-1])}` "
            "for the usual order",
            "warning",
        )
    if rules.trump == "none":
        for name in ("opening_lead", "when_void"):
            if getattr(rules, name) == "trump_if_able":
                yield RuleProblem(
                    (name,),
                    "never-applies",
                    f"{name} trump_if_able never applies: there is no trump suit",
                    f"drop `{name}` or choose a trump rule",
                    "warning",
                )
