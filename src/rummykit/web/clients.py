"""A websocket connection of a table: its seat, its token's digest and its outgoing queue, bounded
so that a connection too slow to read is dropped (:class:`Client`). Messages are sent as compact
JSON text (:func:`_dumps`, which the state messages of :mod:`rummykit.web.tables` share).

A state message waiting in the queue is replaced by a newer one rather than queued behind it: a
state is the whole table, so only the latest matters, and a burst of states (a hundred watchers
arriving at once, each once a state to everybody) cannot fill a player's queue and drop the player.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import orjson

__all__ = ["CLIENT_QUEUE", "Client"]

CLIENT_QUEUE: Final = 64
"""Messages queued for one connection before it is dropped as too slow."""
_STATE_PREFIX: Final = '{"type":"state"'
_STATE_SLOT: Final = "\x00the latest state"
"""What the queue holds where a state message waits: the state written is the latest one sent."""


def _dumps(value: Any) -> str:
    """Compact JSON text of a message part (orjson: a third of the time of ``json.dumps``)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class Client:
    """One websocket connection: its seat (``None`` for a spectator) and its outgoing queue."""

    def __init__(self, seat: int | None, address: str | None = None) -> None:
        self.seat = seat
        self.address = address
        """The client's address (its network key), for what a request over the socket counts
        against it (a rematch's new table)."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        """Unbounded, so that the end marker always fits; :meth:`send` keeps it to ``CLIENT_QUEUE``."""
        self.dropped = False
        self._state: str | None = None
        """The state message to write where :data:`_STATE_SLOT` waits in the queue."""
        self.token_digest: str | None = None
        """The digest of the seat token this connection showed in its hello (``None``: it watches):
        its seat is the one that token holds when it connects (:meth:`Table.connect`), and it is kept
        when the seat is left, so the connection takes the seat again when the token retakes it."""

    def send(self, message: dict[str, Any] | str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= CLIENT_QUEUE:  # too slow: what it has not read is dropped with it
            while not self.queue.empty():
                self.queue.get_nowait()
            self.close()
            return
        text = message if isinstance(message, str) else _dumps(message)
        if text.startswith(_STATE_PREFIX):
            waiting = self._state is not None
            self._state = text
            if waiting:  # an older state not yet written: this one takes its place in the queue
                return
            text = _STATE_SLOT
        self.queue.put_nowait(text)

    async def next(self) -> str | None:
        """The next message to write (the latest state where a state waits); ``None`` closes."""
        text = await self.queue.get()
        if text is _STATE_SLOT:
            text, self._state = self._state, None
        return text

    def close(self) -> None:
        """Ask the writer to close the connection after what is queued (a table that ends, a seat
        left). A connection too slow to read (:data:`CLIENT_QUEUE` messages waiting) is dropped by
        :meth:`send` with its queue emptied, so its writer closes it after the message it is
        sending; the end marker found no room in a full queue before, and the connection stayed
        open until the client spoke or its pings timed out."""
        if self.dropped:
            return
        self.dropped = True
        self.queue.put_nowait(None)
