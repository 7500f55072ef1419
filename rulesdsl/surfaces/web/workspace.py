"""The workspace folder: the profiles the page lists, opens and saves, and nothing else.

A name is one plain file name of a profile (`house.rules`, `mine.yaml`): no folders, no
dots in front, no links. Every path is checked again once resolved, and files are opened
without following links, so nothing outside the folder is ever read or written. A save
names the version it replaces (the digest of the text the page loaded): a file another
tab saved since is never written over.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.read.outputs import OutputError, write_text
from rulesdsl.read.profile import SYNTAXES
from rulesdsl.read.sources import SourceError, read_bytes
from rulesdsl.surfaces.web.errors import ApiError, bad, not_found

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SUFFIXES = ", ".join(SYNTAXES)
WORKSPACE_PROFILE = "a profile here"
CLOSING = 5.0
"""How long (seconds) closing waits for a save under way (a write, then fsync, of 64 KiB)."""


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_name(name: str) -> str:
    """The name if it is a plain profile file name, else a 400 that says what a name is."""
    suffix = os.path.splitext(name)[1]
    if NAME.fullmatch(name) is None or suffix not in SYNTAXES:
        raise bad(
            f"`{name[:80]}` is not a workspace file name: a name is 1 to 64 letters, digits, "
            f"dots, dashes or underscores, not starting with a dot or a dash, and ends in "
            f"{SUFFIXES} (no folders)"
        )
    return name


def syntax_of(name: str) -> str:
    return SYNTAXES[os.path.splitext(name)[1]]


@dataclass(frozen=True)
class WorkspaceFile:
    """A profile file of the workspace."""

    name: str
    syntax: str
    bytes: int
    version: str


class Workspace:
    """The profile files of one folder, read and written by name only."""

    def __init__(self, root: Path, profile_bytes: int) -> None:
        self.root = root.resolve()
        self.profile_bytes = profile_bytes
        self._saving = threading.Lock()
        self._closed = False

    def close(self, wait: float = CLOSING) -> None:
        """Let a save under way finish (waiting up to `wait` seconds), and refuse any after:
        what a save wrote is whole on disk before the server exits."""
        finished = self._saving.acquire(timeout=wait)
        self._closed = True
        if finished:
            self._saving.release()

    def path(self, name: str) -> Path:
        """The file a name stands for: checked, not a link, and inside the folder."""
        path = self.root / check_name(name)
        if path.is_symlink():
            raise bad(f"{name} is a symbolic link; the workspace reads and writes only its files")
        if path.resolve().parent != self.root:
            raise bad(f"{name} is not in the workspace folder")
        return path

    def files(self) -> list[WorkspaceFile]:
        """Every profile file in the folder (links and other kinds of file left out)."""
        found = []
        for path in sorted(self.root.iterdir()):
            name = path.name
            if NAME.fullmatch(name) is None or path.suffix not in SYNTAXES:
                continue
            data = self._bytes(path, listing=True)
            if data is not None:
                found.append(WorkspaceFile(name, syntax_of(name), len(data), version_of(data)))
        return found

    def read(self, name: str) -> tuple[str, str]:
        """The file's text and version."""
        data = self._bytes(self.path(name))
        if data is None:
            raise not_found(f"the workspace has no file named {name}")
        try:
            return data.decode("utf-8"), version_of(data)
        except UnicodeDecodeError as error:
            raise bad(f"{name} is not UTF-8 text (byte {error.start + 1})") from None

    def current(self, name: str) -> str | None:
        """The version of the file as it is now; None when there is none."""
        data = self._bytes(self.path(name))
        return None if data is None else version_of(data)

    def save(self, name: str, text: str, version: str | None) -> str:
        """Write the text whole in place of the version the page loaded (None: a new
        file); 409 with the version there when another save came between."""
        data = text.encode("utf-8")
        if len(data) > self.profile_bytes:
            raise ApiError(413, f"the profile is over {self.profile_bytes:,} bytes")
        path = self.path(name)
        with self._saving:
            if self._closed:
                raise ApiError(503, f"the server is stopping; {name} was not written")
            current = self.current(name)
            if current != version:
                said = "was saved from elsewhere" if current else "was deleted"
                if version is None:
                    said = "already exists"
                raise ApiError(
                    409, f"{name} {said} since it was loaded; nothing was written", version=current
                )
            try:
                write_text(path, text)
            except OutputError as error:
                raise ApiError(500, f"{name} could not be saved: {error}") from None
        return version_of(data)

    def _bytes(self, path: Path, listing: bool = False) -> bytes | None:
        """The file's bytes, read as every user file is (`rulesdsl.read.sources`) and without
        following a link; None where there is no file (or, `listing`, anything that cannot
        be listed: not a regular file, too large)."""
        try:
            return read_bytes(path, self.profile_bytes, WORKSPACE_PROFILE, follow=False)
        except SourceError as error:
            if listing or error.code == "missing":
                return None
            status = 413 if error.code == "too-large" else 400
            raise ApiError(status, f"{path.name} cannot be read: {error.message}") from None
