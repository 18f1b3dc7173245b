"""A finished table after its end: one rematch however often the host asks, its code still looked up
after it left the server's memory, and the websocket's close codes as a real browser receives them."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from rummykit.web.lobby import LobbyError
from rummykit.web.store import tables_table

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect as ws_connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402


def let_go(client: TestClient, code: str) -> None:
    """What the clock does ``finished_table_seconds`` after a table ended: it leaves memory, and its
    stored end is that long ago (within that time a lookup, like a restart, holds it again)."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    if (table := manager.tables.pop(code, None)) is not None:
        table.cancel()
    held = timedelta(seconds=manager.settings.finished_table_seconds + 1)
    ended = datetime.now(UTC).replace(tzinfo=None) - held
    with manager.store.engine.begin() as connection:
        connection.execute(update(tables_table).where(tables_table.c.code == code).values(updated_at=ended))


def choose(legal: list[str], rng: random.Random) -> str:
    knocks = [a for a in legal if a.startswith("knock")]
    return knocks[0] if knocks else rng.choice(legal)


def finish_gin_hand(ws: Any, web: Any) -> dict[str, Any]:
    """Play seat 0 of a gin table (a match of one hand) until it is over: a knock as soon as one is
    legal, else a seeded random move (random play alone mostly runs into the wall, and gin deals again)."""
    rng = random.Random(3)
    state = web.receive_state(ws)
    for _ in range(2000):
        if state["match"]["is_over"]:
            return state
        if state["legal"]:
            ws.send_json({"type": "act", "action": choose(state["legal"], rng), "version": state["version"]})
        state = web.receive_state(ws)
    raise AssertionError("the gin hand did not end")


async def play_out(base: str, code: str, token: str, *, rematch: bool = False) -> dict[str, Any]:
    """Connect to a real server at ``base`` as the host of gin table ``code`` and play it to its end
    (:func:`choose`; a move refused for the message rate is sent again after the wait); the final
    state, or with ``rematch`` the rematch message answering ``{"type": "rematch"}`` then."""
    rng = random.Random(3)
    async with ws_connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = ""
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":  # the server's message rate: the same move again, later
                assert msg["code"] == "rate_limited", msg
                await asyncio.sleep(msg["retry_after"])
                await ws.send(sent)
            if msg["type"] == "rematch":
                return dict(msg)
            if msg["type"] != "state":
                continue
            if msg["match"]["is_over"]:
                if not rematch:
                    return dict(msg)
                await ws.send(json.dumps({"type": "rematch"}))
            elif msg["legal"]:
                sent = json.dumps(
                    {"type": "act", "action": choose(msg["legal"], rng), "version": msg["version"]}
                )
                await ws.send(sent)


def test_the_host_asking_twice_gets_the_one_rematch(client: TestClient, web: Any) -> None:
    """A double click, or a second tab, asked for a second rematch: a second table with the same
    people, each page following whichever message came last. The same table comes back instead, over
    HTTP and over the websocket, and the new table's refusals let the host ask again."""
    bots = [{"kind": "random"}]
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=bots, listed=True)
    code, token = host["code"], host["token"]
    with web.connect(client, code, token) as anna:
        finish_gin_hand(anna, web)
        first = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        again = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert first.status_code == again.status_code == 201
        assert first.json() == again.json()
        sent = web.next_of(anna, "rematch")  # the host's connection is sent the seat too
        assert (sent["code"], sent["seat"], sent["token"]) == (first.json()["code"], 0, first.json()["token"])
        anna.send_json({"type": "rematch"})
        assert web.next_of(anna, "rematch")["code"] == first.json()["code"]
    # One new table: the only open one (a practice table now, host and bot: not in the lobby list).
    open_codes = [t.code for t in client.app.state.manager.open_tables()]  # type: ignore[attr-defined]
    assert open_codes == [first.json()["code"]]
    assert client.get("/api/tables").json()["tables"] == []


def test_only_the_host_asks_over_the_websocket(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    with web.connect(client, code, guest["token"]) as ben:
        ben.send_json({"type": "rematch"})
        refused = web.next_of(ben, "error")
        assert refused["message"] == "only the host (seat 1) can start a rematch"
    with web.connect(client, code, host["token"]) as anna:
        anna.send_json({"type": "rematch"})
        refused = web.next_of(anna, "error")
        assert refused["code"] == "no_rematch" and "a rematch follows a finished match" in refused["message"]
        assert refused["texts"]["de"].startswith(f"Tisch {code} ist schon im Spiel")


def test_an_ended_table_is_looked_up_after_it_left_memory(client: TestClient, web: Any) -> None:
    """README: an ended table stays in the database, "where its code can still be looked up". It
    answered 404 once the server had let it go from memory (``--finished-table-seconds`` after its
    end): its lobby, its rules page and its websocket now show it as it ended, without a rematch."""
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=[{"kind": "random"}])
    code, token = host["code"], host["token"]
    with web.connect(client, code, token) as anna:
        final = finish_gin_hand(anna, web)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    let_go(client, code)  # what the clock does after finished_table_seconds
    lobby = client.get(f"/api/tables/{code}")
    assert lobby.status_code == 200 and lobby.json()["status"] == "over"
    assert client.get(f"/api/tables/{code}/rules").status_code == 200
    with web.connect(client, code, token) as anna:
        shown = web.receive_state(anna)
        assert shown["match"]["is_over"] and shown["match"]["scores"] == final["match"]["scores"]
        assert shown["you"] == 0 and shown["version"] == final["version"]
        anna.send_json({"type": "rematch"})
        late = web.next_of(anna, "error")
        assert late["code"] == "rematch_too_late"
        assert (
            late["texts"]["de"]
            == f"Tisch {code} steht für keine Revanche mehr bereit (er ist länger vorbei); eröffne einen "
            "neuen Tisch"
        )
    assert manager.tables[code].archived
    assert client.get("/api/tables").json()["tables"] == []  # an ended table is never listed
    assert client.get("/api/tables/ZZZZZZ").status_code == 404


def ended_gin_tables(client: TestClient, web: Any, seeds: tuple[int, ...]) -> list[dict[str, Any]]:
    """Finished gin tables (one per seed), each let go from memory as the clock does after
    ``finished_table_seconds``; their grants."""
    grants = []
    for seed in seeds:
        host = web.create(client, preset="gin", seats=2, name="Anna", seed=seed, bots=[{"kind": "random"}])
        with web.connect(client, host["code"], host["token"]) as anna:
            finish_gin_hand(anna, web)
        let_go(client, host["code"])
        grants.append(host)
    return grants


def test_rebuilding_ended_tables_is_bounded_in_memory_and_in_work(
    client: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codes are public while a table waits (the lobby list). A stranger who collected them made the
    server rebuild each ended one, replaying its whole match on the event loop (0.45 s for a long
    German match), again for every code that had gone from the kept few. The tables kept are the
    ones looked up last, the replays run off the loop, and a process makes only so many."""
    from rummykit.web import manager as manager_module
    from rummykit.web.limits import RateLimiter

    monkeypatch.setattr(manager_module, "ARCHIVED_IN_MEMORY", 2)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    codes = [g["code"] for g in ended_gin_tables(client, web, (4, 5, 6))]
    replays: list[str] = []
    replay = manager._replay
    monkeypatch.setattr(manager, "_replay", lambda stored: replays.append(stored.code) or replay(stored))
    manager._archive_budget = RateLimiter(1e-6, 4)  # four rebuilds, then none for a long while
    for code in (codes[0], codes[1], codes[0], codes[2]):
        with web.connect(client, code) as watcher:
            assert web.receive_state(watcher)["match"]["is_over"]
    assert replays == [codes[0], codes[1], codes[2]]  # codes[0] was still kept the second time
    assert sorted(manager.tables) == sorted([codes[0], codes[2]])  # codes[1] looked up least recently
    with web.connect(client, codes[1]) as watcher:  # the fourth rebuild: the last of the budget
        assert web.receive_state(watcher)["match"]["is_over"]
    let_go(client, codes[1])
    with pytest.raises(WebSocketDisconnect) as busy, web.connect(client, codes[1]) as watcher:
        watcher.receive_json()
    assert busy.value.code == 4429 and len(replays) == 4
    assert client.get(f"/api/tables/{codes[1]}").json()["status"] == "over"  # its lobby entry needs none


def test_rebuilt_tables_are_bounded_by_their_moves_too(
    client: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A count of tables did not bound their memory: a match keeps its history, and a table of the
    most moves a table may store holds some 13 MB, so 64 such rebuilt tables were most of a small
    server's memory. The moves of the tables kept are bounded as well, the least recently looked up
    going first; one table larger than the bound is still kept, alone."""
    from rummykit.web import manager as manager_module

    manager = client.app.state.manager  # type: ignore[attr-defined]
    codes = [g["code"] for g in ended_gin_tables(client, web, (4, 5, 6))]
    for code in codes:  # gone from memory, as a while after they ended
        let_go(client, code)

    def look_up(code: str) -> int:
        with web.connect(client, code) as watcher:
            assert web.receive_state(watcher)["match"]["is_over"]
        return int(manager.tables[code].version)

    moves = [look_up(code) for code in codes]
    assert sorted(manager.tables) == sorted(codes)  # the default bound holds three short matches
    for code in codes:
        let_go(client, code)
    # Room for the two smaller tables together, not for all three.
    bound = sum(moves) - min(moves)
    monkeypatch.setattr(manager_module, "ARCHIVED_RECORDS_IN_MEMORY", bound)
    for code in codes:
        look_up(code)
    kept = sorted(manager.tables)
    held = sum(manager.tables[c].version for c in kept)
    assert codes[-1] in kept and held <= bound and len(kept) < 3  # the last looked up stays
    monkeypatch.setattr(manager_module, "ARCHIVED_RECORDS_IN_MEMORY", 1)
    look_up(codes[0])
    assert sorted(manager.tables) == [codes[0]]  # alone, however large


def test_a_rebuilt_table_someone_watches_is_kept_before_one_nobody_watches(
    client: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Room for a rebuilt table is made from the tables nobody watches first: a stranger looking up
    long ended tables one after the other made the server forget (and cut off) the one a streamer
    was showing."""
    from rummykit.web import manager as manager_module

    monkeypatch.setattr(manager_module, "ARCHIVED_IN_MEMORY", 2)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    codes = [g["code"] for g in ended_gin_tables(client, web, (4, 5, 6))]
    for code in codes:
        let_go(client, code)
    with web.connect(client, codes[0]) as watcher:  # rebuilt, and watched while the others come
        assert web.receive_state(watcher)["match"]["is_over"]
        for code in codes[1:]:
            with web.connect(client, code) as other:
                assert web.receive_state(other)["match"]["is_over"]
        assert codes[0] in manager.tables and codes[1] not in manager.tables  # the unwatched one went
        watcher.send_json({"type": "ping"})
        assert web.next_of(watcher, "pong")["type"] == "pong"  # still connected


def test_stored_rules_this_version_refuses_are_not_served(client: TestClient, web: Any) -> None:
    """A table stored before its combination of options was refused (here: hands too small to open)
    made its lobby and rules page answer 500; they answer as for a table that is not there, and once
    its websocket has tried to replay it, as a table this version cannot play."""
    from sqlalchemy import text

    code = ended_gin_tables(client, web, (4,))[0]["code"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with manager.store.engine.begin() as connection:
        connection.execute(
            text("UPDATE rk_tables SET rules = 'german(hand_size=2)' WHERE code = :c"), {"c": code}
        )
    assert client.get(f"/api/tables/{code}").status_code == 404
    assert client.get(f"/api/tables/{code}/rules").status_code == 404
    # Its websocket tries to replay it: the table is there, this version cannot play it, and says so.
    with pytest.raises(WebSocketDisconnect) as gone, web.connect(client, code) as watcher:
        assert watcher.receive_json()["code"] == "table_unreadable"
        watcher.receive_json()
    assert gone.value.code == 4409
    assert client.get(f"/api/tables/{code}").status_code == 409


def test_a_rematch_that_failed_may_be_asked_again(
    client: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rematch whose new table could not be made (the database failed once) stayed failed: every
    later ask got the same error."""
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=[{"kind": "random"}])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    create = manager.create
    failures = [RuntimeError("the database is away")]

    async def flaky(*args: Any) -> Any:
        if failures:
            raise failures.pop()
        return await create(*args)

    monkeypatch.setattr(manager, "create", flaky)
    with web.connect(client, host["code"], host["token"]) as anna:
        finish_gin_hand(anna, web)
        anna.send_json({"type": "rematch"})
        failed = web.next_of(anna, "error")
        assert failed["code"] == "rematch_failed" and failed["texts"]["de"].startswith(
            "Die Revanche ließ sich"
        )
        anna.send_json({"type": "rematch"})
        assert web.next_of(anna, "rematch")["seat"] == 0


def test_close_codes_reach_a_real_client(tmp_path: Path, server_factory: Any) -> None:
    """Closed before the handshake was accepted, uvicorn answered HTTP 403, which a browser reads as
    1006 without a reason: the page's "no such table" branch (4404) never ran."""
    server = server_factory(f"sqlite:///{tmp_path / 'codes.db'}")
    base = server.url.replace("http", "ws")

    async def close_of(path: str) -> tuple[int | None, str | None]:
        async with ws_connect(base + path) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
        return (
            closed.value.rcvd.code if closed.value.rcvd else None,
            closed.value.rcvd.reason if closed.value.rcvd else None,
        )

    assert asyncio.run(close_of("/ws/ZZZZZZ"))[0] == 4404
    assert asyncio.run(close_of("/ws/ZZZZZZ?token=abc")) == (4400, "send the token in the hello message")
    grant = httpx.post(server.url + "/api/tables", json={"preset": "gin", "seats": 2}).json()
    assert asyncio.run(close_of(f"/ws/{grant['code']}?token={grant['token']}"))[0] == 4400


def test_an_ended_table_survives_a_restart(tmp_path: Path, server_factory: Any, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    server = server_factory(url)
    grant = httpx.post(
        server.url + "/api/tables",
        json={"preset": "gin", "seats": 2, "name": "Anna", "seed": 4, "bots": [{"kind": "random"}]},
    ).json()
    code, token = grant["code"], grant["token"]

    final = asyncio.run(asyncio.wait_for(play_out(server.url, code, token), 60))
    server.stop()
    again = server_factory(url)
    lobby = httpx.get(again.url + f"/api/tables/{code}")
    assert lobby.status_code == 200 and lobby.json()["status"] == "over"
    shown = asyncio.run(asyncio.wait_for(play_out(again.url, code, token), 30))
    assert shown["match"]["scores"] == final["match"]["scores"] and shown["you"] == 0


def test_with_several_processes_the_rematch_is_asked_where_the_table_is_played(
    postgres_url: str, server_factory: Any, web: Any
) -> None:
    """With several server processes the host's Rematch went over HTTP to whichever process the
    request reached: one that did not play the table answered 404 "no table". The page now asks over
    the table's websocket, which reaches the process that plays it; over HTTP the other process says
    where to ask."""
    url = web.fresh_database(postgres_url, "rk_rematch")
    first, second = (server_factory(url) for _ in range(2))
    body = {"preset": "gin", "seats": 2, "name": "Anna", "seed": 4, "bots": [{"kind": "random"}]}
    body["listed"] = True
    grant = httpx.post(first.url + "/api/tables", json=body).json()
    code, token = grant["code"], grant["token"]
    asyncio.run(asyncio.wait_for(play_out(first.url, code, token), 60))
    elsewhere = httpx.post(second.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert elsewhere.status_code == 409 and "over the table's websocket" in elsewhere.json()["detail"]
    relayed = asyncio.run(asyncio.wait_for(play_out(second.url, code, token, rematch=True), 30))
    assert relayed["seat"] == 0 and relayed["code"] != code  # asked through the second process
    here = httpx.post(first.url + f"/api/tables/{code}/rematch", json={"token": token})
    assert here.status_code == 201 and here.json()["code"] == relayed["code"]  # the one rematch
    # The one rematch, known to both processes (a practice table, host and bot: not in the lobby list).
    assert httpx.get(second.url + f"/api/tables/{relayed['code']}").json()["status"] in ("waiting", "playing")
    assert httpx.get(second.url + "/api/tables").json()["tables"] == []


def test_one_network_spends_only_its_share_of_the_rebuilds(client: TestClient, web: Any) -> None:
    """A stranger looking up collected codes of ended tables spent the whole process's budget of
    rebuilds, and then nobody could watch an ended table or download its record; now each wider
    network (an IPv4 /24, an IPv6 /48) has a share of it."""
    from rummykit.web.limits import RateLimiter

    manager = client.app.state.manager  # type: ignore[attr-defined]
    codes = [g["code"] for g in ended_gin_tables(client, web, (4, 5, 6))]
    for code in codes:  # gone from memory, as a while after they ended
        let_go(client, code)
    manager._archive_share = RateLimiter(1e-6, 1)  # one rebuild per network, then none for a long while
    manager._archive_budget = RateLimiter(1e-6, 10)

    def find(code: str, address: str) -> Any:
        return client.portal.call(lambda: manager.find(code, address=address))  # type: ignore[union-attr]

    assert find(codes[0], "198.51.100.7").code == codes[0]
    with pytest.raises(LobbyError) as busy:
        find(codes[1], "198.51.100.8")  # the same /24
    assert busy.value.status == 429 and busy.value.error == "archive_busy"
    assert find(codes[2], "203.0.113.5").code == codes[2]  # another network still gets its own


def test_a_rematch_of_a_table_gone_from_memory_is_refused_without_a_replay(
    client: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rematch request for an ended table that left memory replayed its whole match before it was
    refused (with a made-up token too), outside every budget: it is refused from the stored row."""
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=[{"kind": "random"}])
    code, token = host["code"], host["token"]
    with web.connect(client, code, token) as anna:
        finish_gin_hand(anna, web)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    let_go(client, code)
    replays: list[str] = []
    monkeypatch.setattr(manager, "_replay", lambda stored: replays.append(stored.code))
    stranger = client.post(f"/api/tables/{code}/rematch", json={"token": "made-up"})
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_host_rematch"
    late = client.post(f"/api/tables/{code}/rematch", json={"token": token})
    assert late.status_code == 409 and late.json()["code"] == "rematch_too_late"
    assert replays == [] and code not in manager.tables
    assert client.post("/api/tables/ZZZZZZ/rematch", json={"token": token}).json()["code"] == "no_table"
