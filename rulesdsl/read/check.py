"""Check a profile: each entry against the option registry, then the rules as a whole
over every player count the profile allows (each unit holds its own checks)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.hints import closest, mean
from rulesdsl.model.kinds import OptionError
from rulesdsl.model.rules import OPTIONS, UNITS, Rules
from rulesdsl.model.text import TOP, Pos
from rulesdsl.model.units import RuleProblem
from rulesdsl.model.units.base import HEADER, METADATA
from rulesdsl.read.diagnostics import Diagnostic, Located
from rulesdsl.read.schema import takes_list
from rulesdsl.read.syntax.document import ASSUMED, Document, Entry


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
