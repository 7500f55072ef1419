"""The documents a client names: the open ones from their buffers, any other from its file,
read only when it is a regular file under the size limit (as `sources` reads), and inside
the workspace's folders when the client gave any.

Nothing here blocks: a named pipe or a device is refused by its kind before it is opened.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path
from pygls.workspace import Workspace
from pygls.workspace.text_document import TextDocument

from rulesdsl.read.profile import inside, real_path
from rulesdsl.read.sources import SourceError, read_text

# How much of a URI a message repeats.
SHOWN = 120


class Unavailable(JsonRpcInvalidParams):
    """Why a document the client named cannot be had: a short sentence (raised in a
    request's handler, it is the request's InvalidParams answer)."""


def shown(uri: str) -> str:
    """The URI as a message repeats it: cut short when long."""
    return uri if len(uri) <= SHOWN else uri[: SHOWN - 1] + "…"


def uri_problem(uri: str) -> str | None:
    """Why the text is no URI this server can use, or None."""
    try:
        path = to_fs_path(uri)
    except ValueError:
        return f"{shown(uri)} is not a URI"
    if path is not None and "\0" in path:
        return f"{shown(uri)} names a path holding a NUL character"
    return None


def path_of(uri: str) -> Path | None:
    """The file a URI names; None when it names none (another scheme, not a URI)."""
    if uri_problem(uri) is not None:
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


def opened(workspace: Workspace, uri: str) -> TextDocument | None:
    """The open document of that URI, or None."""
    return workspace.text_documents.get(unquote(uri))


def document(workspace: Workspace, uri: str) -> TextDocument:
    """The open document, else the file the URI names, read safely; else Unavailable."""
    found = opened(workspace, uri)
    if found is not None:
        return found
    path = path_of(uri)
    if path is None:
        raise Unavailable(uri_problem(uri) or f"{shown(uri)} is not open, and names no file")
    if not in_workspace(workspace, path):
        raise Unavailable(f"{shown(uri)} is not open, and lies outside the workspace")
    try:
        text = read_text(path)
    except SourceError as error:
        raise Unavailable(f"{shown(uri)} is not open, and cannot be read: {error}") from None
    return TextDocument(uri, source=text, position_codec=workspace.position_codec)


def folders(workspace: Workspace) -> list[Path]:
    """The workspace's folders (its root among them), as real paths."""
    uris = [folder.uri for folder in workspace.folders.values()]
    uris += [workspace.root_uri] if workspace.root_uri else []
    paths = [path_of(uri) for uri in uris]
    return [real_path(path) for path in paths if path is not None]


def in_workspace(workspace: Workspace, path: Path) -> bool:
    """Whether the file lies inside one of the workspace's folders (any file does, when the
    client gave none)."""
    roots = folders(workspace)
    return not roots or any(inside(real_path(path), root) for root in roots)


def line_count(doc: TextDocument) -> int:
    """How many lines a position may name: one more than the line breaks (as pygls splits
    lines), so the empty line after a last line break counts."""
    lines = doc.lines
    if not lines:
        return 1
    last = lines[-1]
    return len(lines) + (last.splitlines()[0] != last)
