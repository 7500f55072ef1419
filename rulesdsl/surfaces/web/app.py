"""The web app: routes of the page and of the JSON API, on Starlette.

Every answer is JSON (`{"error": message}` for a refusal) except the page, its files and a
trace download. Library calls run in worker threads, as many at once as ask: the readers
keep no state one read could see of another's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from rulesdsl.model.rules import RulesError
from rulesdsl.play.players.registry import bot_names
from rulesdsl.read.profile import find, shipped_names
from rulesdsl.read.sources import SourceError, read_text
from rulesdsl.reason.sequential import ALPHA
from rulesdsl.service import (
    UsageProblem,
    checked_rotation,
    checked_spec,
    checked_stopping,
    labels,
)
from rulesdsl.surfaces.web.bodies import bounded, field, json_body, profile_text
from rulesdsl.surfaces.web.checking import UNTITLED, check_text
from rulesdsl.surfaces.web.errors import ApiError, bad, not_found
from rulesdsl.surfaces.web.guard import HEADERS, LOCAL_HOSTS, Guard
from rulesdsl.surfaces.web.hangups import Hangups, in_thread
from rulesdsl.surfaces.web.jobs import Jobs
from rulesdsl.surfaces.web.limits import Limits
from rulesdsl.surfaces.web.refs import HUMAN, Named, check_bot, resolve, searching
from rulesdsl.surfaces.web.tables import PlayTable, Tables
from rulesdsl.surfaces.web.workspace import SYNTAXES, Workspace, check_name, syntax_of
from rulesdsl.words.explain import DEFAULT_LANGUAGE, languages

STATIC = Path(__file__).parent / "static"


class Server:
    """What the routes share: the workspace, the limits, the tables and the comparisons."""

    def __init__(self, workspace: Path, limits: Limits, executor: str, workers: int) -> None:
        self.workspace = Workspace(workspace, limits.profile_bytes)
        self.limits = limits
        self.tables = Tables(limits.tables)
        self.jobs = Jobs(limits.jobs, workers, executor)

    def close(self) -> None:
        """Before the server exits: cancel the comparisons and end their processes, and let
        a save under way finish (refusing any after). Closing again does nothing more."""
        self.jobs.close()
        self.workspace.close()

    async def body(self, request: Request) -> dict[str, Any]:
        return await json_body(request, self.limits.body_bytes)

    def text(self, body: dict[str, Any], name: str = "text") -> str:
        """A profile's text from the body, at most `profile_bytes` once encoded."""
        return profile_text(field(body, name, str), self.limits.profile_bytes)

    def lang(self, value: Any) -> str:
        lang = DEFAULT_LANGUAGE if value is None else value
        if lang not in languages():
            raise bad(f"`lang` is {str(lang)[:20]!r}; it must be one of {', '.join(languages())}")
        return lang

    # -- the routes --------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        index = STATIC / "index.html"
        if not index.is_file():
            raise not_found("the page is not installed")
        return FileResponse(index, media_type="text/html; charset=utf-8")

    async def meta(self, request: Request) -> Response:
        workspace = [
            {"name": e.name, "syntax": e.syntax, "origin": "workspace"}
            for e in self.workspace.files()
        ]
        return JSONResponse(
            {
                "version": version("rulesdsl"),
                "languages": list(languages()),
                "bots": bot_names(),
                "profiles": [*self._shipped(), *workspace],
                "workspace": str(self.workspace.root),
                "limits": self.limits.to_dict(),
            }
        )

    def _shipped(self) -> list[dict[str, str]]:
        found = []
        for name in shipped_names():
            path = find(name)
            if path is not None:
                found.append({"name": name, "syntax": SYNTAXES[path.suffix], "origin": "shipped"})
        return found

    async def profile(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name in shipped_names():
            path = find(name)
            try:
                text = read_text(path) if path is not None else None
            except SourceError:
                text = None
            if path is None or text is None:
                raise not_found(f"the shipped profile {name} cannot be read")
            answer = {"name": name, "syntax": SYNTAXES[path.suffix], "origin": "shipped"}
            return JSONResponse({**answer, "text": text, "version": None})
        text, current = self.workspace.read(name)
        answer = {"name": name, "syntax": syntax_of(name), "origin": "workspace"}
        return JSONResponse({**answer, "text": text, "version": current})

    async def check(self, request: Request) -> Response:
        body = await self.body(request)
        text = self.text(body)
        syntax = field(body, "syntax", str, "dsl")
        if syntax not in UNTITLED:
            raise bad(f"`syntax` is {syntax[:20]!r}; it must be dsl or yaml")
        lang = self.lang(body.get("lang"))
        name = field(body, "name", str, None)
        if name is not None and name not in shipped_names():
            check_name(name)
            if syntax_of(name) != syntax:
                raise bad(f"{name} is a {syntax_of(name)} file, but `syntax` is {syntax}")
        else:
            name = UNTITLED[syntax]
        root = self.workspace.root
        answer = await in_thread(check_text, text, root / name, root, lang)
        return JSONResponse(answer)

    async def workspace_list(self, request: Request) -> Response:
        files = [
            {"name": e.name, "syntax": e.syntax, "bytes": e.bytes, "version": e.version}
            for e in self.workspace.files()
        ]
        return JSONResponse({"files": files})

    async def workspace_read(self, request: Request) -> Response:
        name = request.path_params["name"]
        text, current = self.workspace.read(name)
        return JSONResponse(
            {"name": name, "syntax": syntax_of(name), "text": text, "version": current}
        )

    async def workspace_save(self, request: Request) -> Response:
        name = check_name(request.path_params["name"])
        body = await self.body(request)
        text = self.text(body)
        loaded = field(body, "version", str, None)
        saved = await in_thread(self.workspace.save, name, text, loaded)
        return JSONResponse({"name": name, "version": saved})

    # -- play -------------------------------------------------------------------------------

    def players(self, body: dict[str, Any]) -> int:
        return bounded(body, "players", 2, self.limits.players_max, 4)

    def seed(self, body: dict[str, Any], default: Any = ...) -> int:
        return bounded(body, "seed", 0, SEED_MAX, default)

    async def play(self, request: Request) -> Response:
        body = await self.body(request)
        lang = self.lang(request.query_params.get("lang"))
        players = self.players(body)
        bots = self.seat_bots(body, players, human=True)
        if bots.count(HUMAN) > 1:
            raise bad("at most one seat is `human`")
        seed = self.seed(body, None)
        is_match = field(body, "match", bool, False)
        named = await in_thread(resolve, body.get("profile"), self.workspace, self.limits)
        rules = named.profile.rules
        try:
            rules.check_players_of(named.ref, players)
        except RulesError as error:
            raise bad(str(error)) from None
        table = await in_thread(self.tables.open, named.ref, rules, bots, seed, is_match)
        return JSONResponse(await self.on_table(table, lambda: None, lang))

    def seat_bots(self, body: dict[str, Any], players: int, human: bool) -> list[str]:
        """The bot of each seat: one name for every seat, or a list of one per seat."""
        given = body.get("bots", "random")
        names = [given] * players if isinstance(given, str) else given
        if not isinstance(names, list) or len(names) not in (1, players):
            raise bad(f"`bots` names one bot for every seat, or one per seat ({players})")
        return [check_bot(name, self.limits, human) for name in names * (players // len(names))]

    async def on_table(self, table: PlayTable, work: Callable[[], None], lang: str) -> dict:
        """Do `work` at the table (holding it), then its state in `lang`."""

        def run() -> dict:
            with table.lock:
                work()
                return table.state(lang)

        return await in_thread(run)

    def table(self, request: Request) -> PlayTable:
        return self.tables.get(request.path_params["id"])

    async def table_state(self, request: Request) -> Response:
        lang = self.lang(request.query_params.get("lang"))
        return JSONResponse(await self.on_table(self.table(request), lambda: None, lang))

    async def table_move(self, request: Request) -> Response:
        table = self.table(request)
        body = await self.body(request)
        lang = self.lang(request.query_params.get("lang"))
        card = field(body, "card", str)
        return JSONResponse(await self.on_table(table, lambda: table.move(card, lang), lang))

    async def table_next(self, request: Request) -> Response:
        table = self.table(request)
        await self.body(request)
        lang = self.lang(request.query_params.get("lang"))
        return JSONResponse(await self.on_table(table, table.next_hand, lang))

    async def table_replay(self, request: Request) -> Response:
        table = self.table(request)
        if not table.replay:
            raise ApiError(409, "no hand has finished at this table yet")
        return JSONResponse({"steps": table.replay})

    async def table_trace(self, request: Request) -> Response:
        table = self.table(request)
        text = await in_thread(table.traced)
        disposition = f'attachment; filename="rulesdsl-trace-{table.seed}.jsonl"'
        return Response(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"content-disposition": disposition},
        )

    # -- compare --------------------------------------------------------------------------

    async def compare(self, request: Request) -> Response:
        body = await self.body(request)
        refs = field(body, "profiles", list)
        most = self.limits.compare_profiles
        if not 2 <= len(refs) <= most:
            raise bad(f"`profiles` lists {len(refs)}; compare takes 2 to {most}")
        players = self.players(body)
        bots = self.seat_bots(body, players, human=False)
        good_play = field(body, "good_play", str, None)
        if good_play is not None:
            check_bot(good_play, self.limits)
        slow = searching(bots) or good_play is not None
        most_hands = self.limits.search_hands if slow else self.limits.hands
        hands = bounded(body, "hands", 1, most_hands, min(1000, most_hands))
        seed = self.seed(body, 0)
        skill = field(body, "skill", bool, True)
        baseline = bounded(body, "baseline", 0, len(refs) - 1, 0)
        attribute = field(body, "attribute", bool, False)
        until_decided = field(body, "until_decided", bool, False)
        rotate = field(body, "rotate_seats", bool, False)
        named: list[Named] = [
            await in_thread(resolve, ref, self.workspace, self.limits) for ref in refs
        ]
        shown = labels([n.ref for n in named])
        profiles = [(label, n.profile.rules) for label, n in zip(shown, named, strict=True)]
        try:
            chosen = (players, hands, False, ",".join(bots), seed, skill, good_play, baseline)
            spec = checked_spec(profiles, *chosen, rotate=rotate)
            checked_rotation(spec, hands)
        except UsageProblem as error:
            raise bad(str(error)) from None
        alpha = float(field(body, "alpha", (int, float), ALPHA))
        names = field(body, "metrics", list, [])
        if not until_decided and (alpha != ALPHA or names):
            raise bad("`alpha` and `metrics` go with `until_decided`")
        if len(names) > MAX_METRICS or not all(isinstance(name, str) for name in names):
            raise bad(f"`metrics` must be a list of at most {MAX_METRICS} metric names")
        stopping = None
        if until_decided:  # `hands` is the most it plays
            try:
                stopping = checked_stopping(spec, alpha, hands, names, WEB_STOPPING)
            except UsageProblem as error:
                raise bad(str(error)) from None
        job = self.jobs.start(spec, attribute, stopping)
        return JSONResponse(job.to_dict())

    def job(self, request: Request):
        return self.jobs.get(request.path_params["job"])

    async def job_state(self, request: Request) -> Response:
        return JSONResponse(self.job(request).to_dict())

    async def job_cancel(self, request: Request) -> Response:
        job = self.job(request)
        job.stop()
        return JSONResponse(job.to_dict())

    async def job_result(self, request: Request) -> Response:
        form = request.query_params.get("format", "json")
        if form not in ("json", "csv"):
            raise bad(f"`format` is {form[:20]!r}; it must be json or csv")
        text = self.job(request).result(form == "csv")
        kind = "text/csv; charset=utf-8" if form == "csv" else "application/json"
        headers = {}
        if request.query_params.get("download"):
            headers["content-disposition"] = f'attachment; filename="compare.{form}"'
        return Response(text, media_type=kind, headers=headers)


SEED_MAX = 2**63 - 1
MAX_METRICS = 200
"""The most metric names `metrics` lists."""
WEB_STOPPING = {"alpha": "`alpha`", "metrics": "`metrics`"}
"""The fields of a compare that plays until decided, as a refusal names them."""


def _error(request: Request, error: Exception) -> Response:
    """A refusal as `{"error": message}`; anything else that went wrong says which request
    failed and what kind of failure it was, never where in the code."""
    if isinstance(error, ApiError):
        return JSONResponse(error.body(), status_code=error.status, headers=HEADERS)
    if isinstance(error, HTTPException):
        said = {404: "no such page or API route", 405: "this route does not take that method"}
        message = said.get(error.status_code, str(error.detail))
        return JSONResponse({"error": message}, status_code=error.status_code, headers=HEADERS)
    message = (
        f"the server failed to answer {request.method} {request.url.path} "
        f"({type(error).__name__}); nothing was saved by this request"
    )
    return JSONResponse({"error": message}, status_code=500, headers=HEADERS)


def _static() -> ASGIApp:
    """The page's files; where the page is not installed, an app that says so."""
    if STATIC.is_dir():
        return StaticFiles(directory=STATIC)

    async def missing(scope: Scope, receive: Receive, send: Send) -> None:
        raise not_found("the page is not installed")

    return missing


def create_app(
    workspace: Path,
    *,
    executor: str = "local",
    workers: int = 1,
    limits: Limits | None = None,
    hosts: tuple[str, ...] = LOCAL_HOSTS,
) -> Starlette:
    """The ASGI app serving the page and the API over the profiles in `workspace`; compare
    jobs run on `executor` (local processes, `workers` of them, or a Dask scheduler)."""
    server = Server(workspace, limits or Limits(), executor, workers)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await in_thread(server.close)

    routes = [
        Route("/", server.page),
        Route("/api/meta", server.meta),
        Route("/api/profiles/{name:path}", server.profile),
        Route("/api/check", server.check, methods=["POST"]),
        Route("/api/workspace", server.workspace_list),
        Route("/api/workspace/{name:path}", server.workspace_read, methods=["GET"]),
        Route("/api/workspace/{name:path}", server.workspace_save, methods=["PUT"]),
        Route("/api/play", server.play, methods=["POST"]),
        Route("/api/play/{id}", server.table_state),
        Route("/api/play/{id}/move", server.table_move, methods=["POST"]),
        Route("/api/play/{id}/next", server.table_next, methods=["POST"]),
        Route("/api/play/{id}/replay", server.table_replay),
        Route("/api/play/{id}/trace", server.table_trace),
        Route("/api/compare", server.compare, methods=["POST"]),
        Route("/api/jobs/{job}", server.job_state, methods=["GET"]),
        Route("/api/jobs/{job}", server.job_cancel, methods=["DELETE"]),
        Route("/api/jobs/{job}/result", server.job_result),
        Mount("/static", _static(), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=hosts), Middleware(Hangups)],
        exception_handlers={Exception: _error, ApiError: _error, HTTPException: _error},
        lifespan=lifespan,
    )
    app.state.server = server
    return app
