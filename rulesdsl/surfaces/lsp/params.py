"""A message's parameters, checked against the documents before the server acts on them.

The protocol's types have already checked each field's type and range; here: every URI is
one the server can use, a change or a close names an open document, a request names a
document the server has (open, or a file `documents` may read), and each position and
range lies inside that document's text, a range not ending before it starts. Each change
of a `didChange` is checked against the text the changes before it leave.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from lsprotocol import types as lsp
from pygls.workspace import Workspace
from pygls.workspace.text_document import TextDocument

from rulesdsl.surfaces.lsp.documents import (
    Unavailable,
    document,
    line_count,
    opened,
    shown,
    uri_problem,
)

# Notifications that only make sense of a document the client opened.
OF_OPEN = (lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.TEXT_DOCUMENT_DID_CLOSE)


def problem(workspace: Workspace | None, method: str, params: object) -> str | None:
    """Why the server cannot act on the message's params, or None (before `initialize`,
    when there is no workspace yet, only the URIs are checked)."""
    found = next(filter(None, map(uri_problem, uris(params))), None)
    if found is not None or workspace is None or method == lsp.TEXT_DOCUMENT_DID_OPEN:
        return found
    named = getattr(params, "text_document", None)
    if named is None:
        return None
    if method in OF_OPEN:
        doc = opened(workspace, named.uri)
        if doc is None:
            return f"{shown(named.uri)} is not open"
        changes = getattr(params, "content_changes", ())
        return changes_problem(doc, changes)
    try:
        doc = document(workspace, named.uri)
    except Unavailable as error:
        return str(error)
    return places_problem(doc, params)


def uris(params: object) -> Iterator[str]:
    """Every URI the params hold: each field named `…uri`, at any depth of the protocol's
    types (walked without recursion: free-form data may nest deep)."""
    stack = [params]
    while stack:
        value = stack.pop()
        if isinstance(value, list | tuple):
            stack.extend(value)
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                inner = getattr(value, field.name)
                if field.name.endswith("uri") and isinstance(inner, str):
                    yield inner
                else:
                    stack.append(inner)


def places_problem(doc: TextDocument, params: object) -> str | None:
    """Why a position or range the params hold does not lie in the document, or None."""
    for name in ("position", "range"):
        value = getattr(params, name, None)
        if isinstance(value, lsp.Position):
            found = position_problem(doc, value, name)
        elif isinstance(value, lsp.Range):
            found = range_problem(doc, value, name)
        else:
            found = None
        if found is not None:
            return found
    return None


def position_problem(doc: TextDocument, position: lsp.Position, name: str) -> str | None:
    """Why the position is not in the document, or None. A character past its line's end
    stands for the line's end, as the protocol says; a line past the text's does not."""
    count = line_count(doc)
    if position.line >= count:
        lines = "1 line" if count == 1 else f"{count:,} lines"
        return f"{name}: line {position.line:,} is past the end of the document ({lines})"
    return None


def range_problem(doc: TextDocument, span: lsp.Range, name: str) -> str | None:
    """Why the range is not in the document, or None."""
    found = position_problem(doc, span.start, f"{name} start")
    found = found or position_problem(doc, span.end, f"{name} end")
    if found is None and _key(span.end) < _key(span.start):
        return f"{name} ends before it starts"
    return found


def _key(position: lsp.Position) -> tuple[int, int]:
    return position.line, position.character


def changes_problem(doc: TextDocument, changes: object) -> str | None:
    """Why a change of a `didChange` would not apply to the document, or None; each is
    checked against the text the changes before it leave, on a copy."""
    scratch = TextDocument(doc.uri, source=doc.source, position_codec=doc.position_codec)
    for number, change in enumerate(changes or (), 1):
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            found = range_problem(scratch, change.range, f"change {number}: range")
            if found is not None:
                return found
        scratch.apply_change(change)
    return None
