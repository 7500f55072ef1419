"""The `dead-rule` warning: a value a profile file chooses for a rule that can never act,
and a rule a profile file states that can never act.

A file is warned about a value it sets that differs from the one it would otherwise have
(its parent's, or the default), when the count model proves the rule never acts at any
player count the profile allows. A value marked `assumed`, or given a note, is kept
knowingly (a note records the source's words, or why the rule stays), so it is not
warned about; `show`, `explain` and `analyze` still mark it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.read.diagnostics import Diagnostic, Located, capped
from rulesdsl.read.profile import Profile
from rulesdsl.read.syntax.document import Document, Entry
from rulesdsl.reason.analysis.report import dead_rules, dead_stated_rules

# Fewer tricks walked than `analyze` allows: `validate` and the editor run this on every
# check, and a profile beyond it is simply not warned about.
LINT_BUDGET = 20_000


class Chosen(Protocol):
    """An option value read from a file entry (`check.Parsed`)."""

    value: Any
    entry: Entry


def linted(profile: Profile) -> Profile:
    """The profile with its dead-rule warnings, in place among its diagnostics (a profile
    with errors gets none). The profile read is left as it is: the reader keeps it."""
    doc = profile.document
    if not profile.ok or doc is None:
        return profile
    said = profile.diagnostics
    found = dead_rule_warnings(profile.rules, doc, profile.chosen, profile.inherited, said)
    if not found:
        return profile
    shown = sorted([*said, *found], key=lambda d: (d.line, d.column))
    return dataclasses.replace(profile, diagnostics=capped(shown))


def dead_rule_warnings(
    rules: Rules,
    doc: Document,
    chosen: Mapping[str, Chosen],
    before: Mapping[str, Any],
    said: Sequence[Diagnostic] = (),
) -> list[Diagnostic]:
    """Warnings for the values `chosen` in `doc` (unlike `before`, the values it would have
    had) whose rules never act with the profile's player counts; a value another
    diagnostic in `said` already points at is left to that one."""
    places = {(d.line, d.column) for d in said}
    where = Located(doc.path, doc.source)
    return _option_warnings(rules, where, chosen, before, places) + _stated_warnings(
        rules, doc, where, places
    )


def _option_warnings(
    rules: Rules,
    where: Located,
    chosen: Mapping[str, Chosen],
    before: Mapping[str, Any],
    places: set[tuple[int, int]],
) -> list[Diagnostic]:
    asked = {
        name: item
        for name, item in chosen.items()
        if item.value != before.get(name)
        and not item.entry.assumed
        and item.entry.note is None
        and (item.entry.value_pos.line, item.entry.value_pos.column) not in places
    }
    if not asked:
        return []
    return [
        where.at(
            asked[name].entry.value_pos,
            "dead-rule",
            f"{name} {OPTIONS[name].text(asked[name].value)} {dead}",
            "drop the line, or give it a note saying why it is kept",
            "warning",
        )
        for name, dead in dead_rules(rules, budget=LINT_BUDGET).items()
        if name in asked
    ]


def _stated_warnings(
    rules: Rules, doc: Document, where: Located, places: set[tuple[int, int]]
) -> list[Diagnostic]:
    """A warning at the name of each rule this file states that can never act."""
    blocks = {
        block.name: block
        for block in doc.rules
        if (block.name_pos.line, block.name_pos.column) not in places
    }
    stated = {r.name for r in rules.house_rules}
    if not stated & set(blocks):
        return []
    return [
        where.at(
            blocks[name].name_pos,
            "dead-rule",
            f"rule {name} {dead}",
            "drop the rule, or change it so that it can act",
            "warning",
        )
        for name, dead in dead_stated_rules(rules, budget=LINT_BUDGET).items()
        if name in blocks
    ]
