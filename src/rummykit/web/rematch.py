"""A rematch: at the end of a match the host opens a new table with the same seats and rules.

The new table has the same rules, the same number of seats, the same bots at the same places and
the host at seat 0. Every person at a seat who is connected when the host asks gets their seat at
the new table at once: a new token travels to their page over the old table's websocket
(``{"type": "rematch", "code": …, "seat": …, "token": …}``; spectators get the code only). A person
not connected then finds their seat open: when their page (or program) connects to the finished
table with their token, it is given that seat while the new table waits (:func:`offer`), or else
told the new table's code. When nobody is missing the new
match starts at once (one click); otherwise it waits, like any table, for the host to start it.
A bot that held a left seat stays a bot. The deal is new and secret (a seeded table's rematch is
not seeded).

A finished table has one rematch: asking again (a double click, a second tab) answers with the same
new table and the host's same token, not another table. The page asks over the table's websocket
(``{"type": "rematch"}``), which reaches the process that plays the table; ``POST
/api/tables/{code}/rematch`` asks the process the request reaches, which with several server
processes may not hold the table (it then says so). A table looked up after it left the server's
memory (:meth:`~rummykit.web.manager.TableManager.find`) has no rematch any more.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from rummykit.web.failures import log_failure
from rummykit.web.protocol import CreateTable
from rummykit.web.tables import Seat, refusal

if TYPE_CHECKING:
    from rummykit.web.tables import Client, Table

__all__ = ["offer", "rematch"]

log = logging.getLogger("rummykit.web")

Opened = tuple["Table", int, str]
"""The rematch's table, the host's seat there (0) and the host's token."""


def _overrides(table: Table) -> dict[str, Any]:
    """The table's rule changes in the form a create request takes them."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in table.rules.changes().items()}


async def rematch(table: Table, seat: int | None, address: str | None) -> Opened:
    """Open the rematch of the finished ``table`` for its host (``seat`` 0: the caller has checked
    the token or the connection's seat), or answer with the one already opened.

    Raises:
        LobbyError: 403 unless ``seat`` is the host's, 409 unless the match is over here (and it was
            not looked up after it ended), or the new table's own refusal (the host's address has
            too many open tables …), after which the host may ask again.
    """
    if seat != 0:
        raise refusal(403, "not_host_rematch", "only the host (seat 1) can start a rematch")
    if table.status != "over":
        why = f"table {table.code} is {table.status}; a rematch follows a finished match"
        raise refusal(409, "no_rematch", why, code=table.code, status=table.status)
    if table.archived:
        why = f"table {table.code} ended too long ago for a rematch; open a new table"
        raise refusal(409, "rematch_too_late", why, code=table.code)
    if table.rematch is None:
        table.rematch = asyncio.get_running_loop().create_task(_open(table, address))
    opening = table.rematch
    try:
        return await asyncio.shield(opening)
    except Exception:
        if table.rematch is opening:
            table.rematch = None  # refused (too many tables …) or failed: the host may ask again
        raise


async def _open(table: Table, address: str | None) -> Opened:
    spec = CreateTable(
        preset=table.rules.name,
        overrides=_overrides(table),
        seats=table.players,
        name=table.seats[0].name,
        takeover_seconds=table.takeover_seconds,
        hints=table.hints,
    )
    new, seat, new_token = await table.manager.create(spec, address)
    grants: dict[int, str] = {0: new_token}
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
    table.rematch_grants = grants
    for client in list(table.clients):
        message: dict[str, Any] = {"type": "rematch", "code": new.code}
        if client.seat is not None and client.seat in grants:
            message.update(seat=client.seat, token=grants[client.seat])
        client.send(message)
    return new, seat, new_token


async def offer(table: Table, client: Client) -> None:
    """Tell a connection to a finished table about its rematch, as the connections open when the
    host asked were told: a seat's connection gets its seat there with a token (given now if the
    seat is still open and the new table waits: the connection showed this seat's token), others
    the new table's code. Nothing while no rematch was opened."""
    opening = table.rematch
    if opening is None or not opening.done() or opening.cancelled() or opening.exception() is not None:
        return
    new = opening.result()[0]
    message: dict[str, Any] = {"type": "rematch", "code": new.code}
    seat = client.seat
    if seat is not None:
        token = table.rematch_grants.get(seat)
        if token is None and table.seats[seat].kind == "human":
            token = await _grant(new, seat, table.seats[seat].name)
            if token is not None:
                table.rematch_grants[seat] = token
        if token is not None:
            message.update(seat=seat, token=token)
    client.send(message)


async def _grant(new: Table, seat: int, name: str) -> str | None:
    """A token for ``seat`` of the rematch ``new`` if it is still open there and the table waits."""
    async with new.lock:
        if new.status != "waiting" or new.seats[seat].kind != "open":
            return None
        new.seats[seat] = Seat("human", name)
        token = new._new_token(seat)
        try:
            await new._save_lobby()  # refused: the seat stays open (and the code is still told)
        except Exception:
            log_failure(log, "table %s: the rematch seat %d was not stored", new.code, seat)
            return None
        new.broadcast()
        return token
