"""The JSON Schema (draft-07) of the YAML profile form, generated from the option registry."""

from __future__ import annotations

from typing import Any

from rulesdsl.rules import OPTIONS
from rulesdsl.syntax.document import METADATA

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
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesdsl profile",
        "description": "One version of the rules of Linger Longer.",
        "type": "object",
        "properties": properties,
        "required": ["profile"],
        "additionalProperties": False,
    }
