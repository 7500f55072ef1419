"""The language server under hostile input: every request answered once (its result, or an
error of the protocol's with a short message), nothing read that is not a regular file under
the size limit, no traceback in an answer or on stderr, and the server answering on after.

Each battery runs one `rulesdsl lsp` over stdio, fed every message at once: the server reads
them in order, so an answer missing (a hang, a crash, a request dropped) shows as an id
without its answer. The timeout is a safety net only.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygls.uris import from_fs_path
from sizing import examples

from rulesdsl.read.sources import MAX_BYTES
from rulesdsl.surfaces.lsp.server import OneLine, ProfileServer, server
from rulesdsl.surfaces.lsp.wire import MAX_MESSAGE, find_id, frames

WAIT = 300.0
MISSING = object()
# The codes a message the server refuses may get; an internal error (-32603) is a failure.
REFUSED = {-32700, -32600, -32601, -32602, -32002}
LOG_LINE = re.compile(r"rulesdsl lsp: (warning|error): [^\n]{1,400}")
TRACEBACK = re.compile(r'Traceback|File "|line \d+, in |Error\(|<[a-z_.]+ object at')
GOOD = 'profile "good" extends "equal-hands" {\n    draw 2\n}\n'
LINES = len(GOOD.splitlines()) + 1  # the lines a position may name: the empty last counts


def deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# Values put in place of every field of a message, and of the message's params whole.
BAD = [
    None,
    True,
    -1,
    2**31,
    2**40,
    -(2**63),
    1.5,
    "1",
    "",
    "x" * 3000,
    [],
    [0, 0],
    {},
    {"line": 0, "character": 0},
    deep(500),
    list(range(3000)),
    {f"k{n}": n for n in range(500)},
]


@dataclass
class Place:
    """A workspace folder with one good profile, and files no server may read."""

    root: Path
    good: Path
    # Files no document is open at, by what they are: the path, and what the answer to a
    # request on it says in a workspace with a folder and in one without (None: it is read).
    files: dict[str, tuple[Path, str, str | None]]

    def uri(self, path: Path | str) -> str:
        return from_fs_path(str(path))


@pytest.fixture
def place(tmp_path: Path) -> Place:
    root = tmp_path / "root"
    root.mkdir()
    good = root / "good.rules"
    good.write_text(GOOD)
    outside = tmp_path / "outside.rules"
    outside.write_text(GOOD)
    os.mkfifo(root / "pipe.rules")
    (root / "folder.rules").mkdir()
    huge = root / "huge.rules"
    huge.touch()
    os.truncate(huge, 3 * 2**30)
    (root / "binary.rules").write_bytes(b'profile "b" {\0}\n')
    (root / "zero.rules").symlink_to("/dev/zero")
    (root / "away.rules").symlink_to(outside)
    away = "outside the workspace"
    files = {
        "a named pipe": (root / "pipe.rules", "named pipe", "named pipe"),
        "/dev/zero": (Path("/dev/zero"), away, "character device"),
        "a link to /dev/zero": (root / "zero.rules", away, "character device"),
        "a folder": (root / "folder.rules", "folder", "folder"),
        "a huge file": (huge, "the file is 3.2 GB", "the file is 3.2 GB"),
        "a binary file": (root / "binary.rules", "NUL", "NUL"),
        "a missing file": (root / "missing.rules", "no such file", "no such file"),
        "a file outside": (outside, away, None),
        "a link to a file outside": (root / "away.rules", away, None),
    }
    return Place(root, good, files)


def hostile_uris(place: Place) -> list[tuple[str, str]]:
    """URIs no document is open at and no file may be read from, by what they are."""
    return [
        *((label, place.uri(path)) for label, (path, *_) in place.files.items()),
        ("an untitled document", "untitled:Untitled-1"),
        ("another scheme", "https://example.com/p.rules"),
        ("a broken URI", "file://[::1/p.rules"),
        ("a NUL in the path", "file:///tmp/a%00b.rules"),
        ("an empty URI", ""),
        ("a long URI", "file:///" + "a/" * 5000 + "p.rules"),
        ("no URI", "not a uri"),
    ]


@dataclass
class Answered:
    """What the server wrote: answers by request id, its notifications, stderr, status."""

    answers: dict[Any, list[dict]]
    notes: list[dict]
    stderr: str
    status: int


@dataclass
class Script:
    """The messages of one session, as bytes, and each request's id with what it asked."""

    chunks: list[bytes] = field(default_factory=list)
    asked: dict[Any, str] = field(default_factory=dict)

    def raw(self, body: bytes, ident: Any = None, said: str = "") -> None:
        """A framed body as it stands; `ident`, when given, is a request to be answered."""
        self.chunks.append(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        if ident is not None:
            self.asked[ident] = said or repr(body[:80])

    def message(self, message: dict, said: str = "") -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        ident = message.get("id")
        self.raw(body, ident, f"{message.get('method')} {said}")

    def request(self, method: str, params: object = MISSING, said: str = "") -> int:
        ident = len(self.asked) + 1
        self.message({"id": ident, "method": method, **_params(params)}, said)
        return ident

    def notify(self, method: str, params: object = MISSING) -> None:
        self.message({"method": method, **_params(params)})

    def start(self, place: Place | None = None) -> None:
        root = {"rootUri": place.uri(place.root)} if place else {}
        self.request("initialize", {"capabilities": {}, **root})
        self.notify("initialized", {})

    def open(self, uri: str, text: str = GOOD) -> None:
        item = {"uri": uri, "languageId": "rules", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})

    def finish(self) -> int:
        """Shut down and exit; the id of the shutdown request."""
        ident = self.request("shutdown")
        self.notify("exit")
        return ident

    def run(self, cwd: Path) -> Answered:
        result = subprocess.run(
            [sys.executable, "-m", "rulesdsl.surfaces", "lsp"],
            input=b"".join(self.chunks),
            capture_output=True,
            timeout=WAIT,
            cwd=cwd,
        )
        answers: dict[Any, list[dict]] = {}
        notes = []
        for message in unframed(result.stdout):
            if "method" in message:
                notes.append(message)
            else:
                answers.setdefault(message.get("id"), []).append(message)
        return Answered(answers, notes, result.stderr.decode(), result.returncode)


def _params(params: object) -> dict:
    return {} if params is MISSING else {"params": params}


def unframed(data: bytes) -> list[dict]:
    """The JSON-RPC messages of a framed stream."""
    found = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
        found.append(json.loads(rest[:length]))
        data = rest[length:]
    return found


def paths(tree: object, path: tuple = ()) -> Iterator[tuple]:
    """The path of every value of a JSON tree, the tree's own (empty) first."""
    yield path
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from paths(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from paths(value, (*path, index))


def replaced(tree: object, path: tuple, value: object) -> object:
    if not path:
        return value
    tree = copy.deepcopy(tree)
    *up, last = path
    holder = tree
    for step in up:
        holder = holder[step]
    if value is MISSING:
        del holder[last]
    else:
        holder[last] = value
    return tree


def variants(params: object) -> Iterator[tuple[str, object]]:
    """Params gone wrong: every value in turn (and the whole) replaced by each bad value or
    taken away, and no params at all."""
    yield "no params", MISSING
    for path in paths(params):
        name = ".".join(map(str, path)) or "params"
        for value in BAD:
            yield f"{name} = {json.dumps(value)[:40]}", replaced(params, path, value)
        if path:
            yield f"{name} taken away", replaced(params, path, MISSING)


def position(line: int, character: int) -> dict:
    return {"line": line, "character": character}


def span(start: tuple[int, int], end: tuple[int, int]) -> dict:
    return {"start": position(*start), "end": position(*end)}


def requests(uri: str) -> dict[str, dict]:
    """Good params of every request the server offers, on the document at `uri`."""
    document = {"uri": uri}
    at = {"textDocument": document, "position": position(1, 5)}
    return {
        "textDocument/hover": at,
        "textDocument/definition": at,
        "textDocument/completion": {**at, "context": {"triggerKind": 1}},
        "textDocument/codeAction": {
            "textDocument": document,
            "range": span((0, 0), (2, 1)),
            "context": {"diagnostics": []},
        },
        "textDocument/formatting": {
            "textDocument": document,
            "options": {"tabSize": 4, "insertSpaces": True},
        },
        "textDocument/documentSymbol": {"textDocument": document},
        "workspace/executeCommand": {"command": "rulesdsl.none", "arguments": []},
        "shutdown": None,
        "initialize": {"capabilities": {}},
    }


def notifications(uri: str) -> dict[str, dict]:
    """Good params of every notification the server acts on, on the document at `uri`."""
    document = {"uri": uri}
    item = {**document, "languageId": "rules", "version": 1, "text": GOOD}
    change = {"range": span((1, 4), (1, 8)), "rangeLength": 4, "text": "draw"}
    return {
        "textDocument/didOpen": {"textDocument": item},
        "textDocument/didChange": {
            "textDocument": {**document, "version": 2},
            "contentChanges": [change, {"text": GOOD}],
        },
        "textDocument/didClose": {"textDocument": document},
        "workspace/didChangeWatchedFiles": {"changes": [{**document, "type": 2}]},
        "workspace/didChangeWorkspaceFolders": {
            "event": {"added": [{"uri": uri, "name": "a"}], "removed": []}
        },
        "initialized": {},
        "$/cancelRequest": {"id": 1},
        "$/setTrace": {"value": "off"},
        "window/workDoneProgress/cancel": {"token": "t"},
        "exit": None,
    }


def assert_clean(session: Answered, script: Script) -> None:
    """Every request answered once, each error one of the protocol's refusals in one short
    line with nothing else; stderr only one-line warnings; no traceback anywhere."""
    unanswered = [said for ident, said in script.asked.items() if ident not in session.answers]
    assert unanswered == []
    assert set(session.answers) <= set(script.asked)
    for ident, answers in session.answers.items():
        assert len(answers) == 1, script.asked[ident]
        (answer,) = answers
        if "error" in answer:
            error = answer["error"]
            assert error["code"] in REFUSED, (script.asked[ident], error)
            assert set(error) == {"code", "message"}, script.asked[ident]
            message = error["message"]
            assert 0 < len(message) <= 300 and "\n" not in message, script.asked[ident]
            assert not TRACEBACK.search(message), (script.asked[ident], message)
    assert all(LOG_LINE.fullmatch(line) for line in session.stderr.splitlines()), session.stderr
    assert not TRACEBACK.search(session.stderr)
    assert not TRACEBACK.search(json.dumps(session.notes))


def error_of(session: Answered, ident: int) -> dict:
    (answer,) = session.answers[ident]
    return answer["error"]


def result_of(session: Answered, ident: int) -> Any:
    (answer,) = session.answers[ident]
    assert "error" not in answer, answer
    return answer["result"]


def hover_text(session: Answered, ident: int) -> str:
    return result_of(session, ident)["contents"]["value"]


def test_the_battery_covers_every_method_the_server_handles():
    """A new feature of the server gets into the batteries below, or this fails."""
    protocol = server.protocol
    handled = {*protocol.fm.features, *protocol.fm.builtin_features}
    covered = {*requests("file:///p.rules"), *notifications("file:///p.rules")}
    assert handled <= covered
    assert not any(method.startswith("notebookDocument/") for method in handled)


def test_every_bad_request_gets_one_short_error_and_the_server_answers_on(place):
    script = Script()
    script.start(place)
    good = place.uri(place.good)
    script.open(good)
    probes = []
    for method, params in requests(good).items():
        if method == "shutdown":  # no params is right: that one would shut the server down
            continue
        for said, params_gone_wrong in variants(params):
            script.request(method, params_gone_wrong, said)
        probes.append(script.request("textDocument/hover", requests(good)["textDocument/hover"]))
    shutdown = script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    assert session.status == 0
    assert all("**draw**" in hover_text(session, ident) for ident in probes)
    assert result_of(session, shutdown) is None
    # The wrong params the issue named get the protocol's InvalidParams.
    for ident, said in script.asked.items():
        if said.startswith("textDocument/hover") and re.search(
            r"= (-1|1099511627776|\"1\")$", said
        ):
            assert error_of(session, ident)["code"] == -32602, said


@pytest.mark.parametrize("rooted", [True, False])
def test_a_request_on_a_file_that_is_not_open_reads_only_a_regular_file_in_the_workspace(
    place, rooted
):
    """Of a document not open, the file is read only when it is a regular file under the
    size limit and, when the client named a workspace folder, inside it."""
    script = Script()
    script.start(place if rooted else None)
    good = place.uri(place.good)
    asked = {}
    for label, uri in hostile_uris(place):
        for method, params in requests(uri).items():
            if "textDocument" in (params or {}):
                asked[script.request(method, params, label)] = label
    # A regular file in the workspace that is not open is read (completion works on it).
    unopened = script.request("textDocument/completion", requests(good)["textDocument/completion"])
    script.open(good)
    after = script.request("textDocument/hover", requests(good)["textDocument/hover"])
    script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    said = {label: (inside, bare) for label, (_, inside, bare) in place.files.items()}
    for ident, label in asked.items():
        fragment = said.get(label, ("", ""))[0 if rooted else 1]
        if fragment is None:
            result_of(session, ident)
            continue
        error = error_of(session, ident)
        assert error["code"] == -32602, label
        assert fragment in error["message"], (label, error["message"])
    assert any(item["label"] == "draw" for item in result_of(session, unopened)["items"])
    assert "**draw**" in hover_text(session, after)


def test_positions_and_ranges_outside_the_document_are_refused(place):
    script = Script()
    script.start(place)
    good = place.uri(place.good)
    script.open(good)
    document = {"uri": good}
    refused, answered = [], []
    for line in (LINES, LINES + 1, 2**31 - 1):
        for method in ("hover", "definition", "completion"):
            params = {"textDocument": document, "position": position(line, 0)}
            refused.append(script.request(f"textDocument/{method}", params, f"line {line}"))
    for start, end in [((2, 0), (0, 0)), ((1, 6), (1, 5)), ((0, 0), (LINES, 0))]:
        params = {"textDocument": document, "range": span(start, end), "context": {}}
        params["context"] = {"diagnostics": []}
        refused.append(script.request("textDocument/codeAction", params, f"{start}-{end}"))
    # A character past its line's end stands for the line's end; the last line may be named.
    for line, character in [(1, 2**31 - 1), (LINES - 1, 0), (LINES - 1, 99)]:
        params = {"textDocument": document, "position": position(line, character)}
        answered.append(script.request("textDocument/hover", params, f"{line}:{character}"))
        answered.append(script.request("textDocument/completion", params, f"{line}:{character}"))
    script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    for ident in refused:
        assert error_of(session, ident)["code"] == -32602, script.asked[ident]
    for ident in answered:
        result_of(session, ident)


def test_bad_notifications_are_ignored_with_a_warning_and_change_nothing(place):
    script = Script()
    script.start(place)
    good = place.uri(place.good)
    script.open(good)
    scratch = place.uri(place.root / "scratch.rules")
    for method, params in notifications(scratch).items():
        if method == "exit":
            continue
        script.open(scratch)
        for _, params_gone_wrong in variants(params):
            script.notify(method, params_gone_wrong)
        for _, uri in hostile_uris(place):
            script.notify(method, json.loads(json.dumps(params).replace(scratch, uri)))
    hover = requests(good)["textDocument/hover"]
    # A change out of the text (the negative range among them) leaves it as it was.
    for change in [
        span((-1, 0), (0, 0)),
        span((2, 0), (1, 0)),
        span((0, 0), (LINES, 0)),
        span((0, 5), (0, 4)),
    ]:
        params = {
            "textDocument": {"uri": good, "version": 2},
            "contentChanges": [{"range": change, "text": "x"}],
        }
        script.notify("textDocument/didChange", params)
    text = script.request("textDocument/formatting", requests(good)["textDocument/formatting"])
    after = script.request("textDocument/hover", hover)
    script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    assert session.status == 0
    assert result_of(session, text) == []  # the text is GOOD, formatted as fmt writes it
    assert "**draw**" in hover_text(session, after)
    assert "didChange" in session.stderr


def test_messages_that_are_no_requests_are_answered_where_they_have_an_id(place):
    script = Script()
    script.start(place)
    hover = json.dumps(requests(place.uri(place.good))["textDocument/hover"]).encode()
    nested = b"[" * 100_000 + b"]" * 100_000
    answered = {
        "not JSON": b'{"jsonrpc": "2.0", "id": "not json", "method": "x", oops}',
        "nested deep, id first": b'{"jsonrpc":"2.0","id":"deep","params":%s}' % nested,
        "nested deep, id last": b'{"jsonrpc":"2.0","params":%s,"id":"last"}' % nested,
        "cut short": b'{"jsonrpc": "2.0", "id": "cut", "method": "textDocument/hover", "par',
        "version 1": b'{"jsonrpc": "1.0", "id": "v1", "method": "shutdown"}',
        "no version": b'{"id": "unversioned", "method": "shutdown"}',
        "method no string": b'{"jsonrpc": "2.0", "id": "method", "method": 5}',
        "unknown method": b'{"jsonrpc": "2.0", "id": "unknown", "method": "no/such"}',
        "initialize again": b'{"jsonrpc":"2.0","id":"again","method":"initialize","params":{}}',
        "a number too long": b'{"jsonrpc": "2.0", "id": "digits", "params": %s}' % (b"9" * 5000),
        "an escaped id": b'{"jsonrpc": "2.0", "\\u0069d": "escaped", "x": }',
        "a UTF-16 body": '{"jsonrpc": "2.0", "id": "utf16", "method": "?"}'.encode("utf-16"),
    }
    for said, body in answered.items():
        ident = find_id(body) or json.loads(body.decode("utf-16")).get("id")
        script.raw(body, ident, said)
    unanswered = [
        b"[1, 2]",
        b"null",
        b"",
        b"\xff\xfe\xfd",
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}',
        b'{"jsonrpc": "2.0", "id": true, "method": "shutdown"}',
        b'{"jsonrpc": "2.0", "id": [7], "method": "shutdown"}',
        b'{"jsonrpc": "2.0", "id": null, "method": "shutdown"}',
        b'{"jsonrpc": "2.0"}',
        b'{"jsonrpc": "2.0", "id": "nobody asked", "result": 1}',
        b'{"jsonrpc": "2.0", "id": "nobody asked", "error": {"code": "x"}}',
    ]
    for body in unanswered:
        script.raw(body)
    # Framing gone wrong: lines that are no header, a header line too long, no length.
    script.chunks.append(b"garbage\r\n" + b"x" * 200_000 + b"\r\n\r\nContent-Type: x\r\n\r\n")
    script.chunks.append(b"content-length:   %d\n\n" % len(hover) + b"x" * len(hover))
    too_long = b'{"jsonrpc": "2.0", "id": "long", "params": "' + b"x" * MAX_MESSAGE + b'"}'
    script.raw(too_long, "long", "too long")
    last = script.request("textDocument/hover", json.loads(hover))
    script.open(place.uri(place.good))
    after = script.request("textDocument/hover", json.loads(hover))
    script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    assert error_of(session, "not json")["code"] == -32700
    assert error_of(session, "deep")["message"] == "the message is nested too deep"
    assert error_of(session, "long")["code"] == -32600
    assert result_of(session, last) is None  # the document is not open yet: nothing to say
    assert "**draw**" in hover_text(session, after)
    assert None not in session.answers


def test_before_initialize_and_after_shutdown_requests_get_the_protocols_errors(place):
    script = Script()
    good = place.uri(place.good)
    asked = requests(good)
    del asked["initialize"]
    before = [script.request(method, params) for method, params in asked.items()]
    script.open(good)  # dropped: no diagnostics are published for it
    wrong = [
        script.request("initialize", params)
        for params in (
            None,
            {},
            {"capabilities": 5},
            {"capabilities": {}, "rootUri": "http://[::1"},
        )
    ]
    script.start(place)
    refused = [script.request("shutdown", params) for params in BAD if params is not None]
    shutdown = script.request("shutdown")
    after = [script.request(method, params) for method, params in requests(good).items()]
    script.notify("exit")
    session = script.run(place.root)
    assert_clean(session, script)
    assert {error_of(session, ident)["code"] for ident in before} == {-32002}
    assert {error_of(session, ident)["code"] for ident in wrong} == {-32602}
    assert {error_of(session, ident)["code"] for ident in after} == {-32600}
    assert {error_of(session, ident)["code"] for ident in refused} == {-32602}
    assert result_of(session, shutdown) is None
    assert [n for n in session.notes if n["method"] == "textDocument/publishDiagnostics"] == []
    assert session.status == 0


def deep_and_wide_texts() -> dict[str, str]:
    """Profiles nested deep, with lines long or many, too large, binary: each opened."""
    rule = "    rule r{n} {{\n        refuse lead if card.trump and trick.number == {n}\n    }}\n"
    return {
        "braces.rules": 'profile "d" {\n' + "{" * 100_000 + "\n}\n",
        "brackets.yaml": "name: d\nx: " + "[" * 100_000 + "\n",
        "indents.yaml": "name: d\n" + "".join(" " * n + "a:\n" for n in range(1500)),
        "long line.rules": 'profile "w" {\n    draw ' + "9" * 900_000 + "\n}\n",
        "wide.rules": 'profile "w" {\n' + "    draw 2 " * 80_000 + "\n}\n",
        "many rules.rules": 'profile "r" extends "equal-hands" {\n'
        + "".join(rule.format(n=n) for n in range(300))
        + "}\n",
        "too large.rules": 'profile "b" {\n' + "#" * (MAX_BYTES + 10) + "\n}\n",
        "binary.rules": 'profile "b" {\n\0\x1b[2J\u202e\n}\n',
        "empty.rules": "",
        "unicode.rules": 'profile "u" {\n    draw 2 # ' + "😀" * 50_000 + "\n}\n",
    }


def test_deep_wide_and_large_documents_get_diagnostics_and_every_request_answered(place):
    script = Script()
    script.start(place)
    texts = deep_and_wide_texts()
    for name, text in texts.items():
        uri = place.uri(place.root / name)
        script.open(uri, text)
        lines = text.splitlines()
        last = max(len(lines) - 1, 0)
        spots = {(0, 0), (last // 2, 3), (last, len(lines[-1]) if lines else 0), (last, 2**31 - 1)}
        for line, character in sorted(spots):
            for method, params in requests(uri).items():
                if method in ("shutdown", "initialize"):
                    continue
                params = json.loads(json.dumps(params))
                if "position" in params:
                    params["position"] = position(line, character)
                if "range" in params:
                    params["range"] = span((0, 0), (line, character))
                script.request(method, params, f"{name} {line}:{character}")
        change = {"range": span((last, 0), (last, 0)), "text": "draw 2\n"}
        script.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]},
        )
    script.open(place.uri(place.good))
    after = script.request(
        "textDocument/hover", requests(place.uri(place.good))["textDocument/hover"]
    )
    script.finish()
    session = script.run(place.root)
    assert_clean(session, script)
    published = {
        n["params"]["uri"]
        for n in session.notes
        if n["method"] == "textDocument/publishDiagnostics"
    }
    assert {place.uri(place.root / name) for name in texts} <= published
    assert "**draw**" in hover_text(session, after)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "method", "params", "x", "jsonrpc"]), JSON))
def test_find_id_finds_the_top_level_id_or_nothing_even_in_a_body_cut_short(message):
    body = json.dumps(message).encode()
    ident = message.get("id")
    usable = ident if isinstance(ident, int | str) and not isinstance(ident, bool) else None
    if isinstance(usable, int) and len(str(abs(usable))) > 30:
        usable = None
    assert find_id(body) == usable
    for end in range(0, len(body), max(1, len(body) // 40)):
        assert find_id(body[:end]) in (None, usable)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.binary(max_size=200) | st.sampled_from([b"\r\n", b"Content-Length: 3\r\n"])))
def test_any_bytes_on_the_wire_are_read_as_frames_within_bounds(chunks):
    for frame in frames(io.BytesIO(b"".join(chunks))):
        assert len(frame.body) <= MAX_MESSAGE


def test_a_failure_of_the_servers_own_is_one_line_and_the_server_answers_on(caplog):
    """A handler that raises: its request is answered an internal error in one line, with
    no traceback in it; a notification's failure is one line of log; the next is answered."""
    failing = ProfileServer()

    @failing.feature("textDocument/hover")
    def hover(ls: ProfileServer, params: object) -> None:
        raise ZeroDivisionError("the handler failed\nsecond line")

    @failing.feature("textDocument/didOpen")
    def did_open(ls: ProfileServer, params: object) -> None:
        raise KeyError("open")

    @failing.feature("textDocument/documentSymbol")
    def document_symbol(ls: ProfileServer, params: object) -> list:
        return []

    script = Script()
    script.start()
    uri = "file:///nowhere/p.rules"
    script.open(uri)
    document = {"textDocument": {"uri": uri}}
    failed = script.request("textDocument/hover", {**document, "position": position(0, 0)})
    after = script.request("textDocument/documentSymbol", document)
    out = io.BytesIO()
    failing.start_io(stdin=io.BytesIO(b"".join(script.chunks)), stdout=out)
    written = unframed(out.getvalue())
    answers = {m["id"]: m for m in written if "id" in m}
    assert answers[failed]["error"] == {
        "code": -32603,
        "message": "the server failed: the handler failed",
    }
    assert answers[after]["result"] == []
    shown = [m["params"]["message"] for m in written if m.get("method") == "window/showMessage"]
    assert shown == ["the server failed: 'open'"]
    ours = [record for record in caplog.records if record.name.startswith("rulesdsl")]
    assert [record.getMessage() for record in ours] == [
        "a notification failed: 'open'",
        "request 2 failed: the handler failed\nsecond line",
    ]
    assert not any(record.exc_info for record in ours)
    assert all("\n" not in OneLine().format(record) for record in ours)
