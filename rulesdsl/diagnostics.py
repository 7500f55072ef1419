"""One Diagnostic type for both syntaxes: where, what code, what is wrong, how to fix it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


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
        lines = [f"{self.where()}: {self.severity}[{self.code}]: {self.message}"]
        if self.source_line.strip():
            shown = self.source_line.rstrip("\n").expandtabs(1)
            gutter = f"{self.line:>4} | "
            lines.append(gutter + shown)
            width = max(1, min(self.length, len(shown) - self.column + 1))
            lines.append(" " * (len(gutter) + self.column - 1) + "^" * width)
        if self.hint:
            lines.append(f"  = hint: {self.hint}")
        return "\n".join(lines)

    def github(self) -> str:
        """A GitHub Actions workflow command that annotates the line."""
        level = "error" if self.is_error else "warning"
        message = self.message + (f" ({self.hint})" if self.hint else "")
        message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return (
            f"::{level} file={self.path},line={self.line},col={self.column},"
            f"title={self.code}::{message}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def render(diagnostics: Iterable[Diagnostic], form: str) -> str:
    """All diagnostics in one output format: text, json or github."""
    items = list(diagnostics)
    if form == "json":
        return json.dumps([d.to_dict() for d in items], indent=2)
    if form == "github":
        return "\n".join(d.github() for d in items)
    return "\n\n".join(d.text() for d in items)


@dataclass(frozen=True)
class Pos:
    """A place in a source text: 1-based line and column, and how many columns it spans."""

    line: int
    column: int
    length: int = 1


TOP = Pos(1, 1)


def offset_pos(text: str | bytes, offset: int) -> Pos:
    """The line and column (1-based) of an offset into `text`."""
    newline = "\n" if isinstance(text, str) else b"\n"
    line_start = text.rfind(newline, 0, offset) + 1
    return Pos(text.count(newline, 0, offset) + 1, offset - line_start + 1)


class Located:
    """Makes diagnostics for one source text: fills in the path and the source line."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def at(
        self,
        pos: Pos,
        code: str,
        message: str,
        hint: str = "",
        severity: str = "error",
        replacement: str = "",
    ) -> Diagnostic:
        line = pos.line
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        length = max(1, pos.length)
        return Diagnostic(
            self.path, line, pos.column, code, message, hint, severity, source, length, replacement
        )
