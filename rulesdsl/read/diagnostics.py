"""One Diagnostic type for both syntaxes: where, what code, what is wrong, how to fix it."""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.hints import Suggestion
from rulesdsl.model.text import ELLIPSIS, SHOWN, Pos, safe_text, shorten


@dataclass(frozen=True)
class Diagnostic:
    """A problem at `path:line:col` (1-based); `length` is how many columns the caret spans.

    `replacement` is the fix a did-you-mean hint suggests: the text to put in the span
    (inside its quotes, where the span is a quoted string)."""

    path: str
    line: int
    column: int
    code: str
    message: str
    hint: str = ""
    severity: str = "error"
    source_line: str = ""
    length: int = 1
    replacement: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def text(self) -> str:
        """`path:line:col: error[code]: message`, the source line, a caret, and a hint."""
        lines = [f"{safe_text(self.where())}: {self.severity}[{self.code}]: {self.shown_message}"]
        if self.source_line.strip():
            shown, column, width = excerpt(self.source_line, self.column, self.length)
            gutter = f"{self.line:>4} | "
            lines.append(gutter + shown)
            lines.append(" " * (len(gutter) + column - 1) + "^" * width)
        if self.hint:
            lines.append(f"  = hint: {self.shown_hint}")
        return "\n".join(lines)

    @property
    def shown_message(self) -> str:
        """The message as printed: at most a line's worth, escaped."""
        return safe_text(shorten(self.message, SAID))

    @property
    def shown_hint(self) -> str:
        return safe_text(shorten(self.hint, SAID))

    def github(self) -> str:
        """A GitHub Actions workflow command that annotates the line."""
        level = "error" if self.is_error else "warning"
        message = self.shown_message + (f" ({self.shown_hint})" if self.hint else "")
        properties = {
            "file": self.path,
            "line": self.line,
            "col": self.column,
            "title": self.code,
        }
        listed = ",".join(f"{k}={github_property(str(v))}" for k, v in properties.items())
        return f"::{level} {listed}::{github_data(message)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": shorten(self.message, SAID),
            "hint": shorten(self.hint, SAID),
        }


def render(diagnostics: Iterable[Diagnostic], form: str) -> str:
    """All diagnostics in one output format: text, json or github."""
    items = list(diagnostics)
    if form == "json":
        return json.dumps([d.to_dict() for d in items], indent=2)
    if form == "github":
        return "\n".join(d.github() for d in items)
    return "\n\n".join(d.text() for d in items)


class LineIndex:
    """Where each line of a text starts: offsets to positions and line numbers to lines,
    each in logarithmic time. Lines end at `\n` (a `\r` before it is not shown)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(m.end() for m in _NEWLINE.finditer(text))]

    def pos(self, offset: int) -> Pos:
        """The line and column (1-based) of an offset into the text."""
        line = bisect.bisect_right(self.starts, offset)
        return Pos(line, offset - self.starts[line - 1] + 1)

    def line(self, number: int) -> str:
        """The text of line `number` (1-based), without its line end; "" past the end."""
        if not 0 < number <= len(self.starts):
            return ""
        start = self.starts[number - 1]
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return self.text[start:end].removesuffix("\r")


_NEWLINE = re.compile("\n")

QUOTES = "\"'"


def fix_columns(pos: Pos, line_text: str) -> tuple[int, int]:
    """The columns (0-based, end excluded) a did-you-mean's fix replaces on its line: the
    span kept within the line, inside its quotes where the span is a quoted string."""
    start = min(pos.column - 1, len(line_text))
    end = max(start, min(pos.column - 1 + pos.length, len(line_text)))
    shown = line_text[start:end]
    if len(shown) >= 2 and shown[0] in QUOTES and shown[-1] == shown[0]:
        return start + 1, end - 1
    return start, end


def with_fix(text: str, pos: Pos, fix: str) -> str | None:
    """The text with `fix` written in place of the span at `pos`, as an editor's one-click
    fix writes it; None when the position is past the text's lines."""
    lines = text.split("\n")
    if not 0 < pos.line <= len(lines):
        return None
    line = lines[pos.line - 1]
    start, end = fix_columns(pos, line.removesuffix("\r"))
    lines[pos.line - 1] = line[:start] + fix + line[end:]
    return "\n".join(lines)


@functools.lru_cache(maxsize=8)
def line_index(text: str) -> LineIndex:
    """The LineIndex of `text`, built once however many diagnostics point into it."""
    return LineIndex(text)


def offset_pos(text: str | bytes, offset: int) -> Pos:
    """The line and column (1-based) of an offset into `text`: for a single position; many
    positions in one text go through `line_index`."""
    newline = "\n" if isinstance(text, str) else b"\n"
    line_start = text.rfind(newline, 0, offset) + 1
    return Pos(text.count(newline, 0, offset) + 1, offset - line_start + 1)


class Located:
    """Makes diagnostics for one source text: fills in the path and the source line."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    def at(
        self,
        pos: Pos,
        code: str,
        message: str,
        hint: str = "",
        severity: str = "error",
        replacement: str = "",
    ) -> Diagnostic:
        source = line_index(self.text).line(pos.line) if self.text else ""
        length = max(1, pos.length)
        if not replacement and isinstance(hint, Suggestion):
            replacement = hint.fix
        return Diagnostic(
            self.path,
            pos.line,
            pos.column,
            code,
            message,
            hint,
            severity,
            source,
            length,
            replacement,
        )


# Control characters (C0, DEL, C1), the line and paragraph separators, and the
# bidirectional controls that can make text read differently from what it holds.
MAX_PROBLEMS = 200  # diagnostics reported for one file
SAID = 500  # characters of a message or a hint shown


def excerpt(line: str, column: int, length: int = 1, limit: int = SHOWN) -> tuple[str, int, int]:
    """At most `limit` characters of a source line around `column`, made safe to print, with
    the column and width of the caret in what is shown."""
    line = line.rstrip("\n").expandtabs(1)
    at = min(max(column - 1, 0), len(line))
    start = max(0, min(at - limit // 2, len(line) - limit))
    end = min(len(line), start + limit)
    stop = min(at + max(length, 1), end)
    before = (ELLIPSIS if start else "") + safe_text(line[start:at])
    culprit = safe_text(line[at:stop])
    shown = before + culprit + safe_text(line[stop:end]) + (ELLIPSIS if end < len(line) else "")
    return shown, len(before) + 1, max(1, len(culprit))


def github_data(text: str) -> str:
    """Text escaped for the message of a GitHub workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """Text escaped for a property (file=, title=) of a GitHub workflow command."""
    return github_data(safe_text(text)).replace(":", "%3A").replace(",", "%2C")


def capped(problems: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_PROBLEMS diagnostics (in the order given), and one saying how many more
    there were: a file of nothing but mistakes is still reported in a few pages."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    last = problems[MAX_PROBLEMS]
    more = len(problems) - MAX_PROBLEMS
    note = Diagnostic(
        last.path,
        last.line,
        last.column,
        "too-many-errors",
        f"{more:,} more problems are not shown",
        "mend the problems above, then validate again",
    )
    return [*problems[:MAX_PROBLEMS], note]
