"""The wire: messages as the protocol frames them on stdio, read from a byte stream within
bounds, whatever the stream holds.

A header line is read up to HEADER_BYTES (a longer line is read past); a body is read whole
up to MAX_MESSAGE bytes, and of a longer one only its first HEAD_BYTES are kept, the rest
read past. `find_id` reads a request's id from a body that is not JSON (malformed, nested
too deep, cut short), so that such a request can still be answered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from rulesdsl.read.sources import MAX_BYTES

HEADER_BYTES = 1024
# A profile's text at the size limit, every character written as a JSON escape.
MAX_MESSAGE = 8 * MAX_BYTES
HEAD_BYTES = 64 * 1024
CHUNK = 64 * 1024
CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,20})", re.IGNORECASE)
# JSON text as tokens: a string, a bracket or punctuation, any other run (number, word).
TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}:,]|[^\s"\[\]{}:,]+', re.DOTALL)
ID_NUMBER = re.compile(rb"-?\d{1,30}")


@dataclass(frozen=True)
class Frame:
    """A message's body as read: the whole of it, or its head when it was too long."""

    body: bytes
    length: int  # as its header gave it

    @property
    def whole(self) -> bool:
        return len(self.body) == self.length


def frames(stream: BinaryIO) -> Iterator[Frame]:
    """Each message of the stream, until the stream ends."""
    while (length := header(stream)) is not None:
        keep = length if length <= MAX_MESSAGE else HEAD_BYTES
        body = stream.read(keep)
        if len(body) < keep or not skip(stream, length - keep):
            return
        yield Frame(body, length)


def header(stream: BinaryIO) -> int | None:
    """The Content-Length of the next message's header (its lines up to an empty one);
    None when the stream ends first. Other header lines, and any line that is no header,
    are read past."""
    length = None
    while line := stream.readline(HEADER_BYTES):
        if not line.endswith(b"\n"):
            if not skip_line(stream):
                return None
            continue
        text = line.strip()
        if not text and length is not None:
            return length
        found = CONTENT_LENGTH.fullmatch(text)
        if found:
            length = int(found.group(1))
    return None


def skip(stream: BinaryIO, count: int) -> bool:
    """Read past `count` bytes; whether the stream held them."""
    while count > 0:
        got = len(stream.read(min(count, CHUNK)))
        if not got:
            return False
        count -= got
    return True


def skip_line(stream: BinaryIO) -> bool:
    """Read past the rest of a line; whether the stream went on after it."""
    while line := stream.readline(CHUNK):
        if line.endswith(b"\n"):
            return True
    return False


def find_id(body: bytes) -> int | str | None:
    """The `id` of the JSON object the text starts, found without parsing the rest; None
    when it has none that an answer could carry (a string or an integer), or when the text
    ends before the id is whole."""
    depth, key, want_key = 0, None, False
    for match in TOKEN.finditer(body):
        token = match.group()
        if token in (b"{", b"["):
            if depth == 1 and key == "id":
                return None
            depth += 1
            want_key = depth == 1 and token == b"{"
        elif token in (b"}", b"]"):
            depth -= 1
            if depth < 1:
                return None
        elif depth != 1 or token == b":":
            continue
        elif token == b",":
            key, want_key = None, True
        elif want_key:
            key, want_key = _string(token), False
        elif key == "id":
            # A number the body ends on may have been cut short.
            return _id(token) if match.end() < len(body) else None
    return None


def _string(token: bytes) -> str | None:
    """A JSON string token's text; None for any other token."""
    if not token.startswith(b'"'):
        return None
    try:
        text = json.loads(token)
    except ValueError:
        return None
    return text if isinstance(text, str) else None


def _id(token: bytes) -> int | str | None:
    if ID_NUMBER.fullmatch(token):
        return int(token)
    return _string(token)
