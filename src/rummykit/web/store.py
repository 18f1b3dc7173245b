"""Persistence of web tables with SQLAlchemy 2: one row per table, one row per applied action.

A table is stored as its rules text, players, first dealer and what deals its cards, plus the lobby
(seats, status). What deals the cards is the table's 256-bit ``secret`` (hex; see
:mod:`rummykit.web.dealing`), or for a seeded table its public ``seed`` (``seed`` is 0 and unused
when ``secret`` is set). The secret is read by the server alone. Every applied action is one row keyed by
``(code, idx)``. The table manager writes an action, and the transaction commits, before anybody is
told about it, so a server killed at any moment restarts with every table exactly as its players
last saw it: replaying the action list is deterministic.

The database is chosen by an SQLAlchemy URL: ``sqlite:///path.db`` (the default, in the user's data
directory) or ``postgresql+psycopg://user@host:port/db`` (psycopg 3).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    inspect,
    select,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

DATABASE_ENV: Final = "RUMMYKIT_DATABASE_URL"


def default_database_url() -> str:
    """``RUMMYKIT_DATABASE_URL`` if set, else an SQLite file in the user's data directory."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    from rummykit.cli.paths import data_dir

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'rummykit.db'}"


OPEN_STATUSES: Final = ("waiting", "playing")
"""Tables in these states are loaded when the server starts."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "rk_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The table's dealing secret in hex; ``None`` for a seeded table."""
    dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    seats: Mapped[str] = mapped_column(Text)
    """JSON list of seats (kind, name, bot kind and level, token hash)."""
    takeover_seconds: Mapped[float]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class ActionRow(Base):
    __tablename__ = "rk_actions"

    code: Mapped[str] = mapped_column(String(16), ForeignKey("rk_tables.code"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]


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


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    """Synchronous storage; the table manager calls it from one worker thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = _make_engine(url)
        Base.metadata.create_all(self.engine)
        self._migrate()

    def _migrate(self) -> None:
        """Add the ``secret`` column to a database made before tables had secrets; its tables are
        seeded tables (their 32-bit seed was known to their creator)."""
        columns = {c["name"] for c in inspect(self.engine).get_columns("rk_tables")}
        if "secret" not in columns:
            with self.engine.begin() as connection:
                connection.execute(text("ALTER TABLE rk_tables ADD COLUMN secret VARCHAR(64)"))

    def close(self) -> None:
        self.engine.dispose()

    def create(self, table: StoredTable) -> None:
        now = _now()
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    code=table.code,
                    rules=table.rules,
                    players=table.players,
                    seed=table.seed or 0,
                    secret=None if table.secret is None else table.secret.hex(),
                    dealer=table.dealer,
                    status=table.status,
                    seats=json.dumps(table.seats),
                    takeover_seconds=table.takeover_seconds,
                    created_at=now,
                    updated_at=now,
                )
            )

    def update_lobby(self, code: str, status: str, seats: Sequence[dict[str, Any]]) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(TableRow, code)
            if row is None:
                raise KeyError(code)
            row.status = status
            row.seats = json.dumps(list(seats))
            row.updated_at = _now()

    def append_action(self, code: str, idx: int, seat: int, action: str, status: str | None = None) -> None:
        """Store action number ``idx`` (from 0) of a table; the primary key refuses a second one."""
        now = _now()
        with Session(self.engine) as session, session.begin():
            session.add(ActionRow(code=code, idx=idx, seat=seat, action=action, created_at=now))
            row = session.get(TableRow, code)
            if row is None:
                raise KeyError(code)
            row.updated_at = now
            if status is not None:
                row.status = status

    def load_open(self) -> list[StoredTable]:
        """Every table still waiting or playing, with its actions (finished ones stay in the database)."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.status.in_(OPEN_STATUSES)).order_by(TableRow.created_at)
            ).all()
            actions: dict[str, list[str]] = {row.code: [] for row in rows}
            for code in actions:
                query = select(ActionRow.action).where(ActionRow.code == code).order_by(ActionRow.idx)
                actions[code] = list(session.scalars(query))
            return [
                StoredTable(
                    code=row.code,
                    rules=row.rules,
                    players=row.players,
                    seed=None if row.secret else row.seed,
                    secret=bytes.fromhex(row.secret) if row.secret else None,
                    dealer=row.dealer,
                    status=row.status,
                    seats=json.loads(row.seats),
                    takeover_seconds=row.takeover_seconds,
                    actions=actions.get(row.code, []),
                )
                for row in rows
            ]

    def actions(self, code: str) -> list[str]:
        """The stored actions of one table, in order."""
        with Session(self.engine) as session:
            query = select(ActionRow.action).where(ActionRow.code == code).order_by(ActionRow.idx)
            return list(session.scalars(query))


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL keeps readers and the writer apart; every commit still reaches the file before the
            # call returns, which is what survives a SIGKILL of the server.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)
