"""Relaying a table's websocket to the server process that owns the table.

Server processes sharing a database (:mod:`rummykit.web.owners`) each listen on an internal address
besides the public one. A process that receives a connection for a table another live process owns
opens a websocket to the owner's internal address and passes the messages through both ways, text
for text, without reading them: the owner checks everything as for any connection (hello, tokens,
rates, sizes). The owner's close code reaches the client (4403, 4404 …); when the owner goes away
the client gets 1012 ("service restart") and its page reconnects.

The relay tells the owner the client's address in a header, next to the owner's relay key
(:data:`KEY_HEADER`): only a process that read the key from the database can speak for another
address; without the right key the headers are ignored and the connection is an ordinary one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.web.owners import Route

KEY_HEADER: Final = "x-rummykit-relay"
ADDRESS_HEADER: Final = "x-rummykit-address"
OPEN_SECONDS: Final = 5.0
CLOSE_RESTART: Final = 1012
MAX_BYTES: Final = 1 << 20
"""Largest message taken from the owner (states are a few KiB)."""


def relayed_address(websocket: WebSocket, key: str | None) -> str | None:
    """The client address a relay speaks for, if the connection shows this process's key."""
    shown = websocket.headers.get(KEY_HEADER)
    if shown is None or not key or not hmac.compare_digest(shown.encode(), key.encode()):
        return None
    return websocket.headers.get(ADDRESS_HEADER, "unknown")[:64]


async def relay(
    websocket: WebSocket, route: Route, code: str, address: str, hello: str | None = None
) -> bool:
    """Pass ``websocket`` (not yet accepted) through to the owner of table ``code``; or one accepted
    already whose ``hello`` was read (a network out of misses: :mod:`rummykit.web.guesses`), which
    is sent on first.

    Returns ``False``, having read nothing (more) from the client, when the owner cannot be reached."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake, InvalidURI

    try:
        upstream = await connect(
            f"ws://{route.address}/ws/{code}",
            additional_headers={KEY_HEADER: route.key, ADDRESS_HEADER: address},
            compression=None,
            open_timeout=OPEN_SECONDS,
            ping_interval=None,
            max_size=MAX_BYTES,
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
        return False
    try:
        if hello is None:
            await websocket.accept()
        else:
            await upstream.send(hello)
    except Exception:
        await upstream.close()  # the client went away meanwhile
        raise

    async def down() -> None:
        async for message in upstream:
            text = message if isinstance(message, str) else message.decode("utf-8", errors="replace")
            await websocket.send_text(text)

    async def up() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", errors="replace")
            await upstream.send(text)

    tasks = [asyncio.create_task(down()), asyncio.create_task(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await upstream.close()
        code_sent = upstream.close_code
        if code_sent is None or code_sent in (1005, 1006, 1011):
            code_sent = CLOSE_RESTART
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await websocket.close(code=code_sent, reason=upstream.close_reason or "")
    return True
