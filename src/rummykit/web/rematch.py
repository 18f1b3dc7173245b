"""A rematch: at the end of a match the host opens a new table with the same seats and rules.

The new table has the same rules, the same number of seats, the same bots at the same places and
the host at seat 0. Every person at a seat who is connected when the host asks gets their seat at
the new table at once: a new token travels to their page over the old table's websocket
(``{"type": "rematch", "code": …, "seat": …, "token": …}``; spectators get the code only). A person
not connected then finds their seat open and joins by the link. When nobody is missing the new
match starts at once (one click); otherwise it waits, like any table, for the host to start it.
A bot that held a left seat stays a bot. The deal is new and secret (a seeded table's rematch is
not seeded).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.web.protocol import CreateTable
from rummykit.web.tables import LobbyError, Seat, refusal

if TYPE_CHECKING:
    from rummykit.web.tables import Table

__all__ = ["rematch"]


def _overrides(table: Table) -> dict[str, Any]:
    """The table's rule changes in the form a create request takes them."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in table.rules.changes().items()}


async def rematch(table: Table, token: str, address: str | None) -> tuple[Table, int, str]:
    """Open the rematch of the finished ``table`` for its host; returns the new table, seat 0 and
    the host's new token.

    Raises:
        LobbyError: 403 unless ``token`` is the host's, 409 unless the match is over.
    """
    if table.seat_for_token(token) != 0:
        raise LobbyError(403, "only the host (seat 1) can start a rematch")
    if table.status != "over":
        why = f"table {table.code} is {table.status}; a rematch follows a finished match"
        raise refusal(409, "no_rematch", why, code=table.code, status=table.status)
    spec = CreateTable(
        preset=table.rules.name,
        overrides=_overrides(table),
        seats=table.players,
        name=table.seats[0].name,
        takeover_seconds=table.takeover_seconds,
        hints=table.hints,
    )
    new, seat, new_token = await table.manager.create(spec, address)
    grants: dict[int, str] = {}
    async with new.lock:
        for i, old in enumerate(table.seats[1:], start=1):
            if old.kind == "bot":
                new.seats[i] = Seat("bot", old.name, old.bot, old.level)
            elif old.kind == "human" and table.connected(i):
                new.seats[i] = Seat("human", old.name)
                grants[i] = new._new_token(i)
        if all(s.kind != "open" for s in new.seats):
            await new._begin()
        else:
            await new._save_lobby()
            new.broadcast()
    for client in list(table.clients):
        message: dict[str, Any] = {"type": "rematch", "code": new.code}
        if client.seat is not None and client.seat in grants:
            message.update(seat=client.seat, token=grants[client.seat])
        client.send(message)
    return new, seat, new_token
