"""Group commit: the moves of one event-loop tick share one transaction, and a refused move fails
alone (the others of its group are stored)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from rummykit.web.limits import ServerSettings
from rummykit.web.manager import TableManager
from rummykit.web.store import Store, StoredAction, StoredTable


def stored(code: str) -> StoredTable:
    return StoredTable(code, "german", 2, 1, None, 0, "playing", [], 60.0, [])


def test_a_group_is_one_transaction_and_a_refused_move_fails_alone(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        store.create(stored(code))
    store.append_action("BBBBBB", 0, 0, "draw")
    groups: list[list[StoredAction]] = []
    original = store.append_actions

    def recording(actions: Any) -> None:
        groups.append(list(actions))
        original(actions)

    store.append_actions = recording  # type: ignore[method-assign]

    async def main() -> list[Any]:
        manager = TableManager(store, ServerSettings())
        try:
            return await asyncio.gather(
                manager.append(StoredAction("AAAAAA", 0, 0, "draw")),
                manager.append(StoredAction("BBBBBB", 0, 1, "take")),  # action 0 is taken
                manager.append(StoredAction("CCCCCC", 0, 0, "draw")),
                manager.append(StoredAction("CCCCCC", 1, 0, "discard 3H", "over")),
                return_exceptions=True,
            )
        finally:
            await manager.close()

    results = asyncio.run(main())
    assert results[0] is None and results[2] is None and results[3] is None
    assert isinstance(results[1], IntegrityError)
    assert len(groups[0]) == 4  # all four went to the database together first
    reopened = Store(store.url)
    assert reopened.actions("AAAAAA") == ["draw"]
    assert reopened.actions("BBBBBB") == ["draw"]
    assert reopened.actions("CCCCCC") == ["draw", "discard 3H"]
    assert {t.code for t in reopened.load_open()} == {"AAAAAA", "BBBBBB"}  # CCCCCC is over
    reopened.close()


def test_store_appends_all_or_nothing(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    store.create(stored("AAAAAA"))
    store.append_action("AAAAAA", 0, 0, "draw")
    with pytest.raises(IntegrityError):
        store.append_actions([StoredAction("AAAAAA", 1, 0, "discard 3H"), StoredAction("AAAAAA", 0, 0, "x")])
    assert store.actions("AAAAAA") == ["draw"]
    store.close()


def test_ended_tables_are_deleted_after_the_days_kept(tmp_path: Path) -> None:
    """Rows of ended tables would otherwise grow forever: past ``keep_ended_days`` they go with
    their moves, in batches; open tables the server plays and recent ones stay, and 0 keeps
    everything. An open table unchanged as long that the server does not hold (it could not replay
    it: stored by another release) goes too, or its names stayed for ever."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from rummykit.web.store import actions_table, tables_table

    store = Store(f"sqlite:///{tmp_path / 'p.db'}")
    old = datetime.now(UTC).replace(tzinfo=None) - timedelta(days=40)
    statuses = {"OLDFIN": "finished", "OLDCLO": "closed", "OLDEXP": "expired", "OLDPLY": "playing",
                "OLDWAI": "waiting", "NEWFIN": "finished"}  # fmt: skip
    for code, status in statuses.items():
        store.create(stored(code))
        store.append_action(code, 0, 0, "draw")
        with store.engine.begin() as connection:
            when = old if code.startswith("OLD") else datetime.now(UTC).replace(tzinfo=None)
            connection.execute(
                update(tables_table).where(tables_table.c.code == code).values(status=status, updated_at=when)
            )

    def run(settings: ServerSettings) -> int:
        async def main() -> int:
            manager = TableManager(Store(store.url), settings)
            manager.tables["OLDPLY"] = None  # type: ignore[assignment]  # loaded: the server plays it
            try:
                return await manager.prune()
            finally:
                manager.tables.clear()
                await manager.close()

        return asyncio.run(main())

    assert run(ServerSettings(keep_ended_days=0)) == 0
    assert store.prune(old + timedelta(days=1), limit=2) == 2  # a batch at a time
    assert run(ServerSettings(keep_ended_days=30)) == 2  # OLDWAI too: no process holds it
    with store.engine.connect() as connection:
        left = set(connection.execute(select(tables_table.c.code)).scalars())
        moves = set(connection.execute(select(actions_table.c.code)).scalars())
    assert left == moves == {"OLDPLY", "NEWFIN"}
    store.close()


def test_address_digests_are_erased_once_nothing_counts_them(tmp_path: Path) -> None:
    """The caps count open tables only, so an ended table's creator and seat digests are erased, and
    shared rate buckets unused for an hour go: a leaked database then names only people at open
    tables. Open tables keep theirs (the caps still need them)."""
    import time

    from sqlalchemy import insert

    from rummykit.web.store import rates_table, tables_table

    store = Store(f"sqlite:///{tmp_path / 'f.db'}")
    seats = [
        {"kind": "human", "name": "A", "joined_from": None},
        {"kind": "human", "name": "B", "joined_from": "d2"},
    ]
    for code, status in (("ENDED1", "finished"), ("OPEN01", "waiting")):
        store.create(StoredTable(code, "german", 2, 1, None, 0, status, seats, 60.0, [], creator="d1"))
    now = time.time()
    with store.engine.begin() as connection:
        connection.execute(insert(rates_table), [
            {"kind": "creations", "address": "d1", "tokens": 5.0, "stamp": now - 7200},
            {"kind": "creations", "address": "d3", "tokens": 2.0, "stamp": now},
        ])  # fmt: skip

    async def main() -> int:
        manager = TableManager(Store(store.url), ServerSettings())
        try:
            return await manager.forget_addresses()
        finally:
            await manager.close()

    assert asyncio.run(main()) == 3  # the ended table's seats and creator, one stale bucket
    with store.engine.connect() as connection:
        rows = {r.code: r for r in connection.execute(select(tables_table)).all()}
        buckets = set(connection.execute(select(rates_table.c.address)).scalars())
    assert rows["ENDED1"].creator is None and '"d2"' not in rows["ENDED1"].seats
    assert rows["OPEN01"].creator == "d1" and '"joined_from": "d2"' in rows["OPEN01"].seats
    assert buckets == {"d3"}
    store.close()


def erase_in_batches(url: str) -> None:
    """Many ended tables are erased in several short transactions, every one of them, and a table's
    seats are rewritten only if they are still the ones read (also run on PostgreSQL)."""
    from sqlalchemy import delete, event

    from rummykit.web.store import tables_table

    store = Store(url)
    rows_made = [f"END{i:03d}" for i in range(7)] + ["OPEN01"]
    seats = [{"kind": "human", "name": "A", "joined_from": "d1"}]
    for i in range(7):
        store.create(StoredTable(f"END{i:03d}", "german", 2, 1, None, 0, "closed", seats, 60.0, []))
    store.create(StoredTable("OPEN01", "german", 2, 1, None, 0, "playing", seats, 60.0, []))
    reads: list[str] = []
    writes: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        flat = " ".join(statement.split())
        if flat.startswith("SELECT rk_tables.code, rk_tables.seats"):
            reads.append(flat)
        if flat.startswith("UPDATE rk_tables SET seats"):
            writes.append(flat)

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        assert store.forget_addresses(0.0, batch=3) == 7
        assert len(reads) == 3 and all("LIMIT" in r for r in reads)  # 3 + 3 + 1 tables
        assert len(writes) == 7 and all("AND rk_tables.seats = " in w for w in writes)  # compare, then set
        with store.engine.connect() as connection:
            rows = {r.code: r.seats for r in connection.execute(select(tables_table)).all()}
        assert all('"d1"' not in rows[f"END{i:03d}"] for i in range(7)) and '"d1"' in rows["OPEN01"]
        assert store.forget_addresses(0.0, batch=3) == 0
    finally:
        with store.engine.begin() as connection:  # the PostgreSQL database is the session's
            connection.execute(delete(tables_table).where(tables_table.c.code.in_(rows_made)))
        store.close()


def test_address_digests_are_erased_a_batch_of_tables_at_a_time(tmp_path: Path) -> None:
    erase_in_batches(f"sqlite:///{tmp_path / 'b.db'}")
