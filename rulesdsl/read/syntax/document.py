"""What a profile file says, with positions: keys and raw values, still without rule knowledge."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulesdsl.model.text import Pos
from rulesdsl.model.units.base import METADATA
from rulesdsl.read.diagnostics import Diagnostic

# What a key is in either syntax (the NAME of grammar/profile.lark).
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
# Characters no option's value nor rule's clause holds (the profile language ends a value
# at them).
NOT_IN_A_VALUE = '#"{}'
# The YAML key of the rules a profile states itself (`rule NAME { ... }` blocks).
RULES_KEY = "rules"
# The word that marks a value the source does not state.
ASSUMED = "assumed"
# Text that a YAML `assumed` reads as a yes or no (in any case) rather than as a reason.
# The words `assumed` takes for a flag: YAML's booleans, YAML 1.1's among them.
ASSUMED_WORDS = {
    **dict.fromkeys(("true", "yes", "on", "y"), True),
    **dict.fromkeys(("false", "no", "off", "n"), False),
}


@dataclass(frozen=True)
class Entry:
    """One `key value` statement, as written.

    `value` is the raw text of the value (None when the statement has none); `assumed`
    marks a value the source does not state; `note` is an optional remark on it; `listed`
    marks a value written as a YAML list (its items joined by spaces).
    """

    key: str
    value: str | None
    key_pos: Pos
    value_pos: Pos
    assumed: bool = False
    note: str | None = None
    listed: bool = False


@dataclass(frozen=True)
class RuleBlock:
    """A rule the profile states itself (section 5 of docs/rules.md): its name and its clauses,
    each an Entry (`refuse card if ...`; `say en "..."` has the language as its value and
    the sentence as its note). `end_line` is the line that closes the block."""

    name: str
    name_pos: Pos
    entries: tuple[Entry, ...]
    end_line: int
    say_line: int | None = None  # the line of YAML's `say:` key, whose comments it keeps


@dataclass(frozen=True)
class Comment:
    """A comment and the line it is on; `trailing` when code precedes it on that line."""

    line: int
    text: str
    trailing: bool


@dataclass
class Document:
    path: str
    syntax: str
    source: str = ""
    name: str | None = None
    name_pos: Pos | None = None
    extends: str | None = None
    extends_pos: Pos | None = None
    entries: list[Entry] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    rules: list[RuleBlock] = field(default_factory=list)
    rules_line: int | None = None  # the line of YAML's `rules:` key, whose comments it keeps
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def meta(self, key: str) -> str | None:
        found = [e.value for e in self.entries if e.key == key]
        return found[-1] if found else None

    @property
    def options(self) -> list[Entry]:
        return [e for e in self.entries if e.key not in METADATA]

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)
