"""Several server processes sharing one PostgreSQL database: notices through ``LISTEN/NOTIFY``.

PostgreSQL is the coordination engine; there is no protocol between server processes. A table is
played by one process, its owner (:mod:`rummykit.web.owners`), and its connections reaching other
processes are relayed there, so moves are made and broadcast by the owner alone. Moves are still
serialised by the database: action number ``idx`` of a table is the primary key ``(code, idx)`` of
``rk_actions``, so even an owner that stalled past its lease and was replaced cannot store a move
at a version already taken: it is refused, catches up from the database and tells its client the
move was stale (and lets the table go at its next lease renewal). A lobby change (join, leave,
start) made by another process on a copy of the table is a compare-and-set on the table row.

Lobby changes and presence are announced on the channel :data:`CHANNEL` in the same transaction
(so a notice is delivered only if the change committed), as ``origin:kind:code[:n]``; moves are not
(only the owner needs them, and it made them):

* ``l`` (lobby): seats or status of ``code`` changed;
* ``p`` (presence): a person took seat ``n`` of ``code`` on process ``origin`` (other processes
  stop counting that seat as away).

``origin`` is a random id per process; a process ignores its own notices. A :class:`Listener` holds
one database connection per process, in a thread, and hands notices to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, Engine, text

from rummykit.web.failures import reason

log = logging.getLogger("rummykit.web")

CHANNEL: Final = "rummykit"
POLL_SECONDS: Final = 0.5
"""How often the listener thread looks whether it should stop."""
RECONNECT_SECONDS: Final = 0.5
RECONNECT_MAX_SECONDS: Final = 10.0
"""The listener's first and longest wait between attempts to connect again."""


def new_origin() -> str:
    """A random id for one server process."""
    return secrets.token_hex(6)


@dataclass(frozen=True)
class Notice:
    """One decoded notice (see the module docstring)."""

    origin: str
    kind: str
    code: str
    number: int | None = None

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        parts = payload.split(":")
        if len(parts) not in (3, 4) or parts[1] not in ("m", "l", "p"):
            return None
        try:
            number = int(parts[3]) if len(parts) == 4 else None
        except ValueError:
            return None
        return cls(parts[0], parts[1], parts[2], number)

    def payload(self) -> str:
        tail = "" if self.number is None else f":{self.number}"
        return f"{self.origin}:{self.kind}:{self.code}{tail}"


def notify(connection: Connection, notices: list[Notice]) -> None:
    """Announce ``notices`` in the connection's transaction (delivered when it commits)."""
    if not notices:
        return
    connection.execute(
        text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
        {"channel": CHANNEL, "payloads": [n.payload() for n in notices]},
    )


class Listener:
    """``LISTEN`` on one dedicated connection in a thread; notices go to ``deliver`` on the loop.

    A lost connection (the database restarted, a network break) is made again, with waits growing
    from :data:`RECONNECT_SECONDS` to :data:`RECONNECT_MAX_SECONDS`; notices sent meanwhile are lost,
    so after each reconnection ``resync`` runs on the loop (the manager reloads its tables' lobbies).
    Each loss and return is one log line.
    """

    def __init__(
        self,
        engine: Engine,
        origin: str,
        deliver: Callable[[Notice], None],
        resync: Callable[[], None] = lambda: None,
    ) -> None:
        self.engine = engine
        self.origin = origin
        self.deliver = deliver
        self.resync = resync
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._thread = threading.Thread(target=self._run, args=(loop,), name="rummykit-listen", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        wait, lost = RECONNECT_SECONDS, False
        while not self._stop.is_set():
            try:
                connection = self._connect()
            except Exception as exc:
                self._ready.set()  # the server starts; the listener keeps trying
                if not lost:
                    log.warning("the database listener cannot connect (%s); retrying", reason(exc))
                lost = True
                self._stop.wait(wait)
                wait = min(wait * 2, RECONNECT_MAX_SECONDS)
                continue
            if self._stop.is_set():
                with contextlib.suppress(Exception):
                    connection.close()
                break
            if lost:
                log.warning("the database listener is back; tables reload their lobbies")
                with contextlib.suppress(RuntimeError):  # the loop closed while connecting
                    loop.call_soon_threadsafe(self.resync)
            lost = False
            self._ready.set()
            began = time.monotonic()
            try:
                self._listen(connection, loop)
            except Exception as exc:
                if not self._stop.is_set():
                    log.warning("the database listener lost its connection (%s); reconnecting", reason(exc))
                    lost = True
            finally:
                with contextlib.suppress(Exception):
                    connection.close()
            # A connection that failed at once (a database refusing LISTEN, a driver without
            # notifies) is retried after a growing wait, never in a tight loop.
            if time.monotonic() - began < RECONNECT_MAX_SECONDS:
                self._stop.wait(wait)
                wait = min(wait * 2, RECONNECT_MAX_SECONDS)
            else:
                wait = RECONNECT_SECONDS

    def _connect(self) -> Any:
        pooled = self.engine.raw_connection()
        connection: Any = pooled.driver_connection
        pooled.detach()  # this connection listens until it fails or the process ends, outside the pool
        try:
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
        except Exception:
            with contextlib.suppress(Exception):
                connection.close()
            raise
        return connection

    def _listen(self, connection: Any, loop: asyncio.AbstractEventLoop) -> None:
        while not self._stop.is_set():
            for item in connection.notifies(timeout=POLL_SECONDS):
                notice = Notice.parse(item.payload)
                if notice is not None and notice.origin != self.origin:
                    loop.call_soon_threadsafe(self.deliver, notice)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(POLL_SECONDS * 4)
