"""The analysis of a profile over its player counts (as JSON for tools: `rulesdsl.words.analysis`
says it for people), and the rules that can never act (for `validate`, `show`, `explain` and
`compare`)."""

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
    analyse_players,
    option_questions,
    stated_questions,
)


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
