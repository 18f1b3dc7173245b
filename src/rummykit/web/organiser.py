"""The organiser's page: every table of a server at a glance, the organiser's own tables for a
class, and closing a table.

A teacher running a games afternoon for a class, or a club running an evening of several tables,
starts the server with ``rummykit serve --organiser``. The server then makes a key (random, for this
run of the server only) and prints the organiser's address, ``http://host:port/#organise=KEY``. Who
opens it sees every table the server holds (listed in the lobby or found by its link alone, open or
ended in the last minutes): its code, game, status, the people and bots at its seats and whether they
are connected, its watchers, the hand being played and each seat's total, and its winners once it is
over; from there they may watch a table or close it. Closing ends an open table as the host's
leaving does (``closed``, no longer played or listed); everybody at it is told that the organiser
closed it.

The organiser also makes tables for others without sitting at them: the create request of the
lobby (:class:`~rummykit.web.protocol.CreateTable`: game, house rules, seats, bots at the last seats,
listed or not, hints), checked as any, but no seat is taken (``name`` is not used). The page shows
each such table's code and link, large, to write on the board; the pupils join by the link, the
code or the lobby as at any table. The organiser may give it a label ("Group A",
:attr:`~rummykit.web.protocol.CreateTable.label`: printable, at most 24 characters), which its entry
carries to the organiser's list, the waiting room and the table's header; a player's own table has
none (a label in the public lobby would be anybody's words). Such a table (``organised``) has no host:

* The organiser starts it, one table or every waiting one at once (:func:`start_all`); bots take
  the seats still open, as at a host's start. It does not start by itself when its last seat is
  taken: a teacher explains the game first and starts the class's tables together, and a table
  that filled early would otherwise be half through its first hand while the others wait. A table
  nobody sits at yet is not started (bots would play for nobody).
* The organiser removes a person from a waiting seat (seat 1 too); the person watches and is told.
* Seat 1 is a player's like any other: a person leaving it before the start frees it, and the
  table stays; nobody at the table can start it, remove anybody or open a rematch.
* The organiser opens the rematch of every finished table at once (:func:`rematch_all`): the same
  game, seats, bots and label, each player still at the old table moved to their seat, a player
  away then given theirs when they come back to the old table, and a table full of the people there
  started at once (the class was playing a moment ago); each table has one rematch.
* While the organiser's page is open, such a waiting table does not expire for want of people
  present (the tables are made before the class comes; ``--idle-table-seconds`` counts from when
  the page was last open).

The organiser is known by the key, not by an address: the tables made from the page count against
the server's ``--max-tables`` and their own ``--max-organiser-tables`` (default 100), not against
the caps of the address or network the page is opened from, which pupils at school share (and joins
to them do not count against the caps on seats held at other people's waiting tables, for the same
reason: the organiser watches who sits there and takes a seat back). Every request of the page
spends the address's lobby request budget, and a table kept over a restart keeps its flag (the
``organised`` column): a new run's key manages it. A table that finished in the last
``--finished-table-seconds`` before a restart is listed again for the rest of that time (counted from
its stored end), with its rematch if one was opened (which is not opened again).

The key travels in the address's fragment, which the browser never sends, and from the page only in
an ``Authorization: Bearer`` header; it is compared in constant time and never logged. Nothing else
is needed: there is no organiser's account, and a new run of the server makes a new key (the old
address then shows nothing). The option is refused with a PostgreSQL database, which several server
processes share (``--workers``, or servers started apart): the page lists the tables of one process.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from rummykit.web.lobby import LobbyError
from rummykit.web.rematch import opened, rematch_organised
from rummykit.web.tables import OPEN
from rummykit.web.texts import server_error_texts

if TYPE_CHECKING:
    from fastapi import Request

    from rummykit.web.tables import Table

KEY_BYTES: Final = 24
"""The key's randomness: 192 bits, 32 characters of URL-safe Base64."""
MOST_LISTED: Final = 500
"""The most tables one answer lists (open ones first, then by code); a class or a club has far fewer."""


def new_key() -> str:
    """A fresh organiser's key (URL-safe: it is put in an address's fragment)."""
    return secrets.token_urlsafe(KEY_BYTES)


def check_key(request: Request, key: str) -> None:
    """Refuse a request that does not show ``key`` as ``Authorization: Bearer KEY``.

    Raises:
        LobbyError: 403 ``not_organiser``, the same for a missing header and a wrong key.
    """
    scheme, _, shown = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(shown.strip().encode(), key.encode()):
        message = "this is the organiser's page: open the address the server printed at its start"
        texts = server_error_texts("not_organiser", message)
        raise LobbyError(403, message, texts=texts, error="not_organiser")


def organiser_entry(table: Table) -> dict[str, Any]:
    """What the organiser's page shows of ``table``: its lobby entry (seats with their names and
    connections, watchers, status) and the match's figures (hands dealt, totals, points won, net
    scores, winners), in the state message's shapes so the page adds them up as a player's does."""
    return {**table.lobby_json(), "match": table.match_figures(), "rematch": opened(table)}


def entries(tables: Iterable[Table]) -> list[dict[str, Any]]:
    """The organiser's list: the open tables first, then those that ended and are still held (for
    ``--finished-table-seconds``), each group in the order the tables were made (a batch of tables
    for a class stays together); at most :data:`MOST_LISTED`."""
    ordered = sorted(tables, key=lambda t: (t.status not in OPEN, t.made))
    return [organiser_entry(t) for t in ordered[:MOST_LISTED]]


async def start_all(tables: Iterable[Table]) -> dict[str, list[str]]:
    """Start every waiting table the organiser made at which a person sits (bots take the open
    seats): ``{"started": [code, …], "waiting": [code, …]}``, the second the organiser's waiting
    tables left as they were (nobody sits there yet, or it changed meanwhile), each in the order the
    tables were made."""
    started: list[str] = []
    waiting: list[str] = []
    for table in sorted(tables, key=lambda t: t.made):
        if not table.organised or table.status != "waiting":
            continue
        try:
            await table.start_by_organiser()
        except LobbyError:
            waiting.append(table.code)
        else:
            started.append(table.code)
    return {"started": started, "waiting": waiting}


async def rematch_all(tables: Iterable[Table]) -> dict[str, list[dict[str, str]]]:
    """Open the rematch of every finished table the organiser made that has none yet, in the order
    the tables were made (:func:`~rummykit.web.rematch.rematch_organised`: the same game, seats, bots
    and label; the players connected now are moved to their seats there, those away keep theirs
    for when they come back, and a table full of people present starts):
    ``{"rematches": [{"from": code, "code": new code}, …]}`` (those another press is opening too:
    each opens once). A refusal (the organiser's tables are at their limit) stops there; the
    rematches opened before it stay, listed with their tables.

    Raises:
        LobbyError: the new table's refusal (``too_many_organiser_tables``, ``server_full`` …).
    """
    made: list[dict[str, str]] = []
    for table in sorted(tables, key=lambda t: t.made):  # a list: making tables changes the server's
        # One being opened by a press just before (a double click) is waited for and listed here too:
        # each press answered only the tables it opened itself, and the page said fewer rematches.
        # One opened before a restart (its code stored, no opening here) is listed with its table.
        unopened = table.rematch is None and table.rematch_code is None
        opening = unopened or (table.rematch is not None and not table.rematch.done())
        if table.organised and table.status == "over" and not table.archived and opening:
            new = await rematch_organised(table)
            made.append({"from": table.code, "code": new.code})
    return {"rematches": made}
