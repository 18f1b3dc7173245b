"""Stored tables keep the rules revision their rules text was written under
(:mod:`rummykit.revisions`): after an upgrade that changes what a text means, a table in play is
replayed with the meaning its text had, a table a newer rummykit stored is not played, and new tables
are stored with this version's revision."""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, inspect, select, update
from starlette.websockets import WebSocketDisconnect

from rummykit.errors import RulesError
from rummykit.revisions import RULES_REVISION, read_rules
from rummykit.rules import Rules
from rummykit.web import migrations
from rummykit.web.app import create_app
from rummykit.web.store import Store, StoredTable, actions_table, metadata, tables_table
from rummykit.web.tables import Seat, new_table_match

pytest.importorskip("alembic", reason="the web extra (alembic) is not installed")

SECRET = bytes(range(32))
OLD_ACE = "basic(ace_high_in_runs=true)"
"""Before revision 1 a left-over ace counted 1 under this text; it counts 11 now."""
OLD_KNOCK = "viennese(knock_threshold=1)"
"""Before revision 1 this meant no knock (what knock_threshold=0 says now); it is refused now."""
MOVES = 4


def stored_table(code: str, text: str, revision: int, status: str = "playing") -> StoredTable:
    """A two-person table (two people, nobody connected) whose rules ``text`` was written under
    ``revision``, with its first moves played offline under what the text meant then."""
    match = new_table_match(read_rules(text, revision).rules, 2, None, SECRET, 0)
    for _ in range(MOVES):
        match.apply(match.legal_actions()[0])
    seats = [asdict(Seat("human", name, token_hash=name * 32)) for name in ("ab", "cd")]
    actions = [str(a) for a in match.actions]
    return StoredTable(code, text, 2, None, SECRET, 0, status, seats, 600.0, actions, rules_revision=revision)


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def insert_actions(connection: Any, table: StoredTable) -> None:
    for i, move in enumerate(table.actions):
        values = {"code": table.code, "idx": i, "seat": 0, "action": move, "created_at": now()}
        connection.execute(insert(actions_table).values(**values))


def store_table(url: str, code: str, text: str, revision: int, status: str = "playing") -> list[str]:
    """Store :func:`stored_table` in the database at ``url`` (at the head); its moves."""
    table = stored_table(code, text, revision, status)
    save(url, table)
    return table.actions


def save(url: str, table: StoredTable) -> None:
    """Write ``table``'s row and moves to the database at ``url`` (at the head)."""
    store = Store(url)
    try:
        store.create(table)
        with store.engine.begin() as connection:
            insert_actions(connection, table)
    finally:
        store.close()


def restarted(url: str, web: Any) -> TestClient:
    return TestClient(create_app(url, settings=web.settings(bot_delay=0)))


def stored_column(url: str, code: str, column: str) -> Any:
    """One column of table ``code``'s row, read straight from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            query = select(tables_table.c[column]).where(tables_table.c.code == code)
            return connection.execute(query).scalar_one()
    finally:
        engine.dispose()


def ended_long_ago(url: str, code: str) -> None:
    """Table ``code``'s stored end a day ago: a restart does not hold it again (only a table that
    ended within ``finished_table_seconds`` is held, for its rematch)."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            query = update(tables_table).where(tables_table.c.code == code)
            connection.execute(query.values(updated_at=now() - timedelta(days=1)))
    finally:
        engine.dispose()


def stored_revision(url: str, code: str) -> int:
    return int(stored_column(url, code, "rules_revision"))


# (a) the migration -------------------------------------------------------------------------------
def upgrade_a_database_at_0006(url: str, web: Any) -> None:
    """A database at 0006 holding a table in play under ``OLD_ACE`` is upgraded by a server start:
    the row gets rules revision 0 and the table is replayed with the meaning its text had."""
    engine = create_engine(url)
    migrations.upgrade(engine, "0006")
    table = stored_table("RVACEA", OLD_ACE, 0)
    values = asdict(table)
    for later in ("actions", "rules_revision", "listed", "organised", "label", "rematch"):  # not at 0006
        del values[later]
    values.update(secret=SECRET.hex(), seats=json.dumps(table.seats), seed=0, version=len(table.actions))
    values.update(created_at=now(), updated_at=now())
    with engine.begin() as connection:
        assert "rules_revision" not in {c["name"] for c in inspect(connection).get_columns("rk_tables")}
        connection.execute(insert(tables_table).values(**values))
        insert_actions(connection, table)
    engine.dispose()
    moves = table.actions

    with restarted(url, web) as client:
        engine = create_engine(url)
        assert migrations.current(engine) == migrations.HEAD
        inspector = inspect(engine)
        for schema in metadata.sorted_tables:  # the migrations build the schema the store declares
            assert {c["name"] for c in inspector.get_columns(schema.name)} == set(schema.columns.keys())
        column = {c["name"]: c for c in inspector.get_columns("rk_tables")}["rules_revision"]
        assert not column["nullable"]
        engine.dispose()
        assert stored_revision(url, "RVACEA") == 0
        with web.connect(client, "RVACEA") as ws:  # a spectator (PostgreSQL: the table is loaded now)
            state = web.receive_state(ws)
        assert state["version"] == len(moves)
        assert state["table"]["rules"] == "basic(ace_high_in_runs=true, penalty_ace=1)"
        played = web.table_of(client, "RVACEA")
        assert played.version == len(moves) and played.status == "playing"
        assert played.rules.penalty_ace == 1 and played.rules_revision == 0
    # Down and up again: the downgrade drops the column, the upgrade gives it back.
    engine = create_engine(url)
    migrations.downgrade(engine, "0006")
    assert "rules_revision" not in {c["name"] for c in inspect(engine).get_columns("rk_tables")}
    migrations.upgrade(engine)
    engine.dispose()
    assert stored_revision(url, "RVACEA") == 0


def test_sqlite_database_at_0006_is_upgraded(
    tmp_path: Path, web: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="rummykit.web")
    upgrade_a_database_at_0006(f"sqlite:///{tmp_path / 'at0006.db'}", web)
    # The operator is told that the older release cannot open the database any more: at the server's
    # start, and at the upgrade after the downgrade at the end (a new database, made at 0006, is not).
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("database schema")]
    upgraded = (
        f"database schema upgraded from 0006 to {migrations.HEAD}: a server of an older rummykit cannot open "
        "it any more (keep a copy made before the upgrade to go back)"
    )
    assert said == [upgraded, upgraded]


def test_postgres_database_at_0006_is_upgraded(postgres_url: str, web: Any) -> None:
    upgrade_a_database_at_0006(web.fresh_database(postgres_url, "rk_revision"), web)


# (b)-(e) replaying stored tables -----------------------------------------------------------------
def test_an_older_text_is_replayed_with_the_meaning_it_had(
    tmp_path: Path, web: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'revisions.db'}"
    assert Rules.parse(OLD_ACE).penalty_ace == 11
    with pytest.raises(RulesError):
        Rules.parse(OLD_KNOCK)
    moves = {
        "RVACEA": store_table(url, "RVACEA", OLD_ACE, 0),  # (b) written before revisions: ace 1
        "RVACEB": store_table(url, "RVACEB", OLD_ACE, 1),  # (b) written under revision 1: ace 11
        "RVKNCK": store_table(url, "RVKNCK", OLD_KNOCK, 0),  # (c) refused now, meant no knock then
        "RVNEWR": store_table(url, "RVNEWR", OLD_ACE, RULES_REVISION + 1),  # (d) a newer rummykit's
    }
    store_table(url, "RVENDK", OLD_KNOCK, 0, status="over")  # an ended table: its lobby row is read
    ended_long_ago(url, "RVENDK")  # (one ended within --finished-table-seconds is held again at start)
    caplog.set_level(logging.INFO, logger="rummykit.web")
    with restarted(url, web) as client:
        tables = client.app.state.manager.tables  # type: ignore[attr-defined]
        assert set(tables) == {"RVACEA", "RVACEB", "RVKNCK"}
        for code in ("RVACEA", "RVACEB", "RVKNCK"):
            assert tables[code].version == len(moves[code]) and tables[code].status == "playing"

        old, current = tables["RVACEA"], tables["RVACEB"]
        assert old.rules.penalty_ace == 1 and old.rules_revision == 0
        assert current.rules.penalty_ace == 11 and current.rules_revision == 1
        # The lobby shows the text as it reads now; the row keeps its text and revision.
        lobby = client.get("/api/tables/RVACEA").json()
        assert lobby["rules"] == "basic(ace_high_in_runs=true, penalty_ace=1)"
        assert (old._stored().rules, old._stored().rules_revision) == (OLD_ACE, 0)

        knock = tables["RVKNCK"]
        assert knock.rules.knock_threshold == 0 and knock.rules == Rules.parse("viennese(knock_threshold=0)")
        ended = client.get("/api/tables/RVENDK")
        assert ended.status_code == 200 and ended.json()["rules"] == "viennese(knock_threshold=0)"
        assert client.get("/api/tables/RVENDK/rules").status_code == 200

        # (d) not played, not shown; the log says why, without the table's secrets.
        # Not deleted, unreadable here: the lookup says so (it was a bare 404 "no table").
        unreadable = client.get("/api/tables/RVNEWR")
        assert unreadable.status_code == 409 and "another rummykit version" in unreadable.json()["detail"]
        assert unreadable.json()["texts"]["de"].startswith("Tisch RVNEWR wurde von einer anderen rummykit")
        assert client.get("/api/tables/NOSUCH").status_code == 404
    refused = [r.getMessage() for r in caplog.records if "RVNEWR" in r.getMessage()]
    newer = (
        f"stored by a newer rummykit (rules revision {RULES_REVISION + 1}; "
        f"this version plays {RULES_REVISION})"
    )
    assert refused == [f"table RVNEWR cannot be restored: {newer}"]
    assert SECRET.hex() not in caplog.text
    # What reading an older text took is logged once per table, as a warning an operator sees.
    notes = [r for r in caplog.records if r.getMessage().startswith("table RVACEA: its rules text")]
    assert len(notes) == 1 and notes[0].levelno == logging.WARNING
    assert "penalty_ace=1" in notes[0].getMessage()
    assert not [r for r in caplog.records if r.getMessage().startswith("table RVACEB:")]
    # Nothing was rewritten: every row keeps the revision it was stored with.
    revisions = [stored_revision(url, c) for c in ("RVACEA", "RVACEB", "RVKNCK", "RVNEWR")]
    assert revisions == [0, 1, 0, RULES_REVISION + 1]


REVISION_3_GIN = "gin(may_discard_taken_discard=false)"
REVISION_3_MOVES = [
    *("pass", "pass", "draw", "discard KD", "draw", "discard 10C", "take", "discard 9S", "draw"),
    *("discard KC", "draw", "discard 8D", "draw", "discard QH", "draw", "discard 9D", "take"),
    *("discard 5H", "draw", "discard 9H", "take", "knock"),
]
"""Seed 1 under :data:`REVISION_3_GIN`, as a server before rules revision 3 stored it: the last
``take`` takes the 9♥ back, and only discarding it again would have allowed the ``knock`` (which then
left the knock phase with no legal move); revision 3 no longer offers that knock."""


def test_a_table_whose_move_a_rule_change_refuses_names_the_change(
    tmp_path: Path, web: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Not played and not shown as missing: its lookup and its websocket say that this version cannot
    play it and which change refuses its move (the page said "There is no table"); the log has the
    move and the engine's refusal for the operator."""
    from rummykit.seating import draw_first_dealer

    url = f"sqlite:///{tmp_path / 'revision3.db'}"
    rules = Rules.parse(REVISION_3_GIN)
    dealer = draw_first_dealer(rules, 2, 1).dealer
    seats = [asdict(Seat("human", name, token_hash=name * 32)) for name in ("ab", "cd")]
    moves = REVISION_3_MOVES
    table = StoredTable("RVGNK3", REVISION_3_GIN, 2, 1, None, dealer, "playing", seats, 600.0, moves)
    table.rules_revision = 2
    save(url, table)
    caplog.set_level(logging.INFO, logger="rummykit.web")
    with restarted(url, web) as client:
        assert "RVGNK3" not in client.app.state.manager.tables  # type: ignore[attr-defined]
        refused = client.get("/api/tables/RVGNK3")
        detail, german = refused.json()["detail"], refused.json()["texts"]["de"]
        assert refused.status_code == 409 and "another rummykit version" in detail
        assert "cannot play (2026-12-06: under may_discard_taken_discard = false a gin knock is" in detail
        assert detail.endswith("; open a new table")
        assert german.startswith("Tisch RVGNK3 wurde von einer anderen rummykit-Version gespeichert")
        assert "(6.12.2026: mit may_discard_taken_discard = false darf man im Gin nur klopfen" in german
        assert german.endswith("; eröffne einen neuen Tisch")
        assert "9H" not in detail and "9H" not in german  # no card of a hand: only the rule change
        assert "RVGNK3" not in [t["code"] for t in client.get("/api/tables").json()["tables"]]
        with web.connect(client, "RVGNK3") as ws:
            said = ws.receive_json()
            assert said["type"] == "error" and said["code"] == "table_unreadable"
            assert said["texts"] == refused.json()["texts"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4409
        with web.connect(client, "RVGNK3") as ws:  # asked again: refused at once, not replayed again
            assert ws.receive_json()["code"] == "table_unreadable"
    logged = [r.getMessage() for r in caplog.records if "RVGNK3" in r.getMessage()]
    assert len(logged) == 1
    assert logged[0].startswith("table RVGNK3 cannot be restored: its move 22 is refused: cannot knock")
    assert "The table was stored under rules revision 2" in logged[0]
    assert "may_discard_taken_discard" in logged[0]


def test_new_tables_are_stored_with_this_revision(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    with restarted(url, web) as client:
        overrides = {"ace_high_in_runs": True}
        grant = web.create(client, seats=2, bots=[{"kind": "random"}], preset="basic", overrides=overrides)
        code = grant["code"]
        assert web.table_of(client, code).rules_revision == RULES_REVISION
    assert stored_revision(url, code) == RULES_REVISION
    with restarted(url, web) as client:
        table = web.table_of(client, code)
        assert table.rules.penalty_ace == 11 and table.rules_revision == RULES_REVISION


def test_a_finished_match_whose_row_says_playing_is_stored_as_over_after_a_restart(
    tmp_path: Path, web: Any
) -> None:
    """The server stopped after the match's last move was stored and before its end was: the row
    still says "playing". The restarted server replays it, sees the match over, and writes the end
    (before, such a row was loaded as "playing" at every start and never pruned)."""
    url = f"sqlite:///{tmp_path / 'end.db'}"
    rules = "german(match_end=single_hand)"
    match = new_table_match(Rules.parse(rules), 2, None, SECRET, 0)
    rng = random.Random(1)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    seats = [asdict(Seat("human", name, token_hash=name * 32)) for name in ("ab", "cd")]
    actions = [str(a) for a in match.actions]
    table = StoredTable("ENDSAV", rules, 2, None, SECRET, 0, "playing", seats, 600.0, actions)
    store = Store(url)
    try:
        store.create(table)
        with store.engine.begin() as connection:
            insert_actions(connection, table)
        assert store.lobby_row("ENDSAV")["status"] == "playing"  # type: ignore[index]
    finally:
        store.close()
    with restarted(url, web) as client:
        assert client.get("/api/tables/ENDSAV").json()["status"] == "over"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and stored_status(url, "ENDSAV") != "over":
            time.sleep(0.1)
        assert stored_status(url, "ENDSAV") == "over"
        assert not web.table_of(client, "ENDSAV").end_unsaved


def stored_status(url: str, code: str) -> str:
    return str(stored_column(url, code, "status"))
