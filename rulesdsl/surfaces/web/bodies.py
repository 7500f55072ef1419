"""Request bodies: JSON objects of bounded size, and their fields checked by type, each
refusal a 400, 413 or 415 that names the field."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from starlette.requests import Request

from rulesdsl.surfaces.web.errors import ApiError, bad

T = TypeVar("T")
JSON = "application/json"


async def json_body(request: Request, limit: int) -> dict[str, Any]:
    """The body as a JSON object: `application/json`, at most `limit` bytes (an empty
    body is an empty object)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != JSON:
        raise ApiError(415, f"the body must be {JSON}; it was sent as {kind or 'nothing'}")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise too_large(limit)
    if not data.strip():
        return {}
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise bad(f"the body is not UTF-8 (byte {error.start + 1})") from None
    except json.JSONDecodeError as error:
        raise bad(
            f"the body is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise bad("the body nests lists or objects too deep to read") from None
    except ValueError as error:  # a number of thousands of digits
        raise bad(f"the body cannot be read: {error}") from None
    if not isinstance(value, dict):
        raise bad(f"the body must be a JSON object, not {kind_of(value)}")
    return value


def too_large(limit: int) -> ApiError:
    return ApiError(413, f"the body is over {limit:,} bytes")


def kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number"}.get(
        type(value), "a number"
    )


def field(body: dict[str, Any], name: str, kind: type[T] | tuple[type, ...], default: Any = ...):
    """`body[name]` if it is of `kind` (a bool is never an int); `default` when missing
    or null, where one is given."""
    value = body.get(name)
    if value is None:
        if default is ...:
            raise bad(f"`{name}` is missing")
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise bad(f"`{name}` must be {_expected(kinds)}, not {kind_of(value)}")
    if not isinstance(value, kinds):
        raise bad(f"`{name}` must be {_expected(kinds)}, not {kind_of(value)}")
    return value


def _expected(kinds: tuple[type, ...]) -> str:
    words = {
        str: "a string",
        int: "a whole number",
        bool: "true or false",
        dict: "an object",
        list: "a list",
    }
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def bounded(body: dict[str, Any], name: str, low: int, high: int, default: Any = ...) -> Any:
    """A whole number from `low` to `high` (or the default, when it is missing)."""
    value = field(body, name, int, default)
    if body.get(name) is not None and not low <= value <= high:
        raise bad(f"`{name}` is {value}; it must be from {low:,} to {high:,}")
    return value


def profile_text(text: str, limit: int) -> str:
    """A profile's text as sent: encodable as UTF-8 (no lone surrogates), at most `limit`
    bytes once encoded."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise bad(
            f"the text holds a lone surrogate (\\u{ord(text[error.start]):04x}) at "
            f"character {error.start + 1}; it is not Unicode text"
        ) from None
    if size > limit:
        raise ApiError(413, f"the profile is over {limit:,} bytes")
    return text
