"""Places in a text, and text made safe to show: what every part of the tool that quotes a
user's text uses."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """A place in a source text: 1-based line and column, and how many columns it spans."""

    line: int
    column: int
    length: int = 1


TOP = Pos(1, 1)


UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
SHOWN = 200  # characters of a source line shown
ELLIPSIS = "…"


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """`text` fit to print on a terminal or in a log: every control character, line
    separator and bidirectional control shown as an escape (`\\x1b`, `\\u202e`)."""
    return UNSAFE.sub(_escape, text)


def safe_json(text: str) -> str:
    """JSON text with every unsafe character in its strings written as a `\\u` escape: the
    same data. (JSON writes tabs and line ends in strings as escapes already; outside
    strings they are layout, and are kept.)"""
    return UNSAFE.sub(_json_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    return char if char in "\t\n\r" else f"\\u{ord(char):04x}"


def safe_lines(text: str, limit: int | None = None) -> str:
    """Several lines of output, each made safe with `safe_text` (and shortened to `limit`
    characters, if given); the line ends are kept."""
    lines = text.split("\n")
    return "\n".join(safe_text(shorten(line, limit) if limit else line) for line in lines)


def shorten(text: str, limit: int = SHOWN) -> str:
    """`text` if it is at most `limit` characters, else its start and end around an ellipsis."""
    if len(text) <= limit:
        return text
    half = (limit - len(ELLIPSIS)) // 2
    return text[:half] + ELLIPSIS + text[len(text) - half :]
