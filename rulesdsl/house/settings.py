"""A profile's own rules, resolved through `extends`, each knowing where it was stated.

A child states a rule by name: a new name is added after the inherited rules; a name the
parent has replaces that rule in its place (filters keep their order); `removed` takes an
inherited rule away. Play filters then run in this order, after the options' filters.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulesdsl.diagnostics import TOP, Diagnostic, Located, Pos
from rulesdsl.hints import suggest
from rulesdsl.house.unit import MAX_RULES, HouseRule, Kind, Removal
from rulesdsl.sources import short_path
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
    column: int = 1

    @property
    def name(self) -> str:
        return self.rule.name

    def where(self) -> str:
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
            pos = block.name_pos
            rules[rule.name] = RuleSetting(rule, "set", profile, path, pos.line, pos.column)
    problems += _one_count_each(tuple(rules.values()), where)
    if len(rules) > MAX_RULES:
        problems.append(
            where.at(
                doc.rules[-1].name_pos,
                "too-many-rules",
                f"the profile states {len(rules)} rules; {MAX_RULES} at most",
            )
        )
    return tuple(rules.values()), problems


def rule_warnings(
    rules: tuple[RuleSetting, ...], reshuffle: bool, doc: Document
) -> list[Diagnostic]:
    """What the checker says of a profile's rules as a whole: a draw rule that can draw
    as many cards as a trick holds, with `exhaustion reshuffle`, need not end a hand."""
    where = Located(doc.path, doc.source)
    found = []
    for setting in rules:
        rule = setting.rule
        if not reshuffle or rule.kind != Kind.DRAW or (rule.bound is not None and rule.bound < 2):
            continue
        pos = Pos(setting.line, setting.column) if setting.origin == "set" else TOP
        most = "no known bound" if rule.bound is None else f"up to {rule.bound}"
        found.append(
            where.at(
                pos,
                "endless-hand",
                f"rule {rule.name} draws {most} cards with exhaustion reshuffle: a hand might "
                "never end (the winner can draw back every card played)",
                "draw at most 1, or use another exhaustion rule",
                "warning",
            )
        )
    return found


COUNTED = {Kind.DRAW: "the cards a player draws", Kind.SCORE: "the points a hand scores"}


def _one_count_each(rules: tuple[RuleSetting, ...], where: Located) -> list[Diagnostic]:
    """A draw or score count replaces the option's: a profile may have one of each."""
    found = []
    for kind in (Kind.DRAW, Kind.SCORE):
        counting = [s for s in rules if s.rule.kind == kind]
        for extra in counting[1:]:
            pos = Pos(extra.line, extra.column) if extra.origin == "set" else TOP
            found.append(
                where.at(
                    pos,
                    "rule-conflict",
                    f"rules {counting[0].name} and {extra.name} both count {COUNTED[kind]}; "
                    "one count replaces the option's",
                    f"keep one of them, or take the inherited one away: rule {counting[0].name} "
                    "{ removed }",
                )
            )
    return found
