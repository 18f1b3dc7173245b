"""Guessing table codes: a table found by its link alone is as private as its code is hard to guess.

A code is six characters of 32 (about a billion codes). Each wider network (an IPv4 /24, an IPv6 /48:
:func:`~rummykit.web.thinking.fair_network`) may look up only so many codes that name no table
(:attr:`~rummykit.web.limits.ServerSettings.missed_codes_per_hour`, after a burst). A lookup spends one
of the network's misses before any work, so that requests sent at once cannot all pass on the last
one, and gets it back when the code names a table. A network whose misses are spent is refused every
lookup by code (429 ``too_many_misses``), whether the code names a table or not (the refusal says
nothing about the table), except a request that shows a token of a seat at the table (a player
coming back, leaving, taking a seat back), and a lookup of a table the lobby lists (its code is
public): one stranger on a school's or a carrier's shared address cannot lock the people already
seated out of their tables, nor the others out of the lobby's tables. Tables found by their link
alone (an organiser's class tables unless listed) stay refused to that network until a miss is
allowed again: telling them apart from free codes is what the budget is for, so a school whose
pupils share an address lists its tables, or raises ``--missed-codes-per-hour`` on its own server.

Server processes that share a database count a network's misses together: each miss is counted
in the network's bucket there as well (``rk_rates``), and a process that finds it spent holds its
own until that one refills (:meth:`~rummykit.web.manager.TableManager.take_shared`'s buckets, by miss only:
a lookup that finds a table costs the database nothing). A miss a process let through before it
learned is counted there all the same (the bucket owes it) and delays the next ones, so
``--workers 4`` allows a network the same misses as one process, after a burst of one more per
process at most.

A request that needs its token to get through is checked before anything else is done for it
(:meth:`Lookup.prove_first`; with a shared database the lobby's list is read first, at most once a
second and whatever the code): against the table this process holds in memory, else against the
seats stored for the code, which are read for every such request that shows a token (one row by
its key, found or not), so that the proof costs the same for a code that names a table and one that
does not. A player's own table is thus reached by its token also where another process plays it
(its websocket is relayed there after the hello) or after it ended and left memory (its entry, its
rules and its record: ``GET`` requests show the token as ``Authorization: Bearer TOKEN``).
"""

from __future__ import annotations

import hmac
import math
from typing import Any

from rummykit.web.limits import RateLimiter
from rummykit.web.lobby import LobbyError
from rummykit.web.seats import held_seat
from rummykit.web.tables import Table, hash_token, refusal
from rummykit.web.thinking import fair_network


def too_many_misses(wait: float) -> LobbyError:
    """The refusal of a lookup by code from a network whose misses are spent, ``wait`` seconds before
    its next miss is allowed."""
    seconds = str(math.ceil(wait))
    why = f"too many codes from your network named no table; look up another in {seconds} s"
    return refusal(429, "too_many_misses", why, retry_after=wait, seconds=seconds)


def is_miss(exc: LobbyError) -> bool:
    """Whether a lookup's refusal says that the code names no table."""
    return exc.status == 404 and exc.error == "no_table"


def proves(table: Table, token: str) -> bool:
    """Whether ``token`` holds a seat of ``table``, or is the token of a person whose seat a bot holds
    for them (who may take it back: :func:`~rummykit.web.seats.held_seat`)."""
    return table.seat_for_token(token) is not None or held_seat(table, token) is not None


def proves_stored(seats: list[dict[str, Any]], token: str) -> bool:
    """:func:`proves` against a table's seats as stored (``[]``: no table), every seat compared."""
    digest = hash_token(token)
    found = False
    for seat in seats:
        for stored in (seat.get("token_hash"), seat.get("held_for") if seat.get("kind") == "bot" else None):
            if isinstance(stored, str) and hmac.compare_digest(stored, digest):
                found = True
    return found


class Lookup:
    """One lookup by code from ``address`` (``None``: the server's own, never counted), with the
    ``token`` the request shows, if any.

    Made before the lookup: it spends one of the network's misses. When they are spent the request
    needs proof (:attr:`needs_proof`), and :meth:`prove_first` decides on it before any work, from
    the table in memory: a listed open table is looked up, a seat's token gets through, anything else
    is refused (:func:`too_many_misses`). Then :meth:`found` or :meth:`failed` says how the lookup
    ended: a table found gives the miss back; a request that needed proof is refused the same way
    whatever else happened, unless it was proved.
    """

    def __init__(self, misses: RateLimiter, address: str | None, token: str | None = None) -> None:
        self._misses = misses
        self._network = None if address is None else fair_network(address)
        self._token = token
        self._spent = False
        self._cleared = False
        """Let on by :meth:`prove_first` (a code the lobby shows, or a seat's token proved)."""
        self._wait = 0.0
        if self._network is None:
            return
        wait = misses.take(self._network)
        if wait <= 0:
            self._spent = True
        else:
            self._wait = wait

    @property
    def missed(self) -> bool:
        """After :meth:`failed`: whether the lookup kept the miss it spent (the code named no table)."""
        return self._spent

    @property
    def needs_proof(self) -> bool:
        """Whether the network had no miss left, so that only a seat's token lets the request on."""
        return self._wait > 0

    def prove_first(
        self, table: Table | None, shown: bool = False, stored: list[dict[str, Any]] | None = None
    ) -> None:
        """Before any work, for a request that needs proof: let it on when the lobby lists the code
        (``shown``: finding it tells nobody anything), else refuse it unless its token holds a seat
        of ``table``, the table this process holds in memory under the code (``None``: none), or
        else of the seats ``stored`` for the code (read for every request that shows a token,
        ``[]`` where there is no table). A request from a network out of misses then costs the same
        whether its code names a table or not (one read of one row, no rebuilt ended table; a token
        is hashed either way), so neither the time of the refusal nor the server's table count
        tells a guesser anything.

        Raises:
            LobbyError: 429 ``too_many_misses``.
        """
        if shown:
            self._cleared = True
            return
        if not self.needs_proof:
            return
        if not self._token:
            raise too_many_misses(self._wait)
        if table is not None:
            proved = proves(table, self._token)
        else:
            hash_token(self._token)  # hashed twice, as a proof in memory hashes it
            proved = proves_stored(stored or [], self._token)
        if not proved:
            raise too_many_misses(self._wait)
        self._cleared = True

    def found(self, table: Table | None = None) -> None:
        """The code named a table (``table``, where the request goes on with it): the miss is given
        back; a request that needed proof and shows none for ``table`` is refused.

        Raises:
            LobbyError: 429 ``too_many_misses``.
        """
        if self._spent:
            self._misses.refund(self._network)
            self._spent = False
        if self.needs_proof and not self._cleared:
            raise too_many_misses(self._wait)

    def failed(self, exc: LobbyError) -> LobbyError:
        """The refusal to give for a lookup refused with ``exc``: ``exc`` itself, the miss kept only
        when the code named no table; for a request that needed proof, :func:`too_many_misses`."""
        if self._spent and not is_miss(exc):
            self._misses.refund(self._network)
            self._spent = False
        return too_many_misses(self._wait) if self.needs_proof and not self._cleared else exc
