"""Schema migrations of the web store (Alembic): :func:`upgrade` brings any database to the head.

Revisions live in ``versions/``: ``0001`` is the schema of the last release before migrations
existed (what ``create_all`` made), ``0002`` adds ``rk_tables.version`` (the number of stored
actions, filled from ``rk_actions``) and an index on ``rk_tables.status``, ``0003`` the tables that
several server processes share (owners and leases, connections and rate buckets per address),
``0004`` ``rk_tables.hints`` (who may ask for hints; tables made before it keep hints for everyone),
``0005`` ``rk_meta`` (what every process must agree on: the address key's check value) and
``rk_tables.fair`` (the creator's network that bot time is shared among, kept over a restart),
``0006`` ``rk_tables.sealed`` (a table deals from the seal of its secret under the key file),
``0007`` ``rk_tables.rules_revision`` (the rules revision its rules text was written under; 0 for
tables made before it), ``0008`` ``rk_tables.listed`` (whether the lobby lists it; tables made before
it were all listed), ``0009`` ``rk_tables.organised`` (the organiser made it and holds no seat at it;
tables made before it all had a host), ``0010`` ``rk_actions.played_by`` (who made a move: a person,
a person right after a hint, a bot's seat or a stand-in bot; none for moves stored before it),
``0011`` ``rk_tables.label`` (the organiser's name for a table it made; '' for none and for tables
made before it), ``0012`` ``rk_tables.rematch`` (the code of a finished table's one rematch, so that a
restart neither forgets it nor opens a second; none for tables stored before it).

A database made before migrations (tables but no ``alembic_version``) is recognised and stamped at
``0001`` first; an even older one without the ``secret`` column gets it (its tables are seeded
tables: their 32-bit seed was known to their creator). On PostgreSQL the upgrade holds an advisory
lock, so several server processes starting at once upgrade the database exactly once.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Final

from sqlalchemy import Connection, Engine, inspect, text

HEAD: Final = "0012"
BASELINE: Final = "0001"
"""The revision of a database that ``create_all`` made before migrations existed."""
MIGRATION_LOCK: Final = 0x726B6D67  # "rkmg": the advisory lock key of schema upgrades
log = logging.getLogger("rummykit.web")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database behind ``engine`` to ``revision`` (the head by default). An upgrade of a
    database that had a schema already is logged as a warning: the older release cannot open it any
    more (a new database is not)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            _unbounded(connection)
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        _adopt_unversioned(connection)
        before = _revision(connection)
        _run(connection, "upgrade", revision)
        after = _revision(connection)
    if before is not None and after != before:
        log.warning(
            "database schema upgraded from %s to %s: a server of an older rummykit cannot open it any more "
            "(keep a copy made before the upgrade to go back)",
            before,
            after,
        )


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to ``revision`` (``"base"`` removes every table of the store)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            _unbounded(connection)
        _run(connection, "downgrade", revision)


def _unbounded(connection: Connection) -> None:
    """Lift the store's PostgreSQL timeouts for this transaction
    (:data:`rummykit.web.store.POSTGRES_CONNECT`): a migration may wait for another process's
    migration and rewrite large tables."""
    connection.execute(text("SET LOCAL lock_timeout = 0"))
    connection.execute(text("SET LOCAL statement_timeout = 0"))


def current(engine: Engine) -> str | None:
    """The database's revision, ``None`` when it has none."""
    with engine.connect() as connection:
        return _revision(connection)


def _revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    revision: str | None = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return revision


def _adopt_unversioned(connection: Connection) -> None:
    """Stamp a pre-migration database at the baseline (adding ``secret`` where it is missing)."""
    inspector = inspect(connection)
    if inspector.has_table("alembic_version") or not inspector.has_table("rk_tables"):
        return
    columns = {c["name"] for c in inspector.get_columns("rk_tables")}
    if "secret" not in columns:
        connection.execute(text("ALTER TABLE rk_tables ADD COLUMN secret VARCHAR(64)"))
    _run(connection, "stamp", BASELINE)


def _run(connection: Connection, what: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    config.attributes["connection"] = connection
    getattr(command, what)(config, revision)
