"""Read a text file the user named, safely: a regular file of bounded size, in UTF-8.

Profiles, their `extends` parents, `--decks` files and the web workspace's files all come
through `read_bytes`. It looks at the file before reading it (a FIFO, a device or a folder
is refused by name and never opened for reading; a path through a cycle of symbolic links
is refused naming the link; a file over the limit is refused from its size, said as people
say sizes), then reads at most one byte past the limit (a file may grow meanwhile);
`decode` reads UTF-8 with the line and column of a bad byte, names a UTF-16 or UTF-32
file as such, and drops one byte-order mark.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from rulesdsl.model.text import TOP, Pos

MAX_BYTES = 1_000_000
BOM = "\ufeff"
# What a file is to the one reading it, by default: said in the size limit's message.
PROFILE = "a profile"
# The byte-order marks of the encodings a text file is often saved in instead of UTF-8
# (UTF-32 first: its little-endian mark starts with UTF-16's).
FOREIGN_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
UNITS = ("bytes", "KB", "MB", "GB", "TB", "PB")
# What a file that is not a regular one is, by the test that recognises it.
KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
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


def human_size(size: int) -> str:
    """A size as people say it, in units of 1000: `512 bytes`, `1 MB`, `1.5 KB`, `8.6 GB`."""
    value, unit = float(size), 0
    while round(value) >= 1000 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    if unit == 0:
        return f"{size:,} byte" + ("" if size == 1 else "s")
    shown = f"{value:.1f}".removesuffix(".0") if value < 9.95 else f"{value:,.0f}"
    return f"{shown} {UNITS[unit]}"


def sizes(size: int, limit: int) -> tuple[str, str]:
    """A size and its limit as people say them, in bytes where rounding makes them look
    alike (`1,000,001 bytes` is over `1,000,000 bytes`; `1 MB` is not over `1 MB`)."""
    shown, most = human_size(size), human_size(limit)
    if shown == most:
        return f"{size:,} bytes", f"{limit:,} bytes"
    return shown, most


def check_size(size: int, limit: int, what: str = PROFILE) -> None:
    """Refuse a file of `size` bytes when `what` (a profile, a deck file) may be `limit`."""
    if size > limit:
        shown, most = sizes(size, limit)
        raise SourceError(
            "too-large",
            f"the file is {shown}; {what} is {most} at most",
            "check that this is the file you meant",
        )


def looping_link(path: Path) -> Path | None:
    """The first part of `path` that is a symbolic link leading round in a cycle (to itself,
    through other links), or None: the system then says only "too many levels of links"."""
    parts = path.parts
    for end in range(1, len(parts) + 1):
        try:
            os.stat(Path(*parts[:end]))
        except OSError as error:
            if error.errno == errno.ELOOP:
                return Path(*parts[:end])
            return None
        except ValueError:  # a NUL in the name: nothing is there
            return None
    return None


def cycle_message(link: Path) -> str:
    """What a path through `link` runs into, in the user's terms."""
    return f"{short_path(str(link))} is a symbolic link that leads round in a cycle of links"


CYCLE_HINT = "point the link at a real folder or file"


def _unreadable(path: Path, error: OSError) -> SourceError:
    if error.errno == errno.ELOOP:
        link = looping_link(path) or path
        return SourceError("link-cycle", cycle_message(link), CYCLE_HINT)
    if error.errno == errno.ENOENT:
        return SourceError("missing", "there is no such file")
    return SourceError("unreadable", f"cannot read the file: {error.strerror}")


def read_bytes(
    path: Path, limit: int = MAX_BYTES, what: str = PROFILE, follow: bool = True
) -> bytes:
    """At most `limit` bytes of a regular file (which is `what` to the reader: a profile, a
    deck file); anything else raises SourceError. `follow=False` refuses a symbolic link."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        _check_mode((os.stat if follow else os.lstat)(path).st_mode)
        # O_NONBLOCK: should the path turn into a FIFO after the check, opening it cannot hang.
        fd = os.open(path, flags if follow else flags | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise _unreadable(path, error) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        _check_mode(info.st_mode)
        check_size(info.st_size, limit, what)
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise _unreadable(path, error) from None
    check_size(len(data), limit, what)
    return data


def _byte_pos(data: bytes, offset: int) -> tuple[Pos, str]:
    """The line and column (in characters) of a byte offset, and that line, made readable."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    line = data[start : end if end >= 0 else len(data)]
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return Pos(data.count(b"\n", 0, offset) + 1, column), line.decode("utf-8", "replace")


def _foreign_encoding(data: bytes) -> None:
    """Refuse a file that says (by its byte-order mark) it is in another encoding."""
    for mark, name in FOREIGN_MARKS:
        if data.startswith(mark):
            raise SourceError(
                "encoding",
                f"this file is {name} text (it starts with {name}'s byte-order mark), not UTF-8",
                "save the file as UTF-8",
            )


def decode(data: bytes) -> str:
    """UTF-8 text without its byte-order mark; NUL bytes and bad bytes raise SourceError."""
    _foreign_encoding(data)
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


PLAIN = TextForm()
"""The layout of a file with no mark of its own: UTF-8 text with plain line ends."""


def short_path(path: str | None) -> str:
    """The path relative to the working folder when it lies inside it."""
    if path is None:
        return "-"
    try:
        full = Path(path).resolve()
    except (OSError, RuntimeError):  # links in a cycle: the path as it is
        full = Path(path).absolute()
    try:
        return str(full.relative_to(Path.cwd()))
    except (ValueError, OSError):
        return path


def read_text(path: Path, limit: int = MAX_BYTES, what: str = PROFILE) -> str:
    """The text of a regular file of at most `limit` bytes, in UTF-8; else SourceError."""
    return decode(read_bytes(path, limit, what))
