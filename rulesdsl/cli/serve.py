"""`rulesdsl serve`: the web app on this machine, over a workspace folder."""

from __future__ import annotations

import socket
import webbrowser
from pathlib import Path

import click

from rulesdsl.cli.common import LinkedPath, UsageProblem, cli
from rulesdsl.diagnostics import safe_text
from rulesdsl.executors import ExecutorError, check_executor

NEEDS = ("starlette", "uvicorn")


@cli.command()
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
        import uvicorn

        from rulesdsl.web.app import create_app
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in NEEDS:
            raise
        raise UsageProblem("serve needs starlette and uvicorn: install rulesdsl[web]") from None
    shown = f"[{host}]" if ":" in host else host
    app = create_app(workspace, executor=executor, workers=workers, hosts=_hosts(shown))
    listening = _listen(host, port)
    address = f"http://{shown}:{listening.getsockname()[1]}/"
    click.echo(f"rulesdsl serve: {address} (workspace {safe_text(str(workspace.resolve()))})")
    if open_page:
        webbrowser.open(address)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[listening])


def _hosts(shown: str) -> tuple[str, ...]:
    """The Host names the app answers: this machine's, and the address it listens on."""
    from rulesdsl.web.guard import LOCAL_HOSTS

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
