"""`rulesdsl serve`: the web app on this machine, over a workspace folder."""

from __future__ import annotations

import logging
import signal
import socket
import sys
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import click

from rulesdsl.model.text import safe_text
from rulesdsl.reason.executors import ExecutorError, check_executor
from rulesdsl.service import LinkedPath, UsageProblem

NEEDS = ("starlette", "uvicorn")
GRACE = 2
"""How long (seconds) a stopping server lets requests under way finish before it cancels
them; the comparisons are cancelled after, and a save under way finishes."""
STOPPING = (signal.SIGINT, signal.SIGTERM)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port (0: any free one, printed).",
)
@click.option(
    "--workspace",
    type=LinkedPath(exists=True, file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder the page loads and saves profiles in (and nowhere else).",
)
@click.option(
    "--executor",
    default="local",
    show_default=True,
    help="Where comparisons run: local, or dask://HOST:PORT.",
)
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Local processes a comparison runs on.",
)
@click.option("--open", "open_page", is_flag=True, help="Open the page in the browser.")
def serve(
    host: str, port: int, workspace: Path, executor: str, workers: int, open_page: bool
) -> None:
    """Serve the web app: edit, check, play and compare profiles in the browser."""
    try:
        check_executor(executor)
    except ExecutorError as error:
        raise UsageProblem(str(error)) from None
    try:
        import uvicorn  # noqa: F401

        from rulesdsl.surfaces.web.app import create_app
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in NEEDS:
            raise
        raise UsageProblem("serve needs starlette and uvicorn: install rulesdsl[web]") from None
    shown = f"[{host}]" if ":" in host else host
    app = create_app(workspace, executor=executor, workers=workers, hosts=_hosts(shown))
    listening = _listen(host, port)
    address = f"http://{shown}:{listening.getsockname()[1]}/"
    said = f"rulesdsl serve: {address} (workspace {safe_text(str(workspace.resolve()))})"
    _run(app, listening, said, address if open_page else None)


def _run(app: Any, listening: socket.socket, said: str, page: str | None) -> None:
    """Serve `app` on the socket until SIGINT or SIGTERM, heard from before `said` is
    printed (and the `page` opened); then close it and end as the signal would."""
    import uvicorn

    # The app is closed here, not in its lifespan: a second Ctrl-C hurries uvicorn past it.
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=GRACE,
    )
    logging.getLogger("uvicorn.error").addFilter(_requests_left_open)
    server = uvicorn.Server(config)
    heard = _Signals(server)
    with heard.installed():
        click.echo(said)
        if page is not None:
            webbrowser.open(page)
        try:
            server.run(sockets=[listening])
        finally:
            app.state.server.close()
    heard.end()


def _hosts(shown: str) -> tuple[str, ...]:
    """The Host names the app answers: this machine's, and the address it listens on."""
    from rulesdsl.surfaces.web.guard import LOCAL_HOSTS

    return tuple(dict.fromkeys([*LOCAL_HOSTS, shown]))


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to the address (port 0: a free one), or a UsageProblem saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as error:
        listening.close()
        raise UsageProblem(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listening


class _Signals:
    """SIGINT (Ctrl-C) and SIGTERM, heard for the whole life of the server: each asks it to
    stop (uvicorn hears them while it serves, and passes them on when it has stopped). Once
    the server has stopped and closed, `end` ends the process by the first signal heard, as
    its default action would, whatever threads are still at a request's work."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.heard: list[int] = []

    def __call__(self, number: int, frame: FrameType | None) -> None:
        self.heard.append(number)
        self.server.should_exit = True

    @contextmanager
    def installed(self) -> Iterator[None]:
        before = {number: signal.signal(number, self) for number in STOPPING}
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)

    def end(self) -> None:
        if not self.heard:
            return
        sys.stdout.flush()
        sys.stderr.flush()
        signal.signal(self.heard[0], signal.SIG_DFL)
        signal.raise_signal(self.heard[0])


def _requests_left_open(record: logging.LogRecord) -> bool:
    """Uvicorn's word that it stopped with requests still open (a client stalled mid-body,
    a table's bots still thinking) is a warning: they are answered 503, and it is not an
    error of the server's."""
    if record.levelno == logging.ERROR and "graceful shutdown exceeded" in record.getMessage():
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True
