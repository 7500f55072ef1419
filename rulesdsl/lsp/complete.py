"""What to offer where the cursor is: option names, their values, shipped profile names,
and inside a rule the profile states, its clause words and the rule language's names.

The context is read from the line before the cursor (and, for a rule, the lines above), so
completion works while the text does not parse.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum

from rulesdsl.house.unit import Clause, Target
from rulesdsl.house.vocab import ATTRIBUTES, NAMES, Aggregate
from rulesdsl.lsp.describe import vocabulary
from rulesdsl.profile import shipped_names
from rulesdsl.rules import OPTIONS, option_values
from rulesdsl.syntax.document import METADATA, RULES_KEY
from rulesdsl.syntax.yamlform import ENTRY_KEYS

NAME = r"[A-Za-z_][A-Za-z0-9_\-]*"
ASSUMED = "assumed"
# How far a rule's clauses are indented in YAML (as the writer indents them).
YAML_CLAUSE_INDENT = 4


class Kind(Enum):
    """What a candidate is; the server maps each to the protocol's completion kinds."""

    OPTION = "option"
    METADATA = "metadata"
    KEYWORD = "keyword"
    VALUE = "value"
    PROFILE = "profile"


@dataclass(frozen=True)
class Candidate:
    """`insert` goes in place of the `replaces` characters before the cursor (a dotted name
    of the rule language is replaced whole: editors end a word at the dot)."""

    label: str
    kind: Kind
    detail: str
    insert: str
    replaces: int = 0


def candidates(syntax: str, lines: list[str], line: int, column: int) -> list[Candidate]:
    """What may be written at 0-based `line`, `column` (code points) of the text."""
    text = lines[line] if line < len(lines) else ""
    before = text[:column]
    if syntax == "dsl":
        return _in_rule(before.lstrip(), "") if _dsl_rule_open(lines[:line]) else _dsl(before)
    if _yaml_in_rules(lines[:line]) and before.startswith(" "):
        # Rules' names are indented less than their clauses, sentences more.
        clause = re.match(rf"^ {{{YAML_CLAUSE_INDENT}}}(?! )", before)
        return _in_rule(before.lstrip(), ":") if clause else []
    return _yaml(before, lines[:line])


def _dsl_rule_open(above: list[str]) -> bool:
    """Whether the lines above leave a `rule NAME {` block open."""
    inside = False
    for text in above:
        code = text.split("#", 1)[0].strip()
        if re.match(rf"^rule\s+{NAME}\s*\{{$", code):
            inside = True
        elif code == "}":
            inside = False
    return inside


def _yaml_in_rules(above: list[str]) -> bool:
    """Whether the last key at the left margin above is `rules:`."""
    keys = [m.group(1) for m in (re.match(rf"^({NAME}):", t) for t in above) if m]
    return bool(keys) and keys[-1] == RULES_KEY


def _in_rule(before: str, separator: str) -> list[Candidate]:
    """In a rule: its clause words at the start of a line, the rule language's names after
    a clause word (and, after `refuse`, which plays it decides on)."""
    if re.fullmatch(f"({NAME})?", before):
        return _clauses(separator)
    said = re.match(rf"^({NAME}){separator}\s", before)
    if said is None or said.group(1) not in set(Clause) - {Clause.SAY, Clause.REMOVED}:
        return []
    targets = [
        Candidate(str(t), Kind.KEYWORD, "the plays the rule decides on", f"{t} ")
        for t in Target
        if said.group(1) == Clause.REFUSE and re.fullmatch(rf"{NAME}{separator}\s+\w*", before)
    ]
    typed = re.search(r"[A-Za-z_][A-Za-z0-9_.]*$", before)
    return targets + _vocabulary(typed.group(0) if typed else "")


def _clauses(separator: str) -> list[Candidate]:
    """The clause words; in YAML, `removed` is not a clause but a rule's whole value."""
    words = [c for c in Clause if not (separator and c == Clause.REMOVED)]
    return [
        Candidate(str(c), Kind.KEYWORD, "a clause of a rule", f"{c}{separator} ") for c in words
    ]


def _vocabulary(typed: str) -> list[Candidate]:
    """The names, attributes and aggregates of the rule language; after `x.`, what may
    follow it: the dotted names that begin so, and the attributes of x (of any type, for a
    letter an aggregate binds)."""
    head, dot, _ = typed.rpartition(".")
    if not dot:
        found = {n: Candidate(n, Kind.VALUE, name.description, n) for n, name in NAMES.items()}
        for a in ATTRIBUTES.values():
            found.setdefault(a.name, Candidate(a.name, Kind.VALUE, a.description, a.name))
        for word in Aggregate:
            found.setdefault(word, Candidate(str(word), Kind.KEYWORD, "an aggregate", f"{word}("))
        return [dataclasses.replace(c, replaces=len(typed)) for c in found.values()]
    names = [(n, name.description) for n, name in NAMES.items() if n.startswith(head + ".")]
    owner = vocabulary(head)
    attributes = [
        (f"{head}.{a.name}", a.description)
        for a in ATTRIBUTES.values()
        if (a.owner == owner.type if owner is not None else not names)
    ]
    return [
        Candidate(path, Kind.VALUE, description, path, len(typed))
        for path, description in names + attributes
    ]


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
