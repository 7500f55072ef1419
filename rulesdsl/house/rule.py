"""A rule a profile states itself, compiled to the interface of a rule unit.

    rule must-overtrump {
        refuse follow if card.trump and trick.has_trump and not card.beats_best
        say en "..."
    }

A rule has exactly one kind clause: `refuse lead|follow|card if COND` (a play filter),
`draw COUNT` or `score COUNT` (replacing the option's count), or `end when COND` /
`end after trick N` with `winner SEAT` (an end rule, after step 9). `say LANG "text"`
gives the sentence `explain` prints in that language. `removed` (alone) takes an
inherited rule of that name away.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from rulesdsl.diagnostics import Diagnostic, Located, Pos
from rulesdsl.hints import suggest
from rulesdsl.house import codegen
from rulesdsl.house.bounds import upper
from rulesdsl.house.checker import Checker, ClauseError, Problem, canonical
from rulesdsl.house.unit import LANGUAGES, Clause, HouseRule, Kind, Removal, Step, Target
from rulesdsl.house.vocab import Type, Where
from rulesdsl.syntax.document import Entry, RuleBlock

TARGET_STEPS = {
    Target.LEAD: (Step.LEAD_FILTER,),
    Target.FOLLOW: (Step.FOLLOW_FILTER,),
    Target.CARD: (Step.LEAD_FILTER, Step.FOLLOW_FILTER),
}
TARGET_WHERE = {Target.LEAD: Where.LEAD, Target.FOLLOW: Where.FOLLOW, Target.CARD: Where.PLAY}
# Where a count is evaluated, and the name of the step function's parameter.
COUNTS = {
    Kind.DRAW: (Where.DRAW, "seat", Step.DRAW_COUNT),
    Kind.SCORE: (Where.SCORE, "winner", Step.SCORE),
}


def function_name(name: str) -> str:
    """A Python name for the rule's step function: only letters, digits and underscores."""
    return "rule_" + re.sub(r"[^A-Za-z0-9_]", "_", name) + f"_{len(name)}"


class Built(NamedTuple):
    """What a rule's kind clause compiles to."""

    kind: Kind
    clauses: tuple[tuple[str, str], ...]
    source: str
    steps: tuple[Step, ...]
    bound: int | None = None


class _Compiler:
    def __init__(self, block: RuleBlock, where: Located) -> None:
        self.block = block
        self.where = where
        self.problems: list[Diagnostic] = []

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
        kinds = [e for e in entries if e.key in set(Kind)]
        if not kinds and self.problems:
            return None
        if not kinds:
            self.error(
                self.block.name_pos,
                "rule-shape",
                f"rule `{self.block.name}` says neither refuse, draw, score nor end",
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
        )

    def _known(self, entries: tuple[Entry, ...]) -> list[Entry]:
        known: list[Entry] = []
        for entry in entries:
            if entry.key not in set(Clause):
                hint = suggest(entry.key, list(Clause)) or "clauses: " + ", ".join(Clause)
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
                hint = suggest(lang, LANGUAGES) or "languages: " + ", ".join(LANGUAGES)
                self.error(entry.value_pos, "rule-language", f"no language `{lang}`", hint)
            elif not entry.note:
                self.error(entry.value_pos, "rule-clause", f'`say {lang}` needs a "sentence"')
            else:
                said.append((lang, entry.note))
        return tuple(said)

    def _kind(self, head: Entry, entries: list[Entry]) -> Built | None:
        winner = next((e for e in entries if e.key == Clause.WINNER), None)
        kind = Kind(head.key)
        if winner is not None and kind != Kind.END:
            self.error(winner.key_pos, "rule-clause", "`winner` belongs to an end rule")
        name = function_name(self.block.name)
        try:
            text = self._value(head)
            if kind == Kind.REFUSE:
                return self._refuse(head, text, name)
            if kind in COUNTS:
                where, parameter, step = COUNTS[kind]
                count = self._check(head, text, where, Type.INT)
                source = codegen.count_source(name, parameter, count)
                return Built(kind, ((kind.value, canonical(text)),), source, (step,), upper(count))
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

    def _check(self, entry: Entry, text: str, where: Where, wanted: Type, start: str = "expr"):
        checker = Checker(entry.value_pos, where)
        return checker.expect(checker.parse(text, start), wanted)

    def _refuse(self, head: Entry, text: str, name: str) -> Built:
        checker = Checker(head.value_pos, Where.PLAY)
        tree = checker.parse(text, "refuse")
        word, _, condition_tree = tree.children
        if str(word) not in set(Target):
            hint = suggest(str(word), list(Target)) or "refuse lead, follow or card"
            raise checker.fail(word, "rule-clause", f"`refuse {word}`: no such play", hint)
        target = Target(str(word))
        checker.where = TARGET_WHERE[target]
        condition = checker.expect(condition_tree, Type.BOOL)
        source = codegen.filter_source(name, condition)
        clauses = ((Kind.REFUSE.value, canonical(text)),)
        return Built(Kind.REFUSE, clauses, source, TARGET_STEPS[target])

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
        checker = Checker(head.value_pos, Where.END)
        tree = checker.parse(text, "end")
        if tree.data == "end_after":
            number = tree.children[2]
            if not 1 <= int(number) <= 10_000:
                raise checker.fail(number, "rule-range", "a trick number is 1 to 10000")
            condition = checker.expect(
                checker.parse(f"trick.number >= {int(number)}", "expr"), Type.BOOL
            )
        else:
            condition = checker.expect(tree.children[1], Type.BOOL)
        who_text = self._value(winner)
        who = self._check(winner, who_text, Where.END, Type.MAYBE_SEAT)
        source = codegen.end_source(name, condition, who)
        clauses = ((Kind.END.value, canonical(text)), (Clause.WINNER.value, canonical(who_text)))
        return Built(Kind.END, clauses, source, (Step.END_CHECK,))


def compile_rule(
    block: RuleBlock, where: Located
) -> tuple[HouseRule | Removal | None, list[Diagnostic]]:
    """The rule a block states (or its removal), and the problems with it."""
    compiler = _Compiler(block, where)
    rule = compiler.run()
    return rule, compiler.problems
