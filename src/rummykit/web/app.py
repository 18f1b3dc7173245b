"""The FastAPI application: the page, the lobby API and the table websocket.

=====================================  ==============================================================
``GET /``                              the card-table page (``static/index.html``)
``GET /api/health``                    ``{"ok": true, "tables": n}``
``GET /api/presets``                   presets with their options, bot kinds and levels
``GET /api/tables``                    tables waiting for players and tables being played
``POST /api/tables``                   create a table (:class:`~rummykit.web.protocol.CreateTable`);
                                       answers the host's seat and token
``GET /api/tables/{code}``             the lobby of one table
``POST /api/tables/{code}/join``       take the next open seat; answers seat and token
``POST /api/tables/{code}/start``      the host fills open seats with bots and starts
``POST /api/tables/{code}/leave``      give a seat up (a bot takes it during play)
``WS /ws/{code}?token=…``              play (with a seat token) or watch (without)
=====================================  ==============================================================
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.bots import BOT_LEVELS, bot_kinds
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.web.protocol import CreateTable, JoinTable, SeatGrant, TokenBody
from rummykit.web.store import Store, default_database_url
from rummykit.web.tables import Client, LobbyError, Table, TableManager, default_bot_kind

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY_BYTES: Final = 16 * 1024
WS_CLOSE_NO_TABLE: Final = 4404
WS_CLOSE_BAD_TOKEN: Final = 4403


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    takeover_seconds: float = 60.0,
) -> FastAPI:
    """The web application; tables are loaded from the database when it starts.

    ``database_url`` defaults to ``RUMMYKIT_DATABASE_URL`` or an SQLite file in the user's data
    directory. ``bot_delay`` is the pause before each bot move (seconds), ``takeover_seconds`` how
    long a disconnected player's seat waits before a bot plays it.
    """
    url = database_url or default_database_url()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, url)
        manager = TableManager(store, bot_delay=bot_delay, takeover_seconds=takeover_seconds)
        await manager.load()
        app.state.manager = manager
        try:
            yield
        finally:
            await manager.close()

    app = FastAPI(title="rummykit", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": f"request bodies are limited to {MAX_BODY_BYTES} bytes"}, 413)
        return await call_next(request)

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, exc.status)

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        return {"ok": True, "tables": len(manager_of(request).tables)}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": {name: Rules.preset(name).to_dict() for name in PRESET_NAMES},
            "bots": list(bot_kinds()),
            "levels": list(BOT_LEVELS),
            "default_bot": default_bot_kind(),
        }

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        tables = [t for t in manager_of(request).tables.values() if t.status in ("waiting", "playing")]
        return {"tables": [t.lobby_json() for t in tables[-50:]]}

    def grant(table: Table, seat: int, token: str) -> SeatGrant:
        return SeatGrant(code=table.code, seat=seat, token=token, url=f"/?table={table.code}")

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, spec: CreateTable) -> SeatGrant:
        table, seat, token = await manager_of(request).create(spec)
        return grant(table, seat, token)

    @app.get("/api/tables/{code}")
    async def get_table(request: Request, code: str) -> dict[str, Any]:
        return manager_of(request).get(code).lobby_json()

    @app.post("/api/tables/{code}/join")
    async def join_table(request: Request, code: str, body: JoinTable) -> SeatGrant:
        table = manager_of(request).get(code)
        seat, token = await table.join(body.name)
        return grant(table, seat, token)

    @app.post("/api/tables/{code}/start")
    async def start_table(request: Request, code: str, body: TokenBody) -> dict[str, Any]:
        table = manager_of(request).get(code)
        await table.start(body.token)
        return table.lobby_json()

    @app.post("/api/tables/{code}/leave")
    async def leave_table(request: Request, code: str, body: TokenBody) -> dict[str, Any]:
        table = manager_of(request).get(code)
        await table.leave(body.token)
        return table.lobby_json()

    @app.websocket("/ws/{code}")
    async def table_socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
        try:
            table = manager_of(websocket).get(code)
        except LobbyError:
            await websocket.close(code=WS_CLOSE_NO_TABLE)
            return
        seat: int | None = None
        if token:
            seat = table.seat_for_token(token)
            if seat is None:
                await websocket.close(code=WS_CLOSE_BAD_TOKEN)
                return
        await websocket.accept()
        client = Client(seat)
        writer = asyncio.create_task(_write(websocket, client))
        await table.connect(client)
        try:
            while not client.dropped:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", errors="replace")
                await table.handle(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            await table.disconnect(client)
            client.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=1.0)

    return app


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send a connection's queued messages in order; ``None`` closes it."""
    try:
        while True:
            text = await client.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        client.dropped = True
    finally:
        if websocket.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()
