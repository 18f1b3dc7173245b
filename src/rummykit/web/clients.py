"""A websocket connection of a table: its seat, its token's digest and its outgoing queue, bounded
so that a connection too slow to read is dropped (:class:`Client`). Messages are sent as compact
JSON text (:func:`_dumps`, which the state messages of :mod:`rummykit.web.tables` share).

A state message waiting last in the queue is replaced by a newer one rather than queued behind it: a
state is the whole table, so only the latest matters, and a burst of states (a hundred watchers
arriving at once, each once a state to everybody) cannot fill a player's queue and drop the player.
Behind other messages (a notice, an error, a welcome) a newer state is queued after them, in order,
and the older one is skipped when its turn comes.
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
        """The state message to write where the last :data:`_STATE_SLOT` waits in the queue."""
        self._slots = 0
        """How many :data:`_STATE_SLOT` wait in the queue (all but the last are skipped)."""
        self._slot_last = False
        """Whether the last message queued is a :data:`_STATE_SLOT` (a newer state replaces it)."""
        self.answered: dict[str, int] = {}
        """The table version at which this connection was last sent each answer that is sent once per
        version (``Table.answer_once``): the state for a message that changed nothing (``back``,
        ``ready``), the hand's log, the list of moves."""
        self.token_digest: str | None = None
        """The digest of the seat token this connection showed in its hello (``None``: it watches):
        its seat is the one that token holds when it connects (:meth:`Table.connect`), and it is kept
        when the seat is left, so the connection takes the seat again when the token retakes it."""

    def send(self, message: dict[str, Any] | str) -> None:
        if self.dropped:
            return
        text = message if isinstance(message, str) else _dumps(message)
        state = text.startswith(_STATE_PREFIX)
        if state and self._slot_last:  # an older state waits last in the queue: this one replaces it
            self._state = text
            return
        if self.queue.qsize() >= CLIENT_QUEUE:  # too slow: what it has not read is dropped with it
            while not self.queue.empty():
                self.queue.get_nowait()
            self.close()
            return
        if state:
            self._state, self._slots, text = text, self._slots + 1, _STATE_SLOT
        self._slot_last = state
        self.queue.put_nowait(text)

    async def next(self) -> str | None:
        """The next message to write, in order (a state waiting where a newer one is queued later is
        skipped; the last one is the latest state); ``None`` closes."""
        while True:
            text = await self.queue.get()
            if text is not _STATE_SLOT:
                if self.queue.empty():
                    self._slot_last = False
                return text
            self._slots -= 1
            if self._slots == 0:  # the last state queued: the latest
                self._slot_last = False
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
