"""Text edits an editor can apply to a profile: a did-you-mean's fix, marking a value assumed.

Positions are 0-based lines and columns in code points; the server converts them to the
client's units.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesdsl.model.rules import OPTIONS
from rulesdsl.model.text import Pos
from rulesdsl.read.diagnostics import Diagnostic, fix_columns
from rulesdsl.read.syntax.document import Document, Entry


@dataclass(frozen=True)
class Spot:
    """A place in a text: 0-based line and column (code points)."""

    line: int
    column: int


@dataclass(frozen=True)
class TextEdit:
    """Put `text` in place of what lies from `start` to `end`."""

    start: Spot
    end: Spot
    text: str


def span(pos: Pos, line_text: str) -> tuple[Spot, Spot]:
    """The start and end of a Pos (1-based, a length) on its line, kept within the line."""
    start = min(pos.column - 1, len(line_text))
    end = max(start, min(pos.column - 1 + pos.length, len(line_text)))
    return Spot(pos.line - 1, start), Spot(pos.line - 1, end)


def fix_edit(diagnostic: Diagnostic, lines: list[str]) -> TextEdit | None:
    """The diagnostic's suggested replacement put in its span, inside the quotes of a quoted
    span; None when it suggests none."""
    if not diagnostic.replacement or not 0 < diagnostic.line <= len(lines):
        return None
    where = Pos(diagnostic.line, diagnostic.column, diagnostic.length)
    start, end = fix_columns(where, lines[diagnostic.line - 1])
    line = diagnostic.line - 1
    return TextEdit(Spot(line, start), Spot(line, end), diagnostic.replacement)


def can_mark_assumed(entry: Entry) -> bool:
    return entry.key in OPTIONS and not entry.assumed and entry.value is not None


def assumed_edit(doc: Document, entry: Entry, lines: list[str]) -> TextEdit:
    """The edit that marks the entry's value `assumed`, in the document's syntax."""
    key = Spot(entry.key_pos.line - 1, entry.key_pos.column - 1)
    if doc.syntax == "dsl":
        return TextEdit(key, key, "assumed ")
    value_start, value_end = span(entry.value_pos, lines[entry.value_pos.line - 1])
    if entry.value_pos.line == entry.key_pos.line:
        # `key: value` becomes a mapping: `key:`, `  value: value`, `  assumed: true`.
        key_end = Spot(key.line, key.column + entry.key_pos.length)
        written = lines[key.line][value_start.column : value_end.column]
        indent = " " * (key.column + 2)
        return TextEdit(key_end, value_end, f":\n{indent}value: {written}\n{indent}assumed: true")
    # Already a mapping: add `assumed: true` under its `value:` line, indented as it is.
    value_line = lines[value_start.line]
    indent = value_line[: len(value_line) - len(value_line.lstrip())]
    below = Spot(value_start.line + 1, 0)
    return TextEdit(below, below, f"{indent}assumed: true\n")
