"""Persistence of web tables with SQLAlchemy Core: one row per table, one row per applied action.

A table is stored as its rules text (with the rules revision it was written under:
:mod:`rummykit.revisions`), players, first dealer and what deals its cards, plus the lobby (seats,
status). What deals the cards is the table's 256-bit ``secret`` (hex; see
:mod:`rummykit.web.dealing`), or for a seeded table its public ``seed`` (``seed`` is 0 and unused
when ``secret`` is set). The secret is read by the server alone. Every applied action is one row keyed by
``(code, idx)``; ``rk_tables.version`` counts a table's stored actions. The table manager writes an
action, and the transaction commits, before anybody is told about it, so a server killed at any
moment restarts with every table exactly as its players last saw it: replaying the action list is
deterministic. At a practice table an undo is a record of its own (``#undo K``, never an action's
notation; :mod:`rummykit.web.practice`): the store still only appends.

Moves are written in groups: :meth:`Store.append_actions` stores the moves of many tables in one
transaction (the manager gathers what arrived during one event-loop tick). The primary key
``(code, idx)`` is the state-version check: a second action number ``idx`` of a table is refused, so
two server processes sharing one database can never both store a move at the same version.

The schema is managed by Alembic (:mod:`rummykit.web.migrations`): opening a store upgrades an
older database to the current revision, including a database made before migrations existed.

The database is chosen by an SQLAlchemy URL: ``sqlite:///path.db`` (the default, in the user's data
directory) or ``postgresql+psycopg://user@host:port/db`` (psycopg 3).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    false,
    insert,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from rummykit.revisions import RULES_REVISION
from rummykit.web.coordination import Notice, new_origin, notify

DATABASE_ENV: Final = "RUMMYKIT_DATABASE_URL"

Guard = Callable[[Connection], None]
"""A check run inside a write's transaction before the write, refusing it by raising (a limit
counted where the write that would exceed it is made: :func:`rummykit.web.owners.lock_counts`)."""


class LobbyConflict(Exception):
    """Another server process changed a table's lobby between our read and our write."""


def default_database_url() -> str:
    """``RUMMYKIT_DATABASE_URL`` if set, else an SQLite file in the user's data directory."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    from rummykit.cli.paths import data_dir

    folder = data_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new data folder is its owner's alone
    return f"sqlite:///{folder / 'rummykit.db'}"


LOCK_TIMEOUT_MS: Final = 10_000
"""How long a PostgreSQL statement of the server waits for a lock before the database cancels it."""
STATEMENT_TIMEOUT_MS: Final = 30_000
"""How long a PostgreSQL statement of the server runs before the database cancels it (a group of
moves takes milliseconds; pruning 500 ended tables, well under a second)."""

POSTGRES_CONNECT: Final = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 60_000,
}
"""libpq settings of every PostgreSQL connection: a database that does not answer a connection in
10 s is an error, and a connection whose peer is gone (a network break) fails within about a minute
instead of hanging every table behind it. Each new connection then sets its session's timeouts
(:func:`_postgres_session`; a ``SET``, which connection poolers pass on, where the startup parameter
``options`` is refused by some): the database cancels a statement that waits
:data:`LOCK_TIMEOUT_MS` for a lock (an operator's ``LOCK TABLE`` or ``ALTER TABLE``, a stuck
session holding a row) or runs :data:`STATEMENT_TIMEOUT_MS`: its transaction is rolled back, so the
move is refused as unstored and nothing changed (the moves and the lobby's writes run on one thread, so one
waiting statement would otherwise hold every table's moves). Migrations lift both
(:func:`rummykit.web.migrations.upgrade`). A database whose process is frozen answers nothing,
not even that cancel: its moves wait, and the tables are told so
(:data:`rummykit.web.tables.SLOW_STORAGE_SECONDS`). Statements and their parameters are kept out of
error messages and the log (``hide_parameters``): they hold tokens' digests and dealing secrets."""

OPEN_STATUSES: Final = ("waiting", "playing")
CHECKPOINT_TRIES: Final = 10
CHECKPOINT_WAIT_MS: Final = 300
"""How often, and how long each time, :meth:`Store.empty_log` waits for a reader of an SQLite
database to let its write-ahead log be emptied (about 5 s in all, the server writing in between)."""
SQLITE_BUSY_MS: Final = 5000
"""How long an SQLite connection waits for a lock (the ``sqlite3`` module's default timeout)."""
PRUNE_BATCH: Final = 500
"""Ended tables one pruning transaction deletes at most (the next pass takes the rest)."""
"""Tables in these states are loaded when the server starts."""

metadata = MetaData()

tables_table: Final = Table(
    "rk_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("secret", String(64), nullable=True),  # the dealing secret in hex; NULL when seeded
    Column("sealed", Boolean, nullable=False, server_default=false()),  # dealt from its seal (the key file)
    Column("dealer", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("seats", Text, nullable=False),  # JSON list of seats (kind, name, bot, level, token hash)
    Column("takeover_seconds", Float, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    Column("version", Integer, nullable=False, server_default="0"),  # number of stored actions
    Column("owner", String(16), nullable=True),  # the server process that plays it (shared mode)
    Column("creator", String(64), nullable=True),  # digest of the creating client's address
    # Who may ask for hints (protocol.HintsPolicy). Tables made before the setting existed gave
    # hints to everyone, so that is what a row without a value means.
    Column("hints", String(16), nullable=False, server_default="everyone"),
    Column("fair", String(64), nullable=True),  # digest of the creator's network that bots share
    # The rules revision its rules text was written under (rummykit.revisions): 0 for a table made
    # before revisions were stored. The text is read with the meaning it had then.
    Column("rules_revision", Integer, nullable=False, server_default="0"),
    # Whether the lobby lists it (a table found by its link alone is not); tables made before the
    # setting were all listed.
    Column("listed", Boolean, nullable=False, server_default=true()),
    # Whether the organiser made it from the organiser's page (rummykit.web.organiser): no seat is a
    # host's, the organiser starts it and removes people from it; tables made before it had a host.
    Column("organised", Boolean, nullable=False, server_default=false()),
    # The organiser's name for it ("Group A"), '' for none: at most LABEL_CHARACTERS (24) characters
    # (rummykit.web.protocol), with room for a longer limit without a migration.
    Column("label", String(64), nullable=False, server_default=""),
    # The code of the finished table's one rematch (rummykit.web.rematch), NULL for none: a restart
    # while the table is held offers it again and opens no second one.
    Column("rematch", String(16), nullable=True),
    Index("ix_rk_tables_status", "status"),
)
"""One row per table (the current schema; :mod:`rummykit.web.migrations` builds it)."""

actions_table: Final = Table(
    "rk_actions",
    metadata,
    Column("code", String(16), ForeignKey("rk_tables.code"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("played_by", String(8), nullable=True),  # PLAYED_BY; NULL: an undo, or stored before it was kept
)
"""One row per applied action, keyed by ``(code, idx)``: the key refuses a second action ``idx``."""

PLAYED_BY: Final = ("person", "hinted", "bot", "stand_in")
"""Who made a stored move (``rk_actions.played_by``): a person, a person right after a hint for that
move, a bot's seat, or a bot standing in for a person (away too long, or gone from the table)."""

processes_table: Final = Table(
    "rk_processes",
    metadata,
    Column("origin", String(16), primary_key=True),
    Column("address", String(128), nullable=False),  # host:port of its internal listener
    Column("key", String(64), nullable=False),  # what a relayed connection must show it
    Column("lease_until", DateTime, nullable=False),  # database time (UTC)
)
"""The live server processes sharing the database (:mod:`rummykit.web.owners`)."""

connections_table: Final = Table(
    "rk_connections",
    metadata,
    Column("origin", String(16), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)
"""Websocket connections per process and client address digest (the per-address cap)."""

rates_table: Final = Table(
    "rk_rates",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("stamp", Float, nullable=False),
)
"""Token buckets of the per-address rate limits (creations, lobby requests)."""

meta_table: Final = Table(
    "rk_meta",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)
"""Facts about the database every process must agree on (:mod:`rummykit.web.address_key`)."""


@dataclass
class StoredTable:
    """A table as stored: enough to rebuild the match and the lobby."""

    code: str
    rules: str
    players: int
    seed: int | None
    """The public seed of a seeded table; ``None`` when the table deals from ``secret``."""
    secret: bytes | None
    dealer: int
    status: str
    seats: list[dict[str, Any]]
    takeover_seconds: float
    actions: list[str]
    creator: str | None = None
    """Digest of the address that created the table (:func:`rummykit.web.owners.address_digest`)."""
    hints: str = "practice"
    """Who may ask for hints (:data:`rummykit.web.protocol.HintsPolicy`)."""
    fair: str | None = None
    """Digest of the creator's network that bot time is shared among
    (:func:`rummykit.web.thinking.fair_network`), so it holds after a restart."""
    sealed: bool = False
    """Whether ``secret`` is sealed: the table deals from :func:`rummykit.web.dealing.seal` of it
    under the key file, not from it (tables made before sealing, or without a key, deal from it)."""
    listed: bool = True
    """Whether the lobby lists the table (:attr:`rummykit.web.protocol.CreateTable.listed`)."""
    organised: bool = False
    """Whether the organiser made the table (:mod:`rummykit.web.organiser`): it has no host."""
    label: str = ""
    """The organiser's name for the table (:attr:`rummykit.web.protocol.CreateTable.label`), '' for none."""
    rematch: str | None = None
    """The code of the finished table's one rematch (:mod:`rummykit.web.rematch`), ``None`` for none."""
    updated_at: datetime | None = None
    """When the row last changed (UTC, as read; ``None`` for a table not read from the database): for a
    table that ended, when it ended (:meth:`Store.load_ended`)."""
    rules_revision: int = RULES_REVISION
    """The rules revision ``rules`` was written under (:mod:`rummykit.revisions`): a table is replayed
    with the meaning its text had then (:func:`rummykit.revisions.read_rules`). 0 for a table stored
    before revisions were recorded; a revision above :data:`~rummykit.revisions.RULES_REVISION` is a
    newer rummykit's, which this version does not play."""


@dataclass(frozen=True)
class StoredAction:
    """Action number ``idx`` (from 0) of table ``code``; ``status`` changes the table's status too."""

    code: str
    idx: int
    seat: int
    action: str
    status: str | None = None
    played_by: str | None = None
    """Who made the move (:data:`PLAYED_BY`); ``None`` for an undo."""


_APPEND: Final = insert(actions_table)
_BY_CODE = tables_table.c.code == bindparam("k")
_MOVED: Final = update(tables_table).where(_BY_CODE).values(version=bindparam("v"), updated_at=bindparam("t"))
_MOVED_ENDING: Final = (
    update(tables_table)
    .where(_BY_CODE)
    .values(version=bindparam("v"), status=bindparam("s"), updated_at=bindparam("t"))
)
"""The statements of a group of moves, built once (SQLAlchemy compiles each once and caches it)."""


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    """Synchronous storage; the table manager calls it from one worker thread."""

    def __init__(self, url: str) -> None:
        from rummykit.web.migrations import upgrade

        self.url = url
        self.engine: Engine = _make_engine(url)
        upgrade(self.engine)
        self.shared = self.engine.dialect.name == "postgresql"
        """Whether several server processes may share this database (PostgreSQL: changes are
        announced through ``NOTIFY``, :mod:`rummykit.web.coordination`)."""
        self.origin = new_origin()
        """This process's id in the notices it sends."""
        self._writer: Connection | None = None
        """The connection of :meth:`append_actions`, kept between groups (no pool checkout, and no
        ping of the pool's pre-ping, per group); dropped after any error and opened again."""

    def _notify(self, connection: Connection, kind: str, pairs: Sequence[tuple[str, int | None]]) -> None:
        if self.shared:
            notify(connection, [Notice(self.origin, kind, code, n) for code, n in pairs])

    def close(self) -> None:
        self._drop_writer()
        self.engine.dispose()

    def _drop_writer(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()

    def create(self, table: StoredTable, guard: Guard | None = None) -> None:
        """Store a new table (without an owner: :mod:`rummykit.web.owners`); ``guard`` runs first in
        the same transaction and may refuse it by raising."""
        now = _now()
        with self.engine.begin() as connection:
            if guard is not None:
                guard(connection)
            connection.execute(
                insert(tables_table).values(
                    code=table.code,
                    rules=table.rules,
                    players=table.players,
                    seed=table.seed or 0,
                    secret=None if table.secret is None else table.secret.hex(),
                    sealed=table.sealed,
                    dealer=table.dealer,
                    status=table.status,
                    seats=json.dumps(table.seats),
                    takeover_seconds=table.takeover_seconds,
                    created_at=now,
                    updated_at=now,
                    version=len(table.actions),
                    creator=table.creator,
                    hints=table.hints,
                    fair=table.fair,
                    rules_revision=table.rules_revision,
                    listed=table.listed,
                    organised=table.organised,
                    label=table.label,
                    rematch=table.rematch,
                )
            )

    def ping(self) -> None:
        """One round trip to the database (the health check's), raising if it does not answer."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def update_lobby(
        self,
        code: str,
        status: str,
        seats: Sequence[dict[str, Any]],
        expect: tuple[str, str] | None = None,
        guard: Guard | None = None,
    ) -> str:
        """Write a table's status and seats; returns the seats' stored text.

        With ``expect`` (the status and seats text last read) the write is a compare-and-set:
        :class:`LobbyConflict` when another process changed the lobby since. ``guard`` runs first in
        the same transaction and may refuse the write by raising.
        """
        written = json.dumps(list(seats))
        query = update(tables_table).where(tables_table.c.code == code)
        if expect is not None:
            query = query.where(tables_table.c.status == expect[0], tables_table.c.seats == expect[1])
        with self.engine.begin() as connection:
            if guard is not None:
                guard(connection)
            result = connection.execute(query.values(status=status, seats=written, updated_at=_now()))
            if result.rowcount == 0:
                if expect is not None:
                    raise LobbyConflict(code)
                raise KeyError(code)
            self._notify(connection, "l", [(code, None)])
        return written

    def set_label(self, code: str, label: str) -> None:
        """Write a table's label (:attr:`StoredTable.label`). The last change of a table that ended
        stays its end (:meth:`load_ended` counts from it), so renaming it does not hold it longer."""
        row = tables_table.c
        changed = case((row.status.in_(OPEN_STATUSES), _now()), else_=row.updated_at)
        with self.engine.begin() as connection:
            query = update(tables_table).where(row.code == code)
            if connection.execute(query.values(label=label, updated_at=changed)).rowcount == 0:
                raise KeyError(code)

    def set_rematch(self, code: str, rematch: str) -> bool:
        """Record ``rematch`` as the one rematch of the finished table ``code`` (its last change, its
        end, stays as it was); whether it was recorded: not when the table has one already (or no
        row)."""
        row = tables_table.c
        query = update(tables_table).where(row.code == code, row.rematch.is_(None)).values(rematch=rematch)
        with self.engine.begin() as connection:
            return bool(connection.execute(query).rowcount)

    def lobby(self, code: str) -> tuple[str, str] | None:
        """A table's status and seats text, ``None`` if there is no such table."""
        query = select(tables_table.c.status, tables_table.c.seats).where(tables_table.c.code == code)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else (row[0], row[1])

    def touch(self, code: str) -> None:
        """Mark a table as in use now (people are present), for processes judging it idle."""
        with self.engine.begin() as connection:
            connection.execute(
                update(tables_table).where(tables_table.c.code == code).values(updated_at=_now())
            )

    def idle_seconds(self, code: str) -> float:
        """Seconds since the table was last changed or touched (infinite if there is none)."""
        query = select(tables_table.c.updated_at).where(tables_table.c.code == code)
        with self.engine.connect() as connection:
            stamp = connection.execute(query).scalar()
        return float("inf") if stamp is None else (_now() - stamp).total_seconds()

    def announce_presence(self, code: str, seat: int) -> None:
        """Tell the other processes that a person took ``seat`` of ``code`` here."""
        if self.shared:
            with self.engine.begin() as connection:
                self._notify(connection, "p", [(code, seat)])

    def append_action(self, code: str, idx: int, seat: int, action: str, status: str | None = None) -> None:
        """Store action number ``idx`` (from 0) of a table; the primary key refuses a second one."""
        self.append_actions([StoredAction(code, idx, seat, action, status)])

    def append_actions(self, actions: Sequence[StoredAction]) -> None:
        """Store actions of any tables in one transaction: all of them or, on any error, none.

        Raises:
            sqlalchemy.exc.IntegrityError: an action number is already taken (or the table is
                unknown); nothing of the group is stored.
        """
        if not actions:
            return
        now = _now()
        if self._writer is None:
            self._writer = self.engine.connect()
        try:
            self._append(self._writer, actions, now)
        except BaseException:
            self._drop_writer()  # a failed or lost connection is not used again
            raise

    @staticmethod
    def _append(connection: Connection, actions: Sequence[StoredAction], now: datetime) -> None:
        # A move is stored with its minute, not its instant: seconds between moves would be every
        # player's thinking times, which nothing here needs (README, "Data protection"). The table's
        # last change keeps the instant (the idle clocks read it; it is one time, the latest).
        minute = now.replace(second=0, microsecond=0)
        with connection.begin():
            connection.execute(
                _APPEND,
                [
                    {
                        "code": a.code,
                        "idx": a.idx,
                        "seat": a.seat,
                        "action": a.action,
                        "created_at": minute,
                        "played_by": a.played_by,
                    }
                    for a in actions
                ],
            )
            latest: dict[str, StoredAction] = {}
            for a in actions:
                if a.code not in latest or a.idx > latest[a.code].idx:
                    latest[a.code] = a
            plain = [a for a in latest.values() if a.status is None]
            ending = [a for a in latest.values() if a.status is not None]
            if plain:
                connection.execute(_MOVED, [{"k": a.code, "v": a.idx + 1, "t": now} for a in plain])
            if ending:
                connection.execute(
                    _MOVED_ENDING, [{"k": a.code, "v": a.idx + 1, "s": a.status, "t": now} for a in ending]
                )

    def prune(self, before: datetime, limit: int = PRUNE_BATCH) -> int:
        """Delete up to ``limit`` tables that ended (finished, closed or expired) and last changed
        before ``before`` (UTC), with their moves; how many went. Open tables are never touched."""
        ended = (
            select(tables_table.c.code)
            .where(tables_table.c.status.not_in(OPEN_STATUSES), tables_table.c.updated_at < before)
            .limit(limit)
        )
        with self.engine.begin() as connection:
            codes = list(connection.execute(ended).scalars())
            return _delete_tables(connection, codes, tables_table.c.status.not_in(OPEN_STATUSES))

    def prune_unplayed(self, before: datetime, playing: Collection[str], limit: int = PRUNE_BATCH) -> int:
        """Delete up to ``limit`` open tables unchanged since ``before`` that are not among ``playing``
        (the tables the one server process on this database holds), with their moves; how many went.
        Such a table was stored by a release that this one cannot replay (its rules or a move refused),
        so no process loads it and no clock ever ends it: without this its names stayed for ever."""
        stale = (
            select(tables_table.c.code)
            .where(tables_table.c.status.in_(OPEN_STATUSES), tables_table.c.updated_at < before)
            .limit(limit + len(playing))
        )
        with self.engine.begin() as connection:
            codes = [c for c in connection.execute(stale).scalars() if c not in playing][:limit]
            return _delete_tables(connection, codes)

    def tables_named(self, name: str) -> list[tuple[str, str]]:
        """The tables (code, status) where a seat holds or held ``name`` (a person who left keeps it
        as ``held_name`` while a bot plays the seat, shown as "name (bot)"), compared without case:
        what an operator looks up to erase one person's tables (``rummykit forget --name``)."""
        wanted = name.strip().casefold()
        found = []
        with self.engine.connect() as connection:
            row = tables_table.c
            rows = connection.execute(select(row.code, row.status, row.seats))
            for code, status, seats_text in rows:
                for seat in json.loads(seats_text):
                    names = {str(seat.get("name") or ""), str(seat.get("held_name") or "")}
                    names |= {n.removesuffix(" (bot)") for n in names}
                    if wanted in {n.strip().casefold() for n in names}:
                        found.append((str(code), str(status)))
                        break
        return found

    def forget(self, code: str, include_open: bool = False) -> tuple[str, int] | None:
        """Delete table ``code`` with its moves (a person's request to erase their data): its status
        and how many moves went, or ``None`` without such a table. An open table (waiting or
        playing) is deleted only with ``include_open``: a running server plays it from memory and
        would store its next move against a table that is gone.

        Raises:
            ValueError: the table is open and ``include_open`` is false.
        """
        with self.engine.begin() as connection:
            status = connection.execute(
                select(tables_table.c.status).where(tables_table.c.code == code)
            ).scalar()
            if status is None:
                return None
            if status in OPEN_STATUSES and not include_open:
                raise ValueError(f"table {code} is {status}")
            moves = connection.execute(delete(actions_table).where(actions_table.c.code == code)).rowcount
            connection.execute(delete(tables_table).where(tables_table.c.code == code))
        return str(status), int(moves)

    def empty_log(self, tries: int | None = None) -> bool:
        """On SQLite, write the write-ahead log back into the database file and empty it: until then
        it holds the pages of deleted rows as they were (the file's copies are overwritten by
        ``secure_delete``). Whether it is empty; it is not while another program reads the database
        (a backup, a ``sqlite3`` shell, a replica): each try waits a moment for it, and the server's
        writes go on between the tries. Other databases have no such log: ``True``."""
        if self.engine.dialect.name != "sqlite":
            return True
        tries = CHECKPOINT_TRIES if tries is None else tries
        for attempt in range(tries):
            with self.engine.connect() as connection:
                connection.execute(text(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}"))
                busy, frames, written = connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)")).one()
                connection.execute(text(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}"))
            if busy == 0 and frames in (0, -1) and written in (0, -1):
                return True
            if attempt + 1 < tries:
                time.sleep(CHECKPOINT_WAIT_MS / 1000)
        return False

    def claim_meta(self, name: str, value: str, replaces: tuple[str, ...] = ()) -> str:
        """Record ``value`` under ``name`` unless another value is recorded there; a recorded value
        in ``replaces`` is replaced. The value recorded afterwards (another process's, if it came
        first)."""
        row = meta_table.c
        with self.engine.begin() as connection:
            connection.execute(
                update(meta_table).where(row.name == name, row.value.in_(replaces)).values(value=value)
            )
            found = connection.execute(select(row.value).where(row.name == name)).scalar()
        if found is not None:
            return str(found)
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(meta_table).values(name=name, value=value))
        except IntegrityError:
            pass  # another process recorded its value first: that one stands
        with self.engine.connect() as connection:
            return str(connection.execute(select(row.value).where(row.name == name)).scalar_one())

    def forget_addresses(self, stale_before: float, batch: int = PRUNE_BATCH) -> int:
        """Erase the address digests nothing counts any more: the creator and the seats' ``joined_from``
        and ``joined_net``
        of tables that ended (the caps count open tables only), and the shared rate buckets last used
        before ``stale_before`` (seconds since the epoch; a bucket untouched that long is full again).
        How many rows changed. A leaked copy of the database then holds the digests of the people at
        open tables only.

        The seats are rewritten ``batch`` tables per transaction, each only if its seats are still the
        ones read (another process may have written them meanwhile: then the next pass erases them)."""
        ended = tables_table.c.status.not_in(OPEN_STATUSES)
        changed = 0
        after = ""
        while True:
            with self.engine.begin() as connection:
                rows = connection.execute(
                    select(tables_table.c.code, tables_table.c.seats)
                    .where(
                        ended,
                        or_(
                            tables_table.c.seats.like('%"joined_from": "%'),
                            tables_table.c.seats.like('%"joined_net": "%'),
                        ),
                        tables_table.c.code > after,
                    )
                    .order_by(tables_table.c.code)
                    .limit(batch)
                ).all()
                for code, text_ in rows:
                    seats = [{**seat, "joined_from": None, "joined_net": None} for seat in json.loads(text_)]
                    result = connection.execute(
                        update(tables_table)
                        .where(tables_table.c.code == code, tables_table.c.seats == text_)
                        .values(seats=json.dumps(seats))
                    )
                    changed += int(result.rowcount)
            if len(rows) < batch:
                break
            after = rows[-1].code
        with self.engine.begin() as connection:
            result = connection.execute(
                update(tables_table)
                .where(ended, or_(tables_table.c.creator.is_not(None), tables_table.c.fair.is_not(None)))
                .values(creator=None, fair=None)
            )
            changed += int(result.rowcount)
            result = connection.execute(delete(rates_table).where(rates_table.c.stamp < stale_before))
            changed += int(result.rowcount)
        return changed

    def load_open(self) -> list[StoredTable]:
        """Every table still waiting or playing, with its actions (finished ones stay in the database)."""
        query = (
            select(tables_table)
            .where(tables_table.c.status.in_(OPEN_STATUSES))
            .order_by(tables_table.c.created_at)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
            return [self._stored(connection, row) for row in rows]

    def load_ended(self, since: datetime) -> list[StoredTable]:
        """Every finished table (``over``: not closed or expired, which have no rematch and nothing to
        come back to) that ended at ``since`` (UTC) or later, with its actions, in the order they were
        made: a server restarted within ``finished_table_seconds`` of their end holds them again, for
        their rematch. A table's last change after its end changes nothing of it that this counts from
        (:meth:`set_label`, :meth:`set_rematch`)."""
        query = (
            select(tables_table)
            .where(tables_table.c.status == "over", tables_table.c.updated_at >= since)
            .order_by(tables_table.c.created_at)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
            return [self._stored(connection, row) for row in rows]

    def load(self, code: str) -> StoredTable | None:
        """One table with its actions, whatever its status; ``None`` if there is none."""
        with self.engine.connect() as connection:
            row = (
                connection.execute(select(tables_table).where(tables_table.c.code == code)).mappings().first()
            )
            return None if row is None else self._stored(connection, row)

    @staticmethod
    def _stored(connection: Any, row: Any) -> StoredTable:
        return StoredTable(
            code=row["code"],
            rules=row["rules"],
            players=row["players"],
            seed=None if row["secret"] else row["seed"],
            secret=bytes.fromhex(row["secret"]) if row["secret"] else None,
            dealer=row["dealer"],
            status=row["status"],
            seats=json.loads(row["seats"]),
            takeover_seconds=row["takeover_seconds"],
            actions=_actions(connection, row["code"]),
            creator=row["creator"],
            hints=row["hints"],
            fair=row["fair"],
            sealed=bool(row["sealed"]),
            rules_revision=row["rules_revision"],
            listed=bool(row["listed"]),
            organised=bool(row["organised"]),
            label=row["label"],
            rematch=row["rematch"],
            updated_at=row["updated_at"],
        )

    def lobbies(self, limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` open and listed tables' lobby rows (no actions): what a lobby list shows."""
        query = _LOBBY.where(tables_table.c.status.in_(OPEN_STATUSES), tables_table.c.listed.is_(True))
        query = query.order_by(tables_table.c.created_at.desc()).limit(limit)
        with self.engine.connect() as connection:
            return [dict(row) for row in connection.execute(query).mappings()]

    def lobby_row(self, code: str) -> dict[str, Any] | None:
        """One table's lobby row (no actions), ``None`` if there is no such table."""
        with self.engine.connect() as connection:
            row = connection.execute(_LOBBY.where(tables_table.c.code == code)).mappings().first()
        return None if row is None else dict(row)

    def played_by(self, code: str) -> list[tuple[str, int, str | None]]:
        """Every stored record of one table in order (moves and undos), each with its seat and who
        made it (:data:`PLAYED_BY`; ``None`` for an undo or a move stored before it was kept)."""
        columns = actions_table.c
        query = select(columns.action, columns.seat, columns.played_by).where(columns.code == code)
        with self.engine.connect() as connection:
            return [(row[0], row[1], row[2]) for row in connection.execute(query.order_by(columns.idx))]

    def actions(self, code: str, start: int = 0) -> list[str]:
        """The stored actions of one table in order, from number ``start``."""
        with self.engine.connect() as connection:
            return _actions(connection, code, start)


_LOBBY: Final = select(
    tables_table.c.code,
    tables_table.c.rules,
    tables_table.c.status,
    tables_table.c.seats,
    tables_table.c.takeover_seconds,
    tables_table.c.secret,
    tables_table.c.hints,
    tables_table.c.rules_revision,
    tables_table.c.listed,
    tables_table.c.organised,
    tables_table.c.label,
    tables_table.c.updated_at,
)


def _delete_tables(connection: Connection, codes: Sequence[str], *still: Any) -> int:
    """Delete the tables ``codes`` with their moves (those of them for which every ``still`` holds, in
    the same transaction); how many tables went."""
    if not codes:
        return 0
    connection.execute(delete(actions_table).where(actions_table.c.code.in_(codes)))
    gone = connection.execute(delete(tables_table).where(tables_table.c.code.in_(codes), *still))
    return int(gone.rowcount)


def _actions(connection: Any, code: str, start: int = 0) -> list[str]:
    query = (
        select(actions_table.c.action)
        .where(actions_table.c.code == code, actions_table.c.idx >= start)
        .order_by(actions_table.c.idx)
    )
    return list(connection.execute(query).scalars())


def _owner_only_file(url: str) -> None:
    """Make a new SQLite database file readable by its owner alone (SQLite's journal files take its
    mode): it holds the tables' names, moves and secrets. An existing file keeps its mode."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        _owner_only_file(url)
        engine = create_engine(url, connect_args={"check_same_thread": False}, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL keeps readers and the writer apart; every commit still reaches the file before the
            # call returns, which is what survives a SIGKILL of the server.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            # A deleted table (pruned after keep_ended_days, or forgotten on request) is overwritten
            # in the file, not left readable in its free pages (builds differ in their default).
            cursor.execute("PRAGMA secure_delete=ON")
            cursor.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True, hide_parameters=True, connect_args=POSTGRES_CONNECT)
    event.listen(engine, "connect", _postgres_session)
    return engine


def _postgres_session(dbapi_connection: Any, _record: Any) -> None:
    """Set a new PostgreSQL connection's timeouts (:data:`POSTGRES_CONNECT`), committed at once: a
    ``SET`` in the transaction the driver opens would be rolled back when the pool takes the
    connection back."""
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    try:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT_MS)}")
            cursor.execute(f"SET statement_timeout = {int(STATEMENT_TIMEOUT_MS)}")
    finally:
        dbapi_connection.autocommit = autocommit
