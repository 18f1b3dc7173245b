"""Table owners across server processes sharing PostgreSQL, and the per-address bounds they share.

Two ``rummykit serve`` processes share a database. A table is played by one process, its owner:
a seat connected to the other process is relayed to the owner, which alone holds the table. When
the owner is killed, the other process takes the table over once the owner's lease runs out, and
a bot plays for the person whose connection died with the owner. The lobby list and the
per-address limits are the database's, so they hold across the processes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import create_engine, text

websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
websockets_exceptions = pytest.importorskip("websockets.exceptions")
httpx = pytest.importorskip("httpx")

FAST = ("--messages-per-second", "1000", "--requests-per-second", "1000")


@pytest.fixture
def database(postgres_url: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database of its own for one test."""
    name = "rk_" + request.node.name.replace("test_", "")[:40]
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    yield postgres_url.rsplit("/", 1)[0] + "/" + name


def owner_of(url: str, code: str) -> tuple[str | None, str | None]:
    """The table's owner and the owner's internal address, from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text(
                    "SELECT t.owner, p.address FROM rk_tables t LEFT JOIN rk_processes p "
                    "ON p.origin = t.owner WHERE t.code = :c"
                ),
                {"c": code},
            ).one()
        return row[0], row[1]
    finally:
        engine.dispose()


def socket(base: str, code: str, token: str | None) -> Any:
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    ws = websockets_sync.connect(url, open_timeout=30, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def next_state(ws: Any, until: Any = None, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and (until is None or until(msg)):
            return msg
    raise AssertionError("no such state")


def health(base: str) -> int:
    tables: int = httpx.get(base + "/api/health").json()["tables"]
    return tables


def test_owner_plays_relay_and_takeover(database: str, server_factory: Any) -> None:
    a = server_factory(database, extra=FAST, takeover=1.0)
    b = server_factory(database, extra=FAST, takeover=1.0)
    spec = {"seats": 2, "name": "A", "overrides": {"match_end": "fixed_hands", "num_hands": 5}}
    host = httpx.post(a.url + "/api/tables", json=spec).json()
    code = host["code"]
    guest = httpx.post(b.url + f"/api/tables/{code}/join", json={"name": "B"})  # through the other process
    assert guest.status_code == 200, guest.text
    listed = {t["code"]: t for t in httpx.get(b.url + "/api/tables").json()["tables"]}
    assert listed[code]["seats"][1]["name"] == "B"  # b lists a table it does not play
    assert httpx.post(b.url + f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200

    seat0 = socket(a.url, code, host["token"])
    seat1 = socket(b.url, code, guest.json()["token"])  # relayed to the owner
    sockets = [seat0, seat1]
    states = [next_state(ws, lambda s: s["table"]["status"] == "playing") for ws in sockets]
    owner, address = owner_of(database, code)
    assert owner is not None and address
    assert health(a.url) == 1 and health(b.url) == 0  # only the owner holds the table

    version = states[0]["version"]
    for _ in range(6):  # both seats play: draw, discard
        mover = states[0]["match"]["to_move"]
        legal = states[mover]["legal"]
        move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("discard"))
        sockets[mover].send(json.dumps({"type": "act", "action": move, "version": version}))
        version += 1
        states = [next_state(ws, lambda s, v=version: s["version"] >= v) for ws in sockets]
        assert states[0]["version"] == states[1]["version"] == version
    assert health(b.url) == 0  # b relayed every move and replayed none
    stranger = socket(b.url, code, "not-a-token")  # the owner's verdict reaches the client
    with pytest.raises(websockets_exceptions.ConnectionClosed) as closed:
        stranger.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403

    a.kill()  # the owner dies mid-hand: b takes the table over when a's lease runs out
    with pytest.raises(Exception):  # noqa: B017  (the relay closes: 1012, or the read fails)
        while True:
            seat1.recv(timeout=30)
    seat1 = socket(b.url, code, guest.json()["token"])
    state = next_state(seat1, seconds=60)
    assert state["version"] == version  # nothing lost
    assert owner_of(database, code)[0] not in (None, owner)
    assert health(b.url) == 1
    # Seat 0's person was connected to the dead process only: b counts them away, and a bot plays
    # for them after the takeover time while seat 1 plays on.
    played_by_bot = 0
    while played_by_bot < 2:
        if state["match"]["to_move"] == 1 and state["legal"]:
            legal = state["legal"]
            move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("discard"))
            seat1.send(json.dumps({"type": "act", "action": move, "version": state["version"]}))
        before = state
        state = next_state(seat1, lambda s, v=before["version"]: s["version"] > v, seconds=60)
        if before["match"]["to_move"] == 0:
            played_by_bot += 1
    assert state["table"]["seats"][0]["away"]
    seat1.close()
    seat0.close()


def test_lobby_and_limits_hold_across_processes(database: str, server_factory: Any) -> None:
    limits = (
        "--max-tables-per-address", "3", "--max-connections-per-address", "2",
        "--creations-per-second", "0.001", "--requests-per-second", "0.001",
    )  # fmt: skip
    a = server_factory(database, extra=limits)
    b = server_factory(database, extra=limits)
    codes = []
    for base in (a.url, b.url, a.url):
        made = httpx.post(base + "/api/tables", json={"seats": 2})
        assert made.status_code == 201, made.text
        codes.append(made.json()["code"])
    for base in (a.url, b.url):  # every process lists every table
        assert {t["code"] for t in httpx.get(base + "/api/tables").json()["tables"]} == set(codes)
    refused = httpx.post(b.url + "/api/tables", json={"seats": 2})
    assert refused.status_code == 429 and "3 open tables" in refused.json()["detail"]

    # Connections per address: two in all, whichever process they reach.
    first = socket(a.url, codes[0], None)
    second = socket(b.url, codes[1], None)
    next_state(first)
    next_state(second)
    url = b.url.replace("http://", "ws://") + f"/ws/{codes[2]}"
    third = websockets_sync.connect(url, open_timeout=30, legacy=True)
    assert json.loads(third.recv(timeout=30))["code"] == "too_many_connections"
    first.close()
    time.sleep(0.5)
    fourth = socket(b.url, codes[2], None)  # a connection closed: room for one again
    next_state(fourth)
    for ws in (second, third, fourth):
        ws.close()

    # Lobby requests per address: one bucket of 30 for both processes, not 30 on each.
    answers = [httpx.get(base + f"/api/tables/{codes[0]}/rules").status_code for base in [a.url, b.url] * 20]
    assert answers.count(200) == 30 and answers.count(429) == 10, answers


def test_seat_cap_and_ipv6_networks_hold_across_processes(database: str, server_factory: Any) -> None:
    """Seats held at strangers' waiting tables are counted in the database, by network: an IPv6
    client is its /64 whichever process it reaches (the address comes from X-Forwarded-For, which
    the server believes from 127.0.0.1)."""
    limits = ("--max-seats-per-address", "1", "--max-tables-per-address", "2", "--max-seats-per-network", "2")
    a = server_factory(database, extra=limits)
    b = server_factory(database, extra=limits)

    def post(base: str, address: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return httpx.post(base + path, json=body or {}, headers={"X-Forwarded-For": address})

    host = "2001:db8:1:2::1"
    codes = [post(base, host, "/api/tables", {"seats": 3}).json()["code"] for base in (a.url, b.url)]
    refused = post(a.url, "2001:db8:1:2:ffff::9", "/api/tables", {"seats": 3})  # the host's /64
    assert refused.status_code == 429 and "2 open tables" in refused.json()["detail"]
    assert post(a.url, "2001:db8:7:7::1", f"/api/tables/{codes[0]}/join").status_code == 200
    squat = post(b.url, "2001:db8:7:7::2", f"/api/tables/{codes[1]}/join")
    assert squat.status_code == 429, squat.text
    assert "already holds 1 seat at other people's" in squat.json()["detail"]
    assert "Dein Netz hält schon 1 Platz an" in squat.json()["texts"]["de"]
    assert post(b.url, "203.0.113.5", f"/api/tables/{codes[1]}/join").status_code == 200
    # The host's own network is not capped at its own tables.
    assert post(b.url, "2001:db8:1:2::7", f"/api/tables/{codes[1]}/join").status_code == 200
    # The squatter's /48 holds two seats at most, whichever /64s and processes it uses.
    other = post(a.url, "198.51.100.1", "/api/tables", {"seats": 4}).json()["code"]
    assert post(b.url, "2001:db8:7:8::1", f"/api/tables/{other}/join").status_code == 200
    wide = post(a.url, "2001:db8:7:9::1", f"/api/tables/{other}/join")
    assert wide.status_code == 429 and "your network already holds 2 seats" in wide.json()["detail"]


def test_table_cap_per_address_survives_a_restart(tmp_path: Any, web: Any) -> None:
    """The creating address is stored (as a digest), so a restarted server still counts its tables."""
    from fastapi.testclient import TestClient

    from rummykit.web.app import create_app

    url = f"sqlite:///{tmp_path / 'rummykit.db'}"
    settings = web.settings(max_tables_per_address=2)
    with TestClient(create_app(url, settings=settings)) as client:
        for _ in range(2):
            web.create(client, seats=2)
    with TestClient(create_app(url, settings=settings)) as client:
        refused = client.post("/api/tables", json={"seats": 2})
        assert refused.status_code == 429 and "2 open tables" in refused.json()["detail"]
    engine = create_engine(url)
    with engine.connect() as connection:
        creators = connection.execute(text("SELECT creator FROM rk_tables")).scalars().all()
    engine.dispose()
    assert len(set(creators)) == 1 and "testclient" not in creators[0]  # a digest, not the address


def test_bots_play_under_several_worker_processes(database: str, server_factory: Any) -> None:
    """``--workers 2``: each worker starts its own bot process, so the workers are not daemons (a
    daemon may not start children, and every bot move failed)."""
    server = server_factory(database, extra=(*FAST, "--workers", "2"), bot_delay=0.0)
    grant = httpx.post(server.url + "/api/tables", json={"seats": 2, "bots": [{"kind": "greedy"}]}).json()
    ws = socket(server.url, grant["code"], grant["token"])
    state = next_state(ws, lambda s: bool(s["legal"]))
    for _ in range(2):  # two of my turns, each answered by the bot (it draws and discards)
        if "draw" in state["legal"]:
            ws.send(json.dumps({"type": "act", "action": "draw", "version": state["version"]}))
            state = next_state(ws, lambda s, v=state["version"]: s["version"] > v and bool(s["legal"]))
        discard = next(m for m in state["legal"] if m.startswith("discard"))
        ws.send(json.dumps({"type": "act", "action": discard, "version": state["version"]}))
        mine = state["version"] + 1
        state = next_state(ws, lambda s, v=mine: s["version"] > v and bool(s["legal"]), seconds=30)
        assert state["version"] >= mine + 2  # the bot's draw and discard came in between
    ws.close()


def test_workers_stop_when_their_supervisor_is_killed(database: str, server_factory: Any) -> None:
    """``kill -9`` of ``rummykit serve --workers 2`` (an OOM kill, a hard stop of the main process):
    its server processes stop too, so the port is free and the server can be started again."""
    server = server_factory(database, extra=(*FAST, "--workers", "2"))
    assert health(server.url) == 0
    server.kill()  # the supervisor alone, as kill -9 of its pid does
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(server.url + "/api/health", timeout=2)
        except httpx.TransportError:
            break  # nobody answers on the port any more
        time.sleep(0.2)
    else:
        raise AssertionError("the workers outlived their supervisor")
    again = server_factory(database, extra=(*FAST, "--workers", "2"), port=server.port)
    assert health(again.url) == 0


def test_a_leave_through_another_process_unbinds_the_old_connection(
    database: str, server_factory: Any
) -> None:
    """A person leaves a waiting table through a process that does not play it (a load balancer's
    choice): the owner takes the seat from their open connection at once, so whoever joins the
    seat next is not seen or played for by it."""
    a = server_factory(database, extra=FAST)
    b = server_factory(database, extra=FAST)
    host = httpx.post(a.url + "/api/tables", json={"seats": 3, "name": "Host"}).json()
    code = host["code"]
    leaver = httpx.post(a.url + f"/api/tables/{code}/join", json={"name": "Leaver"}).json()
    host_ws = socket(a.url, code, host["token"])  # a plays the table
    old = socket(a.url, code, leaver["token"])
    assert next_state(old)["you"] == leaver["seat"]
    assert owner_of(database, code)[0] is not None and health(a.url) == 1 and health(b.url) == 0
    assert httpx.post(b.url + f"/api/tables/{code}/leave", json={"token": leaver["token"]}).status_code == 200
    deadline = time.monotonic() + 30
    while True:
        msg = json.loads(old.recv(timeout=deadline - time.monotonic()))
        if msg["type"] == "welcome":
            assert msg["seat"] is None
            break
    newcomer = httpx.post(a.url + f"/api/tables/{code}/join", json={"name": "Next"}).json()
    assert newcomer["seat"] == leaver["seat"]
    assert httpx.post(a.url + f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200
    state = next_state(old, lambda s: s["table"]["status"] == "playing")
    assert state["you"] is None and state["view"]["hand"] is None and not state["legal"]
    host_ws.close()
    old.close()


LISTENING = "datname = current_database() AND query LIKE 'LISTEN%'"


def _listeners(url: str) -> int:
    """How many connections listen on the database of ``url`` (one per server process)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(f"SELECT count(*) FROM pg_stat_activity WHERE {LISTENING}"))
            return int(rows.scalar_one())
    finally:
        engine.dispose()


def test_the_listener_connects_again_after_the_database_drops_it(database: str, server_factory: Any) -> None:
    """A database restart (here: the listening connections killed) no longer silences the processes
    for good: each listener connects again, and a join made through the other process reaches the
    owner's connections, as before the break."""
    a = server_factory(database, extra=FAST)
    b = server_factory(database, extra=FAST)
    host = httpx.post(a.url + "/api/tables", json={"seats": 2, "name": "Host"}).json()
    code = host["code"]
    host_ws = socket(a.url, code, host["token"])
    next_state(host_ws)
    assert _listeners(database) == 2
    engine = create_engine(database, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {LISTENING}"))
    engine.dispose()
    deadline = time.monotonic() + 30
    while _listeners(database) < 2:
        assert time.monotonic() < deadline, "the listeners did not come back"
        time.sleep(0.2)
    guest = httpx.post(b.url + f"/api/tables/{code}/join", json={"name": "Guest"})
    assert guest.status_code == 200
    state = next_state(host_ws, lambda s: any(p.get("name") == "Guest" for p in s["table"]["seats"]), 30)
    assert state["table"]["status"] == "waiting"
    host_ws.close()


def test_joins_racing_through_two_processes_all_find_a_seat(database: str, server_factory: Any) -> None:
    """Five people join a six-seat table at once, through two processes: a join whose write finds the
    lobby changed by the other process takes the next open seat (it was refused with 409)."""
    a = server_factory(database, extra=FAST)
    b = server_factory(database, extra=FAST)
    made = httpx.post(a.url + "/api/tables", json={"seats": 6, "name": "Host"})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    start = threading.Barrier(5)

    def join(i: int) -> httpx.Response:
        base = (a.url, b.url)[i % 2]
        start.wait()
        return httpx.post(base + f"/api/tables/{code}/join", json={"name": f"P{i}"}, timeout=60)

    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(join, range(5)))
    assert [r.status_code for r in answers] == [200] * 5, [r.text for r in answers]
    assert sorted(r.json()["seat"] for r in answers) == [1, 2, 3, 4, 5]
    seats = httpx.get(b.url + f"/api/tables/{code}").json()["seats"]
    assert sorted(s["name"] for s in seats) == ["Host", "P0", "P1", "P2", "P3", "P4"]
