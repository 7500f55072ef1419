"""Requests given up on before their answer: by the client, which hung up before it sent the
whole body, or by the server, which cancels the requests still open when it stops. Neither
is a failure of the server's, so neither leaves a traceback in its log: a request whose
client is gone ends without an answer, and one the server gave up on is answered 503.

Work handed to a thread goes on when the request waiting for it is given up on (`in_thread`):
a save under way finishes, and the server waits for it before it exits."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import anyio.to_thread
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

P = ParamSpec("P")
T = TypeVar("T")
STOPPING = "the server is stopping and did not finish this request; send it again once it runs"


async def in_thread(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`work(*args, **kwargs)` in a worker thread; a request given up on stops waiting for
    it at once, and the thread finishes the work alone."""
    call = functools.partial(work, *args, **kwargs)
    return await anyio.to_thread.run_sync(call, abandon_on_cancel=True)


class Hangups:
    """Ends a request quietly when its client hung up mid-body (Starlette's
    ClientDisconnect), or the server cancelled it as it stops."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except ClientDisconnect:
            return
        except asyncio.CancelledError:
            if not started:
                with contextlib.suppress(Exception):  # a courtesy: the server is going
                    await _unavailable(send)


async def _unavailable(send: Send) -> None:
    """503: the server stopped before it answered."""
    body = json.dumps({"error": STOPPING}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
