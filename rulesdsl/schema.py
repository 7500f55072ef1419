"""The JSON Schema (draft-07) of the YAML profile form, generated from the option registry."""

from __future__ import annotations

from typing import Any

from rulesdsl.house.unit import LANGUAGES, Clause
from rulesdsl.rules import OPTIONS
from rulesdsl.syntax.document import METADATA
from rulesdsl.syntax.yamlform import RULE_NAME, RULES_KEY

META_DESCRIPTIONS = {
    "profile": "the profile's name",
    "extends": "the profile this one builds on: a shipped name or a relative path",
    "title": "a one-line title",
    "source": "where these rules come from",
}


def _option(value: dict[str, Any], description: str) -> dict[str, Any]:
    detailed = {
        "type": "object",
        "properties": {
            "value": value,
            "assumed": {
                "type": ["boolean", "string"],
                "description": "the source does not state this value (a string says why)",
            },
            "note": {"type": "string", "description": "a remark on this value"},
        },
        "required": ["value"],
        "additionalProperties": False,
    }
    return {"description": description, "anyOf": [value, detailed]}


def profile_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {
        key: {"type": "string", "description": META_DESCRIPTIONS[key]}
        for key in ("profile", "extends", *METADATA)
    }
    for name, option in OPTIONS.items():
        properties[name] = _option(option.kind.schema(), option.description)
    properties[RULES_KEY] = rules_schema()
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesdsl profile",
        "description": "One version of the rules of Linger Longer.",
        "type": "object",
        "properties": properties,
        "required": ["profile"],
        "additionalProperties": False,
    }


CLAUSE_DESCRIPTIONS = {
    Clause.REFUSE: "a play filter: `lead|follow|card if CONDITION` (the cards it refuses)",
    Clause.DRAW: "the cards a drawer takes, an expression (replaces the draw option)",
    Clause.SCORE: "the hand winner's match points, an expression (replaces scoring)",
    Clause.END: "`after trick N` or `when CONDITION`: the hand ends after step 9",
    Clause.WINNER: "who wins a hand an end rule ends: a seat, or none",
}


def rules_schema() -> dict[str, Any]:
    """The `rules` mapping: each rule's name to its clauses, or to `removed`."""
    clauses: dict[str, Any] = {
        str(c): {"type": "string", "description": d} for c, d in CLAUSE_DESCRIPTIONS.items()
    }
    clauses[Clause.SAY] = {
        "type": "object",
        "description": "the sentence `explain` prints, per language",
        "properties": {lang: {"type": "string"} for lang in LANGUAGES},
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
        "propertyNames": {"pattern": "^" + RULE_NAME.pattern + "$"},
        "additionalProperties": {"anyOf": [rule, removed]},
    }
