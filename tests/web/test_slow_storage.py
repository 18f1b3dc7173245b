"""A database slow to take a move: the table is told, the move waits, and PostgreSQL's own timeouts
refuse a move stuck behind a lock instead of holding every table's moves."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from rummykit.web import store as store_module
from rummykit.web import tables as tables_module
from rummykit.web.app import create_app
from rummykit.web.store import Store


def _practice(client: TestClient, web: Any) -> tuple[str, str]:
    grant = web.create(client, preset="viennese", seats=2, bots=[{"kind": "random"}], seed=11)
    return grant["code"], grant["token"]


@contextlib.contextmanager
def _slow_table(
    sqlite_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, str, str, Store]]:
    """A practice table whose server says a move is slow after 0.05 s: the client, its code and
    token, and the store (whose ``append_actions`` a test replaces)."""
    monkeypatch.setattr(tables_module, "SLOW_STORAGE_SECONDS", 0.05)
    app = create_app(sqlite_url, settings=web.settings(bot_delay=0, takeover_seconds=600))
    with TestClient(app) as client:
        code, token = _practice(client, web)
        yield client, code, token, client.app.state.manager.store  # type: ignore[attr-defined]


def test_a_move_the_database_is_slow_to_take_is_announced_then_applied(
    sqlite_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a word, a database that does not answer looks like a mover thinking forever; the
    move is applied only once stored, and the notice names the version it waits to become."""
    with _slow_table(sqlite_url, web, monkeypatch) as (client, code, token, store):
        original = store.append_actions
        release = threading.Event()

        def slow(actions: Any) -> None:
            release.wait(10)
            original(actions)

        with web.connect(client, code, token) as ws:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            store.append_actions = slow  # type: ignore[method-assign]
            ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
            notice = web.next_of(ws, "notice")
            assert notice["code"] == "storage_slow" and notice["version"] == state["version"]
            assert notice["texts"]["de"].startswith("Die Datenbank des Servers antwortet langsam")
            assert web.table_of(client, code).version == state["version"]  # not applied yet
            store.append_actions = original  # type: ignore[method-assign]
            release.set()
            after = web.receive_state(ws, until=lambda s: s["version"] > state["version"])
            assert after["version"] == state["version"] + 1


def test_a_move_taken_at_once_gets_no_notice(sqlite_url: str, web: Any) -> None:
    app = create_app(sqlite_url, settings=web.settings(bot_delay=0, takeover_seconds=600))
    with TestClient(app) as client:
        code, token = _practice(client, web)
        with web.connect(client, code, token) as ws:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
            seen = []
            while not seen or seen[-1]["type"] != "state":
                seen.append(ws.receive_json())
            time.sleep(tables_module.SLOW_STORAGE_SECONDS + 0.2)
            ws.send_json({"type": "ping"})
            seen.append(web.next_of(ws, "pong"))
        assert all(m["type"] != "notice" for m in seen)


def test_postgres_connections_carry_the_timeouts(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        with store.engine.connect() as connection:
            lock = connection.execute(text("SHOW lock_timeout")).scalar()
            statement = connection.execute(text("SHOW statement_timeout")).scalar()
        assert lock == f"{store_module.LOCK_TIMEOUT_MS // 1000}s"
        assert statement == f"{store_module.STATEMENT_TIMEOUT_MS // 1000}s"
    finally:
        store.close()


def test_a_move_behind_a_held_lock_is_refused_on_postgres_and_nothing_changed(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator's ``LOCK TABLE`` (or a migration of a newer server) holds the moves' table: the
    database cancels the waiting insert, the mover is told nothing changed, and the same move is
    taken once the lock is gone."""
    url = web.fresh_database(postgres_url, "rk_lock_timeout")
    monkeypatch.setattr(store_module, "LOCK_TIMEOUT_MS", 300)
    monkeypatch.setattr(tables_module, "SLOW_STORAGE_SECONDS", 60.0)
    app = create_app(url, settings=web.settings(bot_delay=0, takeover_seconds=600))
    operator = create_engine(url)
    try:
        with TestClient(app) as client:
            code, token = _practice(client, web)
            with web.connect(client, code, token) as ws:
                state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
                move = {"type": "act", "action": state["legal"][0], "version": state["version"]}
                with operator.connect() as holder:
                    holder.execute(text("LOCK TABLE rk_actions IN EXCLUSIVE MODE"))
                    began = time.monotonic()
                    ws.send_json(move)
                    error = web.next_of(ws, "error")
                    waited = time.monotonic() - began
                    holder.rollback()
                assert error["code"] == "storage" and error["version"] == state["version"]
                assert waited < 10
                ws.send_json(move)
                after = web.receive_state(ws, until=lambda s: s["version"] > state["version"])
                assert after["version"] == state["version"] + 1
    finally:
        operator.dispose()


def test_a_waiting_move_then_refused_is_told_to_everybody_who_was_told_it_waits(
    sqlite_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "waiting" notice went to the whole table; a refusal went to the mover alone, so the others
    kept reading that a move was waiting. They are told it was not stored."""
    with _slow_table(sqlite_url, web, monkeypatch) as (client, code, token, store):
        original = store.append_actions

        def refused(actions: Any) -> None:
            time.sleep(0.3)
            raise OSError("disk full")

        with web.connect(client, code, token) as ws, web.connect(client, code) as watcher:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            web.receive_state(watcher, until=lambda s: s["version"] == state["version"])
            store.append_actions = refused  # type: ignore[method-assign]
            ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
            assert web.next_of(watcher, "notice")["code"] == "storage_slow"
            told = web.next_of(watcher, "notice")
            assert told["code"] == "storage" and told["version"] == state["version"]
            assert told["texts"]["de"].startswith("Der Zug konnte nicht gespeichert werden")
            assert web.next_of(ws, "error")["code"] == "storage"
            store.append_actions = original  # type: ignore[method-assign]


def test_a_group_behind_a_held_lock_is_refused_after_one_wait_on_postgres(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock timeout is no single move's fault: the group is refused as a whole after one wait,
    not tried again move by move, each waiting as long (a group of n moves held every table of the
    process, and its lease, for n + 1 lock timeouts, where the player was promised one)."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from rummykit.web.limits import ServerSettings
    from rummykit.web.manager import TableManager
    from rummykit.web.store import StoredAction, StoredTable

    url = web.fresh_database(postgres_url, "rk_group_lock")
    monkeypatch.setattr(store_module, "LOCK_TIMEOUT_MS", 300)
    store = Store(url)
    codes = ["GRPAAA", "GRPBBB", "GRPCCC"]
    for code in codes:
        store.create(StoredTable(code, "german", 2, 1, None, 0, "playing", [], 60.0, []))
    calls: list[int] = []
    original = store.append_actions

    def counted(actions: Any) -> None:
        calls.append(len(actions))
        original(actions)

    store.append_actions = counted  # type: ignore[method-assign]
    operator = create_engine(url)

    async def main() -> list[Any]:
        manager = TableManager(store, ServerSettings())
        try:
            return await asyncio.gather(
                *(manager.append(StoredAction(code, 0, 0, "draw")) for code in codes), return_exceptions=True
            )
        finally:
            await manager.close()

    try:
        with operator.connect() as holder:
            holder.execute(text("LOCK TABLE rk_actions IN EXCLUSIVE MODE"))
            results = asyncio.run(main())
            holder.rollback()
        assert all(isinstance(r, OperationalError) for r in results)
        assert calls == [3]  # one attempt, one wait for the lock
        assert all(store.actions(code) == [] for code in codes)
    finally:
        operator.dispose()
        store.close()


def test_a_group_after_a_lost_connection_is_stored_on_a_new_one_on_postgres(
    postgres_url: str, web: Any
) -> None:
    """The connection kept for the moves is gone (the database restarted, or ended it): the group is
    tried once more on a new connection, and stored."""
    import asyncio

    from rummykit.web.limits import ServerSettings
    from rummykit.web.manager import TableManager
    from rummykit.web.store import StoredAction, StoredTable

    url = web.fresh_database(postgres_url, "rk_group_lost")
    store = Store(url)
    codes = ["LOSTAA", "LOSTBB"]
    for code in codes:
        store.create(StoredTable(code, "german", 2, 1, None, 0, "playing", [], 60.0, []))
    store.append_actions([StoredAction(codes[0], 0, 0, "draw")])  # opens the kept connection
    assert store._writer is not None
    writer = store._writer.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    store._writer.rollback()
    operator = create_engine(url)

    async def main() -> list[Any]:
        manager = TableManager(store, ServerSettings())
        try:
            return await asyncio.gather(
                manager.append(StoredAction(codes[0], 1, 0, "discard 3H")),
                manager.append(StoredAction(codes[1], 0, 0, "draw")),
                return_exceptions=True,
            )
        finally:
            await manager.close()

    try:
        with operator.connect() as c:
            assert c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": writer}).scalar()
        assert asyncio.run(main()) == [None, None]
        assert store.actions(codes[0]) == ["draw", "discard 3H"] and store.actions(codes[1]) == ["draw"]
    finally:
        operator.dispose()
        store.close()


def test_lookups_do_not_queue_before_the_moves_on_postgres(postgres_url: str, web: Any) -> None:
    """A lookup by code (its shared rate bucket, its row) and the lobby list run beside the moves'
    database thread: with that thread busy (a group commit waiting), they are answered, so strangers'
    lookups cannot queue before every table's moves."""
    import asyncio
    import threading

    from rummykit.web.limits import RateLimiter, ServerSettings
    from rummykit.web.manager import TableManager
    from rummykit.web.protocol import CreateTable

    url = web.fresh_database(postgres_url, "rk_lookups_beside")
    held = threading.Event()

    async def main() -> tuple[dict[str, Any], float, int]:
        manager = TableManager(Store(url), ServerSettings())
        await manager.load()
        try:
            table, _seat, _token = await manager.create(CreateTable(preset="gin", seats=2), "192.0.2.1")
            code = table.code
            manager.unload(table)  # another process's table, as this one sees it: its row is read
            busy = asyncio.ensure_future(manager.db(held.wait, 30))  # the moves' thread, held
            try:
                lobby = await asyncio.wait_for(manager.lobby(code, "192.0.2.7"), 10)
                rate = RateLimiter(10, 30)
                wait = await asyncio.wait_for(manager.take_shared(rate, "requests", "192.0.2.7"), 10)
                listed = await asyncio.wait_for(manager.lobbies(), 10)
            finally:
                held.set()
                await busy
            return lobby, wait, len(listed)
        finally:
            await manager.close()

    lobby, wait, listed = asyncio.run(main())
    assert lobby["status"] == "waiting" and wait == 0.0 and listed == 1


def test_lookups_of_another_process_table_do_not_queue_before_the_moves_on_postgres(
    postgres_url: str, web: Any
) -> None:
    """A stranger's lookup of a table another process plays (who plays it, its stored match), a
    websocket's claim and its connection's count, and the counts a creation or a join checks first
    are made beside the moves' database thread: with that thread held (a group commit waiting for a
    lock), they are answered, so strangers cannot queue work before every table's moves."""
    import asyncio
    import threading

    from rummykit.web.limits import ServerSettings
    from rummykit.web.manager import TableManager
    from rummykit.web.protocol import CreateTable

    url = web.fresh_database(postgres_url, "rk_lookups_elsewhere")
    held = threading.Event()
    stranger = "198.51.100.7"

    async def main() -> tuple[Any, ...]:
        owner, here = TableManager(Store(url), ServerSettings()), TableManager(Store(url), ServerSettings())
        await owner.load()
        await here.load()
        try:
            table, _seat, _token = await owner.create(CreateTable(preset="gin", seats=2), "192.0.2.1")
            assert (await owner.route(table.code)).mine  # its first websocket reached the owner
            busy = asyncio.ensure_future(here.db(held.wait, 30))  # the moves' thread, held
            try:
                found = await asyncio.wait_for(here.find(table.code, address=stranger), 5)
                route = await asyncio.wait_for(here.route(table.code), 5)  # a websocket: relayed
                counted = await asyncio.wait_for(here.open_connection(stranger), 5)
                await asyncio.wait_for(here.close_connection(stranger), 5)
                await asyncio.wait_for(here.check_seats(here.digest(stranger), "network", found), 5)
                await asyncio.wait_for(here._check_capacity(here.digest(stranger), "network"), 5)
            finally:
                held.set()
                await busy
            return found.owned, found.code in here.tables, route.mine, route.owner is not None, counted
        finally:
            await here.close()
            await owner.close()

    assert asyncio.run(main()) == (False, False, False, True, None)


LEASE_READS = 5
"""Readings of the lease while a thread is held: 3 s, longer than the 2 s lease."""


def lease_seen_while_held(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch, name: str, thread: str
) -> list[bool]:
    """Whether the process's lease was live, read :data:`LEASE_READS` times 0.6 s apart from another
    connection, while its database ``thread`` (``db``: the moves'; ``side_db``: the lookups') is held
    for longer than a lease lasts (a 2 s lease renewed every 0.2 s: a busy machine's late renewal is
    no lost lease, a renewal that waits for the held thread is)."""
    import asyncio

    from rummykit.web import manager as manager_module
    from rummykit.web import owners
    from rummykit.web.limits import ServerSettings
    from rummykit.web.manager import TableManager

    monkeypatch.setattr(owners, "LEASE_SECONDS", 2.0)
    monkeypatch.setattr(manager_module, "RENEW_SECONDS", 0.2)
    url = web.fresh_database(postgres_url, name)
    held = threading.Event()
    reader = create_engine(url)

    def alive() -> bool:
        with reader.connect() as c:
            live = "SELECT bool_and(lease_until > timezone('UTC', now())) FROM rk_processes"
            return bool(c.execute(text(live)).scalar())

    async def main() -> list[bool]:
        manager = TableManager(Store(url), ServerSettings())
        await manager.load()
        seen = []
        try:
            busy = asyncio.ensure_future(getattr(manager, thread)(held.wait, 30))
            try:
                for _ in range(LEASE_READS):
                    await asyncio.sleep(0.6)
                    seen.append(await asyncio.to_thread(alive))
            finally:
                held.set()
                await busy
        finally:
            await manager.close()
        return seen

    try:
        return asyncio.run(main())
    finally:
        reader.dispose()


def test_the_lease_is_renewed_while_the_moves_wait_on_postgres(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group commit waiting for a lock holds the moves' database thread up to the lock timeout, as
    long as a lease lasts: the lease is renewed beside it, so the other processes do not take the
    tables of a process that is alive."""
    seen = lease_seen_while_held(postgres_url, web, monkeypatch, "rk_lease_beside", "db")
    assert seen == [True] * LEASE_READS


def test_a_renewal_under_way_when_the_process_stops_does_not_bring_its_lease_back_on_postgres(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lease is renewed on the second database thread and given up on the moves' one when the
    process stops: a renewal already under way finishes before the lease is given up, or it would
    write the process's row back after the release deleted it (a stopped process alive to the others
    for a lease)."""
    import asyncio

    from rummykit.web import manager as manager_module
    from rummykit.web.limits import ServerSettings
    from rummykit.web.manager import TableManager

    monkeypatch.setattr(manager_module, "RENEW_SECONDS", 0.05)
    url = web.fresh_database(postgres_url, "rk_renew_at_close")
    renewing = threading.Event()
    reader = create_engine(url)

    async def main() -> str:
        manager = TableManager(Store(url), ServerSettings())
        await manager.load()
        assert manager.cluster is not None
        renew = manager.cluster.renew

        def slow_renew(idle: float) -> set[str]:
            renewing.set()
            time.sleep(0.5)  # the release is committed meanwhile
            return renew(idle)

        manager.cluster.renew = slow_renew  # type: ignore[method-assign]
        await asyncio.to_thread(renewing.wait, 10)
        await manager.close()
        return manager.store.origin

    try:
        origin = asyncio.run(main())
        time.sleep(1.0)  # a renewal left running would have committed by now
        with reader.connect() as c:
            rows = c.execute(text("SELECT count(*) FROM rk_processes WHERE origin = :o"), {"o": origin})
            assert rows.scalar() == 0
    finally:
        reader.dispose()


def test_the_lease_is_renewed_while_the_lookups_queue_on_postgres(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lookups are as many as strangers' requests: however long their queue on their database
    thread (here that thread held), the lease is renewed beside it, so a flood of lookups does not
    make the other processes take the tables of a live process."""
    seen = lease_seen_while_held(postgres_url, web, monkeypatch, "rk_lease_beside_lookups", "side_db")
    assert seen == [True] * LEASE_READS


def test_a_shared_bucket_swept_between_two_statements_is_made_again_on_postgres(
    postgres_url: str, web: Any
) -> None:
    """The lease's sweep deletes buckets idle for an hour, on a thread of its own: a sweep that comes
    between the statements of a spend (here before its second one) finds the spend's bucket locked,
    and the request answered, instead of a request failing on a bucket that is no longer there. (The
    sweep here skips a locked bucket where the real one waits for it: it runs inside the spend.)"""
    from sqlalchemy import event

    from rummykit.web.owners import Cluster

    store = Store(web.fresh_database(postgres_url, "rk_bucket_swept"))
    sweeper = store.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    cluster = Cluster(store.engine, store.origin, "", "key")
    statements: list[str] = []
    swept: list[int] = []
    sweep_sql = text("DELETE FROM rk_rates WHERE ctid IN (SELECT ctid FROM rk_rates FOR UPDATE SKIP LOCKED)")

    def sweep(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if "rk_rates" in statement and conn is not sweeper:
            statements.append(statement)
            if len(statements) == 2:
                swept.append(sweeper.execute(sweep_sql).rowcount)

    try:
        assert cluster.take("requests", "net", 1.0, 1) == 0.0  # made full (1), spent
        event.listen(store.engine, "before_cursor_execute", sweep)
        assert cluster.take("requests", "net", 1.0, 1) > 0  # empty: about a second to wait
        event.remove(store.engine, "before_cursor_execute", sweep)
        assert swept == [0] and len(statements) >= 2  # the sweep came, and found the bucket held
        assert cluster.take("requests", "net", 1.0, 1) > 0  # the spend was kept: still empty
    finally:
        sweeper.close()
        store.close()
