"""What the text at a position is, what to say of it, and where it was defined.

`chain` is a resolved profile followed by its ancestors, nearest first: the places an
option's value can come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rulesdsl.diagnostics import Pos
from rulesdsl.profile import Profile, Setting
from rulesdsl.rules import OPTIONS, option_values
from rulesdsl.sources import short_path
from rulesdsl.syntax.document import Document, Entry


class Part(Enum):
    KEY = "key"
    VALUE = "value"
    EXTENDS = "extends"


@dataclass(frozen=True)
class Target:
    """The statement (or the `extends` clause) under the cursor."""

    part: Part
    entry: Entry | None = None


@dataclass(frozen=True)
class Place:
    """A line (1-based) of a file."""

    path: str
    line: int


def _covers(pos: Pos | None, line: int, column: int) -> bool:
    """Whether 0-based `line`, `column` lies on `pos` (its end included)."""
    return (
        pos is not None
        and pos.line - 1 == line
        and pos.column - 1 <= column <= pos.column - 1 + pos.length
    )


def target_at(doc: Document, line: int, column: int) -> Target | None:
    if _covers(doc.extends_pos, line, column):
        return Target(Part.EXTENDS)
    for entry in doc.entries:
        if _covers(entry.key_pos, line, column):
            return Target(Part.KEY, entry)
        if _covers(entry.value_pos, line, column):
            return Target(Part.VALUE, entry)
    return None


def stated(name: str, chain: list[Profile]) -> list[Setting]:
    """Where each profile of the chain states the option, nearest first."""
    found = [p.settings.get(name) for p in chain]
    return [s for s in found if s is not None and s.origin == "set"]


def definition(target: Target, chain: list[Profile]) -> Place | None:
    """The parent's file for `extends`; for an option, where the chain above this profile
    sets the value (the one this statement overrides, or inherits)."""
    if target.part is Part.EXTENDS:
        parent = chain[1] if len(chain) > 1 else None
        return Place(parent.path, 1) if parent is not None else None
    assert target.entry is not None
    above = stated(target.entry.key, chain[1:])
    return Place(above[0].path, above[0].line) if above and above[0].path else None


def hover(target: Target, chain: list[Profile]) -> str | None:
    """Markdown: the option's meaning, values and default, and where its value comes from
    through the `extends` chain; for `extends`, the parent and its chain."""
    if target.part is Part.EXTENDS:
        return _parent(chain)
    assert target.entry is not None
    option = OPTIONS.get(target.entry.key)
    if option is None:
        return None
    lines = [
        f"**{option.name}**: {option.description}",
        "",
        f"values: {option_values(option)}  ",
        f"default: `{option.text(option.default)}`",
    ]
    places = stated(option.name, chain)
    if places:
        lines += ["", "set through the `extends` chain, nearest first:", ""]
        lines += [f"- {_setting(s)}" for s in places]
    lines += ["", _reach(option.name, chain[0])]
    return "\n".join(lines)


def _reach(name: str, profile: Profile) -> str:
    """What reach analysis says of the option in this profile: a proof that it never acts,
    or that the count model leaves it free to."""
    from rulesdsl.analysis.lint import LINT_BUDGET
    from rulesdsl.analysis.report import dead_rules

    dead = dead_rules(profile.rules, budget=LINT_BUDGET).get(name)
    if dead is not None:
        return f"reach: never comes into play with {dead.players} players: {dead.proof}"
    return (
        "reach: the count model does not rule it out; "
        f"`rulesdsl analyze {profile.name}` looks for a hand where it acts"
    )


def _setting(s: Setting) -> str:
    status = "assumed" if s.assumed else "stated"
    text = f"`{s.text}`, {status}, in {s.profile} ({short_path(s.path)}:{s.line})"
    return text + (f": {s.note}" if s.note else "")


def _parent(chain: list[Profile]) -> str | None:
    if len(chain) < 2:
        return None
    parent = chain[1]
    lines = [f"**{parent.name}**: {parent.title or '(no title)'}", ""]
    lines.append(f"file: {short_path(parent.path)}  ")
    lines.append("chain: " + " -> ".join(parent.chain))
    return "\n".join(lines)
