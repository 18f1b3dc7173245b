"""A restart of the server (a deploy, an upgrade, a crash) within ``--finished-table-seconds`` of a
match's end: the finished table is held again for the rest of that time, counted from its stored
end, its host (or the organiser) opens its one rematch, and a rematch opened before the restart is
stored and not opened a second time after it."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from rummykit.web.app import create_app
from rummykit.web.store import tables_table
from tests.web.test_ended_tables import finish_gin_hand, play_out
from tests.web.test_organiser_tables import BEARER, join, make, organiser_app, organiser_post

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect as ws_connect  # noqa: E402


def app(url: str, web: Any) -> Any:
    return create_app(url, settings=web.settings(bot_delay=0))


def finished(client: TestClient, web: Any) -> dict[str, Any]:
    """A gin table of Anna (the host) and a bot whose match is over: its grant."""
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=[{"kind": "random"}])
    with web.connect(client, host["code"], host["token"]) as anna:
        assert finish_gin_hand(anna, web)["match"]["is_over"]
    return dict(host)


def age_end(client: TestClient, code: str, seconds: float) -> None:
    """Move the stored end of table ``code`` ``seconds`` into the past."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    row = tables_table.c
    with manager.store.engine.begin() as connection:
        ended = connection.execute(select(row.updated_at).where(row.code == code)).scalar_one()
        earlier = ended - timedelta(seconds=seconds)
        connection.execute(update(tables_table).where(row.code == code).values(updated_at=earlier))


def test_a_finished_table_is_held_over_a_restart_and_its_host_opens_the_rematch(
    sqlite_url: str, web: Any
) -> None:
    """The host's Rematch seconds after the match ended was refused ``rematch_too_late`` once the
    server had restarted: only waiting and playing tables were loaded."""
    with TestClient(app(sqlite_url, web)) as client:
        host = finished(client, web)
    code, token = host["code"], host["token"]
    with TestClient(app(sqlite_url, web)) as client:
        table = web.table_of(client, code)  # held from the start, not rebuilt for a lookup
        assert table.status == "over" and not table.archived
        first = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        again = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert first.status_code == again.status_code == 201, first.text
        assert first.json() == again.json()
        with web.connect(client, first.json()["code"], first.json()["token"]) as anna:
            assert web.receive_state(anna)["you"] == 0


def test_a_rematch_opened_before_a_restart_is_not_opened_again(sqlite_url: str, web: Any) -> None:
    """The rematch lived in memory alone: after a restart the host's second ask would have opened a
    second table with the same people. Its code is stored: the ask names it, the old table offers
    it, and the seat's token given before the restart still plays it."""
    with TestClient(app(sqlite_url, web)) as client:
        host = finished(client, web)
        code, token = host["code"], host["token"]
        opened = client.post(f"/api/tables/{code}/rematch", json={"token": token}).json()
    new = opened["code"]
    with TestClient(app(sqlite_url, web)) as client:
        refused = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert refused.status_code == 409 and refused.json()["code"] == "rematch_opened"
        assert new in refused.json()["detail"]
        assert refused.json()["texts"]["de"].startswith(
            f"Die Revanche von Tisch {code} wurde vor dem Neustart des Servers eröffnet: Tisch {new} "
        )
        with web.connect(client, code, token) as anna:
            # The code alone: the server keeps the hashes of the tokens it gave there, not the tokens.
            assert web.next_of(anna, "rematch") == {"type": "rematch", "code": new, "offer": True}
            anna.send_json({"type": "rematch"})
            assert web.next_of(anna, "error")["code"] == "rematch_opened"
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert [t.code for t in manager.open_tables()] == [new]  # the one rematch
        with web.connect(client, new, opened["token"]) as anna:
            assert web.receive_state(anna)["you"] == 0
        stranger = client.post(f"/api/tables/{code}/rematch", json={"token": "made-up"})
        assert stranger.status_code == 403 and stranger.json()["code"] == "not_host_rematch"


def test_the_time_a_finished_table_is_held_counts_from_its_stored_end(sqlite_url: str, web: Any) -> None:
    """Held again after a restart for the rest of ``--finished-table-seconds`` after its end, not for
    that time anew; one that ended longer ago is not held, and has no rematch."""
    with TestClient(app(sqlite_url, web)) as client:
        recent, old = finished(client, web), finished(client, web)
        age_end(client, recent["code"], 290)  # of the default 300 s
        age_end(client, old["code"], 310)
    with TestClient(app(sqlite_url, web)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert old["code"] not in manager.tables
        table = web.table_of(client, recent["code"])
        now = client.portal.call(lambda: asyncio.get_running_loop().time())  # type: ignore[union-attr]
        assert 289 < now - table.ended_at < 300
        late = client.post(f"/api/tables/{old['code']}/rematch", json={"token": old["token"]})
        assert late.status_code == 409 and late.json()["code"] == "rematch_too_late"


def test_the_organiser_s_finished_table_is_listed_after_a_restart_and_rematched_once(
    sqlite_url: str, web: Any
) -> None:
    """A deploy during the class's games: the finished table was missing from the organiser's list
    and "Rematch at every finished table" skipped it. Renaming it after its end does not hold it
    longer."""
    with TestClient(organiser_app(sqlite_url, web)) as client:
        code = make(client, preset="gin", seats=2, seed=4, bots=[{"kind": "random"}])["code"]
        ada = join(client, code, "Ada")
        assert organiser_post(client, "/api/organiser/start").json()["started"] == [code]
        with web.connect(client, code, ada["token"]) as ws:
            assert finish_gin_hand(ws, web)["match"]["is_over"]
        age_end(client, code, 200)
        assert organiser_post(client, f"/api/organiser/tables/{code}/label", {"label": "Gruppe A"}).is_success
    with TestClient(organiser_app(sqlite_url, web)) as client:
        listed = client.get("/api/organiser/tables", headers=BEARER).json()["tables"]
        assert [(e["code"], e["status"], e["rematch"]) for e in listed] == [(code, "over", None)]
        now = client.portal.call(lambda: asyncio.get_running_loop().time())  # type: ignore[union-attr]
        assert now - web.table_of(client, code).ended_at > 199  # from its end, not from the new label
        rematches = organiser_post(client, "/api/organiser/rematch").json()["rematches"]
        assert [r["from"] for r in rematches] == [code]
        new = rematches[0]["code"]
    with TestClient(organiser_app(sqlite_url, web)) as client:
        listed = client.get("/api/organiser/tables", headers=BEARER).json()["tables"]
        assert {e["code"]: e["rematch"] for e in listed}[code] == new
        assert organiser_post(client, "/api/organiser/rematch").json() == {"rematches": []}
        with web.connect(client, code, ada["token"]) as ws:
            assert web.next_of(ws, "rematch") == {"type": "rematch", "code": new, "offer": True}


async def told(base: str, code: str, token: str) -> dict[str, Any]:
    """The rematch message a seat's connection to table ``code`` at ``base`` is sent on connecting."""
    async with ws_connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "rematch":
                return dict(msg)


def finished_at(base: str) -> tuple[str, str]:
    """A heads-up gin table Anna made at the server process at ``base`` and played to its end: its
    code and her token."""
    body = {"preset": "gin", "seats": 2, "name": "Anna", "seed": 4, "bots": [{"kind": "random"}]}
    grant = httpx.post(base + "/api/tables", json=body).json()
    asyncio.run(asyncio.wait_for(play_out(base, grant["code"], grant["token"]), 60))
    return grant["code"], grant["token"]


def test_with_several_processes_one_holds_a_finished_table_after_its_process_stopped(
    postgres_url: str, server_factory: Any, web: Any
) -> None:
    """With a shared database the process that played the table stopped (a rolling deploy): the
    host's Rematch reached a process that did not hold it and was refused ``rematch_too_late``. The
    first process the host's request (or the table's websocket) reaches holds it now, as it takes
    over a table being played; the others send the host there, and a rematch opened once is not
    opened again after that process stopped too."""
    url = web.fresh_database(postgres_url, "rk_rematch_restart")
    first, second = (server_factory(url) for _ in range(2))
    code, token = finished_at(first.url)
    first.stop()
    opened = httpx.post(second.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert opened.status_code == 201, opened.text
    third = server_factory(url)
    elsewhere = httpx.post(third.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "rematch_elsewhere"
    second.stop()
    again = httpx.post(third.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert again.status_code == 409 and again.json()["code"] == "rematch_opened"
    offer = asyncio.run(asyncio.wait_for(told(third.url, code, token), 30))
    assert offer == {"type": "rematch", "code": opened.json()["code"], "offer": True}


def test_a_process_that_showed_a_finished_table_as_it_ended_holds_it_once_its_holder_stopped(
    postgres_url: str, server_factory: Any, web: Any
) -> None:
    """Somebody fetched the finished table's record from a second process while the first held it:
    the second kept that copy as it ended, and after the first stopped it refused the host's Rematch
    (``rematch_too_late``) well within the finished table's time, never claiming the table. The copy
    is held now, as a table not in memory is."""
    url = web.fresh_database(postgres_url, "rk_rematch_shown")
    first, second = (server_factory(url) for _ in range(2))
    code, token = finished_at(first.url)
    shown = httpx.get(second.url + f"/api/tables/{code}/record")  # a copy as it ended, at the second
    assert shown.status_code == 200, shown.text
    elsewhere = httpx.post(second.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "rematch_elsewhere"
    first.stop()
    opened = httpx.post(second.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert opened.status_code == 201, opened.text
    again = httpx.post(second.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert again.status_code == 201 and again.json()["code"] == opened.json()["code"]


def test_a_burst_of_lookups_of_a_finished_table_not_held_replays_it_once(sqlite_url: str, web: Any) -> None:
    """A finished table not in memory (its process stopped) is held by the first lookup without the
    budget of ended tables: every request of a burst arriving while it was replayed replayed the
    match once more, a stranger's requests for one code a replay each."""
    with TestClient(app(sqlite_url, web)) as client:
        code = finished(client, web)["code"]
    with TestClient(app(sqlite_url, web)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        manager.tables.pop(code)  # as where another process held it and stopped
        replays: list[str] = []
        replay = manager._replay

        def counted(stored: Any) -> Any:
            replays.append(stored.code)
            return replay(stored)

        manager._replay = counted

        async def burst() -> list[Any]:
            return list(await asyncio.gather(*(manager._archived(code, "203.0.113.7") for _ in range(6))))

        found = client.portal.call(burst)  # type: ignore[union-attr]
        assert replays == [code]
        assert all(table is manager.tables[code] for table in found) and not found[0].archived


def test_a_rematch_whose_code_the_database_fails_to_store_stays_the_one_rematch(
    sqlite_url: str, web: Any
) -> None:
    """Storing the rematch's code failed after its table was opened: the opening failed with it, and
    the host's next ask opened a second table for the same people, the first left waiting unseen."""
    from sqlalchemy.exc import OperationalError

    with TestClient(app(sqlite_url, web)) as client:
        host = finished(client, web)
        code, token = host["code"], host["token"]
        manager = client.app.state.manager  # type: ignore[attr-defined]

        def down(*_: Any) -> bool:
            raise OperationalError("UPDATE rk_tables", {}, Exception("database is locked"))

        manager.store.set_rematch = down
        first = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        again = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert first.status_code == again.status_code == 201, (first.text, again.text)
        assert first.json() == again.json()
        assert [t.code for t in manager.open_tables()] == [first.json()["code"]]
