"""The analysis of a profile over its player counts: as text for people, as JSON for tools,
and the rules that can never act (for `validate`, `show`, `explain` and `compare`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.rules import Rules
from rulesdsl.reason.analysis.counts import TRICK_BUDGET, build
from rulesdsl.reason.analysis.verdicts import (
    ANALYSED,
    SEARCH_BUDGET,
    PlayersReport,
    Proofs,
    Question,
    Verdict,
    analyse_players,
    option_questions,
    stated_questions,
)
from rulesdsl.reason.analysis.witness import Witness
from rulesdsl.words.layout import PIPED_WIDTH, wrap


@dataclass(frozen=True)
class Analysis:
    """One profile analysed at each player count asked for."""

    profile: str
    rules: Rules
    players: dict[int, PlayersReport]

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "players": {str(n): r.to_dict() for n, r in self.players.items()},
        }


def player_counts(rules: Rules, only: int | None = None) -> list[int]:
    low, high = rules.players
    return [only] if only is not None else list(range(low, high + 1))


def analyse(
    profile: str, rules: Rules, only: int | None = None, tries: int = SEARCH_BUDGET
) -> Analysis:
    """Every question at every player count (or only `only`); `only` must be allowed."""
    if only is not None:
        rules.check_players_of(profile, only)
    counts = player_counts(rules, only)
    return Analysis(profile, rules, {n: analyse_players(rules, n, tries) for n in counts})


@dataclass(frozen=True)
class DeadRule:
    """A rule that never acts at any of `counts`, with the proof at the largest count."""

    name: str
    counts: tuple[int, ...]
    proof: str

    @property
    def players(self) -> str:
        """The player counts as a span of digits, e.g. `3\u20136` or `4`."""
        low, high = self.counts[0], self.counts[-1]
        return str(low) if low == high else f"{low}\u2013{high}"

    def __str__(self) -> str:
        return f"never comes into play with {self.players} players: {self.proof}"


def dead_rules(
    rules: Rules, counts: Iterable[int] | None = None, budget: int = TRICK_BUDGET
) -> dict[str, DeadRule]:
    """The rules the count model proves can never act at any of `counts` (default: every
    count the profile allows). Needs no search, so it is quick enough for `validate`;
    beyond `budget` tricks walked nothing is proved, so nothing is dead."""
    known = option_questions(rules)
    questions = {name: known.get(name) for name in ANALYSED}
    return _never_acting(rules, questions, counts, budget)


def dead_stated_rules(
    rules: Rules, counts: Iterable[int] | None = None, budget: int = TRICK_BUDGET
) -> dict[str, DeadRule]:
    """The rules the profile states that the count model proves can never act at any of
    `counts` (default: every count the profile allows), by name."""
    return _never_acting(rules, dict(stated_questions(rules)), counts, budget)


def _never_acting(
    rules: Rules,
    questions: dict[str, Question | None],
    counts: Iterable[int] | None,
    budget: int,
) -> dict[str, DeadRule]:
    counts = list(counts) if counts is not None else player_counts(rules)
    models = [build(rules, n, budget) for n in counts]
    if not models or not all(m.complete for m in models):
        return {}
    dead = {}
    for name, question in questions.items():
        proofs = [question.never(Proofs(rules, m)) for m in models] if question else [None]
        if all(proof is not None for proof in proofs):
            dead[name] = DeadRule(name, tuple(counts), str(proofs[-1]))
    return dead


# The narrowest the proof column may be (or half the width, if more) before a long rule
# name takes a line of its own.
PROOF_MIN = 30
INDENT = "    "


def _summary(report: PlayersReport, width: int) -> list[str]:
    m = report.model
    most = "no end" if m.max_tricks is None else str(m.max_tricks)
    least = "no end" if m.min_tricks is None else str(m.min_tricks)
    longest = f"; the longest hand found lasts {report.longest.trick}" if report.longest else ""
    lines = [
        f"{report.players} players: a hand lasts {least} to {most} tricks "
        f"({m.states} count states{longest})",
        f"least stock left {m.min_stock}; "
        f"stock runs out: {report.stock_runs_out.verdict}; all out: {report.all_out.verdict}",
        f"hand can fail to end: {report.hand_fails_to_end.verdict} "
        f"({report.hand_fails_to_end.proof})",
        f"match can fail to end: {report.match_fails_to_end.verdict} "
        f"({report.match_fails_to_end.proof})",
    ]
    first = wrap(lines[0], width, "  ", INDENT)
    return first + [row for line in lines[1:] for row in wrap(line, width, INDENT, INDENT + "  ")]


def _rule_lines(report: PlayersReport, profile: str, width: int) -> list[str]:
    """One row per rule: verdict, name and proof in columns, the proof wrapped in its
    column (a name too long for its column stands on a line of its own); a witness named
    by its number; then the witnesses, each once, with the command that replays it (one
    line, to copy whole)."""
    numbers: dict[tuple, int] = {}
    hands: list[Witness] = []
    verdict_width = max(len(v) for v in Verdict)
    room = width - len(INDENT) - verdict_width - 2 - max(PROOF_MIN, width // 2)
    name_width = max((len(n) for n in report.rules if len(n) <= room), default=max(room, 1))
    column = " " * (len(INDENT) + verdict_width + 1 + name_width + 1)
    lines = []
    for name, finding in report.rules.items():
        shown = finding.proof
        found = finding.witness
        if found is not None:
            key = (found.deck, found.dealer, found.bots)
            if key not in numbers:
                numbers[key] = len(hands) + 1
                hands.append(found)
            shown += f" [hand {numbers[key]}]"
        head = f"{INDENT}{finding.verdict:<{verdict_width}} {name:<{name_width}} "
        if len(name) > name_width:
            lines.append(head.rstrip())
            head = column
        lines += wrap(shown, width, head, column)
    if hands:
        lines.append(f"{INDENT}hands, to replay:")
    lines += [f"{INDENT}  {n}: {found.command(profile)}" for n, found in enumerate(hands, 1)]
    return lines


def text(analysis: Analysis, profile_ref: str | None = None, width: int = PIPED_WIDTH) -> str:
    """The analysis for people, laid out for `width` columns: per player count, the
    bounds, then every rule's verdict."""
    ref = profile_ref or analysis.profile
    lines = [analysis.profile]
    for report in analysis.players.values():
        lines += _summary(report, width)
        lines += _rule_lines(report, ref, width)
    return "\n".join(lines)
