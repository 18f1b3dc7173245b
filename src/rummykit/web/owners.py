"""Table owners and shared limits of server processes that share one PostgreSQL database.

Every table that is being played has one *owner*: the server process that holds its match in
memory, checks and stores its moves and talks to its connections. The owner is recorded in the
database (``rk_tables.owner``) next to the process's *lease* (``rk_processes.lease_until``,
database time), which a live process renews every :data:`RENEW_SECONDS`. A process that receives a
connection for a table another live process owns relays it to the owner's internal address
(:mod:`rummykit.web.relay`), so only the owner does work for the table. A table whose owner's
lease has run out (the process died) is claimed by the first process that a client of the table
reaches: it rebuilds the table from the stored moves. Claiming is one ``UPDATE`` of the table row,
so two processes never both become its owner; and even if a stalled owner went on after losing its
lease, the primary key of ``rk_actions`` still refuses its moves (:mod:`rummykit.web.coordination`).

The per-address bounds hold across processes through the same database: websocket connections are
counted per process and client address in ``rk_connections`` (rows of dead processes do not count),
the table cap counts ``rk_tables.creator``, the seat cap the seats' ``joined_from`` in waiting
tables, and the rate limits of table creations and lobby requests are token buckets in
``rk_rates``. Every bound counts by network (:func:`~rummykit.web.limits.network_key`). Client
addresses are stored only as a keyed digest (:func:`address_digest`), and a bucket or a connection
count is removed once it is idle.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, Engine, text

LEASE_SECONDS: Final = 10.0
"""How long a process's lease lasts after each renewal: its tables wait this long for it at most."""
RENEW_SECONDS: Final = 2.0
"""How often a live process renews its lease."""
FORGET_SECONDS: Final = 3600.0
"""Rate buckets idle this long, and leases expired this long, are deleted."""
NOW: Final = "timezone('UTC', now())"
"""The database's time (UTC, without zone: the column type of the leases)."""


def address_digest(address: str, key: bytes | None = None) -> str:
    """What the database keeps of a client address: a digest, enough to count by address.

    Keyed (HMAC-SHA-256) with the server's address key (:mod:`rummykit.web.address_key`), so the
    digests cannot be reversed by trying every address without the key file; plain SHA-256 without
    a key. Every caller passes the address's :func:`~rummykit.web.limits.network_key` (an IPv6 /64,
    an IPv4 address as is), so the digests count networks."""
    text = f"rummykit-address:{address}".encode()
    if key is None:
        return hashlib.sha256(text).hexdigest()[:32]
    return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class Route:
    """Where table ``code`` is played: ``mine``, or by ``owner`` reachable at ``address``."""

    mine: bool
    owner: str | None = None
    address: str = ""
    key: str = ""
    alive: bool = False
    status: str | None = None
    """The table's status as the route read it (``None``: not read, a table held here)."""


_CLAIM: Final = text(
    "UPDATE rk_tables SET owner = :o WHERE code = :code "
    "AND (status IN ('waiting', 'playing') OR (status = 'over' AND updated_at >= :held)) "
    "AND (owner IS NULL OR (owner <> :o AND NOT EXISTS (SELECT 1 FROM rk_processes p "
    f"WHERE p.origin = rk_tables.owner AND p.lease_until > {NOW})))"
)
"""Make an open table without a live owner this process's (``:o``), or a finished one that ended at
``:held`` or later (held for its rematch: its process stopped within ``finished_table_seconds``)."""


class Cluster:
    """This process's view of the others, all through the database (PostgreSQL only).

    Every method runs SQL and blocks: the table manager calls them from its database thread.
    """

    def __init__(self, engine: Engine, origin: str, address: str, key: str) -> None:
        self.engine = engine
        self.origin = origin
        self.address = address
        """``host:port`` of this process's internal listener (``""``: relays cannot reach it)."""
        self.key = key
        """The secret a relayed connection shows this process (random per process)."""

    # Leases -------------------------------------------------------------------------------------
    def register(self) -> None:
        """Announce this process with a fresh lease; forget processes long dead."""
        with self.engine.begin() as c:
            c.execute(
                text(f"DELETE FROM rk_processes WHERE lease_until < {NOW} - make_interval(secs => :f)"),
                {"f": FORGET_SECONDS},
            )
            c.execute(
                text(
                    "INSERT INTO rk_processes (origin, address, key, lease_until) "
                    f"VALUES (:o, :a, :k, {NOW} + make_interval(secs => :s)) "
                    "ON CONFLICT (origin) DO UPDATE SET address = :a, key = :k, "
                    "lease_until = EXCLUDED.lease_until"
                ),
                {"o": self.origin, "a": self.address, "k": self.key, "s": LEASE_SECONDS},
            )

    def renew(self, idle_seconds: float) -> set[str]:
        """Renew the lease; returns the open tables this process still owns.

        Also the housekeeping any live process may do: connection counts of dead processes are
        dropped, idle rate buckets forgotten, and open tables whose owner is dead and that nobody
        touched for ``idle_seconds`` expire (as their owner's clock would have expired them)."""
        now = time.time()
        with self.engine.begin() as c:
            renewed = c.execute(
                text(
                    f"UPDATE rk_processes SET lease_until = {NOW} + make_interval(secs => :s) "
                    "WHERE origin = :o"
                ),
                {"o": self.origin, "s": LEASE_SECONDS},
            )
            if renewed.rowcount == 0:
                c.execute(
                    text(
                        "INSERT INTO rk_processes (origin, address, key, lease_until) "
                        f"VALUES (:o, :a, :k, {NOW} + make_interval(secs => :s))"
                    ),
                    {"o": self.origin, "a": self.address, "k": self.key, "s": LEASE_SECONDS},
                )
            c.execute(
                text(
                    "DELETE FROM rk_connections WHERE origin NOT IN "
                    f"(SELECT origin FROM rk_processes WHERE lease_until > {NOW})"
                )
            )
            c.execute(text("DELETE FROM rk_rates WHERE stamp < :t"), {"t": now - FORGET_SECONDS})
            expired = c.execute(
                text(
                    "UPDATE rk_tables SET status = 'expired', owner = NULL "
                    "WHERE status IN ('waiting', 'playing') "
                    f"AND updated_at < {NOW} - make_interval(secs => :i) "
                    "AND (owner IS NULL OR owner NOT IN "
                    f"(SELECT origin FROM rk_processes WHERE lease_until > {NOW})) RETURNING code"
                ),
                {"i": idle_seconds},
            ).scalars()
            codes = list(expired)
            if codes:
                c.execute(
                    text("SELECT pg_notify('rummykit', p) FROM unnest(CAST(:p AS text[])) AS p"),
                    {"p": [f"{self.origin}:l:{code}" for code in codes]},
                )
            owned = c.execute(
                text("SELECT code FROM rk_tables WHERE owner = :o AND status IN ('waiting', 'playing')"),
                {"o": self.origin},
            ).scalars()
            return set(owned)

    def release(self, codes: list[str] | None = None) -> None:
        """Give up tables (``None``: all of them, and the lease: the process is stopping)."""
        with self.engine.begin() as c:
            if codes is None:
                c.execute(text("UPDATE rk_tables SET owner = NULL WHERE owner = :o"), {"o": self.origin})
                c.execute(text("DELETE FROM rk_connections WHERE origin = :o"), {"o": self.origin})
                c.execute(text("DELETE FROM rk_processes WHERE origin = :o"), {"o": self.origin})
            elif codes:
                c.execute(
                    text("UPDATE rk_tables SET owner = NULL WHERE owner = :o AND code = ANY(:c)"),
                    {"o": self.origin, "c": codes},
                )

    def route(self, code: str, claim: bool = True, held: datetime | None = None) -> Route | None:
        """Who plays table ``code``; with ``claim``, an open table without a live owner becomes
        this process's, and so does a finished one that ended at ``held`` (UTC) or later. ``None``
        when there is no such table; no owner for another ended table whose process is gone."""
        with self.engine.begin() as c:
            if claim:
                held = held if held is not None else datetime.max
                c.execute(_CLAIM, {"o": self.origin, "code": code, "held": held})
            row = c.execute(
                text(
                    f"SELECT t.owner, p.address, p.key, p.lease_until > {NOW}, t.status FROM rk_tables t "
                    "LEFT JOIN rk_processes p ON p.origin = t.owner WHERE t.code = :code"
                ),
                {"code": code},
            ).first()
        if row is None:
            return None
        owner, address, key, alive, status = row
        if status not in ("waiting", "playing") and not alive and owner != self.origin:
            return Route(mine=False, status=status)  # ended, its process gone: any process shows it
        if owner is None or owner == self.origin:
            return Route(mine=owner == self.origin, owner=owner, status=status)
        return Route(
            mine=False, owner=owner, address=address or "", key=key or "", alive=bool(alive), status=status
        )

    # Per-address bounds -------------------------------------------------------------------------
    def open_connection(self, digest: str, limit: int) -> bool:
        """Count one more websocket connection from ``digest`` unless the address has ``limit``
        connections on the live processes already; whether it was counted."""
        with self.engine.begin() as c:
            c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:a))"), {"a": "conn:" + digest})
            held = c.execute(
                text(
                    "SELECT COALESCE(SUM(n), 0) FROM rk_connections WHERE address = :a AND origin IN "
                    f"(SELECT origin FROM rk_processes WHERE lease_until > {NOW})"
                ),
                {"a": digest},
            ).scalar_one()
            if held >= limit:
                return False
            c.execute(
                text(
                    "INSERT INTO rk_connections (origin, address, n) VALUES (:o, :a, 1) "
                    "ON CONFLICT (origin, address) DO UPDATE SET n = rk_connections.n + 1"
                ),
                {"o": self.origin, "a": digest},
            )
        return True

    def close_connection(self, digest: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                text("UPDATE rk_connections SET n = n - 1 WHERE origin = :o AND address = :a"),
                {"o": self.origin, "a": digest},
            )
            c.execute(
                text("DELETE FROM rk_connections WHERE origin = :o AND address = :a AND n <= 0"),
                {"o": self.origin, "a": digest},
            )

    def take(self, kind: str, digest: str, rate: float, burst: int) -> float:
        """Spend one token of the bucket ``kind`` of ``digest``: ``0.0`` if granted, else the
        seconds until one is available (the bucket of :class:`~rummykit.web.limits.RateLimiter`)."""
        return self._spend(kind, digest, rate, burst, owed=False)

    def count(self, kind: str, digest: str, rate: float, burst: int) -> float:
        """Count one event that has happened (a process let it through on its own bucket) in the
        bucket ``kind`` of ``digest``: a token is spent whether or not one was left, the bucket owing
        it, so that events beyond the rate delay the next ones. Returns the seconds until the bucket
        holds a token again (``0.0``: it does now)."""
        return self._spend(kind, digest, rate, burst, owed=True)

    def _spend(self, kind: str, digest: str, rate: float, burst: int, owed: bool) -> float:
        now = time.time()
        key = {"k": kind, "a": digest}
        with self.engine.begin() as c:
            # One statement makes the bucket (full) or locks the one there and reads it: a bucket that
            # the lease's sweep of idle ones deletes between a make and a separate read cannot be
            # missed (PostgreSQL tries the insert again when the row it conflicted with is gone).
            tokens, stamp = c.execute(
                text(
                    "INSERT INTO rk_rates (kind, address, tokens, stamp) VALUES (:k, :a, :b, :t) "
                    "ON CONFLICT (kind, address) DO UPDATE SET kind = rk_rates.kind "
                    "RETURNING tokens, stamp"
                ),
                {**key, "b": float(burst), "t": now},
            ).one()
            tokens = min(float(burst), tokens + max(0.0, now - stamp) * rate)
            wait = 0.0
            if owed:
                tokens -= 1.0
                if tokens < 1.0:
                    wait = float("inf") if rate <= 0 else (1.0 - tokens) / rate
            elif tokens >= 1.0:
                tokens -= 1.0
            else:
                wait = float("inf") if rate <= 0 else (1.0 - tokens) / rate
            c.execute(
                text("UPDATE rk_rates SET tokens = :n, stamp = :t WHERE kind = :k AND address = :a"),
                {**key, "n": tokens, "t": now},
            )
        return wait

    def seats_held(self, digest: str, network: str) -> tuple[int, int]:
        """Seats joined from ``digest``, and from the wider ``network`` (a digest too), in waiting
        tables not created from ``digest``."""
        with self.engine.connect() as c:
            return count_seats_held(c, digest, network)

    def open_tables(self, digest: str | None, network: str | None) -> tuple[int, int, int]:
        """Open tables in the database, those of them created from ``digest``, and those created
        from the wider ``network`` (its digest, stored as the tables' ``fair``)."""
        with self.engine.connect() as c:
            return count_open_tables(c, digest, network)


def lock_counts(c: Connection, subject: str) -> None:
    """Hold the advisory lock of ``subject`` until ``c``'s transaction ends.

    A limit is counted and then kept by a write (a new table, a seat joined) in one transaction that
    holds the subject's lock: a second count, in this process or another, waits until the first
    write is committed and so counts it. (Two counts read before either write would each admit one
    more than the limit.)"""
    c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": subject})


def count_seats_held(c: Connection, digest: str, network: str) -> tuple[int, int]:
    """:meth:`Cluster.seats_held` in the transaction ``c``."""
    rows = c.execute(
        text(
            "SELECT seats FROM rk_tables WHERE status = 'waiting' "
            "AND (creator IS NULL OR creator <> :a) AND (seats LIKE :p OR seats LIKE :n)"
        ),
        {"a": digest, "p": f"%{digest}%", "n": f"%{network}%"},
    ).all()
    seats = [seat for (text_,) in rows for seat in json.loads(text_) if seat.get("kind") == "human"]
    held = sum(1 for seat in seats if seat.get("joined_from") == digest)
    return held, sum(1 for seat in seats if seat.get("joined_net") == network)


def count_open_tables(c: Connection, digest: str | None, network: str | None) -> tuple[int, int, int]:
    """:meth:`Cluster.open_tables` in the transaction ``c``."""
    row: Any = c.execute(
        text(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE creator = :a), "
            "COUNT(*) FILTER (WHERE fair = :n) FROM rk_tables WHERE status IN ('waiting', 'playing')"
        ),
        {"a": digest, "n": network},
    ).one()
    return int(row[0]), int(row[1]), int(row[2])
