"""A rule a profile states, as the engine sees it: a name, the steps it acts at, its step
function (generated Python source, compiled on first use) and its sentences.

This module needs no parser: `Rules` carries HouseRules, and reading them is `rule.py`'s.
"""

from __future__ import annotations

import hashlib
import linecache
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from rulesdsl.model.kinds import OptionError
from rulesdsl.model.language.tree import Node
from rulesdsl.model.language.vocab import RANK_CODE
from rulesdsl.model.text import Pos
from rulesdsl.model.units.base import Step

LANGUAGES = ("en", "pt", "uk")
NAMED_RANK = re.compile(r"\b" + RANK_CODE.format(r"(\d+)") + r"\b")


# Where each step lies in section 2 of docs/rules.md, and what a rule decides there.
STEP_PLACES = {
    Step.FIRST_LEAD: "after the deal, who leads the hand's first trick",
    Step.LEAD_FILTER: "step 1, the cards the leader may lead",
    Step.FOLLOW_FILTER: "step 1, the cards a follower may play",
    Step.DRAW_COUNT: "step 4, how many cards a drawer takes",
    Step.EXTRA_DRAW: "step 4, who draws a card too, right after the trick winner's draw",
    Step.OUT: "step 6, who is out besides the empty hands",
    Step.END_CHECK: "after step 9, whether the hand ends and who wins it",
    Step.SCORE: "after the hand, the match points its winner scores",
}


class RuleKind(StrEnum):
    """The clause that says what a rule is."""

    REFUSE = "refuse"
    DRAW = "draw"
    SCORE = "score"
    END = "end"
    LEAD = "lead"
    OUT = "out"
    ALSO_DRAWS = "also_draws"


SEAT_KINDS = frozenset({RuleKind.LEAD, RuleKind.ALSO_DRAWS})
"""The kinds of rule that name a seat, or none."""


class Clause(StrEnum):
    """Every clause word a rule block may hold, in the canonical order `fmt` writes: the
    kind, its winner, `removed`, then the sentences."""

    REFUSE = RuleKind.REFUSE.value
    DRAW = RuleKind.DRAW.value
    SCORE = RuleKind.SCORE.value
    END = RuleKind.END.value
    LEAD = RuleKind.LEAD.value
    OUT = RuleKind.OUT.value
    ALSO_DRAWS = RuleKind.ALSO_DRAWS.value
    WINNER = "winner"
    REMOVED = "removed"
    SAY = "say"


def clause_said(key: str, value: str | None) -> tuple[str, str | None]:
    """What a rule may say only once: each clause, and `say` once per language."""
    return key, value if key == Clause.SAY else None


class Target(StrEnum):
    """Which plays a play filter decides on."""

    LEAD = "lead"
    FOLLOW = "follow"
    CARD = "card"


MAX_RULES = 32
MAX_CODE = 16_000
"""The most rules a profile states, and characters of code they compile to in all."""


@dataclass(frozen=True)
class HouseRule:
    """A profile rule with the interface of a unit: its name, the steps it acts at, the
    Python source of its step function, and its sentences. Equal rules say the same thing
    (clauses compared in canonical spacing); it pickles as data, its function is compiled
    from `source` on first use."""

    name: str
    kind: RuleKind
    clauses: tuple[tuple[str, str], ...]  # (clause word, canonical text), in written order
    sentences: tuple[tuple[str, str], ...]  # (language, sentence) as given
    source: str
    function: str
    step_names: tuple[Step, ...]
    bound: int | None = None  # a count's largest value, None when unknown
    # The checked tree of the kind clause (a filter's or end rule's condition, a count),
    # for the analysis to read; equal rules may sit at other positions, so not compared.
    tree: Node | None = field(default=None, compare=False, repr=False)
    # An end rule's winner, checked, for the kernel's program of the rule.
    winner: Node | None = field(default=None, compare=False, repr=False)

    @property
    def ranks(self) -> frozenset[int]:
        """The ranks the rule names (`queen`, `QS`)."""
        return frozenset(int(rank) for rank in NAMED_RANK.findall(self.source))

    def steps_for(self, strength: Mapping[int, int]) -> dict[Step, Callable[..., Any]]:
        """The rule's step functions under a deck whose ranks have `strength`
        (`Rules.rank_strength`), each named rank's strength in its place; none where it
        names a rank the deck does not hold: there it never acts."""
        if not self.ranks <= strength.keys():
            return {}
        source = NAMED_RANK.sub(lambda found: str(strength[int(found[1])]), self.source)
        fn = compiled(source, self.function)
        return {step: fn for step in self.step_names}

    def sentence(self, lang: str) -> str | None:
        return dict(self.sentences).get(lang)

    def clause(self, word: str) -> str | None:
        return dict(self.clauses).get(word)


@cache
def compiled(source: str, function: str) -> Callable[..., Any]:
    """The step function of generated source, run with only the builtins it uses (`State`
    appears in its annotations only)."""
    digest = hashlib.blake2b(source.encode(), digest_size=6).hexdigest()
    filename = f"<rule {function} {digest}>"
    # Registered as a source file, so that `inspect.getsource` (and the fast path's
    # specialiser, which inlines step functions from their source) finds it.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"__builtins__": GENERATED_BUILTINS, "State": object}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[function]


GENERATED_BUILTINS = {"len": len, "max": max, "min": min, "range": range, "list": list, "int": int}


@dataclass(frozen=True)
class Removal:
    """`removed`: the profile takes the inherited rule `name` away."""

    name: str
    pos: Pos


def check_house_rules(rules: Any) -> None:
    """Raise OptionError unless `rules` is a tuple of HouseRules with distinct names."""
    if not isinstance(rules, tuple) or not all(isinstance(r, HouseRule) for r in rules):
        raise OptionError(
            "house_rules: expected a tuple of rules a profile states",
            "state rules in a profile: rule NAME { ... }",
        )
    names = [r.name for r in rules]
    if len(set(names)) != len(names):
        raise OptionError("house_rules: two rules have the same name")
