"""Two resolved profiles compared option by option: each value in words, with its origin."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from rulesdsl.explain import WIDTH, note_mark, phrases, sentence, wrap
from rulesdsl.profile import Profile, Setting
from rulesdsl.rules import OPTIONS


@dataclass(frozen=True)
class Side:
    """One profile's value of an option: its text, its sentence and where it came from."""

    value: str
    sentence: str
    origin: str
    assumed: bool
    note: str | None
    note_from: str | None
    where: str

    @classmethod
    def of(cls, setting: Setting) -> Side:
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
    a: Side
    b: Side

    def to_dict(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "a": dataclasses.asdict(self.a),
            "b": dataclasses.asdict(self.b),
        }


def diff_profiles(a: Profile, b: Profile) -> list[Difference]:
    """The options whose values differ, in registry order."""
    return [
        Difference(name, Side.of(a.settings[name]), Side.of(b.settings[name]))
        for name in OPTIONS
        if a.settings[name].value != b.settings[name].value
    ]


def render_text(differences: list[Difference], a: str, b: str, width: int = WIDTH) -> str:
    """The differences for people; `a` and `b` name the two profiles."""
    if not differences:
        return f"{a} and {b} set every option the same way.\n"
    lines = [f"{a} and {b} differ in {len(differences)} of {len(OPTIONS)} options."]
    for difference in differences:
        lines += ["", difference.option]
        lines += _side(a, difference.a, width) + _side(b, difference.b, width)
    return "\n".join(lines) + "\n"


def _side(label: str, side: Side, width: int) -> list[str]:
    lines = wrap(f"{label}: {side.value} ({side.provenance})", width, "  ", "    ")
    lines += wrap(side.sentence, width, "    ", "    ")
    if side.note:
        lines += wrap(note_mark(phrases(), side.note, side.note_from), width, "    ", "    ")
    return lines


def render_json(differences: list[Difference]) -> str:
    """The differences as a JSON list of {option, a, b}."""
    return json.dumps([d.to_dict() for d in differences], indent=2, ensure_ascii=False)
