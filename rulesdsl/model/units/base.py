"""A rule unit: one variation point of section 3 of docs/rules.md, declared once.

A unit holds everything the tool knows about its option: the name, how its values are read
and written (its kind; choice values are StrEnums), the default, a description, the part of
a rule sheet it belongs to, the steps of section 2 of docs/rules.md where it acts, what it counts
as having fired in a hand (rule coverage), and its checks across options. Events the engine
emits carry the name of the unit that decided them (`RuleTag`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import OptionError, OptionKind
from rulesdsl.model.result import EndReason
from rulesdsl.model.units.acting import Acts

# A longer value is refused unread: no rule needs one, and reading a number that long or
# an expression nested that deep would hit Python's limits.
MAX_VALUE = 200

RulesView = Any
"""The frozen Rules (`rulesdsl.model.rules.Rules`), as a unit's checks read it: made from the
units, so a unit cannot name its type."""

RuleTag = str
"""The name of the rule that decided an event: a unit's name, a profile's rule, or CORE."""


HEADER = ("profile", "extends")
"""The words that name a profile and the one it extends."""
METADATA = ("title", "source")
"""The words of a profile's metadata."""
PROFILE_WORDS = (*HEADER, *METADATA)
"""The words every profile may say besides its rules: no rule may take one as its name."""


class Section(StrEnum):
    """The parts of a rule sheet, in reading order."""

    SETUP = "setup"
    PLAY = "play"
    DRAWING = "drawing"
    ENDING = "ending"
    SCORING = "scoring"


class Step(StrEnum):
    """The points of section 2 of docs/rules.md (and between hands) where a rule acts."""

    TABLE = "table"  # the player counts a profile is played at
    DECK = "deck"  # the cards in play and their rank order (the deal, and step 2)
    DEAL = "deal"  # the cards each player is dealt (section 4)
    TRUMP = "trump"  # the trump suit: fixed at the deal, it beats the others at step 2
    FIRST_LEAD = "first_lead"  # after the deal, who leads the hand's first trick
    LEAD_FILTER = "lead_filter"  # step 1, the leader's allowed cards
    FOLLOW_FILTER = "follow_filter"  # step 1, a follower's allowed cards
    ELIMINATE = "eliminate"  # steps 3 and 6, when an empty hand is out
    OUT = "out"  # step 6, who is out besides the empty hands
    DRAW_COUNT = "draw_count"  # step 4, how many cards a drawer takes
    DRAWERS = "drawers"  # step 4, who draws, in order
    EXTRA_DRAW = "extra_draw"  # step 4, who draws a card too, right after the trick winner
    REFILL = "refill"  # step 4, the stock is empty as a card is to be drawn
    DRAW_END = "draw_end"  # step 5, does a draw end the hand, and who wins
    ALL_OUT = "all_out"  # step 8, who wins when every hand emptied
    END_CHECK = "end_check"  # step 9 and after: does the hand end, and who wins
    NEXT_LEAD = "next_lead"  # step 10
    SCORE = "score"  # match points for the hand winner
    MATCH_END = "match_end"  # between hands
    NEXT_DEALER = "next_dealer"  # between hands


BETWEEN_HANDS = frozenset({Step.SCORE, Step.MATCH_END, Step.NEXT_DEALER})
ENDING_STEPS = frozenset({Step.DRAW_END, Step.END_CHECK})
"""The steps where a rule's function may end the hand; a unit says why it ends there."""
PLAY_FILTERS = frozenset({Step.LEAD_FILTER, Step.FOLLOW_FILTER})


class Composition(StrEnum):
    """How the contributions of several rules to one step compose."""

    ORDERED = "ordered"  # each acts in turn: play filters in order, end checks in order
    EXCLUSIVE = "exclusive"  # one rule decides: a second contributor is refused


ORDERED_STEPS = PLAY_FILTERS | {Step.FIRST_LEAD, Step.EXTRA_DRAW, Step.OUT, Step.END_CHECK}
COMPOSITION = {
    step: Composition.ORDERED if step in ORDERED_STEPS else Composition.EXCLUSIVE for step in Step
}
"""How each step composes its contributions."""


@dataclass(frozen=True)
class RuleProblem:
    """A problem of the rules as a whole: the options it involves, a code, a message, a hint."""

    options: tuple[str, ...]
    code: str
    message: str
    hint: str = ""
    severity: str = "error"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


Problems = Callable[[RulesView, int], Iterator[RuleProblem]]
Warnings = Callable[[RulesView], Iterator[RuleProblem]]
Plays = Callable[[Any], Mapping[Step, Any]]


def _none(*_: Any) -> Iterator[RuleProblem]:
    return iter(())


def _no_steps(value: Any) -> Mapping[Step, Any]:
    return {}


@dataclass(frozen=True)
class Unit:
    """One rule: its option, where it acts, how coverage counts it, and its checks.

    `place` is where a built-in rule comes in their fixed order (that of section 3 of docs/rules.md,
    in which play filters apply and the rule sheet reads: a new rule takes a number between
    those of its neighbours); other packages' rules come after them, by name.
    `fires` says when the rule counts as having fired in a hand (empty: it is not counted);
    `ends` the reason a hand ends with, at each step of ENDING_STEPS where it acts;
    `problems(rules, players)` yields the errors of the rules at one player count that this
    rule owns, `warnings(rules)` its warnings. `plays(value)` gives, for one of its values,
    the step functions it contributes (see rulesdsl.play.engine.steps); a value that keeps the
    default order of a trick contributes none. `counts(value)` states what the rule does to
    the counts of a hand at the steps it decides (`rulesdsl.model.units.counting`): a step it
    decides and states nothing for is unknown to the analysis. `acts` says when the rule
    acts: the situation in which its values differ, as the analysis reads it
    (`rulesdsl.model.units.acting`); a unit without one is judged by its own `fires`. A value
    whose step functions filter the cards a player may play (`refuses`) has a sentence a
    refusal says, under `refusals.NAME` in `phrases/<lang>.yaml` by its value word: {led}
    is the led suit, {led_one} one card of it, {trump} the trump suit, {best} the best card
    so far. A unit of another package brings its sentences itself, per language: `phrases`
    its rule-sheet sentences, keyed as under its option in the phrase files, `refusals` its
    refusal sentences by value word (a built-in's are in those files); a language it lacks
    is told in English.
    """

    name: str
    kind: OptionKind
    default_text: str
    description: str
    section: Section
    steps: frozenset[Step]
    place: int = 0
    fires: str = ""
    ends: Mapping[Step, EndReason] = field(default_factory=dict)
    problems: Problems = _none
    warnings: Warnings = _none
    plays: Plays = _no_steps
    counts: Plays = _no_steps
    acts: Acts | None = None
    refusals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    phrases: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    default: Any = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "default", self.kind.parse(self.default_text))

    @property
    def between_hands(self) -> bool:
        """Whether the rule acts only between hands, so it cannot change a deal's play."""
        return self.steps <= BETWEEN_HANDS

    def refuses(self, value: Any) -> bool:
        """Whether the rule, at `value`, filters the cards a player may play."""
        return bool(PLAY_FILTERS & set(self.plays(value)))

    @property
    def counted(self) -> bool:
        """Whether rule coverage counts the hands where this rule fires."""
        return bool(self.fires)

    def parse(self, text: Any) -> Any:
        """Read a value from text; anything it cannot read is an OptionError."""
        if isinstance(text, bool):
            text = "yes" if text else "no"
        text = str(text)
        if len(text) > MAX_VALUE:
            raise OptionError(
                f"the value is {len(text):,} characters; a value is {MAX_VALUE} at most"
            )
        return self._read(text)

    def _read(self, text: str) -> Any:
        """Read a value from text of any length (the text a value writes may be longer than
        the text it was read from: `players*2` writes `players * 2`)."""
        if "\n" in text or "\r" in text:
            raise OptionError("a value is one line", "write it on one line")
        try:
            return self.kind.parse(text)
        except OptionError:
            raise
        except ValueError:  # int() of a digit it does not read, such as '²'
            raise OptionError(
                f"'{text.strip()}' is not allowed; expected {self.kind.expected}"
            ) from None

    def text(self, value: Any) -> str:
        return self.kind.text(value)

    def check(self, value: Any) -> None:
        """Raise OptionError unless `value` is one the kind could have read: its text reads
        back to the very same value, of the very same types."""
        try:
            back = self._read(self.text(value))
        except Exception:  # any object at all may arrive here; what it raises is no matter
            back = _UNREADABLE
        if not same_value(back, value):
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise OptionError(
                f"{self.name}: {shown} ({type(value).__name__}) is not a value of this option; "
                f"expected {self.kind.expected}",
                "build Rules from text with Rules().with_options({...})",
            )


_UNREADABLE = object()


def same_value(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (so `1` is not `True`, nor `"1"`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a):
        return all(same_value(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a == b
