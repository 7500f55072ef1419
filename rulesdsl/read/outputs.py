"""Files a command writes: checked before the work starts, never one of the command's own
inputs, and replaced whole or not at all.

A regular file is written beside itself under a temporary name and renamed over the old
one, keeping its mode, so a failed write leaves the old file as it was. A device or a pipe
(`/dev/null`, `/dev/stdout`, a FIFO) is written as it stands, and `-` names standard
output where a command allows it.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

STDOUT = Path("-")


class OutputError(Exception):
    """An output that cannot, or must not, be written: one line for the user."""


def check_output(path: Path, inputs: Iterable[Path] = (), label: str = "") -> None:
    """Refuse, before any work, an output that cannot be written or that the command reads.

    `label` (an option name, e.g. `--plot`) starts the message; an input is recognised
    through symbolic and hard links."""
    if path == STDOUT:
        return
    problem = _unwritable(path) or _reads(path, inputs)
    if problem:
        raise OutputError(f"{label} {path}: {problem}".lstrip())


def _unwritable(path: Path) -> str | None:
    """Why `path` cannot be written, if it cannot."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:
        return f"cannot write here: {error.strerror}"
    if info is not None and stat.S_ISDIR(info.st_mode):
        return "this is a folder; name a file"
    if info is not None and not stat.S_ISREG(info.st_mode):
        return None
    if info is not None and not (info.st_mode & 0o222 and os.access(path, os.W_OK)):
        return "the file is read-only"
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        return f"the folder {path.parent} does not exist"
    try:
        descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".rulesdsl-")
    except OSError as error:
        return f"cannot write in the folder {path.parent}: {error.strerror}"
    os.close(descriptor)
    os.unlink(probe)
    return None


def _reads(path: Path, inputs: Iterable[Path]) -> str | None:
    """Whether `path` is one of the files the command reads (the same file, by any name)."""
    for given in inputs:
        try:
            same = os.path.samefile(path, given)
        except OSError:
            continue
        if same:
            return f"this is {given}, which the command reads; name another file"
    return None


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A file to write in place of `path`; it replaces `path` when the block ends without an
    error, and is removed when it does not. Any OSError becomes an OutputError."""
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with _as_output_error(path):
            yield path
        return
    real = Path(os.path.realpath(path))
    with _as_output_error(path):
        descriptor, name = tempfile.mkstemp(
            dir=real.parent, prefix=f".{real.stem}.", suffix=f".tmp{real.suffix}"
        )
        os.close(descriptor)
    temp = Path(name)
    try:
        with _as_output_error(path):
            yield temp
            _sync(temp)
            _keep_mode(temp, info)
            os.replace(temp, real)
    finally:
        temp.unlink(missing_ok=True)


def write_text(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` whole, or leave `path` as it was."""
    with replacing(path) as temp, open(temp, "w", encoding="utf-8", newline="") as file:
        file.write(text)


@contextmanager
def _as_output_error(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None


def _keep_mode(temp: Path, old: os.stat_result | None) -> None:
    """The new file gets the old one's mode and owner, or the mode a new file would get."""
    if old is None:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temp, 0o666 & ~mask)
        return
    os.chmod(temp, stat.S_IMODE(old.st_mode))
    if hasattr(os, "chown"):
        with suppress(OSError):  # only root may give a file away
            os.chown(temp, old.st_uid, old.st_gid)


def _sync(temp: Path) -> None:
    descriptor = os.open(temp, os.O_RDWR)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class OutputStream:
    """An output written while the work goes on (a trace). A failed write does not stop the
    work: it is kept, and `close` raises it once the results have been shown."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: OSError | None = None
        if path == STDOUT:
            self.file = sys.stdout
            return
        with _as_output_error(path):
            self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close)

    def write(self, text: str) -> int:
        if self.error is None:
            try:
                self.file.write(text)
            except OSError as error:
                self.error = error
        return len(text)

    def close(self) -> None:
        """Close the file; raise an OutputError if any write to it failed."""
        try:
            if self.path == STDOUT:
                self.file.flush()
            else:
                self.file.close()
        except OSError as error:
            self.error = self.error or error
        if self.error is not None:
            raise OutputError(f"{self.path}: cannot write: {self.error.strerror or self.error}")
