"""A rematch: at the end of a match the host opens a new table with the same seats and rules.

The new table has the same rules, the same number of seats, the same bots at the same places and
the host at seat 0. Every person at a seat who is connected when the host asks gets their seat at
the new table at once: a new token travels to their page over the old table's websocket
(``{"type": "rematch", "code": …, "seat": …, "token": …}``; spectators get the code only, and only
where the rematch is listed). A person
not connected then finds their seat open and joins by the code, which a connection made to the
finished table later is told (:func:`offer`). When nobody is missing the new
match starts at once (one click); otherwise it waits, like any table, for the host to start it.
A bot that held a left seat stays a bot. The deal is new and secret (a seeded table's rematch is
not seeded).

At a table the organiser made (:mod:`rummykit.web.organiser`) nobody at it is a host: the organiser
opens the rematch, of every finished such table at once (:func:`rematch_organised`). Every seat is
then handled as the host's others above (seat 1 too), except that a pupil not connected at that
moment keeps their seat too (unless they left the finished table: their token holds nothing
there): it is theirs at the new table (a token made for it), which the old table tells them when
they connect to it again (:func:`offer`), so that a pupil whose tablet slept
through the organiser's press plays on with the class. The organiser sees the seat taken by a
person not connected and may free it (a pupil who went home). The label is kept, and a table whose
seats are all taken by people connected then (and bots) starts at once (its players were there a
moment ago); one with a seat open, or kept for a pupil who is away, waits for the organiser's Start.

A finished table has one rematch: asking again (a double click, a second tab) answers with the same
new table and the host's same token, not another table. The page asks over the table's websocket
(``{"type": "rematch"}``), which reaches the process that plays the table; ``POST
/api/tables/{code}/rematch`` asks the process the request reaches, which with several server
processes may not hold the table (it then says so). A table looked up after it left the server's
memory (:meth:`~rummykit.web.manager.TableManager.find`) has no rematch any more.

A restart does not change this while the finished table is held (``finished_table_seconds``, counted
from its stored end): the restarted server holds it again, and the rematch's code is stored
(``rk_tables.rematch``) before anybody is told of it (a database that fails that write is logged; the
rematch stays open and the one of this run), so a rematch opened before the restart is not
opened again: asking for it is refused (409 ``rematch_opened``, naming it), the organiser's list
shows it, and a connection to the old table is offered its code (:func:`offer`). The new seats' tokens
were given only to the connections open then (and those told since); the database keeps only their
hashes, so after a restart a connection is offered the code alone, without a seat or a token. A
person whose seat there is still theirs has the token already when their page was told it; a pupil
away then finds the seat taken under their name, which the organiser frees (``remove``) for them to
join by the code.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from rummykit.web.failures import log_failure
from rummykit.web.lobby import Seat
from rummykit.web.protocol import CreateTable
from rummykit.web.tables import refusal

if TYPE_CHECKING:
    from rummykit.web.clients import Client
    from rummykit.web.tables import Table

__all__ = ["offer", "opened", "refuse_rematch", "rematch", "rematch_organised"]

log = logging.getLogger("rummykit.web")

Opened = tuple["Table", int, str]
"""The rematch's table, the host's seat there (0) and the host's token (``""`` at a table the
organiser made, where seat 0 is a player's like any other: :func:`rematch_organised`)."""


def refuse_rematch(code: str, host: bool, status: str, archived: bool) -> None:
    """Refuse a rematch asked for by someone who is not the ``host`` of table ``code``, of a match
    that is not over, or of a table that left the server's memory (``archived``: looked up after it
    ended, or known only from the database) — in that order.

    Raises:
        LobbyError: 403 ``not_host_rematch``, 409 ``no_rematch`` or 409 ``rematch_too_late``.
    """
    if not host:
        raise refusal(403, "not_host_rematch", "only the host (seat 1) can start a rematch")
    if status != "over":
        why = f"table {code} is {status}; a rematch follows a finished match"
        raise refusal(409, "no_rematch", why, code=code, status=status)
    if archived:
        why = f"table {code} is no longer held for a rematch (it ended a while ago); open a new table"
        raise refusal(409, "rematch_too_late", why, code=code)


def _overrides(table: Table) -> dict[str, Any]:
    """The table's rule changes in the form a create request takes them."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in table.rules.changes().items()}


async def rematch(table: Table, seat: int | None, address: str | None) -> Opened:
    """Open the rematch of the finished ``table`` for its host (``seat`` 0: the caller has checked
    the token or the connection's seat), or answer with the one already opened.

    Raises:
        LobbyError: 403 ``organised_rematch`` at a table the organiser made (it has no host); 403
            unless ``seat`` is the host's, 409 unless the match is over here (and it was
            not looked up after it ended), 409 ``rematch_opened`` when it was opened before the
            server restarted (:func:`_refuse_reopening`), or the new table's own refusal (the
            host's address has too many open tables …), after which the host may ask again.
    """
    if table.organised:  # no seat is a host's: the organiser makes the class's next tables
        why = f"table {table.code} was made by the organiser, who opens its rematch"
        raise refusal(403, "organised_rematch", why, code=table.code)
    refuse_rematch(table.code, seat == 0, table.status, table.archived)
    return await _once(table, address)


async def rematch_organised(table: Table) -> Table:
    """Open the rematch of the finished ``table`` the organiser made, or answer with the one already
    opened (the organiser's key was checked by the caller).

    Raises:
        LobbyError: 409 ``has_host`` at a table a person made (its host opens the rematch), 409
            ``no_rematch`` unless the match is over, ``rematch_too_late`` when it left the server's
            memory, ``rematch_opened`` when it was opened before the server restarted, or the new
            table's own refusal (``too_many_organiser_tables`` …).
    """
    if not table.organised:
        why = f"table {table.code} has a host, who starts it and removes people from it"
        raise refusal(409, "has_host", why, code=table.code)
    refuse_rematch(table.code, True, table.status, table.archived)
    return (await _once(table, None))[0]


def _refuse_reopening(table: Table) -> None:
    """Refuse to open the rematch of ``table`` again when it was opened before the server restarted
    (its code stored, no opening here): its seats' tokens were given then, and the database keeps
    only their hashes, so there is no seat grant to answer with; its code is said instead.

    Raises:
        LobbyError: 409 ``rematch_opened``.
    """
    if table.rematch is None and table.rematch_code is not None:
        why = (
            f"the rematch of table {table.code} was opened before the server restarted: table "
            f"{table.rematch_code} (the seats given there keep their tokens; an open seat is joined by "
            "its code)"
        )
        raise refusal(409, "rematch_opened", why, code=table.code, rematch=table.rematch_code)


async def _once(table: Table, address: str | None) -> Opened:
    """The finished ``table``'s one rematch: opened by the first to ask, the same for everybody after
    (a double click, a second tab, the organiser pressing twice); forgotten when it was refused (too
    many tables …) or failed, so that it may be asked again; refused when it was opened before the
    server restarted (:func:`_refuse_reopening`)."""
    _refuse_reopening(table)
    if table.rematch is None:
        table.rematch = asyncio.get_running_loop().create_task(_open(table, address))
    opening = table.rematch
    try:
        return await asyncio.shield(opening)
    except Exception:
        if table.rematch is opening:
            table.rematch = None
        raise


def opened(table: Table) -> str | None:
    """The code of the rematch opened for ``table``, if one was (and not refused): opened here, or
    before the server restarted (its stored code)."""
    return table.rematch_code  # set as the opening's last step (:func:`_open`), or read as stored


def _listed(table: Table) -> bool:
    """Whether the rematch of ``table`` is listed: as the table was, unless it is now a practice table
    (every other seat a bot: those who left are played by bots), which nobody finds in the lobby."""
    return table.listed and (table.organised or any(old.kind != "bot" for old in table.seats[1:]))


async def _open(table: Table, address: str | None) -> Opened:
    spec = CreateTable(
        preset=table.rules.name,
        overrides=_overrides(table),
        seats=table.players,
        name=table.seats[0].name,
        takeover_seconds=table.takeover_seconds,
        hints=table.hints,
        listed=_listed(table),
        label=table.label,
    )
    if table.organised:  # no host: every seat is a player's, the first too
        new, first, grants = await table.manager.create_organised(spec), 0, {}
    else:
        new, _, new_token = await table.manager.create(spec, address)
        first, grants = 1, {0: new_token}
    table.rematch_grants = grants
    async with new.lock:
        away = False  # a pupil's seat kept for them at a table the organiser made
        for i, old in enumerate(table.seats[first:], start=first):
            if old.kind == "bot":
                new.seats[i] = Seat("bot", old.name, old.bot, old.level)
            elif old.kind == "human" and (table.connected(i) or (table.organised and old.token_hash)):
                new.seats[i] = Seat("human", old.name)
                grants[i] = new._new_token(i)
                away = away or not table.connected(i)
        # Full, nobody's seat kept for them in their absence, and somebody there to play (bots alone
        # would play for nobody): it starts at once. Else it waits for the host's or organiser's start.
        if all(s.kind != "open" for s in new.seats) and grants and not away:
            await new._begin()
        else:
            await new._save_lobby()
            new.broadcast()
    await _store_rematch(table, new.code)
    table.rematch_code = new.code
    for client in list(table.clients):
        if client.seat is None and not new.listed:  # found by its link alone: not by the watchers
            continue
        message: dict[str, Any] = {"type": "rematch", "code": new.code}
        if client.seat is not None and client.seat in grants:
            message.update(seat=client.seat, token=grants[client.seat])
        client.send(message)
    # The host's token, for whoever shows the host's seat later (_once answers everybody after with
    # it); at a table the organiser made seat 0 is a pupil's, whose token goes to that seat alone.
    return new, 0, "" if table.organised else grants.get(0, "")


async def _store_rematch(table: Table, code: str) -> None:
    """Store ``code`` as the rematch of ``table`` before anybody is told of it: a restart from then on
    offers it and opens no other. The rematch is open already (its seats given, perhaps started): a
    database that fails this write is logged, not the rematch undone, which would have the host's
    next ask open a second table for the same people while the first waits for them unseen."""
    try:
        stored = await table.manager.db(table.manager.store.set_rematch, table.code, code)
    except Exception:
        log_failure(log, "table %s: its rematch %s is not stored (a restart forgets it)", table.code, code)
        return
    if not stored:
        log.warning("table %s: a rematch was stored for it already; %s is opened too", table.code, code)


async def offer(table: Table, client: Client) -> None:
    """Tell a connection made to a finished table after its rematch was opened where the rematch is:
    ``{"type": "rematch", "code": …, "offer": true}``, for information only. It is not moved there
    nor given a seat (someone reopening the old link may only want the final scores); a seat left
    open for a person who was away is joined by the code, as any seat is. A seat that was given its
    seat there (connected when the host asked, or any person's at a table the organiser made) is told
    that seat and token while it holds it (the host or the organiser may have freed it since): its
    connection may have been dead without anybody knowing, and the message with them lost, or the
    pupil was away when the organiser opened it. Nothing while no rematch
    was opened, and nothing to a watcher where the rematch is not listed (a practice table, or one
    found by its link alone). After a restart (the rematch opened before it) the code alone: the
    seats' tokens there were not kept."""
    code = opened(table)
    if code is None or (client.seat is None and not _listed(table)):
        return
    message: dict[str, Any] = {"type": "rematch", "code": code, "offer": True}
    token = table.rematch_grants.get(client.seat) if client.seat is not None else None
    new = table.rematch.result()[0] if token is not None and table.rematch is not None else None
    if new is not None and token is not None and new.seat_for_token(token) == client.seat:
        message.update(seat=client.seat, token=token)  # given here (none kept over a restart), still its
    client.send(message)
