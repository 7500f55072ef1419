"""Read a text file the user named, safely: a regular file of bounded size, in UTF-8.

Profiles, their `extends` parents and `--decks` files all come through `read_text`. It
looks at the file before reading it (a FIFO, a device or a folder is refused by name and
never opened for reading; a file over the limit is refused from its size), then reads at
most one byte past the limit (a file may grow meanwhile), decodes UTF-8 with the line and
column of a bad byte, and drops one byte-order mark.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from rulesdsl.diagnostics import TOP, Pos

MAX_BYTES = 1_000_000
BOM = "\ufeff"
# What a file that is not a regular one is, by the test that recognises it.
KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


@dataclass
class SourceError(Exception):
    """Why a file cannot be read as text: a code, a message, a hint and where (if inside)."""

    code: str
    message: str
    hint: str = ""
    pos: Pos = TOP
    line: str = ""

    def __str__(self) -> str:
        return self.message


def kind_of(mode: int) -> str:
    """What a file of this mode is, when it is not a regular file."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def _check_mode(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise SourceError("not-a-file", f"this is {kind_of(mode)}, not a file", "name a text file")


def check_size(size: int, limit: int) -> None:
    if size > limit:
        raise SourceError(
            "too-large",
            f"the file is {size:,} bytes; it may be {limit:,} bytes at most",
            "split it into smaller files",
        )


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` bytes of a regular file; anything else raises SourceError."""
    try:
        _check_mode(os.stat(path).st_mode)
        # O_NONBLOCK: should the path turn into a FIFO after the check, opening it cannot hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise SourceError("unreadable", f"cannot read the file: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        _check_mode(info.st_mode)
        check_size(info.st_size, limit)
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise SourceError("unreadable", f"cannot read the file: {error.strerror}") from None
    check_size(len(data), limit)
    return data


def _byte_pos(data: bytes, offset: int) -> tuple[Pos, str]:
    """The line and column (in characters) of a byte offset, and that line, made readable."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    line = data[start : end if end >= 0 else len(data)]
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return Pos(data.count(b"\n", 0, offset) + 1, column), line.decode("utf-8", "replace")


def decode(data: bytes) -> str:
    """UTF-8 text without its byte-order mark; NUL bytes and bad bytes raise SourceError."""
    nul = data.find(b"\0")
    if nul >= 0:
        pos, line = _byte_pos(data, nul)
        raise SourceError(
            "binary", "a NUL byte: this is a binary file, not text", "save it as text", pos, line
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        pos, line = _byte_pos(data, error.start)
        raise SourceError(
            "encoding",
            f"byte 0x{data[error.start]:02x} is not valid UTF-8",
            "save the file as UTF-8",
            pos,
            line,
        ) from None
    return text.removeprefix(BOM)


class TextForm(NamedTuple):
    """How a file lays its text down beyond the characters: its line ending (its first
    line's) and whether it starts with a byte-order mark. A rewrite keeps both."""

    newline: str = "\n"
    bom: bool = False

    @classmethod
    def of(cls, data: bytes) -> TextForm:
        end = data.find(b"\n")
        crlf = end > 0 and data[end - 1 : end] == b"\r"
        return cls("\r\n" if crlf else "\n", data.startswith(BOM.encode()))

    def lines(self, text: str) -> str:
        """`text`, written with "\n" line endings, in this form's line endings."""
        return text if self.newline == "\n" else text.replace("\n", self.newline)

    def marked(self, text: str) -> str:
        """`text` led by this form's byte-order mark, if it has one: what a file holds."""
        return BOM + text if self.bom else text


def short_path(path: str | None) -> str:
    """The path relative to the working folder when it lies inside it."""
    if path is None:
        return "-"
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):
        return path


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes, in UTF-8; else SourceError."""
    return decode(read_bytes(path, limit))
