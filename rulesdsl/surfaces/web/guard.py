"""What every response passes through: the Host check against DNS rebinding, the Origin
check against other sites' pages, and the headers that keep a page to its own files."""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def host_name(host: str) -> str | None:
    """The name of a Host header (`127.0.0.1:8765` -> `127.0.0.1`); None when malformed."""
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:
        name = host
    elif not port.isdigit():
        return None
    return name.lower() or None


class Guard:
    """Refuses a request whose Host (or Origin, when sent) is not one of `hosts`, and adds
    HEADERS to every response."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = LOCAL_HOSTS) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(headers)
        if problem is not None:
            await _refuse(send, problem)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [
                    (k.encode(), v.encode()) for k, v in HEADERS.items() if k.encode() not in names
                ]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)

    def _problem(self, headers: dict[str, str]) -> str | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            shown = host[:100] or "none"
            return f"the Host header ({shown}) is not this server's; open it at 127.0.0.1"
        origin = headers.get("origin")
        if origin is not None and host_name(urlsplit(origin).netloc) not in self.hosts:
            return "requests from other sites' pages are refused"
        return None


async def _refuse(send: Send, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in HEADERS.items()]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
