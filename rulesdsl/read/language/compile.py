"""A rule a profile states itself, compiled to the interface of a rule unit.

    rule must-overtrump {
        refuse follow if card.trump and trick.has_trump and not card.beats_best
        say en "..."
    }

A rule has exactly one kind clause: `refuse lead|follow|card if COND` (a play filter),
`draw COUNT` or `score COUNT` (replacing the option's count), `end when COND` /
`end after trick N` with `winner SEAT` (an end rule, after step 9), `lead SEAT` (after
the deal, who leads the first trick; none: as the options say), `also_draws SEAT` (at
step 4, right after the trick winner's draw, that player draws one card too), or `out if
COND` (at step 6, each player still in for whom the condition holds is out). `say LANG "text"`
gives the sentence `explain` prints in that language. `removed` (alone) takes an
inherited rule of that name away.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from rulesdsl.model.hints import Fit, verified
from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.bounds import FILTER_LOOPS, OUT_LOOPS, Loops, breach, upper
from rulesdsl.model.language.rule import (
    LANGUAGES,
    Clause,
    HouseRule,
    Removal,
    RuleKind,
    Step,
    Target,
)
from rulesdsl.model.language.vocab import Type, Where
from rulesdsl.model.text import Pos
from rulesdsl.read.diagnostics import Diagnostic, Located
from rulesdsl.read.language import codegen
from rulesdsl.read.language.checker import (
    CHAINED,
    Checker,
    ClauseError,
    Problem,
    Recheck,
    canonical,
)
from rulesdsl.read.syntax.document import Entry, RuleBlock

TARGET_STEPS = {
    Target.LEAD: (Step.LEAD_FILTER,),
    Target.FOLLOW: (Step.FOLLOW_FILTER,),
    Target.CARD: (Step.LEAD_FILTER, Step.FOLLOW_FILTER),
}
TARGET_WHERE = {Target.LEAD: Where.LEAD, Target.FOLLOW: Where.FOLLOW, Target.CARD: Where.PLAY}
# Where a count is evaluated, and the name of the step function's parameter.
COUNTS = {
    RuleKind.DRAW: (Where.DRAW, "seat", Step.DRAW_COUNT),
    RuleKind.SCORE: (Where.SCORE, "winner", Step.SCORE),
}
SEAT_CLAUSES = {
    RuleKind.LEAD: (Where.DEAL, Step.FIRST_LEAD),
    RuleKind.ALSO_DRAWS: (Where.ALSO_DRAWS, Step.EXTRA_DRAW),
}
"""The clauses that name a seat (or none, `rule.SEAT_KINDS`): where they are asked, and the
step."""


# What writing a fix in place of the text at a position does to the profile's rules, given
# the code of the problem it mends (`settings.Refit`).
Refit = Callable[[Pos, str, str], Fit]


def function_name(name: str) -> str:
    """A Python name for the rule's step function: only letters, digits and underscores."""
    return "rule_" + re.sub(r"[^A-Za-z0-9_]", "_", name) + f"_{len(name)}"


class Built(NamedTuple):
    """What a rule's kind clause compiles to."""

    kind: RuleKind
    clauses: tuple[tuple[str, str], ...]
    source: str
    steps: tuple[Step, ...]
    bound: int | None = None
    tree: ir.Node | None = None
    winner: ir.Node | None = None


class _Compiler:
    def __init__(self, block: RuleBlock, where: Located, refit: Refit | None = None) -> None:
        self.block = block
        self.where = where
        self.refit = refit
        self.problems: list[Diagnostic] = []

    def fix(self, word: str, pos: Pos, choices: list[str], code: str) -> str:
        """The did-you-mean for a clause's word or a language at `pos`: one that, written in,
        leaves the profile's rules without a new error; none without `refit`."""
        refit = self.refit
        if refit is None:
            return ""
        return verified(word, choices, lambda choice: refit(pos, choice, code))

    def problem(self, problem: Problem, severity: str = "error") -> None:
        self.problems.append(
            self.where.at(problem.pos, problem.code, problem.message, problem.hint, severity)
        )

    def error(self, pos: Pos, code: str, message: str, hint: str = "") -> None:
        self.problem(Problem(pos, code, message, hint))

    def run(self) -> HouseRule | Removal | None:
        entries = self._known(self.block.entries)
        removed = [e for e in entries if e.key == Clause.REMOVED]
        if removed:
            if len(entries) > 1:
                self.error(
                    removed[0].key_pos,
                    "rule-shape",
                    "`removed` stands alone in a rule: it takes the inherited rule away",
                    "delete the other clauses, or `removed`",
                )
                return None
            return None if self.problems else Removal(self.block.name, self.block.name_pos)
        sentences = self._sentences(entries)
        kinds = [e for e in entries if e.key in set(RuleKind)]
        if not kinds and self.problems:
            return None
        if not kinds:
            self.error(
                self.block.name_pos,
                "rule-shape",
                f"rule `{self.block.name}` says none of {', '.join(RuleKind)}",
                "e.g. `refuse lead if card.trump and trick.number == 1`",
            )
            return None
        for extra in kinds[1:]:
            self.error(
                extra.key_pos,
                "rule-shape",
                f"a rule has one kind: this one already says `{kinds[0].key}`",
                "write a second rule with its own name",
            )
        built = self._kind(kinds[0], entries)
        if built is None or any(p.is_error for p in self.problems):
            return None
        return HouseRule(
            self.block.name,
            built.kind,
            built.clauses,
            sentences,
            built.source,
            function_name(self.block.name),
            built.steps,
            built.bound,
            built.tree,
            built.winner,
        )

    def _known(self, entries: tuple[Entry, ...]) -> list[Entry]:
        """The clauses of known words (the readers have dropped any said twice)."""
        known: list[Entry] = []
        for entry in entries:
            if entry.key not in set(Clause):
                hint = self.fix(entry.key, entry.key_pos, list(Clause), "rule-clause")
                hint = hint or "clauses: " + ", ".join(Clause)
                self.error(entry.key_pos, "rule-clause", f"unknown clause `{entry.key}`", hint)
                continue
            if entry.assumed:
                self.error(entry.key_pos, "rule-clause", "a rule's clause cannot be assumed")
            if entry.key == Clause.REMOVED and entry.value is not None:
                self.error(entry.value_pos, "rule-clause", "`removed` takes no value")
            if entry.note is not None and entry.key != Clause.SAY:
                self.error(entry.value_pos, "rule-clause", f"`{entry.key}` takes no note")
            known.append(entry)
        return known

    def _sentences(self, entries: list[Entry]) -> tuple[tuple[str, str], ...]:
        said = []
        for entry in entries:
            if entry.key != Clause.SAY:
                continue
            lang = entry.value or ""
            if lang not in LANGUAGES:
                hint = self.fix(lang, entry.value_pos, list(LANGUAGES), "rule-language")
                hint = hint or "languages: " + ", ".join(LANGUAGES)
                self.error(entry.value_pos, "rule-language", f"no language `{lang}`", hint)
            elif not entry.note:
                self.error(entry.value_pos, "rule-clause", f'`say {lang}` needs a "sentence"')
            else:
                said.append((lang, entry.note))
        return tuple(said)

    def _kind(self, head: Entry, entries: list[Entry]) -> Built | None:
        winner = next((e for e in entries if e.key == Clause.WINNER), None)
        kind = RuleKind(head.key)
        if winner is not None and kind != RuleKind.END:
            self.error(winner.key_pos, "rule-clause", "`winner` belongs to an end rule")
        name = function_name(self.block.name)
        try:
            text = self._value(head)
            if kind == RuleKind.REFUSE:
                return self._refuse(head, text, name)
            if kind in SEAT_CLAUSES:
                where, step = SEAT_CLAUSES[kind]
                who = check_expression(text, head.value_pos, where, Type.MAYBE_SEAT)
                source = codegen.seat_source(name, who)
                clauses = ((kind.value, canonical(text)),)
                return Built(kind, clauses, source, (step,), tree=who)
            if kind == RuleKind.OUT:
                condition = check_out(text, head.value_pos)
                source = codegen.out_source(name, condition)
                clauses = ((kind.value, canonical(text)),)
                return Built(kind, clauses, source, (Step.OUT,), tree=condition)
            if kind in COUNTS:
                where, parameter, step = COUNTS[kind]
                count = check_expression(text, head.value_pos, where, Type.INT)
                source = codegen.count_source(name, parameter, count)
                clauses = ((kind.value, canonical(text)),)
                return Built(kind, clauses, source, (step,), upper(count), count)
            return self._end(head, text, winner, name)
        except ClauseError as error:
            self.problem(error.problem)
            return None

    def _value(self, entry: Entry) -> str:
        if entry.value is None or not entry.value.strip():
            raise ClauseError(
                Problem(
                    entry.value_pos,
                    "rule-clause",
                    f"`{entry.key}` needs its expression",
                    "e.g. `draw 2 if trick.won_by_trump else 1`",
                )
            )
        return entry.value

    def _refuse(self, head: Entry, text: str, name: str) -> Built:
        target, condition = check_refuse(text, head.value_pos)
        source = codegen.filter_source(name, condition)
        clauses = ((RuleKind.REFUSE.value, canonical(text)),)
        return Built(RuleKind.REFUSE, clauses, source, TARGET_STEPS[target], tree=condition)

    def _end(self, head: Entry, text: str, winner: Entry | None, name: str) -> Built:
        if winner is None:
            raise ClauseError(
                Problem(
                    head.key_pos,
                    "rule-shape",
                    "an end rule needs a `winner` clause",
                    "e.g. `winner most(p in active: p.cards)`, or `winner none`",
                )
            )
        condition = check_end(text, head.value_pos)
        who_text = self._value(winner)
        who = check_expression(who_text, winner.value_pos, Where.END, Type.MAYBE_SEAT)
        source = codegen.end_source(name, condition, who)
        clauses = (
            (RuleKind.END.value, canonical(text)),
            (Clause.WINNER.value, canonical(who_text)),
        )
        return Built(RuleKind.END, clauses, source, (Step.END_CHECK,), tree=condition, winner=who)


# Each kind of clause checked from its text at its position in the file; each checks its
# did-you-means by checking the text again with them written in.


def _recheck(check: Callable[[str, int], object]) -> Recheck:
    def recheck(text: str, chained: int) -> Problem | None:
        try:
            check(text, chained)
        except ClauseError as error:
            return error.problem
        return None

    return recheck


def within_limits(node: ir.Node, loops: Loops = ()) -> ir.Node:
    """`node`, if it computes no number out of range and one decision, evaluating it once
    for each value of `loops`, takes at most WORK_LIMIT steps (see `bounds`); else the
    ClauseError there."""
    found = breach(node, loops)
    if found is None:
        return node
    code = "rule-range" if found.node.type == Type.INT else "rule-size"
    raise ClauseError(Problem(found.node.pos, code, found.message, found.hint))


def check_expression(
    text: str, base: Pos, where: Where, wanted: Type, chained: int = CHAINED
) -> ir.Node:
    """An expression of the `wanted` type at the place (a count, a winner)."""
    again = _recheck(lambda t, c: check_expression(t, base, where, wanted, c))
    checker = Checker(base, where, again, chained)
    return within_limits(checker.expect(checker.parse(text, "expr"), wanted))


def check_refuse(text: str, base: Pos, chained: int = CHAINED) -> tuple[Target, ir.Node]:
    """`lead|follow|card if COND`: the plays refused, and the condition."""
    checker = Checker(base, Where.PLAY, _recheck(lambda t, c: check_refuse(t, base, c)), chained)
    tree = checker.parse(text, "refuse")
    word, _, condition_tree = tree.children
    if str(word) not in set(Target):
        hint = checker.fix(str(word), word, word, Target) or "refuse lead, follow or card"
        raise checker.fail(word, "rule-clause", f"`refuse {word}`: no such play", hint)
    target = Target(str(word))
    checker.where = TARGET_WHERE[target]
    return target, within_limits(checker.expect(condition_tree, Type.BOOL), FILTER_LOOPS)


def check_out(text: str, base: Pos, chained: int = CHAINED) -> ir.Node:
    """`if COND`: the condition on `player` that puts them out at step 6."""
    checker = Checker(base, Where.OUT, _recheck(lambda t, c: check_out(t, base, c)), chained)
    tree = checker.parse(text, "out")
    return within_limits(checker.expect(tree.children[1], Type.BOOL), OUT_LOOPS)


def check_end(text: str, base: Pos, chained: int = CHAINED) -> ir.Node:
    """`after trick N` or `when COND`: the condition that ends the hand."""
    checker = Checker(base, Where.END, _recheck(lambda t, c: check_end(t, base, c)), chained)
    tree = checker.parse(text, "end")
    if tree.data != "end_after":
        return within_limits(checker.expect(tree.children[1], Type.BOOL))
    number = tree.children[2]
    if not 1 <= int(number) <= 10_000:
        raise checker.fail(number, "rule-range", "a trick number is 1 to 10000")
    return checker.expect(checker.parse(f"trick.number >= {int(number)}", "expr"), Type.BOOL)


def compile_rule(
    block: RuleBlock, where: Located, refit: Refit | None = None
) -> tuple[HouseRule | Removal | None, list[Diagnostic]]:
    """The rule a block states (or its removal), and the problems with it. A misspelt
    clause word or language gets a did-you-mean only with `refit`, which tries it."""
    compiler = _Compiler(block, where, refit)
    rule = compiler.run()
    return rule, compiler.problems
