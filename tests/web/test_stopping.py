"""A server process stopping (SIGTERM) while a websocket handshake waits for the database: the
handshake is refused as a restart (503 with Retry-After), not answered 500, and a websocket already
open is closed with 1012, both of which the page answers by connecting again."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

uvicorn = pytest.importorskip("uvicorn")
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from rummykit.cli.serve import server_config  # noqa: E402
from rummykit.web.app import create_app  # noqa: E402
from tests.web.test_log_limit import Lines  # noqa: E402


def test_a_handshake_waiting_when_the_server_stops_is_refused_as_a_restart(tmp_path: Path, web: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'stop.db'}", settings=web.settings())
    server = uvicorn.Server(server_config(app, False, "", "warning", log_config=None))
    listener = socket.create_server(("127.0.0.1", 0))
    base = f"127.0.0.1:{listener.getsockname()[1]}"
    running = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    running.start()
    lines = Lines()
    logging.getLogger("uvicorn.error").addHandler(lines)
    entered, gate = threading.Event(), threading.Event()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and running.is_alive()
            time.sleep(0.05)
        code = httpx.post(f"http://{base}/api/tables", json={"preset": "gin", "seats": 2}).json()["code"]
        opened = connect(f"ws://{base}/ws/{code}")
        opened.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(opened.recv(timeout=10))["type"] == "welcome"

        manager = app.state.manager
        counted = manager.open_connection

        async def slow_count(address: str) -> Any:  # the database is slow to count the connection
            entered.set()
            await asyncio.to_thread(gate.wait, 30)
            return await counted(address)

        manager.open_connection = slow_count
        refused: list[BaseException] = []

        def waiting() -> None:
            try:
                connect(f"ws://{base}/ws/{code}", open_timeout=30).close()
            except BaseException as exc:
                refused.append(exc)

        handshake = threading.Thread(target=waiting)
        handshake.start()
        assert entered.wait(10)
        server.handle_exit(signal.SIGTERM, None)  # what SIGTERM does
        handshake.join(10)
        assert refused and isinstance(refused[0], InvalidStatus), refused
        answer = refused[0].response
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                opened.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    finally:
        gate.set()
        server.should_exit = True
        running.join(30)
        logging.getLogger("uvicorn.error").removeHandler(lines)
    assert not running.is_alive()
    assert not [line for line in lines.lines if "Exception" in line or "500" in line], lines.lines


def test_a_changed_uvicorn_protocol_falls_back_to_uvicorns_shutdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal reads uvicorn's internals: a protocol without them (a later uvicorn) is shut down
    as uvicorn does, so that the server goes on closing its other connections."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    from rummykit.web.stopping import StoppingWebSockets

    shut: list[object] = []
    monkeypatch.setattr(WebSocketsSansIOProtocol, "shutdown", lambda self: shut.append(self))
    protocol = object.__new__(StoppingWebSockets)  # none of the attributes the refusal reads
    protocol.shutdown()
    assert shut == [protocol] and not protocol.refused
