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

from rulesdsl.model.language.rule import Clause, Target
from rulesdsl.model.language.vocab import (
    AGGREGATE_TYPES,
    ATTRIBUTES,
    ELEMENTS,
    NAMES,
    Aggregate,
    Type,
)
from rulesdsl.model.rules import OPTIONS, option_values
from rulesdsl.model.units.base import METADATA
from rulesdsl.read.language.checker import begins
from rulesdsl.read.profile import shipped_names
from rulesdsl.read.syntax.document import RULES_KEY
from rulesdsl.read.syntax.yamlform import ENTRY_KEYS
from rulesdsl.surfaces.lsp.slots import QUOTES, ClauseSlot, Need, clause_slot, path_type

NAME = r"[A-Za-z_][A-Za-z0-9_\-]*"
ASSUMED = "assumed"
# How far a rule's clauses are indented in YAML (as the writer indents them).
YAML_CLAUSE_INDENT = 4


class CandidateKind(Enum):
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
    kind: CandidateKind
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
    """In a rule: its clause words at the start of a line; after a clause word, what may
    be written there (`slots`): after `refuse`, the plays it decides on; in an expression,
    the names, attributes, aggregates and letters that have a value at the clause's place,
    of a type that can stand there where that is known, or the words that may follow."""
    if re.fullmatch(f"({NAME})?", before):
        return _clauses(separator)
    said = re.match(rf"^({NAME}){separator}\s", before)
    if said is None or said.group(1) not in set(Clause) - {Clause.SAY, Clause.REMOVED}:
        return []
    typed = re.search(r"[A-Za-z_][A-Za-z0-9_.]*$", before[said.end() :])
    word = typed.group(0) if typed else ""
    rest = before[said.end() : len(before) - len(word)].lstrip().lstrip(QUOTES)
    if said.group(1) == Clause.REFUSE and not rest.strip():
        return [
            Candidate(
                str(t), CandidateKind.KEYWORD, "the plays the rule decides on", f"{t} ", len(word)
            )
            for t in Target
        ]
    slot = clause_slot(said.group(1), rest)
    if slot is None:
        return []
    return [dataclasses.replace(c, replaces=len(word)) for c in _offered(slot, word)]


def _clauses(separator: str) -> list[Candidate]:
    """The clause words; in YAML, `removed` is not a clause but a rule's whole value."""
    words = [c for c in Clause if not (separator and c == Clause.REMOVED)]
    return [
        Candidate(str(c), CandidateKind.KEYWORD, "a clause of a rule", f"{c}{separator} ")
        for c in words
    ]


def _offered(slot: ClauseSlot, word: str) -> list[Candidate]:
    if slot.need in (Need.VALUE, Need.SET):
        head, dot, _ = word.rpartition(".")
        return _following(slot, head) if dot else _fitting(slot)
    return [Candidate(w.strip(), CandidateKind.KEYWORD, detail, w) for w, detail in _words(slot)]


def _words(slot: ClauseSlot) -> list[tuple[str, str]]:
    """The words that may follow, with what each does."""
    if slot.need is Need.IN:
        return [("in ", "the set the letter ranges over follows")]
    if slot.need is Need.FILTER:
        return [
            ("where ", "only the members for which a condition holds"),
            (": ", "what the aggregate makes of each member follows"),
        ]
    if slot.need is Need.IF:
        return [("if ", "the condition on the card follows")]
    if slot.need is Need.END:
        return [("after trick ", "the trick after which the hand ends"), ("when ", "a condition")]
    if slot.need is Need.TRICK:
        return [("trick ", "the trick after which the hand ends")]
    if slot.need is Need.OPERATOR:
        words = [("and ", "both hold"), ("or ", "either holds"), ("if ", "x if c else y")]
        return words + ([("else ", "the value otherwise")] if slot.open_if else [])
    return []


def _fits(slot: ClauseSlot, kind: Type) -> bool:
    """Whether a value of the type can begin what is needed: a set where a set is (a set,
    or a value with one: `p.won`), else a value that can begin the type needed (any value
    but a set, when that is not known)."""
    if slot.need is Need.SET:
        sets = [Type.SEATS] if slot.seats_only else list(ELEMENTS)
        return any(begins(kind, wanted, slot.where) for wanted in sets)
    if slot.wanted is None:
        return kind not in ELEMENTS
    return begins(kind, slot.wanted, slot.where)


def _fitting(slot: ClauseSlot) -> list[Candidate]:
    """The names with a value at the place that fit, the letters bound there, and the
    aggregates and functions whose result fits."""
    found = [
        Candidate(n, CandidateKind.VALUE, name.description, n)
        for n, name in NAMES.items()
        if slot.where in name.where and _fits(slot, name.type)
    ]
    found += [
        Candidate(letter, CandidateKind.VALUE, f"{kind}, bound by the aggregate around it", letter)
        for letter, kind in slot.bound.items()
        if _fits(slot, kind)
    ]
    if slot.need is Need.SET:
        return found
    found += [
        Candidate(str(a), CandidateKind.KEYWORD, "an aggregate", f"{a}(")
        for a in Aggregate
        if _fits(slot, AGGREGATE_TYPES[a][1])
    ]
    if slot.wanted == Type.BOOL:
        found.append(Candidate("not", CandidateKind.KEYWORD, "it does not hold", "not "))
    return found


def _following(slot: ClauseSlot, head: str) -> list[Candidate]:
    """After `head.`: the dotted names that begin so, and the attributes of the value head
    has here (a name's, or a letter's that an aggregate around binds), that have a value
    at the place and fit."""
    names = [
        (n, name.description)
        for n, name in NAMES.items()
        if n.startswith(head + ".") and slot.where in name.where and _fits(slot, name.type)
    ]
    owner = path_type(head, slot.where, slot.bound)
    attributes = [
        (f"{head}.{a.name}", a.description)
        for a in ATTRIBUTES.values()
        if a.owner == owner and slot.where in a.where and _fits(slot, a.type)
    ]
    return [
        Candidate(path, CandidateKind.VALUE, description, path)
        for path, description in names + attributes
    ]


def _dsl(before: str) -> list[Candidate]:
    if re.match(r'^\s*profile\b.*\bextends\s+"?[\w\-]*$', before):
        return _profiles(add_quotes='"' not in before.split("extends")[-1])
    if re.match(rf"^\s*({ASSUMED}\s+)?({NAME})?$", before):
        names = _names(" ")
        if not re.match(rf"^\s*{ASSUMED}\s", before):
            names.append(
                Candidate(
                    ASSUMED, CandidateKind.KEYWORD, "the source does not state it", ASSUMED + " "
                )
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
            Candidate(k, CandidateKind.KEYWORD, "part of an option's value", f"{k}: ")
            for k in ENTRY_KEYS
        ]
    if re.match(r"^\s+value:\s+[^#]*$", before):
        keys = [m.group(1) for m in (re.match(rf"^({NAME}):", t) for t in above) if m]
        return _values(keys[-1]) if keys else []
    return []


def _names(separator: str) -> list[Candidate]:
    """Each option and metadata key, inserted with the separator before its value."""
    found = [
        Candidate(name, CandidateKind.OPTION, opt.description, name + separator)
        for name, opt in OPTIONS.items()
    ]
    found += [
        Candidate(key, CandidateKind.METADATA, "about the profile", key + separator)
        for key in METADATA
    ]
    return found


def _values(name: str) -> list[Candidate]:
    option = OPTIONS.get(name)
    if option is None:
        return []
    detail = option_values(option)
    return [Candidate(word, CandidateKind.VALUE, detail, word) for word in option.kind.words()]


def _profiles(add_quotes: bool) -> list[Candidate]:
    return [
        Candidate(
            name, CandidateKind.PROFILE, "a shipped profile", f'"{name}"' if add_quotes else name
        )
        for name in shipped_names()
    ]
