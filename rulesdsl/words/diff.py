"""Two resolved profiles compared option by option: each value in words, with its origin."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.language.settings import RuleSetting
from rulesdsl.read.profile import Profile, Setting
from rulesdsl.words.explain import WIDTH, house_sentence, note_mark, phrases, sentence, wrap


@dataclass(frozen=True)
class DiffSide:
    """One profile's value of an option: its text, its sentence and where it came from."""

    value: str
    sentence: str
    origin: str
    assumed: bool
    note: str | None
    note_from: str | None
    where: str

    @classmethod
    def of(cls, setting: Setting) -> DiffSide:
        return cls(
            setting.text,
            sentence(setting.name, setting.value),
            setting.origin,
            setting.assumed,
            setting.note,
            setting.note_from,
            setting.where(),
        )

    @property
    def status(self) -> str:
        """`assumed`, `default` (from the registry) or `stated`."""
        if self.assumed:
            return "assumed"
        return "default" if self.origin == "default" else "stated"

    @property
    def provenance(self) -> str:
        """e.g. `stated, set in house.rules:4` or `assumed, inherited from bicycle (...)`."""
        return self.status if self.origin == "default" else f"{self.status}, {self.where}"


@dataclass(frozen=True)
class Difference:
    """An option the two profiles set to different values."""

    option: str
    a: DiffSide
    b: DiffSide

    def to_dict(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "a": dataclasses.asdict(self.a),
            "b": dataclasses.asdict(self.b),
        }


def diff_profiles(a: Profile, b: Profile) -> list[Difference]:
    """The options whose values differ, in registry order."""
    return [
        Difference(name, DiffSide.of(a.settings[name]), DiffSide.of(b.settings[name]))
        for name in OPTIONS
        if a.settings[name].value != b.settings[name].value
    ]


@dataclass(frozen=True)
class RuleSide:
    """One profile's version of a rule it states: its clauses, its sentence, where it was
    stated."""

    clauses: dict[str, str]
    sentence: str
    origin: str
    where: str

    @classmethod
    def of(cls, setting: RuleSetting, deck: tuple[int, ...]) -> RuleSide:
        """The side of a rule a profile of this `deck` (its rank order) states."""
        rule = setting.rule
        sentence = house_sentence(rule, phrases(), deck)
        return cls(dict(rule.clauses), sentence, setting.origin, setting.where())


class OptionChange(StrEnum):
    """How a rule of B differs from A's."""

    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@dataclass(frozen=True)
class RuleDifference:
    """A rule one profile states and the other does not (a side is None), or states
    otherwise."""

    rule: str
    a: RuleSide | None
    b: RuleSide | None

    @property
    def change(self) -> OptionChange:
        if self.a is None:
            return OptionChange.ADDED
        return OptionChange.REMOVED if self.b is None else OptionChange.CHANGED

    def to_dict(self) -> dict[str, Any]:
        side = lambda s: None if s is None else dataclasses.asdict(s)  # noqa: E731
        change = self.change.value
        return {"rule": self.rule, "change": change, "a": side(self.a), "b": side(self.b)}


def diff_rules(a: Profile, b: Profile) -> list[RuleDifference]:
    """The rules the profiles state differently, by name: A's order, then B's new ones."""
    first = {s.name: s for s in a.house}
    second = {s.name: s for s in b.house}
    names = [*first, *(n for n in second if n not in first)]
    return [
        RuleDifference(
            name,
            RuleSide.of(first[name], a.settings["deck"].value) if name in first else None,
            RuleSide.of(second[name], b.settings["deck"].value) if name in second else None,
        )
        for name in names
        if name not in first or name not in second or first[name].rule != second[name].rule
    ]


def render_text(
    differences: list[Difference],
    a: str,
    b: str,
    width: int = WIDTH,
    rules: list[RuleDifference] | None = None,
) -> str:
    """The differences for people; `a` and `b` name the two profiles."""
    rules = rules or []
    if not differences and not rules:
        return f"{a} and {b} set every option the same way.\n"
    lines = [f"{a} and {b} differ in {len(differences)} of {len(OPTIONS)} options."]
    if rules:
        lines[0] = lines[0][:-1] + f" and in {len(rules)} rule(s) they state."
    for difference in differences:
        lines += ["", difference.option]
        lines += _side(a, difference.a, width) + _side(b, difference.b, width)
    for rule in rules:
        lines += ["", f"rule {rule.rule} ({rule.change})"]
        lines += _rule_side(a, rule.a, width) + _rule_side(b, rule.b, width)
    return "\n".join(lines) + "\n"


def _rule_side(label: str, side: RuleSide | None, width: int) -> list[str]:
    if side is None:
        return wrap(f"{label}: does not state it", width, "  ", "    ")
    lines = wrap(f"{label}: {side.where}", width, "  ", "    ")
    for word, text in side.clauses.items():
        lines += wrap(f"{word} {text}", width, "    ", "        ")
    return lines + wrap(side.sentence, width, "    ", "    ")


def _side(label: str, side: DiffSide, width: int) -> list[str]:
    lines = wrap(f"{label}: {side.value} ({side.provenance})", width, "  ", "    ")
    lines += wrap(side.sentence, width, "    ", "    ")
    if side.note:
        lines += wrap(note_mark(phrases(), side.note, side.note_from), width, "    ", "    ")
    return lines


def render_json(differences: list[Difference], rules: list[RuleDifference] | None = None) -> str:
    """The differences as a JSON list of {option, a, b}, then of {rule, change, a, b}."""
    items = [d.to_dict() for d in differences] + [r.to_dict() for r in rules or []]
    return json.dumps(items, indent=2, ensure_ascii=False)
