"""What the kernel cache trusts of the file system: no more than the user's own files.

A folder or file is used only when it is this user's and nobody else can write it (as ssh
trusts a key file, StrictModes); a file is read only when it is a regular file, checked
with `os.lstat` before it is opened and again on the open file, so a link is never
followed and a named pipe, a device or a folder is never opened (a pipe would block the
reader for ever). Files are written whole: a private temporary file beside the target,
renamed over it, so a reader in another process sees the old file or the new one.

A refusal is said once a process, one line on stderr, naming the path with every byte and
character that is not plain printable text escaped.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import threading
from pathlib import Path

from rulesdsl.model.text import safe_text

OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH
OTHERS_ANY = stat.S_IRWXG | stat.S_IRWXO
TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"
"""A file being written is named `.<random>.tmp` until it is renamed over its target."""
PRIVATE_FOLDER = 0o700
OPEN_FLAGS = os.O_RDONLY
for _flag in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC"):  # each where the system has it
    OPEN_FLAGS |= getattr(os, _flag, 0)
KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISREG, "a regular file"),
)


class Distrusted(Exception):
    """A path the cache does not use, and why (`reason`, a phrase after the path)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{shown(path)} {reason}")
        self.reason = reason


def shown(path: str | Path) -> str:
    """`path` fit for one line of a message: bytes that are not UTF-8 as `\\xff`, control
    and bidirectional characters as escapes."""
    return safe_text(os.fsencode(path).decode("utf-8", "backslashreplace"))


_said: set[str] = set()
_said_lock = threading.Lock()


def say(message: str) -> None:
    """`message` as one line on stderr, once a process."""
    line = f"rulesdsl: {message}"
    with _said_lock:
        if line in _said:
            return
        _said.add(line)
    print(line, file=sys.stderr, flush=True)


def _said_lock_anew() -> None:
    global _said_lock
    _said_lock = threading.Lock()  # a fork may copy it held by a thread the child lacks


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_said_lock_anew)


def kind(mode: int) -> str:
    """What a file of `mode` is, in words."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def me() -> int | None:
    """This process's user (None where the system has no owners of files)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def check_file(path: Path, st: os.stat_result, private: bool = False, folder: bool = False) -> None:
    """Distrusted unless `path` is a regular file (a folder, with `folder`) of this user's
    that nobody else can write (nor, when `private`, read)."""
    test, wanted = (stat.S_ISDIR, "a folder") if folder else (stat.S_ISREG, "a regular file")
    if not test(st.st_mode):
        raise Distrusted(path, f"is {kind(st.st_mode)}, not {wanted}")
    if me() is None:  # no owners, no mode bits to read: the system's own rules hold
        return
    if st.st_uid != me():
        raise Distrusted(path, "belongs to another user")
    if st.st_mode & (OTHERS_ANY if private else OTHERS_WRITE):
        raise Distrusted(path, "can be " + ("read or " if private else "") + "written by others")


def check_above(path: Path) -> None:
    """Distrusted if a folder above `path` (a resolved path) is this user's and others may
    write it: they could put another folder in its place. A folder with the sticky bit
    (as /tmp) lets nobody rename or remove what is not theirs."""
    for parent in path.parents if me() is not None else ():
        st = os.stat(parent)
        if st.st_uid == me() and st.st_mode & OTHERS_WRITE and not st.st_mode & stat.S_ISVTX:
            raise Distrusted(parent, "can be written by others")


def read_file(path: Path, private: bool = False) -> bytes:
    """The bytes of `path`, a regular file of this user's that nobody else can write
    (Distrusted otherwise, without opening it); FileNotFoundError when there is none."""
    before = os.lstat(path)
    check_file(path, before, private)
    with os.fdopen(os.open(path, OPEN_FLAGS), "rb") as file:
        after = os.fstat(file.fileno())
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            raise Distrusted(path, "was replaced while it was opened")
        check_file(path, after, private)
        return file.read()


def removable(path: Path) -> bool:
    """Whether `path` is a regular file of this user's (the cache may remove it)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and (me() is None or st.st_uid == me())


def remove(path: Path) -> bool:
    """Remove `path` if it is a regular file of this user's; whether it is gone."""
    if not removable(path):
        return False
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    return True


def write_file(path: Path, data: bytes) -> None:
    """Write `path` whole (OSError if it cannot be): a private file beside it, renamed."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def existing(path: Path) -> Path:
    """`path`, or the nearest folder above it that exists."""
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def make_folders(path: Path) -> None:
    """Make `path` and the folders above it that are missing, each private to this user
    (OSError if one cannot be made)."""
    missing = [path, *path.parents][: len(path.parents) - len(existing(path).parents)]
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            os.mkdir(folder, PRIVATE_FOLDER)


def problem(error: OSError) -> str:
    """An OSError in a few words (its message from the system, without the path)."""
    return error.strerror or type(error).__name__
