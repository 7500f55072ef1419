"""A profile's own rules, resolved through `extends`, each knowing where it was stated.

A child states a rule by name: a new name is added after the inherited rules; a name the
parent has replaces that rule in its place (filters keep their order); `removed` takes an
inherited rule away. Play filters then run in this order, after the options' filters.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulesdsl.diagnostics import Diagnostic, Located
from rulesdsl.hints import suggest
from rulesdsl.house.unit import MAX_RULES, HouseRule, Removal
from rulesdsl.syntax.document import Document


@dataclass(frozen=True)
class RuleSetting:
    """One rule of a resolved profile: `origin` is `set` (in this file) or `inherited` (from
    `profile`, the ancestor that stated it), with its file and line."""

    rule: HouseRule
    origin: str
    profile: str
    path: str
    line: int

    @property
    def name(self) -> str:
        return self.rule.name

    def where(self) -> str:
        from rulesdsl.profile import short_path

        place = f"{short_path(self.path)}:{self.line}"
        return (
            f"set in {place}"
            if self.origin == "set"
            else f"inherited from {self.profile} ({place})"
        )


def inherit(parent: tuple[RuleSetting, ...]) -> tuple[RuleSetting, ...]:
    return tuple(dataclasses.replace(s, origin="inherited") for s in parent)


def resolve_rules(
    doc: Document, profile: str, path: str, parent: tuple[RuleSetting, ...]
) -> tuple[tuple[RuleSetting, ...], list[Diagnostic]]:
    """The profile's rules: the parent's, with this file's additions, changes and removals."""
    from rulesdsl.house.rule import compile_rule  # the parser, only for a profile with rules

    where = Located(doc.path, doc.source)
    rules = {s.name: s for s in inherit(parent)}
    problems: list[Diagnostic] = []
    first: dict[str, int] = {}
    for block in doc.rules:
        if block.name in first:
            problems.append(
                where.at(
                    block.name_pos,
                    "duplicate-rule",
                    f"rule `{block.name}` is stated twice: here and on line {first[block.name]}",
                    "keep one of them, or give this one another name",
                )
            )
            continue
        first[block.name] = block.name_pos.line
        rule, found = compile_rule(block, where)
        problems += found
        if isinstance(rule, Removal):
            if rule.name in rules and rules[rule.name].origin == "inherited":
                del rules[rule.name]
            else:
                hint = suggest(rule.name, [n for n, s in rules.items() if s.origin == "inherited"])
                problems.append(
                    where.at(
                        rule.pos,
                        "unknown-rule",
                        f"`{rule.name}` is removed, but no profile it extends states it",
                        hint or "`removed` takes away a rule stated by a parent profile",
                    )
                )
        elif rule is not None:
            rules[rule.name] = RuleSetting(rule, "set", profile, path, block.name_pos.line)
    if len(rules) > MAX_RULES:
        problems.append(
            where.at(
                doc.rules[-1].name_pos,
                "too-many-rules",
                f"the profile states {len(rules)} rules; {MAX_RULES} at most",
            )
        )
    return tuple(rules.values()), problems
