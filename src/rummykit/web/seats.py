"""Taking a seat back: a person who left a table during play returns to the seat a bot holds.

Leaving during play (``POST /api/tables/{code}/leave``) hands the seat to a bot, which keeps the
hash of the leaver's token (:attr:`~rummykit.web.tables.Seat.held_for`). The same token can take
the seat back while the match is being played: the seat becomes the person's again, under their
name, and the bot stops. The token is the only proof: nobody else can claim a held seat, and a seat
that was never left cannot be "retaken". Answers never say which seats are held for whom.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from rummykit.web.lobby import Seat, hash_token
from rummykit.web.tables import refusal

if TYPE_CHECKING:
    from rummykit.web.tables import Table

__all__ = ["held_seat", "retake"]


def held_seat(table: Table, token: str) -> int | None:
    """The seat a bot holds for the holder of ``token``, if any."""
    digest = hash_token(token)
    for i, seat in enumerate(table.seats):
        if seat.kind == "bot" and seat.held_for is not None and hmac.compare_digest(seat.held_for, digest):
            return i
    return None


async def retake(table: Table, token: str) -> int:
    """Give the seat held for ``token`` back to its person; returns the seat.

    Raises:
        LobbyError: 409 when the table is not being played, 403 when no seat is held for the token.
    """
    async with table.lock:
        table.require("playing")
        seat = held_seat(table, token)
        if seat is None:
            raise refusal(403, "no_held_seat", "no seat at this table is held for you")
        held = table.seats[seat]
        table.seats[seat] = Seat("human", held.held_name or "", token_hash=held.held_for)
        await table._save_lobby()  # refused: the seat stays the bot's, and nobody was told otherwise
        table.rebind(seat)  # connections that showed the token (and watch since) play it again
        if not table.connected(seat):
            table._mark_away(seat)  # until the person's page connects with the token
        table.broadcast()
    table.kick()
    return seat
