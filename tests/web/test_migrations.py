"""Schema migrations: a server started on the previous release's database upgrades it and resumes.

The previous release made its tables with ``create_all`` and kept no revision: that is revision
``0001`` without an ``alembic_version`` table. The test plays a few moves, takes the database back
to exactly that shape, and starts a server on it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from rummykit.record_seats import RecordSeat
from rummykit.web import migrations
from rummykit.web.app import create_app
from rummykit.web.lobby import Seat
from rummykit.web.store import Store, metadata
from rummykit.web.tables import record_seats

pytest.importorskip("alembic", reason="the web extra (alembic) is not installed")


def play_moves(url: str, web: Any, moves: int) -> tuple[str, str, dict[str, Any]]:
    from fastapi.testclient import TestClient

    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "random"}], name="P")
        with web.connect(client, grant["code"], grant["token"]) as ws:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            while state["version"] < moves:
                ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
                done = state["version"]
                state = web.receive_state(ws, until=lambda s, v=done: s["version"] > v and bool(s["legal"]))
        return grant["code"], grant["token"], state


def as_previous_release(url: str) -> None:
    """The database as the release before migrations left it: revision 0001, unversioned."""
    engine = create_engine(url)
    migrations.downgrade(engine, migrations.BASELINE)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))
        columns = {c["name"] for c in inspect(connection).get_columns("rk_tables")}
    engine.dispose()
    assert "version" not in columns


def check_upgraded(url: str, code: str, token: str, before: dict[str, Any], web: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        engine = create_engine(url)
        assert migrations.current(engine) == migrations.HEAD
        inspector = inspect(engine)
        for table in metadata.sorted_tables:
            assert {c["name"] for c in inspector.get_columns(table.name)} == set(table.columns.keys())
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version FROM rk_tables WHERE code = :c"), {"c": code})
            assert version.scalar() == before["version"]
            # A table made before the hints setting keeps the hints it offered: to everyone.
            hints = connection.execute(text("SELECT hints FROM rk_tables WHERE code = :c"), {"c": code})
            assert hints.scalar() == "everyone"
            # And the host it had: only the organiser's page makes tables without one (0009).
            query = text("SELECT organised FROM rk_tables WHERE code = :c")
            organised = connection.execute(query, {"c": code})
            assert not organised.scalar()
            # And no label: only the organiser's page names a table (0011).
            label = connection.execute(text("SELECT label FROM rk_tables WHERE code = :c"), {"c": code})
            assert label.scalar() == ""
            # And no rematch (0012).
            rematch = connection.execute(text("SELECT rematch FROM rk_tables WHERE code = :c"), {"c": code})
            assert rematch.scalar() is None
        engine.dispose()
        with web.connect(client, code, token) as ws:
            after = web.receive_state(ws)
            assert after["version"] == before["version"] and after["view"] == before["view"]
            ws.send_json({"type": "act", "action": after["legal"][0], "version": after["version"]})
            web.receive_state(ws, until=lambda s: s["version"] > after["version"])
        # Who made each move (0010): not known for the moves stored before, so the record's seats
        # will say only their kinds; the move made after the upgrade is the person's.
        store = Store(url)
        try:
            played = store.played_by(code)
        finally:
            store.close()
        authors, stored = [by for _, _, by in played], before["version"]
        assert authors[: stored + 1] == [None] * stored + ["person"] and set(authors[stored + 1 :]) <= {"bot"}
        # The person's lists are unknown when one of their moves came before the upgrade (the dealer is
        # drawn, so the bot may have made all three).
        old_moves = any(seat == 0 and by is None for _, seat, by in played)
        person = RecordSeat("person") if old_moves else RecordSeat.person()
        assert record_seats([Seat("human", "P"), Seat("bot", "Bot 2", "random")], played, len(played)) == (
            person,
            RecordSeat("bot", "random"),
        )


def test_sqlite_database_of_the_previous_release_is_upgraded(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    code, token, before = play_moves(url, web, 3)
    as_previous_release(url)
    check_upgraded(url, code, token, before, web)


def test_postgres_database_of_the_previous_release_is_upgraded(postgres_url: str, web: Any) -> None:
    url = web.fresh_database(postgres_url, "rk_migrate")
    code, token, before = play_moves(url, web, 3)
    as_previous_release(url)
    check_upgraded(url, code, token, before, web)
    Store(url).close()  # opening an up-to-date database changes nothing


def rematch_column_comes_and_goes(url: str, web: Any) -> None:
    """0012 stores a finished table's rematch; taken back to 0011 the column goes and the tables stay,
    and upgraded again the table has none (the rematch's code is not known any more)."""
    code, _, before = play_moves(url, web, 1)
    store = Store(url)
    try:
        assert store.load(code).rematch is None  # type: ignore[union-attr]
        assert store.set_rematch(code, "ABCDEF") and not store.set_rematch(code, "GHJKLM")  # one rematch
        assert store.load(code).rematch == "ABCDEF"  # type: ignore[union-attr]
    finally:
        store.close()
    engine = create_engine(url)
    try:
        migrations.downgrade(engine, "0011")
        assert migrations.current(engine) == "0011"
        assert "rematch" not in {c["name"] for c in inspect(engine).get_columns("rk_tables")}
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version FROM rk_tables WHERE code = :c"), {"c": code})
            assert version.scalar() == before["version"]
        migrations.upgrade(engine)
        assert migrations.current(engine) == migrations.HEAD == "0012"
    finally:
        engine.dispose()
    store = Store(url)
    try:
        stored = store.load(code)
        assert stored is not None and stored.rematch is None and len(stored.actions) == before["version"]
    finally:
        store.close()


def test_sqlite_rematch_column_comes_and_goes(tmp_path: Path, web: Any) -> None:
    rematch_column_comes_and_goes(f"sqlite:///{tmp_path / 'rematch.db'}", web)


def test_postgres_rematch_column_comes_and_goes(postgres_url: str, web: Any) -> None:
    rematch_column_comes_and_goes(web.fresh_database(postgres_url, "rk_migrate_rematch"), web)
