"""Several server processes sharing one PostgreSQL database, and one of them killed mid-hand.

Three ``rummykit serve`` processes (as on three machines) share a database. One table has its
three seats connected to three different processes: the table is played by its owner, and the
connections reaching the other processes are relayed to it. Mid-hand one process is killed with
SIGKILL; its player reconnects to another process and the hand is played to its end. Every move
a player saw acknowledged is in the database exactly once, and replaying the stored record gives
the identical round.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummykit.rules import Rules
from rummykit.web import protocol
from rummykit.web.address_key import load_key
from rummykit.web.dealing import seal
from rummykit.web.store import Store
from rummykit.web.tables import new_table_match

websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
httpx = pytest.importorskip("httpx")

RULES = {"match_end": "single_hand"}
KILL_AT = 14
"""The version at which the second process is killed."""


def person(legal: list[str]) -> str:
    """Deterministic choices: lay what can be laid, else draw, else the first discard."""
    for prefix in ("open", "meld", "layoff", "draw"):
        options = [a for a in legal if a.startswith(prefix)]
        if options:
            return options[0]
    return next(a for a in legal if a.startswith("discard"))


class Seat:
    def __init__(self, base: str, code: str, token: str) -> None:
        self.code, self.token = code, token
        self.connect(base)

    def connect(self, base: str) -> None:
        self.ws = websockets_sync.connect(
            base.replace("http://", "ws://") + f"/ws/{self.code}", open_timeout=10, legacy=True
        )
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))

    def receive(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        return msg

    def state_at(self, version: int) -> dict[str, Any]:
        """The first state at ``version`` or later."""
        while True:
            msg = self.receive()
            assert msg["type"] != "error" or msg["code"] == "stale", msg
            if msg["type"] == "state" and msg["version"] >= version:
                return msg

    def legal(self, state: dict[str, Any]) -> list[str]:
        if not state["compose"]:
            return state["legal"]  # type: ignore[no-any-return]
        self.ws.send(json.dumps({"type": "moves"}))
        while (msg := self.receive())["type"] != "moves":
            pass
        assert msg["version"] == state["version"]
        return msg["actions"]  # type: ignore[no-any-return]


def test_three_processes_one_killed_mid_hand(postgres_url: str, server_factory: Any, web: Any) -> None:
    url = web.fresh_database(postgres_url, "rk_failover")
    fast = ("--messages-per-second", "1000")  # the players move as fast as the servers answer
    servers = [server_factory(url, extra=fast) for _ in range(3)]

    # Hints for everyone: the players lay what the moves list offers, which lists openings only there.
    spec = {"seats": 3, "overrides": RULES, "name": "A", "hints": "everyone"}
    grant = httpx.post(servers[0].url + "/api/tables", json=spec)
    assert grant.status_code == 201, grant.text
    code = grant.json()["code"]
    grants = [grant.json()]
    for i in (1, 2):  # the others join through the other processes, which load the table
        joined = httpx.post(servers[i].url + f"/api/tables/{code}/join", json={"name": "BC"[i - 1]})
        assert joined.status_code == 200, joined.text
        grants.append(joined.json())
    assert [g["seat"] for g in grants] == [0, 1, 2]
    started = httpx.post(servers[0].url + f"/api/tables/{code}/start", json={"token": grants[0]["token"]})
    assert started.status_code == 200, started.text  # a full table waits for its host

    seats = [Seat(servers[i].url, code, grants[i]["token"]) for i in range(3)]
    acknowledged: list[str] = []
    version = 0
    killed = False
    states = [s.state_at(0) for s in seats]
    while True:
        states = [
            st if st["version"] >= version else s.state_at(version)
            for s, st in zip(seats, states, strict=True)
        ]
        assert len({s["version"] for s in states}) == 1, "every process shows the same version"
        assert len({json.dumps(s["match"]) for s in states}) == 1
        state = states[0]
        if state["match"]["is_over"]:
            break
        mover = state["match"]["to_move"]
        mine = states[mover]
        action = person(seats[mover].legal(mine))
        seats[mover].ws.send(json.dumps({"type": "act", "action": action, "version": version}))
        version += 1
        states[mover] = seats[mover].state_at(version)  # acknowledged: the state holding the move
        assert states[mover]["version"] == version
        acknowledged.append(action)
        if version == KILL_AT and not killed:
            servers[1].kill()  # SIGKILL, mid-hand; seat 1 moves to the third process
            seats[1].ws.close()
            seats[1].connect(servers[2].url)
            states[1] = seats[1].state_at(version)
            killed = True
        assert version < 400
    assert killed

    stored = Store(url)
    try:
        record = stored.actions(code)
        assert record == acknowledged  # nothing lost, nothing twice
        table = stored.load(code)
        assert table is not None and table.status == "over"
        assert table.sealed and table.secret is not None  # the servers deal from its seal
        secret = seal(load_key(web.ADDRESS_KEY_FILE), table.secret)
        match = new_table_match(Rules.parse(table.rules), 3, table.seed, secret, table.dealer)
        for move in record:
            match.apply(move)
        assert protocol.match_json(match) == state["match"]
        assert protocol.view_json(match.round.view(0), own=True) == state["view"]
    finally:
        stored.close()
        for s in seats:
            s.ws.close()
