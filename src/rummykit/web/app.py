"""The FastAPI application: the page, the lobby API and the table websocket.

=====================================  ==============================================================
``GET /``                              the card-table page (``static/index.html``); ``HEAD`` too
``GET /api/health``                    ``{"ok": true, "tables": n}``, 503 when a database thread of the
                                       process does not answer (:mod:`~rummykit.web.health`);
                                       ``HEAD`` too, for monitors
``GET /api/presets``                   presets with their options, names, house-rule controls,
                                       bot kinds (their names and lines in both languages) and levels
``GET /api/messages``                  table labels (phases, showdown, scores) in English and German
``GET /api/tables``                    tables waiting for players and tables being played
``POST /api/tables``                   create a table (:class:`~rummykit.web.protocol.CreateTable`);
                                       answers the host's seat and token
``GET /api/presets/{name}/rules``      a preset's rules page (``?lang=en`` or ``de``): escaped HTML
``POST /api/presets/{name}/rules``     the same with house rules (:class:`~rummykit.web.protocol.HouseRules`)
``GET /api/tables/{code}``             the lobby of one table
``GET /api/tables/{code}/rules``       the rules page of one table, house rules included
``POST /api/tables/{code}/join``       take the next open seat; answers seat and token
``POST /api/tables/{code}/start``      the host fills open seats with bots and starts
``POST /api/tables/{code}/leave``      give a seat up (a bot takes it during play)
``POST /api/tables/{code}/rematch``    the host opens a new table with the same seats and rules
                                       after the match (others get their seats by websocket)
``POST /api/tables/{code}/retake``     take back, with the same token, a seat a bot holds since
                                       its person left during play
``WS /ws/{code}``                      play or watch: the first message is ``{"type": "hello",
                                       "token": …}`` (a seat token, or ``null`` to watch)
=====================================  ==============================================================

Every bound of :class:`~rummykit.web.limits.ServerSettings` is enforced here or in the table
manager: request bodies are read only up to the limit, lobby requests and table creations are rate
limited per client address (429 with ``Retry-After``), seats taken in other people's waiting tables
are capped per address (429), websocket connection attempts per address are
rate limited at the lobby request rate before any database work (``too_many_attempts``, close 4429),
websocket connections per address are capped and websocket messages per connection are rate limited
(``rate_limited`` errors). Every per-address bound counts by
:func:`~rummykit.web.limits.network_key` (an IPv6 client by its /64), and every per-address rate binds
the address's wider network too, at four addresses' worth (:class:`~rummykit.web.limits.NetworkRate`).
Validation errors
name the field and the problem, never echo what was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.bots import BOT_KIND_LINES, BOT_KIND_NAMES, BOT_LEVELS, LEVEL_LINES, LEVELED_KINDS
from rummykit.errors import RulesError
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.web import organiser, protocol
from rummykit.web.clients import Client
from rummykit.web.compression import CompressedFiles
from rummykit.web.guesses import too_many_misses
from rummykit.web.headers import SecurityHeaders
from rummykit.web.health import HealthCheck
from rummykit.web.houserules import advanced_examples, house_rules
from rummykit.web.limits import (
    MAX_BODY_BYTES,
    MESSAGE_CHARACTERS,
    NETWORK_SHARE,
    BodyLimit,
    HttpRate,
    NetworkRate,
    RateLimiter,
    ServerSettings,
    network_key,
    retry_after,
    shown,
)
from rummykit.web.lobby import WEB_BOT_KINDS, LobbyError, default_bot_kind, hash_token
from rummykit.web.manager import TableManager
from rummykit.web.owners import LEASE_SECONDS, RENEW_SECONDS
from rummykit.web.protocol import (
    CreateTable,
    HouseRules,
    JoinTable,
    OrganiserLabel,
    OrganiserRemove,
    RemoveSeat,
    SeatGrant,
    TokenBody,
    error_json,
)
from rummykit.web.relay import CLOSE_RESTART, relay, relayed_address
from rummykit.web.rematch import offer as offer_rematch
from rummykit.web.rematch import rematch
from rummykit.web.rulebook import PageLang, preset_lines, preset_rules, rules_page
from rummykit.web.seats import retake
from rummykit.web.store import Store, default_database_url
from rummykit.web.tables import Table, joinable, needs_held_seat, needs_seat, needs_status, record_not_yet
from rummykit.web.texts import (
    bot_kind_texts,
    bot_name_texts,
    engine_error_texts,
    level_texts,
    messages_json,
    server_error_texts,
)

STATIC: Final = Path(__file__).parent / "static"
STORAGE_RETRY_SECONDS: Final = 5
"""``Retry-After`` of a request the database could not take (503)."""
log = logging.getLogger("rummykit.web")
WS_CLOSE_NO_TABLE: Final = 4404
WS_CLOSE_UNREADABLE: Final = 4409
"""The table is stored but this version cannot play it (an ``error`` ``table_unreadable`` says why)."""
WS_CLOSE_BAD_TOKEN: Final = 4403
WS_CLOSE_BAD_HELLO: Final = 4400
WS_CLOSE_LIMIT: Final = 4429
RELAY_RETRY_SECONDS: Final = 0.5
"""How often a connection for a table whose owner cannot be reached asks again who owns it."""
SEAT_TOKEN_CHARACTERS: Final = 100
"""The longest seat's token taken from a header (:func:`seat_token`), as a request body takes it."""
HELLO_SECONDS: Final = 10.0
"""How long a new connection may take to send its ``hello``."""

__all__ = ["MAX_BODY_BYTES", "create_app"]


BODY_PROBLEMS: Final = {
    "no_body": "the request needs a JSON body",
    "body_not_object": "the request body must be a JSON object",
    "body_not_json": "the request body is not valid JSON",
}
"""What is wrong with a request body as a whole, by code (German: ``SERVER_ERRORS_DE``)."""


NAME_PROBLEMS: Final = {
    "string_too_long": ("name_too_long", f"name: at most {protocol.NAME_CHARACTERS} characters"),
    "value_error": (
        "name_not_printable",
        "name: printable text only (no tab, line break or other invisible character)",
    ),
}
"""A player's name a person typed and the page sent as it was, by pydantic's error type: the code
and the English text (German: ``SERVER_ERRORS_DE``); any other field's problem is a client's and
answered in English (:func:`validation_detail`)."""
LABEL_PROBLEMS: Final = {
    "string_too_long": ("label_too_long", f"label: at most {protocol.LABEL_CHARACTERS} characters"),
    "value_error": (
        "label_not_printable",
        "label: printable text only (no tab, line break or other invisible character)",
    ),
}
"""The same for a table's label the organiser typed (:attr:`~rummykit.web.protocol.CreateTable.label`)."""
TYPED: Final = {
    "name": (NAME_PROBLEMS, protocol.NAME_CHARACTERS),
    "label": (LABEL_PROBLEMS, protocol.LABEL_CHARACTERS),
}
"""The fields a person types, their problems and their longest length."""


def name_problem(errors: list[Any]) -> tuple[str, str, int] | None:
    """The code and text of :data:`NAME_PROBLEMS` (or :data:`LABEL_PROBLEMS`) when the first validation
    error is the name's (or the label's), and the field's longest length."""
    loc = tuple(errors[0].get("loc", ())) if errors else ()
    if len(loc) != 2 or loc[0] != "body" or loc[1] not in TYPED:
        return None
    problems, limit = TYPED[loc[1]]
    found = problems.get(errors[0].get("type", ""))
    return None if found is None else (*found, limit)


BODY_PARSE_ERROR: Final = "There was an error parsing the body"
"""FastAPI's detail of the 400 it raises for a body it cannot decode at all (before validation)."""


def body_problem(errors: list[Any]) -> str | None:
    """The code of :data:`BODY_PROBLEMS` when the first validation error is about the body as a
    whole (none was sent, it is not JSON, or not an object) rather than one of its fields."""
    if not errors:
        return None
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        return "body_not_json"
    if loc == ("body",):
        return "no_body" if first.get("type") == "missing" else "body_not_object"
    return None


def validation_detail(errors: list[Any]) -> str:
    """One line naming the first invalid field and why (a body wrong as a whole is said by
    :func:`body_problem`); the value sent is never repeated, and a field name the client made up is
    quoted only as :func:`~rummykit.web.limits.shown` (clipped, escaped)."""
    if not errors:
        return "invalid request"
    first = errors[0]
    where = ".".join(shown(p) for p in first.get("loc", ()) if p != "body")
    message = shown(first.get("msg", "invalid"), MESSAGE_CHARACTERS)
    return f"{where}: {message}" if where else message


def create_app(
    database_url: str | None = None,
    *,
    settings: ServerSettings | None = None,
    relay_address: str = "",
    address_key: bytes | None = None,
    organiser_key: str | None = None,
    **options: Any,
) -> FastAPI:
    """The web application; open tables are loaded from the database when it starts.

    ``database_url`` defaults to ``RUMMYKIT_DATABASE_URL`` or an SQLite file in the user's data
    directory. ``settings`` holds every bound (:class:`ServerSettings`); single settings may be given
    as keywords instead (``bot_delay=0``, ``takeover_seconds=30`` …). ``relay_address``
    (``host:port``) is where other server processes sharing a PostgreSQL database reach this one
    (:mod:`rummykit.web.relay`); without it, tables this process owns cannot be relayed to.
    ``address_key`` keys the stored digests of client addresses (:mod:`rummykit.web.address_key`;
    ``rummykit serve`` always gives one); without it they are plain SHA-256. ``organiser_key``
    serves the organiser's requests to whoever shows it (:mod:`rummykit.web.organiser`; without
    it, none).
    """
    url = database_url or default_database_url()
    if options:
        settings = dataclasses.replace(settings or ServerSettings(), **options)
    config = settings or ServerSettings()
    site_links = {k: v for k, v in (("imprint", config.imprint_url), ("privacy", config.privacy_url)) if v}
    creations = NetworkRate(config.creations_per_second, config.creations_burst)
    requests = NetworkRate(config.requests_per_second, config.requests_burst)
    attempt_burst = config.requests_burst + config.max_connections_per_address
    network_attempt_burst = NETWORK_SHARE * config.requests_burst + config.max_connections_per_network
    attempts = NetworkRate(config.requests_per_second, attempt_burst, network_attempt_burst)
    """Websocket connection attempts per address and per wider network, in this process: the lobby
    request rates, with room in the bursts to fill the connection caps at once. Spent before any
    database work (with PostgreSQL an attempt costs four or five trips on the lookups' thread: the
    counts of the address and its network, a made-up token's seat at a waiting table, the uncounts;
    eight for a code that names no table, which the misses bound)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, url)
        manager = TableManager(store, config, relay_address, address_key)
        await manager.load()
        app.state.manager = manager
        try:
            yield
        finally:
            await manager.close()

    app = FastAPI(title="rummykit", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    # The framework answers `/api/health/` or `/static` with a redirect to an absolute URL it builds
    # from the request's Host header, which a stranger chooses (a shared cache in front would then
    # send other people to the stranger's host). No page links to such a path: they are not found.
    app.router.redirect_slashes = False
    app.state.settings = config
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(CompressedFiles)  # innermost: after the rate and the body limit
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    app.add_middleware(HttpRate, limiter=NetworkRate(config.http_per_second, config.http_burst))
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        headers = None if exc.retry_after is None else {"Retry-After": retry_after(exc.retry_after)}
        body: dict[str, object] = {"detail": exc.message, "code": exc.error}
        if exc.texts is not None:
            body["texts"] = exc.texts
        return JSONResponse(body, exc.status, headers=headers)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # The database is away or full: nothing was changed (a lobby change is undone when its
        # write fails). One log line, without the statement or its parameters.
        log.warning("a request could not be stored: %s", type(exc).__name__)
        message = "the server cannot store changes right now; nothing changed; try again shortly"
        texts = server_error_texts("storage_down", message)
        body = {"detail": message, "code": "storage_down", "texts": texts}
        return JSONResponse(body, 503, headers={"Retry-After": str(STORAGE_RETRY_SECONDS)})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # A body FastAPI cannot even decode (bytes that are not UTF-8, JSON nested deeper than the
        # parser goes) is refused before validation, with a bare 400: said as any body that is not
        # JSON is. Every other HTTP error keeps the framework's answer.
        if exc.status_code == 400 and exc.detail == BODY_PARSE_ERROR:
            detail = BODY_PROBLEMS["body_not_json"]
            texts = server_error_texts("body_not_json", detail)
            return JSONResponse({"detail": detail, "code": "body_not_json", "texts": texts}, 422)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # A field's problem is pydantic's English (it names the field for a program); a body that is
        # missing, not JSON or not an object is said in every language.
        errors = list(exc.errors())
        named = name_problem(errors)
        if named is not None:  # what a person typed: said in their language
            code, detail, most = named
            texts = server_error_texts(code, detail, limit=str(most))
            return JSONResponse({"detail": detail, "code": code, "texts": texts}, 422)
        problem = body_problem(errors)
        if problem is None:
            return JSONResponse({"detail": validation_detail(errors), "code": "invalid"}, 422)
        detail = BODY_PROBLEMS[problem]
        texts = server_error_texts(problem, detail)
        return JSONResponse({"detail": detail, "code": problem, "texts": texts}, 422)

    def address_of(request: Request | WebSocket) -> str:
        """The key the client's per-address limits count by (:func:`network_key`: an IPv6 /64)."""
        return network_key(request.client.host) if request.client is not None else "unknown"

    async def limit(request: Request, limiter: NetworkRate, what: str) -> None:
        address = address_of(request)
        wait = limiter.take(address)
        # Only this process's buckets know whether the wider network refused; the database's bucket
        # (every process's requests together) counts the address alone.
        wider = wait > 0 and limiter.network_refused(address)
        if wait <= 0:
            wait = await manager_of(request).take_shared(limiter, what.split()[-1], address)
        if wait > 0:
            seconds = retry_after(wait)
            if wider:
                message = f"too many {what} from the wider network yours belongs to; try again in {seconds} s"
                texts = server_error_texts("network_rate", message, seconds=seconds)
            else:
                message = (
                    f"too many {what} from your network (a school or office shares one address); try "
                    f"again in {seconds} s"
                )
                texts = server_error_texts("rate", message, seconds=seconds)
            raise LobbyError(429, message, wait, texts=texts, error="rate_limited")

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    # HEAD too: monitors and load balancers check a server with HEAD requests.
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    health_check = HealthCheck()

    @app.api_route("/api/health", methods=["GET", "HEAD"])
    async def health(request: Request) -> Any:
        # Each database thread answers too (rummykit.web.health): a server whose database hangs or
        # is away, or whose lookups or lease are stuck, is not healthy though its process answers
        # (a monitor restarting it, or a balancer sending people elsewhere). Open tables only: an
        # ended table rebuilt for a lookup is not counted, so the count does not tell which code a
        # lookup found.
        manager = manager_of(request)
        tables = len(manager.open_tables())
        if not await health_check.healthy(manager):
            return JSONResponse({"ok": False, "tables": tables, "database": "not answering"}, 503)
        return {"ok": True, "tables": tables}

    @app.get("/api/messages")
    async def messages() -> dict[str, Any]:
        return messages_json()

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": {name: Rules.preset(name).to_dict() for name in PRESET_NAMES},
            "bots": list(WEB_BOT_KINDS),
            "levels": list(BOT_LEVELS),
            "leveled_bots": [kind for kind in WEB_BOT_KINDS if kind in LEVELED_KINDS],
            "level_lines": dict(LEVEL_LINES),
            "level_texts": level_texts(LEVEL_LINES),
            "bot_texts": bot_kind_texts(BOT_KIND_LINES, WEB_BOT_KINDS),
            "bot_names": bot_name_texts(BOT_KIND_NAMES, WEB_BOT_KINDS),
            "default_bot": default_bot_kind(),
            "names": preset_lines(),
            "house_rules": house_rules(),
            "advanced_examples": advanced_examples(),
            "site_links": site_links,
        }

    @app.get("/api/presets/{name}/rules")
    async def preset_rules_page(request: Request, name: str, lang: PageLang = "en") -> dict[str, Any]:
        await limit(request, requests, "requests")
        rules = preset_rules(name)
        if rules is None:
            presets = ", ".join(PRESET_NAMES)
            message = f"no such preset; presets: {presets}"
            texts = server_error_texts("no_such_preset", message, presets=presets)
            raise LobbyError(404, message, texts=texts, error="no_such_preset")
        return {"preset": name, **rules_page(rules, lang)}

    @app.post("/api/presets/{name}/rules")
    async def house_rules_page(
        request: Request, name: str, body: HouseRules, lang: PageLang = "en"
    ) -> dict[str, Any]:
        """The rules page of a table not made yet: the preset with the create form's house rules, as
        the table's own page will show them (refused as the create request would refuse them)."""
        await limit(request, requests, "requests")
        if preset_rules(name) is None:
            presets = ", ".join(PRESET_NAMES)
            message = f"no such preset; presets: {presets}"
            texts = server_error_texts("no_such_preset", message, presets=presets)
            raise LobbyError(404, message, texts=texts, error="no_such_preset")
        try:
            rules = Rules.from_mapping({"preset": name, **body.overrides})
        except RulesError as exc:
            raise LobbyError(400, str(exc), texts=engine_error_texts(exc), error="rules") from None
        TableManager.check_server_rules(rules)
        return {"preset": name, **rules_page(rules, lang)}

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        return {"tables": await manager_of(request).lobbies()}

    def grant(table: Table, seat: int, token: str) -> SeatGrant:
        return SeatGrant(code=table.code, seat=seat, token=token, url=f"/?table={table.code}")

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, spec: CreateTable) -> SeatGrant:
        await limit(request, creations, "table creations")
        table, seat, token = await manager_of(request).create(spec, address_of(request))
        return grant(table, seat, token)

    @app.get("/api/tables/{code}")
    async def get_table(request: Request, code: str) -> dict[str, Any]:
        await limit(request, requests, "requests")  # a lookup by code (and, shared, a database read)
        return await manager_of(request).lobby(code, address_of(request), seat_token(request))

    @app.get("/api/tables/{code}/rules")
    async def table_rules_page(request: Request, code: str, lang: PageLang = "en") -> dict[str, Any]:
        await limit(request, requests, "requests")
        found, rules = await manager_of(request).rules_of(code, address_of(request), seat_token(request))
        return {"code": found, **rules_page(rules, lang)}

    @app.get("/api/tables/{code}/record")
    async def table_record(request: Request, code: str) -> Response:
        await limit(request, requests, "requests")
        address, token = address_of(request), seat_token(request)
        table = await manager_of(request).find(code, record_not_yet, address, token)
        disposition = f'attachment; filename="rummykit-{table.code}.json"'
        headers = {"Content-Disposition": disposition}
        return Response(await table.record_json(), media_type="application/json", headers=headers)

    @app.post("/api/tables/{code}/join")
    async def join_table(request: Request, code: str, body: JoinTable) -> SeatGrant:
        await limit(request, requests, "requests")
        table = await manager_of(request).find(code, joinable, address_of(request))
        seat, token = await table.join(body.name, address_of(request))
        return grant(table, seat, token)

    @app.post("/api/tables/{code}/start")
    async def start_table(request: Request, code: str, body: TokenBody) -> dict[str, Any]:
        await limit(request, requests, "requests")
        table = await manager_of(request).find(code, needs_status("waiting"), address_of(request), body.token)
        await table.start(body.token)
        return table.lobby_json()

    @app.post("/api/tables/{code}/remove")
    async def remove_person(request: Request, code: str, body: RemoveSeat) -> dict[str, Any]:
        await limit(request, requests, "requests")
        table = await manager_of(request).find(code, needs_status("waiting"), address_of(request), body.token)
        await table.remove(body.token, body.seat, body.name)
        return table.lobby_json()

    @app.post("/api/tables/{code}/leave")
    async def leave_table(request: Request, code: str, body: TokenBody) -> dict[str, Any]:
        await limit(request, requests, "requests")
        table = await manager_of(request).find(code, needs_seat(body.token), address_of(request), body.token)
        await table.leave(body.token)
        return table.lobby_json()

    @app.post("/api/tables/{code}/retake")
    async def retake_seat(request: Request, code: str, body: TokenBody) -> SeatGrant:
        await limit(request, requests, "requests")
        held = needs_held_seat(body.token)
        table = await manager_of(request).find(code, held, address_of(request), body.token)
        seat = await retake(table, body.token)
        return grant(table, seat, body.token)

    @app.post("/api/tables/{code}/rematch", status_code=201)
    async def rematch_table(request: Request, code: str, body: TokenBody) -> SeatGrant:
        await limit(request, creations, "table creations")
        table = await manager_of(request).rematch_source(code, body.token, address_of(request))
        new, seat, token = await rematch(table, table.seat_for_token(body.token), address_of(request))
        return grant(new, seat, token)

    if organiser_key is not None:
        _organiser_routes(app, organiser_key, lambda request: limit(request, requests, "requests"))

    @app.websocket("/ws/{code}")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        if "token" in websocket.query_params:
            # A token in the URL lands in access logs and proxies: it is refused, not used. Accepted
            # first, so the close code and its reason reach the page (a close before the accept is
            # an HTTP 403 in the handshake, which a browser sees as 1006 without a reason).
            await websocket.accept()
            await websocket.close(code=WS_CLOSE_BAD_HELLO, reason="send the token in the hello message")
            return
        manager = manager_of(websocket)
        relayed = relayed_address(
            websocket, manager.relay_key(manager.cluster.key) if manager.cluster else None
        )
        address = network_key(relayed) if relayed is not None else address_of(websocket)
        wait = 0.0 if relayed is not None else attempts.take(address)  # a relay was counted where it came in
        if wait > 0:
            await websocket.accept()
            if attempts.network_refused(address):
                why = "too many connection attempts from the wider network yours belongs to; wait"
                texts = server_error_texts("network_attempts", why)
            else:
                why = "too many connection attempts from your network; wait"
                texts = server_error_texts("too_many_attempts", why)
            error = error_json("too_many_attempts", why, texts=texts)
            await websocket.send_json({**error, "retry_after": round(wait, 3)})
            await websocket.close(code=WS_CLOSE_LIMIT)
            return
        if manager.sockets >= config.max_connections:  # each an open file: HTTP must still be answered
            await _refuse_connection(websocket, "server", config)
            return
        manager.sockets += 1  # before the count's await: handshakes meanwhile see this one
        try:
            refused = None if relayed is not None else await manager.open_connection(address)
        except BaseException:  # the database failed: the page tries again, and this one is not held
            manager.sockets -= 1
            raise
        if refused is not None:  # a relayed connection was counted by the process its client reached
            manager.sockets -= 1
            await _refuse_connection(websocket, refused, config)
            return
        try:
            await _serve(websocket, manager, code, address, relayed is not None)
        finally:
            manager.sockets -= 1
            if relayed is None:
                await manager.close_connection(address)

    async def _serve_seated(
        websocket: WebSocket, manager: TableManager, code: str, address: str, relayed: bool
    ) -> None:
        """A connection from a network whose misses are spent (:mod:`rummykit.web.guesses`) to a
        table the lobby does not list (a listed one is served as from any network: :func:`_serve`):
        served only when its hello shows the token of a seat at the table, by the process that plays
        the table, where it is relayed with that hello (:func:`_relayed`) as :func:`_serve` relays any;
        anyone else is refused as if the table did not matter (``too_many_misses``, 4429), so the
        refusal says nothing about the table. The token is proved before anything is loaded
        (:meth:`TableManager.prove_seat`): another process's match is not replayed here on the way."""
        await websocket.accept()
        hello = await _read_hello(websocket)
        if hello is False:
            return
        try:
            if not hello.token:
                raise too_many_misses(manager.misses_wait(address))
            await manager.prove_seat(code, address, hello.token)
            first = json.dumps({"type": "hello", "token": hello.token})
            if await _relayed(websocket, manager, code, address, relayed, first):
                return
            table = await manager.find(code, address=address, token=hello.token)
            digest = hash_token(hello.token)
            if not table.owned or not await table.holds_seat(digest):
                raise too_many_misses(manager.misses_wait(address))
        except LobbyError as exc:
            error = error_json(exc.error, exc.message, texts=exc.texts)
            await websocket.send_json({**error, "retry_after": round(exc.retry_after or 0.0, 3)})
            await websocket.close(code=WS_CLOSE_LIMIT)
            return
        rate = RateLimiter(config.messages_per_second, config.messages_burst)
        await _play(websocket, table, digest, rate, address)

    async def _relayed(
        websocket: WebSocket,
        manager: TableManager,
        code: str,
        address: str,
        relayed: bool,
        hello: str | None = None,
    ) -> bool:
        """Relay ``websocket`` to the process that plays table ``code`` (with its ``hello``, when it
        was read here already), an owner that cannot be reached waited for until its lease runs out:
        whether the connection was relayed (or closed, for the page to reconnect); ``False`` where this
        process plays the table (a table without a live owner is claimed now) or there is none. A
        connection relayed here already is not relayed again (no chains of relays)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LEASE_SECONDS + RENEW_SECONDS
        while True:
            route = await manager.route(code)
            if route is None or route.mine or route.owner is None:
                return False
            if relayed:  # ownership moved on meanwhile: the page reconnects
                await websocket.close(code=CLOSE_RESTART)
                return True
            if await relay(websocket, route, code, address, hello):
                return True
            if loop.time() > deadline:
                await websocket.close(code=CLOSE_RESTART)
                return True
            await asyncio.sleep(RELAY_RETRY_SECONDS)

    async def _serve(
        websocket: WebSocket, manager: TableManager, code: str, address: str, relayed: bool
    ) -> None:
        """Play here if this process owns the table (or takes it over), else relay to its owner;
        an owner that cannot be reached is waited for until its lease runs out."""
        # Before the route (with PostgreSQL a route is a transaction): a network out of misses takes the
        # usual way to a table the lobby lists only (its code is public: it is claimed or relayed).
        if manager.misses_wait(address) > 0 and not await manager.shows(code):
            await _serve_seated(websocket, manager, code, address, relayed)
            return
        if await _relayed(websocket, manager, code, address, relayed):
            return
        try:
            table = await manager.find(code, address=address)
        except LobbyError as exc:
            await websocket.accept()  # so that the close code reaches the page (see above)
            if exc.error == "table_unreadable":  # stored, but not playable here: say why, then close
                await websocket.send_json(error_json(exc.error, exc.message, texts=exc.texts))
                await websocket.close(code=WS_CLOSE_UNREADABLE)
                return
            await websocket.close(code=WS_CLOSE_LIMIT if exc.status == 429 else WS_CLOSE_NO_TABLE)
            return
        await websocket.accept()
        shown = await _hello(websocket, table)
        if shown is False:
            return
        rate = RateLimiter(config.messages_per_second, config.messages_burst)
        await _play(websocket, table, shown, rate, address)

    return app


async def _organiser_manager(request: Request) -> TableManager:
    """The table manager, for a request that shows the organiser's key (:func:`_organiser_routes`)."""
    await request.app.state.organiser_check(request)
    manager: TableManager = request.app.state.manager
    return manager


Organiser = Annotated[TableManager, Depends(_organiser_manager)]
"""The table manager of an organiser's request: the key is checked before the request does anything
(the framework parses a JSON body first, so a body that is not JSON is refused with 422 before it)."""


def seat_token(request: Request) -> str | None:
    """The seat's token a ``GET`` of a table's own pages shows as ``Authorization: Bearer TOKEN`` (never
    in the URL): it lets a player through where their network's misses are spent
    (:mod:`rummykit.web.guesses`), and is used for nothing else."""
    scheme, _, shown = request.headers.get("authorization", "").partition(" ")
    token = shown.strip()
    return token if scheme.lower() == "bearer" and 0 < len(token) <= SEAT_TOKEN_CHARACTERS else None


def _organiser_routes(app: FastAPI, key: str, limit: Callable[[Request], Awaitable[None]]) -> None:
    """The organiser's requests (:mod:`rummykit.web.organiser`): every table of this process, closing
    one, and the organiser's own tables: making one, starting one or all, taking a seat back. Each
    shows the key, checked before the request does anything; a wrong key costs the address's request
    budget like any lookup, and so does every request of the organiser's (a table made too: the
    organiser is known by the key, not by an address, and ``max_organiser_tables`` bounds them)."""

    async def authorised(request: Request) -> None:
        await limit(request)
        organiser.check_key(request, key)

    app.state.organiser_check = authorised

    @app.get("/api/organiser/tables")
    async def organiser_tables(manager: Organiser) -> dict[str, Any]:
        manager.organiser_seen = asyncio.get_running_loop().time()  # its waiting tables do not expire
        return {"tables": organiser.entries(manager.tables.values())}

    @app.post("/api/organiser/tables", status_code=201)
    async def organiser_create(spec: CreateTable, manager: Organiser) -> dict[str, Any]:
        table = await manager.create_organised(spec)
        return organiser.organiser_entry(table)

    @app.post("/api/organiser/tables/{code}/close")
    async def organiser_close(code: str, manager: Organiser) -> dict[str, Any]:
        table = await manager.find(code)
        await table.close_by_organiser()
        return organiser.organiser_entry(table)

    @app.post("/api/organiser/tables/{code}/start")
    async def organiser_start(code: str, manager: Organiser) -> dict[str, Any]:
        table = await manager.find(code)
        await table.start_by_organiser()
        return organiser.organiser_entry(table)

    @app.post("/api/organiser/start")
    async def organiser_start_all(manager: Organiser) -> dict[str, Any]:
        return await organiser.start_all(manager.tables.values())

    @app.post("/api/organiser/rematch")
    async def organiser_rematch_all(manager: Organiser) -> dict[str, Any]:
        return await organiser.rematch_all(list(manager.tables.values()))

    @app.post("/api/organiser/tables/{code}/label")
    async def organiser_label(code: str, body: OrganiserLabel, manager: Organiser) -> dict[str, Any]:
        table = await manager.find(code)
        await table.relabel(body.label)
        return organiser.organiser_entry(table)

    @app.post("/api/organiser/tables/{code}/remove")
    async def organiser_remove(
        code: str, body: OrganiserRemove, manager: Organiser
    ) -> dict[str, Any]:
        table = await manager.find(code)
        await table.remove_by_organiser(body.seat, body.name)
        return organiser.organiser_entry(table)


async def _refuse_connection(
    websocket: WebSocket, limit: Literal["address", "network", "server"], config: ServerSettings
) -> None:
    """Say why a websocket connection is refused by a connection cap (an ``error``
    ``too_many_connections`` in every language) and close it with 4429, which the page waits on
    before it tries again."""
    await websocket.accept()
    if limit == "address":
        cap = config.max_connections_per_address
        message = (
            f"this network already has {cap} connections to the server, as many as it may (a school "
            "or office shares one address): close other tabs of this page, or ask whoever runs the "
            "server to raise --max-connections-per-address"
        )
        texts = server_error_texts("too_many_connections", message, n=str(cap))
    elif limit == "network":
        cap = config.max_connections_per_network
        message = (
            f"the wider network yours belongs to already has {cap} connections to the server, as many "
            "as it may: close other tabs of this page, or ask whoever runs the server to raise "
            "--max-connections-per-network"
        )
        texts = server_error_texts("too_many_network_connections", message, n=str(cap))
    else:
        message = "this server holds as many connections as it can just now; the page tries again shortly"
        texts = server_error_texts("server_connections", message)
    await websocket.send_json(error_json("too_many_connections", message, texts=texts))
    await websocket.close(code=WS_CLOSE_LIMIT)


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send a connection's queued messages in order; ``None`` closes it."""
    try:
        while True:
            text = await client.next()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        client.dropped = True
    finally:
        if websocket.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def _hello(websocket: WebSocket, table: Table) -> str | Literal[False] | None:
    """Read the first message: the digest of a token that holds a seat, ``None`` to watch, ``False``
    (closed) if bad. Which seat it holds is decided under the table's lock (:meth:`Table.connect`):
    a leave or a join may come first."""
    hello = await _read_hello(websocket)
    if hello is False:
        return False
    if not hello.token:
        return None
    digest = hash_token(hello.token)
    if not await table.holds_seat(digest):
        await websocket.close(code=WS_CLOSE_BAD_TOKEN, reason="unknown seat token")
        return False
    return digest


async def _read_hello(websocket: WebSocket) -> protocol.HelloMessage | Literal[False]:
    """The first message, a hello; ``False`` (the connection closed) if it is anything else or does
    not come in time."""
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), timeout=HELLO_SECONDS)
        if len(raw) > protocol.MAX_MESSAGE_BYTES:
            raise ValueError("too large")
        hello = protocol.HELLO.validate_json(raw)
    except (TimeoutError, ValueError, ValidationError, KeyError, WebSocketDisconnect, RuntimeError):
        with contextlib.suppress(Exception):
            await websocket.close(
                code=WS_CLOSE_BAD_HELLO, reason='the first message must be {"type": "hello"}'
            )
        return False
    return hello


async def _play(
    websocket: WebSocket, table: Table, shown: str | None, rate: RateLimiter, address: str
) -> None:
    """Serve one connection after its hello (``shown``: the digest of its seat token, ``None`` to
    watch): queue out, messages in (rate limited)."""
    client = Client(None, address)
    client.token_digest = shown
    writer = asyncio.create_task(_write(websocket, client))
    await table.connect(client)
    await offer_rematch(table, client)
    try:
        while not client.dropped:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                text = data.decode("utf-8", errors="replace")
            wait = rate.take(None)
            if wait > 0:
                error = error_json("rate_limited", "too many messages; slow down", table.version)
                client.send({**error, "retry_after": round(wait, 3)})
                continue
            await table.handle(client, text)
    except WebSocketDisconnect:
        pass
    finally:
        await table.disconnect(client)
        client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, timeout=1.0)
