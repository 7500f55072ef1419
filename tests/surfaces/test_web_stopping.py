"""`rulesdsl serve` as a real process, treated roughly: clients that hang up before they sent
their request's body (or right after, reading nothing of the answer) cost no traceback and
leave the server answering; SIGTERM and SIGINT stop it within a few seconds, idle or busy
(comparisons on worker processes, a table of search bots dealing, a client stalled
mid-body, saves going on), by the signal, with no traceback and no process left behind,
and every save it acknowledged whole on disk."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

ADDRESS = re.compile(r"rulesdsl serve: http://127\.0\.0\.1:(\d+)/ ")
STOPPED_WITHIN = 10.0
"""Seconds a signalled server has to exit: a generous bound on what takes about two."""
SAFETY = 30.0
TROUBLE = ("Traceback", "ERROR", "leaked", "Exception")
"""What a server's log must never hold after what these tests do to it."""


@dataclass
class Served:
    """A server process, its port, its workspace and the file its log (stderr) goes to."""

    process: subprocess.Popen
    port: int
    workspace: Path
    log: Path

    def said(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        """The status and JSON of a request (a 503 or a closed connection as they come)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=SAFETY)
        try:
            data = None if body is None else json.dumps(body).encode()
            headers = {"content-type": "application/json"} if data is not None else {}
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"{}")
        finally:
            connection.close()


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[Served]:
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    log = tmp_path / "server.log"
    command = [sys.executable, "-m", "rulesdsl.surfaces", "serve", "--port", "0"]
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "--workspace", str(workspace), *args],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    try:
        line = process.stdout.readline()
        found = ADDRESS.match(line)
        assert found, line + log.read_text()
        yield Served(process, int(found.group(1)), workspace, log)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()


def until(test, what: str):
    deadline = time.monotonic() + SAFETY
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"after {SAFETY} s, still not: {what}")


# -- processes ---------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    """The processes under `pid` (its children, theirs, ...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError):
                parents[int(entry.name)] = _stat(entry.name)[1]
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _stat(pid: str) -> tuple[str, int]:
    """A process's state letter and its parent's pid."""
    fields = (Path("/proc") / pid / "stat").read_text().rpartition(")")[2].split()
    return fields[0], int(fields[1])


def running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended)."""
    alive = set()
    for pid in pids:
        with suppress(OSError):
            if _stat(str(pid))[0] != "Z":
                alive.add(pid)
    return alive


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


# -- what keeps a server busy ------------------------------------------------------------

SLOW_COMPARISONS = [
    {"profiles": ["equal-hands", "no-trumps", "must-overtrump"], "hands": 20000},
    {"profiles": ["equal-hands", "no-trumps"], "hands": 200, "bots": "pimc:200", "players": 5},
]


def stalled(port: int, path: str = "/api/check") -> socket.socket:
    """A connection that sent a request's headers and a little of its body, and no more."""
    client = socket.create_connection(("127.0.0.1", port))
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
    )
    client.sendall(head.encode() + b'{"text": "prof')
    return client


class Saving(threading.Thread):
    """Saves one file over and over, each save replacing the one before (by its version),
    until the server stops answering; `texts` sent, `acknowledged` the last one answered."""

    def __init__(self, served: Served) -> None:
        super().__init__(daemon=True)
        self.served = served
        self.texts: list[str] = []
        self.acknowledged = -1

    def run(self) -> None:
        version = None
        for number in range(10_000):
            text = (
                f"# save {number}\n" + "# words of a profile, long enough to take a while\n" * 1200
            )
            self.texts.append(text)
            try:
                status, answer = self.served.call(
                    "PUT", "/api/workspace/kept.rules", {"text": text, "version": version}
                )
            except OSError:
                return
            if status != 200:
                return
            version, self.acknowledged = answer["version"], number


class Dealing(threading.Thread):
    """Opens a table of six search bots, which deal and play for many seconds; `status`
    the answer's, or None when the connection was cut."""

    def __init__(self, served: Served) -> None:
        super().__init__(daemon=True)
        self.served = served
        self.status: int | None = None

    def run(self) -> None:
        body = {"profile": "equal-hands", "players": 6, "bots": "pimc:200"}
        with suppress(OSError, http.client.HTTPException):
            self.status, _ = self.served.call("POST", "/api/play", body)


def busy(served: Served) -> list[object]:
    """Comparisons at work on their processes, a table of search bots dealing, a client
    stalled mid-body, and a file saved over and over: what is kept busy, to look at after."""
    for body in SLOW_COMPARISONS:
        status, answer = served.call("POST", "/api/compare", body)
        assert status == 200, answer
    until(lambda: len(descendants(served.process.pid)) >= 3, "the comparisons' processes")
    dealing = Dealing(served)
    dealing.start()
    saving = Saving(served)
    saving.start()
    until(lambda: saving.acknowledged >= 1, "some saves answered")
    return [dealing, saving, stalled(served.port)]


# -- stopping ----------------------------------------------------------------------------


@needs_proc
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("load", ["idle", "busy"])
def test_a_signal_stops_the_server_within_seconds_losing_nothing_saved(
    tmp_path: Path, number: int, load: str
):
    with serving(tmp_path, "--workers", "2") as served:
        status, _ = served.call("PUT", "/api/workspace/first.rules", {"text": "# mine\n"})
        assert status == 200
        held = busy(served) if load == "busy" else []
        under = descendants(served.process.pid)
        served.process.send_signal(number)
        served.process.wait(timeout=STOPPED_WITHIN)
        assert served.process.returncode == -number
        until(lambda: not running(under), "every process of the server ended")
    said = served.said()
    assert not any(word in said for word in TROUBLE), said
    assert (served.workspace / "first.rules").read_text() == "# mine\n"
    for thing in held:
        if isinstance(thing, Dealing):
            thing.join(SAFETY)
            assert thing.status in (None, 503)
        if isinstance(thing, Saving):
            thing.join(SAFETY)
            on_disk = (served.workspace / "kept.rules").read_text()
            assert on_disk in thing.texts[thing.acknowledged :]
        if isinstance(thing, socket.socket):
            thing.close()
    assert sorted(p.name for p in served.workspace.iterdir()) == sorted(
        ["first.rules", "kept.rules"] if held else ["first.rules"]
    )  # no half-written file beside them


def everything(client: socket.socket) -> bytes:
    """What the server sends on the connection until it closes it (nothing, if it resets
    it)."""
    client.settimeout(SAFETY)
    received = b""
    try:
        while chunk := client.recv(65536):
            received += chunk
    except ConnectionResetError:
        return b""
    return received


@needs_proc
def test_a_request_under_way_when_the_server_stops_is_answered_503_or_cut(tmp_path: Path):
    with serving(tmp_path) as served:
        client = stalled(served.port, "/api/compare")
        time.sleep(0.5)  # for the server to be reading its body: else it is only cut
        served.process.send_signal(signal.SIGTERM)
        answer = everything(client)
        served.process.wait(timeout=STOPPED_WITHIN)
        client.close()
    assert answer == b"" or answer.startswith(b"HTTP/1.1 503"), answer
    if answer:
        assert b"the server is stopping" in answer
    assert not any(word in served.said() for word in TROUBLE), served.said()


def test_a_second_ctrl_c_stops_the_server_at_once(tmp_path: Path):
    with serving(tmp_path) as served:
        client = stalled(served.port)
        served.process.send_signal(signal.SIGINT)
        time.sleep(0.3)
        served.process.send_signal(signal.SIGINT)
        served.process.wait(timeout=STOPPED_WITHIN)
        client.close()
    assert served.process.returncode == -signal.SIGINT
    assert "Traceback" not in served.said()


# -- clients that hang up -----------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("hangups")) as served:
        yield served
        served.process.terminate()
        served.process.wait(timeout=STOPPED_WITHIN)
    assert not any(word in served.said() for word in TROUBLE), served.said()


def table(server: Served) -> str:
    """A new play table's id: the person's seat, and two bots."""
    body = {"profile": "equal-hands", "players": 3, "bots": ["human", "random", "random"]}
    status, answer = server.call("POST", "/api/play", body)
    assert status == 200, answer
    return answer["id"]


BODIES = ["/api/check", "/api/workspace/w{n}.rules", "/api/play", "/api/compare"]
AT_TABLE = ["/api/play/{table}/move", "/api/play/{table}/next"]
BODY = st.one_of(
    st.binary(max_size=2000),
    st.builds(lambda n: b'{"text": "' + b"x" * n + b'"}', st.integers(0, 300_000)),
    st.just(b'{"profiles": ["equal-hands", "no-trumps"], "hands": 20000}'),
    st.builds(lambda d: b"[" * d + b"]" * d, st.integers(0, 50_000)),
)
REQUEST = st.fixed_dictionaries(
    {
        "path": st.sampled_from(BODIES + AT_TABLE),
        "body": BODY,
        "sent": st.floats(0, 1, exclude_max=True),
        "declared": st.one_of(st.none(), st.integers(1, 400_000)),  # None: chunked
        "hang_up": st.sampled_from(["close", "half-close", "reset"]),
        "pause": st.sampled_from([0.0, 0.05]),
    }
)


def hang_up(client: socket.socket, how: str) -> None:
    if how == "half-close":
        client.shutdown(socket.SHUT_WR)
        time.sleep(0.02)
    elif how == "reset":
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()


def partial(request: dict, table_id: str) -> tuple[bytes, bytes]:
    """A request's head and the part of its body sent before the client hangs up."""
    body = request["body"]
    path = request["path"].format(table=table_id, n=len(body) % 7)
    method = "PUT" if "workspace" in path else "POST"
    sent = body[: int(len(body) * request["sent"])]
    if request["declared"] is None:
        framing = "Transfer-Encoding: chunked\r\n"
        sent = f"{len(body):x}\r\n".encode() + sent
    else:
        framing = f"Content-Length: {max(request['declared'], len(sent) + 1)}\r\n"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    return (head + framing + "\r\n").encode(), sent


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=REQUEST)
def test_a_client_that_hangs_up_mid_body_costs_no_traceback(server: Served, request: dict):
    head, sent = partial(request, table(server) if "{table}" in request["path"] else "")
    client = socket.create_connection(("127.0.0.1", server.port))
    client.sendall(head)
    with suppress(OSError):  # the server may refuse a body too large before it is sent
        client.sendall(sent)
    time.sleep(request["pause"])
    hang_up(client, request["hang_up"])
    assert server.call("GET", "/api/meta")[0] == 200
    assert not any(word in server.said() for word in TROUBLE), server.said()


@pytest.mark.parametrize(
    "path", ["/", "/static/app.js", "/api/meta", "/api/workspace", "/api/play/{table}/trace"]
)
def test_a_client_that_reads_nothing_of_the_answer_costs_no_traceback(server: Served, path: str):
    path = path.format(table=table(server))
    for _ in range(20):
        client = socket.create_connection(("127.0.0.1", server.port))
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        hang_up(client, "reset")
    assert server.call("GET", "/api/meta")[0] == 200
    assert not any(word in server.said() for word in TROUBLE), server.said()
