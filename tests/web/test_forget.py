"""``rummykit forget``: an operator erases a person's tables on request, found by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, text
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.web.app import create_app
from rummykit.web.store import Store, StoredTable, actions_table

runner = CliRunner()


def test_a_person_s_tables_are_found_by_name_and_deleted_with_their_moves(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'rk.db'}"
    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        ended = web.create(client, preset="german", seats=3, name="Alice Privat")
        client.post(f"/api/tables/{ended['code']}/leave", json={"token": ended["token"]})  # closes it
        greedy = [{"kind": "greedy"}]
        playing = web.create(client, preset="german", seats=2, name="alice privat ", bots=greedy)
        with web.connect(client, playing["code"], playing["token"]) as ws:
            web.receive_state(ws)
        other = web.create(client, preset="german", seats=3, name="Bob")
    found = runner.invoke(app, ["forget", "--database-url", url, "--name", "ALICE PRIVAT"])
    assert found.exit_code == 0, found.output
    assert ended["code"] in found.output and playing["code"] in found.output
    assert other["code"] not in found.output and "2 table(s) with a seat named 'ALICE PRIVAT'" in found.output
    # The ended table goes at once; the open one only when the operator says no server runs.
    gone = runner.invoke(app, ["forget", "--database-url", url, ended["code"], playing["code"].lower()])
    assert gone.exit_code == 2
    assert f"deleted table {ended['code']} (closed) and its 0 moves" in gone.output
    assert f"table {playing['code']} is playing: a running server plays it" in gone.output
    forced = runner.invoke(app, ["forget", "--database-url", url, "--include-open", playing["code"]])
    assert forced.exit_code == 0 and f"deleted table {playing['code']} (playing)" in forced.output
    store = Store(url)
    try:
        assert store.tables_named("Alice Privat") == []
        with store.engine.connect() as db:
            codes = set(db.execute(text("SELECT code FROM rk_tables")).scalars())
            query = text("SELECT count(*) FROM rk_actions WHERE code = :c")
            moves = db.execute(query, {"c": playing["code"]})
            assert codes == {other["code"]} and moves.scalar() == 0
    finally:
        store.close()
    # Gone from the file too, not left in its free pages or its write-ahead log.
    for part in (tmp_path / "rk.db", tmp_path / "rk.db-wal"):
        if part.exists():
            assert b"Alice Privat" not in part.read_bytes() and b"alice privat" not in part.read_bytes()
    # A mistyped database is not made (an empty one would seem to say there was nothing to erase).
    typo = runner.invoke(app, ["forget", "--database-url", f"sqlite:///{tmp_path / 'rk2.db'}", "--name", "x"])
    assert typo.exit_code == 2 and "there is no database at" in typo.output
    assert not (tmp_path / "rk2.db").exists()
    missing = runner.invoke(app, ["forget", "--database-url", url, "NOSUCH"])
    assert missing.exit_code == 2 and "there is no table 'NOSUCH'" in missing.output
    bare = runner.invoke(app, ["forget", "--database-url", url])
    assert bare.exit_code == 2 and "name the tables to delete" in bare.output


def test_a_move_is_stored_with_its_minute_not_its_thinking_time(tmp_path: Path, monkeypatch: Any) -> None:
    """Seconds between stored moves would be every player's thinking times: a move keeps its minute."""
    from datetime import datetime

    monkeypatch.setattr("rummykit.web.store._now", lambda: datetime(2026, 12, 7, 10, 41, 30, 123456))
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    store.create(StoredTable("AAAAAA", "german", 2, 1, None, 0, "playing", [], 60.0, []))
    for idx, action in enumerate(("draw", "discard 3H", "draw")):
        store.append_action("AAAAAA", idx, idx % 2, action)
    with store.engine.connect() as connection:
        stamps = connection.execute(select(actions_table.c.created_at)).scalars().all()
    idle = store.idle_seconds("AAAAAA")
    store.close()
    assert idle == 0  # the table's last change keeps its instant: the idle clocks read it
    assert len(stamps) == 3
    assert all(s.second == 0 and s.microsecond == 0 for s in stamps)


def test_a_reader_holding_the_write_ahead_log_is_said_and_the_next_run_empties_it(
    tmp_path: Path, web: Any, monkeypatch: Any
) -> None:
    """A backup or a ``sqlite3`` shell reading the database keeps the write-ahead log from being
    emptied, and so the deleted name in it: ``forget`` says so (exit status 1) instead of reporting
    an erasure it did not finish; run again once the reader is gone, it empties the log."""
    import sqlite3

    monkeypatch.setattr("rummykit.web.store.CHECKPOINT_TRIES", 2)
    db = tmp_path / "rk.db"
    url = f"sqlite:///{db}"
    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        ended = web.create(client, preset="german", seats=3, name="Carla Geheim")
        client.post(f"/api/tables/{ended['code']}/leave", json={"token": ended["token"]})
    reader = sqlite3.connect(db)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM rk_tables").fetchone()  # a read snapshot held open
        held = runner.invoke(app, ["forget", "--database-url", url, ended["code"]])
        assert held.exit_code == 1, held.output
        assert f"deleted table {ended['code']}" in held.output
        assert "write-ahead log" in held.output and "another program has the database open" in held.output
    finally:
        reader.close()
    again = runner.invoke(app, ["forget", "--database-url", url, "--name", "Carla Geheim"])
    assert again.exit_code == 0 and "0 table(s)" in again.output
    for part in (db, tmp_path / "rk.db-wal"):
        if part.exists():
            assert b"Carla Geheim" not in part.read_bytes()
