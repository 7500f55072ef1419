"""The JSON Schema (draft-07) of the YAML profile form, generated from the option registry.

It says what the YAML reader accepts, read as YAML 1.2 (as editors and schema validators
read it): text is one line without control characters, a value may be a list only where
its option's kind takes one, and `assumed` gives a reason or a `note` does, not both. What
it cannot say: a key given twice (JSON has no such thing), whether `extends` names a
profile that exists, and the checks across options (does the deal fit the deck). Of the
rules a profile states it says their shape (a name to its clauses, each one line of text
without `#`, quotes or braces, or to `removed`), not whether a clause reads and type-checks
in the rule language, nor that a rule has one kind clause.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.model.kinds import OptionKind
from rulesdsl.model.language.rule import LANGUAGES, MAX_RULES, Clause
from rulesdsl.model.rules import OPTIONS
from rulesdsl.model.units.base import HEADER, METADATA
from rulesdsl.read.syntax.chars import NOT_IN_A_LINE
from rulesdsl.read.syntax.document import ASSUMED, ASSUMED_WORDS, NAME, NOT_IN_A_VALUE, RULES_KEY

META_DESCRIPTIONS = {
    "profile": "the profile's name",
    "extends": "the profile this one builds on: a shipped name or a relative path",
    "title": "a one-line title",
    "source": "where these rules come from",
}


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "not": {"pattern": NOT_IN_A_LINE}, "description": description}


def _any_case(word: str) -> str:
    """A pattern for `word` in any case (JSON Schema patterns take no flags)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


# A text `assumed` that is not one of the words meaning true or false: a reason.
REASON = {
    "type": "string",
    "not": {"pattern": "^(" + "|".join(_any_case(w) for w in ASSUMED_WORDS) + ")$"},
}


def _ref(*path: str) -> dict[str, str]:
    return {"$ref": "#/definitions/" + "/".join(path)}


# The shapes every option's value shares, stated once under `definitions`.
SHARED = {
    ASSUMED: {
        "anyOf": [
            {"type": "boolean"},
            _text("the source does not state this value (a string says why)"),
        ]
    },
    "note": _text("a remark on this value"),
    "reason": REASON,
}


def _option(name: str, description: str) -> dict[str, Any]:
    """An option's value: the value itself, or a mapping of it with `assumed` and a `note`."""
    detailed = {
        "type": "object",
        "properties": {"value": _ref("values", name), ASSUMED: _ref(ASSUMED), "note": _ref("note")},
        "required": ["value"],
        "additionalProperties": False,
        # A reason in `assumed` is the note: the two together would lose one.
        "not": {"required": [ASSUMED, "note"], "properties": {ASSUMED: _ref("reason")}},
    }
    return {"description": description, "anyOf": [_ref("values", name), detailed]}


def _has_list(schema: Any) -> bool:
    if isinstance(schema, dict):
        return schema.get("type") == "array" or any(_has_list(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_has_list(v) for v in schema)
    return False


def takes_list(kind: OptionKind) -> bool:
    """Whether a YAML list may stand for a value of this kind (its items joined by spaces)."""
    return _has_list(kind.schema())


def profile_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {
        key: _text(META_DESCRIPTIONS[key]) for key in (*HEADER, *METADATA)
    }
    for name, option in OPTIONS.items():
        properties[name] = _option(name, option.description)
    properties[RULES_KEY] = rules_schema()
    values = {name: option.kind.schema() for name, option in OPTIONS.items()}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesdsl profile",
        "description": "One version of the rules of Linger Longer.",
        "type": "object",
        "properties": properties,
        "required": ["profile"],
        "additionalProperties": False,
        "definitions": {**SHARED, "values": values},
    }


CLAUSE_DESCRIPTIONS = {
    Clause.REFUSE: "a play filter: `lead|follow|card if CONDITION` (the cards it refuses)",
    Clause.DRAW: "the cards a drawer takes, an expression (replaces the draw option)",
    Clause.SCORE: "the hand winner's match points, an expression (replaces scoring)",
    Clause.END: "`after trick N` or `when CONDITION`: the hand ends after step 9",
    Clause.LEAD: "after the deal, who leads the first trick: a seat, or none (the options say)",
    Clause.ALSO_DRAWS: "at step 4, right after the trick winner's draw, who draws one card too:"
    " a seat still in other than the winner, or none",
    Clause.OUT: "`if CONDITION` on `player`: at step 6, each player still in it holds for is out",
    Clause.WINNER: "who wins a hand an end rule ends: a seat, or none",
}


def _clause(description: str) -> dict[str, Any]:
    """A clause: one line of the rule language (a whole number is one: `draw: 2`)."""
    line = {"type": "string", "not": {"pattern": f"[{NOT_IN_A_VALUE}]|{NOT_IN_A_LINE}"}}
    return {"description": description, "anyOf": [line, {"type": "integer"}]}


def rules_schema() -> dict[str, Any]:
    """The `rules` mapping: each rule's name to its clauses, or to `removed`."""
    clauses: dict[str, Any] = {str(c): _clause(d) for c, d in CLAUSE_DESCRIPTIONS.items()}
    clauses[Clause.SAY] = {
        "type": "object",
        "description": "the sentence `explain` prints, per language",
        "properties": {lang: _text(f"the sentence in {lang}") for lang in LANGUAGES},
        "additionalProperties": False,
    }
    rule = {
        "type": "object",
        "properties": clauses,
        "additionalProperties": False,
        "minProperties": 1,
    }
    removed = {"const": Clause.REMOVED.value, "description": "take away the rule a parent states"}
    return {
        "type": "object",
        "description": "rules the profile states itself, in the order they apply",
        "propertyNames": {"pattern": "^" + NAME.pattern + "$"},
        "maxProperties": MAX_RULES,
        "additionalProperties": {"anyOf": [rule, removed]},
    }
