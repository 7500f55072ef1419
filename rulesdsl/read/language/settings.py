"""A profile's own rules, resolved through `extends`, each knowing where it was stated.

A child states a rule by name: a new name is added after the inherited rules; a name the
parent has replaces that rule in its place (filters keep their order); `removed` takes an
inherited rule away. Play filters then run in this order, after the options' filters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from rulesdsl.model.cards import Card, Suit, rank_text
from rulesdsl.model.hints import Fit, verified
from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.rule import MAX_CODE, MAX_RULES, HouseRule, Removal, RuleKind
from rulesdsl.model.rules import Rules
from rulesdsl.model.text import TOP, Pos
from rulesdsl.read.diagnostics import Diagnostic, Located, fix_columns, line_index, with_fix
from rulesdsl.read.sources import short_path
from rulesdsl.read.syntax.document import Document


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


class Refit:
    """What writing a did-you-mean's fix into the profile's text does to its rules: the text
    is read again and its rules resolved again (with no did-you-means of clause words or
    rule names, so this never nests), and their errors set against the text's own."""

    def __init__(
        self, doc: Document, profile: str, path: str, parent: tuple[RuleSetting, ...]
    ) -> None:
        self.doc, self.profile, self.path, self.parent = doc, profile, path, parent
        self.before: set[tuple[int, str]] | None = None

    def errors(self, doc: Document) -> list[Diagnostic]:
        _, problems = resolve_rules(doc, self.profile, self.path, self.parent, refit=False)
        return [d for d in (*doc.diagnostics, *problems) if d.is_error]

    def __call__(self, pos: Pos, fix: str, code: str) -> Fit:
        """CHECKS when the fix leaves no error the text did not have and mends the one of
        `code` on its line; FIXABLE when the new errors lie after it on its line, each with
        a did-you-mean of its own; else FAILS."""
        text = with_fix(self.doc.source, pos, fix)
        if text is None:
            return Fit.FAILS
        after = self.errors(_read(self.doc, text))
        if any(d.line == pos.line and d.code == code for d in after):
            return Fit.FAILS
        if self.before is None:
            self.before = {(d.line, d.code) for d in self.errors(self.doc)}
        new = [d for d in after if (d.line, d.code) not in self.before]
        if not new:
            return Fit.CHECKS
        start, _ = fix_columns(pos, line_index(self.doc.source).line(pos.line))
        past = start + len(fix) + 1
        later = all(d.line == pos.line and d.column >= past and d.replacement for d in new)
        return Fit.FIXABLE if later else Fit.FAILS


def _read(doc: Document, text: str) -> Document:
    """The document `text` is, read as `doc` was."""
    if doc.syntax == "dsl":
        from rulesdsl.read.syntax.dsl import read_dsl

        return read_dsl(doc.path, text)
    from rulesdsl.read.syntax.yamlform import read_yaml

    return read_yaml(doc.path, text)


def resolve_rules(
    doc: Document,
    profile: str,
    path: str,
    parent: tuple[RuleSetting, ...],
    refit: bool = True,
) -> tuple[tuple[RuleSetting, ...], list[Diagnostic]]:
    """The profile's rules: the parent's, with this file's additions, changes and removals.
    A misspelt clause word, language or removed rule's name gets a did-you-mean where,
    with `refit`, the text with it written in is tried and its rules check."""
    from rulesdsl.read.language.compile import (
        compile_rule,  # the parser, only for a profile with rules
    )

    tried = Refit(doc, profile, path, parent) if refit and doc.rules else None
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
        rule, found = compile_rule(block, where, tried)
        problems += found
        if isinstance(rule, Removal):
            if rule.name in rules and rules[rule.name].origin == "inherited":
                del rules[rule.name]
            else:
                inherited = [n for n, s in rules.items() if s.origin == "inherited"]
                hint = _removed_fix(rule, inherited, tried)
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
    problems += _within_compile_limits(tuple(rules.values()), doc, where)
    return tuple(rules.values()), problems


def _within_compile_limits(
    rules: tuple[RuleSetting, ...], doc: Document, where: Located
) -> list[Diagnostic]:
    """A profile's rules are compiled into its engine: at most MAX_RULES of them, and at
    most MAX_CODE characters of code in all, so compiling stays quick."""
    if len(rules) > MAX_RULES:
        pos = doc.rules[-1].name_pos
        message = f"the profile states {len(rules)} rules; {MAX_RULES} at most"
        return [where.at(pos, "too-many-rules", message)]
    total = 0
    for setting in rules:
        total += len(setting.rule.source)
        if total > MAX_CODE:
            pos = Pos(setting.line, setting.column) if setting.origin == "set" else TOP
            message = (
                f"with rule {setting.name}, the profile's rules compile to {total:,} characters "
                f"of code; {MAX_CODE:,} at most, so that compiling a profile stays quick"
            )
            hint = "state fewer rules, or merge their conditions"
            return [where.at(pos, "too-many-rules", message, hint)]
    return []


def _removed_fix(removal: Removal, inherited: list[str], tried: Refit | None) -> str:
    """The did-you-mean for a removed rule no parent states: an inherited rule's name with
    which the profile's rules check."""
    if tried is None:
        return ""
    return verified(removal.name, inherited, lambda name: tried(removal.pos, name, "unknown-rule"))


def rule_warnings(
    rules: tuple[RuleSetting, ...], options: Rules, doc: Document
) -> list[Diagnostic]:
    """What the checker says of a profile's rules under its options: a draw rule that can
    draw as many cards as a trick holds, with `exhaustion reshuffle`, need not end a hand;
    a rule that names a card or rank the deck does not hold never acts."""
    where = Located(doc.path, doc.source)
    found = []
    reshuffle = options.exhaustion == "reshuffle"
    for setting in rules:
        found += _unheld(setting, options.rank_strength, where)
        rule = setting.rule
        if (
            not reshuffle
            or rule.kind != RuleKind.DRAW
            or (rule.bound is not None and rule.bound < 2)
        ):
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


def _unheld(setting: RuleSetting, strength: Mapping[int, int], where: Located) -> list[Diagnostic]:
    """A warning at each card or rank the rule names that the deck does not hold."""
    rule = setting.rule
    trees = [tree for tree in (rule.tree, rule.winner) if tree is not None]
    found = []
    for node in (n for tree in trees for n in ir.walk(tree)):
        if not isinstance(node, ir.Named) or node.rank in strength:
            continue
        named = rank_text(node.rank) if node.suit < 0 else str(Card(node.rank, Suit(node.suit)))
        what = f"card of rank {named}" if node.suit < 0 else named
        found.append(
            where.at(
                node.pos if setting.origin == "set" else TOP,
                "unheld-card",
                f"the deck holds no {what}: rule {rule.name} never acts",
                "name a card the deck holds, or change `deck`",
                "warning",
            )
        )
    return found


COUNTED = {RuleKind.DRAW: "the cards a player draws", RuleKind.SCORE: "the points a hand scores"}


def _one_count_each(rules: tuple[RuleSetting, ...], where: Located) -> list[Diagnostic]:
    """A draw or score count replaces the option's; of two, the first written decides,
    and the later never acts."""
    found = []
    for kind in (RuleKind.DRAW, RuleKind.SCORE):
        counting = [s for s in rules if s.rule.kind == kind]
        for extra in counting[1:]:
            pos = Pos(extra.line, extra.column) if extra.origin == "set" else TOP
            found.append(
                where.at(
                    pos,
                    "rule-conflict",
                    f"rule {extra.name} never acts: rule {counting[0].name}, written before it, "
                    f"counts {COUNTED[kind]} (the first rule written decides)",
                    f"take one of them away: rule {extra.name} {{ removed }}",
                    "warning",
                )
            )
    return found
