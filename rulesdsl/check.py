"""Check a profile: each entry against the option registry, then the rules as a whole
over every player count the profile allows (each unit holds its own checks)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulesdsl.diagnostics import TOP, Diagnostic, Located, Pos
from rulesdsl.hints import suggest
from rulesdsl.options import OptionError
from rulesdsl.rules import OPTIONS, Rules
from rulesdsl.syntax.document import METADATA, Document, Entry
from rulesdsl.units import UNITS, RuleProblem


@dataclass(frozen=True)
class Parsed:
    """An option value read from an entry."""

    value: Any
    entry: Entry


def check_entries(doc: Document) -> tuple[dict[str, Parsed], list[Diagnostic]]:
    """Read every option entry; report unknown names, missing or bad values, duplicates."""
    where = Located(doc.path, doc.source)
    found: dict[str, Parsed] = {}
    first_line: dict[str, int] = {}
    problems: list[Diagnostic] = []
    for entry in doc.entries:
        key, pos = entry.key, entry.key_pos
        if key in first_line and doc.syntax == "dsl":
            problems.append(
                where.at(
                    pos,
                    "duplicate-key",
                    f"`{key}` is set twice: here and on line {first_line[key]}",
                    "keep one of them",
                )
            )
            continue
        first_line[key] = pos.line
        if key in METADATA:
            problems += _metadata_problems(entry, where)
            continue
        if key not in OPTIONS:
            known = [*OPTIONS, *METADATA]
            problems.append(
                where.at(
                    pos,
                    "unknown-option",
                    f"unknown option `{key}`",
                    suggest(key, known) or "`rulesdsl options` lists every option",
                )
            )
            continue
        option = OPTIONS[key]
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
            message = f"{key}: {error.message}"
            problems.append(
                where.at(Pos(vpos.line, column, length), "bad-value", message, error.hint)
            )
    return found, problems


def _metadata_problems(entry: Entry, where: Located) -> list[Diagnostic]:
    """A title or source needs its text, and takes no note and no `assumed`."""
    key, pos = entry.key, entry.key_pos
    if entry.value is None:
        return [
            where.at(
                pos,
                "missing-value",
                f"`{key}` needs a value",
                f"write the {key} as text, or drop the line",
            )
        ]
    if entry.note is None and not entry.assumed:
        return []
    message = f"`{key}` takes no note" if entry.note is not None else f"`{key}` cannot be assumed"
    hint = "a note or `assumed` marks an option's value; write a # comment instead"
    return [where.at(pos, "metadata-note", message, hint)]


def anchor(doc: Document, *names: str) -> Pos:
    """Where to point at a problem involving `names`: the last of them set in this file,
    else the `extends` clause, else the profile's name, else the top of the file."""
    set_here = [e for e in doc.entries if e.key in names]
    if set_here:
        return set_here[-1].value_pos
    return doc.extends_pos or doc.name_pos or TOP


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
    """Each unit's errors at every player count, in order; at the first error, stop. Then
    every unit's warnings."""
    low, high = rules.players
    for n in range(low, high + 1):
        for unit in UNITS:
            for problem in unit.problems(rules, n):
                yield problem
                return
    for unit in UNITS:
        yield from unit.warnings(rules)
