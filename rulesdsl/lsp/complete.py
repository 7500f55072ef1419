"""What to offer where the cursor is: option names, their values, shipped profile names.

The context is read from the line before the cursor, so completion works while the text
does not parse. Profile-stated rules (house rules) add their keywords here once profiles
can state rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rulesdsl.profile import shipped_names
from rulesdsl.rules import OPTIONS, option_values
from rulesdsl.syntax.document import METADATA
from rulesdsl.syntax.yamlform import ENTRY_KEYS

NAME = r"[A-Za-z_][A-Za-z0-9_\-]*"
ASSUMED = "assumed"


class Kind(Enum):
    """What a candidate is; the server maps each to the protocol's completion kinds."""

    OPTION = "option"
    METADATA = "metadata"
    KEYWORD = "keyword"
    VALUE = "value"
    PROFILE = "profile"


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: Kind
    detail: str
    insert: str


def candidates(syntax: str, lines: list[str], line: int, column: int) -> list[Candidate]:
    """What may be written at 0-based `line`, `column` (code points) of the text."""
    text = lines[line] if line < len(lines) else ""
    before = text[:column]
    if syntax == "dsl":
        return _dsl(before)
    return _yaml(before, lines[:line])


def _dsl(before: str) -> list[Candidate]:
    if re.match(r'^\s*profile\b.*\bextends\s+"?[\w\-]*$', before):
        return _profiles(add_quotes='"' not in before.split("extends")[-1])
    if re.match(rf"^\s*({ASSUMED}\s+)?({NAME})?$", before):
        names = _names(" ")
        if not re.match(rf"^\s*{ASSUMED}\s", before):
            names.append(
                Candidate(ASSUMED, Kind.KEYWORD, "the source does not state it", ASSUMED + " ")
            )
        return names
    stated = re.match(rf'^\s*(?:{ASSUMED}\s+)?({NAME})\s+[^"#]*$', before)
    return _values(stated.group(1)) if stated else []


def _yaml(before: str, above: list[str]) -> list[Candidate]:
    if re.match(rf"^({NAME})?$", before):
        return _names(": ")
    if re.match(r"""^extends:\s*["']?[\w\-]*$""", before):
        return _profiles(add_quotes=False)
    stated = re.match(rf"^({NAME}):\s+[^#]*$", before)
    if stated:
        return _values(stated.group(1))
    if re.match(rf"^\s+({NAME})?$", before):
        return [
            Candidate(k, Kind.KEYWORD, "part of an option's value", f"{k}: ") for k in ENTRY_KEYS
        ]
    if re.match(r"^\s+value:\s+[^#]*$", before):
        keys = [m.group(1) for m in (re.match(rf"^({NAME}):", t) for t in above) if m]
        return _values(keys[-1]) if keys else []
    return []


def _names(separator: str) -> list[Candidate]:
    """Each option and metadata key, inserted with the separator before its value."""
    found = [
        Candidate(name, Kind.OPTION, opt.description, name + separator)
        for name, opt in OPTIONS.items()
    ]
    found += [
        Candidate(key, Kind.METADATA, "about the profile", key + separator) for key in METADATA
    ]
    return found


def _values(name: str) -> list[Candidate]:
    option = OPTIONS.get(name)
    if option is None:
        return []
    detail = option_values(option)
    return [Candidate(word, Kind.VALUE, detail, word) for word in option.kind.words()]


def _profiles(add_quotes: bool) -> list[Candidate]:
    return [
        Candidate(name, Kind.PROFILE, "a shipped profile", f'"{name}"' if add_quotes else name)
        for name in shipped_names()
    ]
