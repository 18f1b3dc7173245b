"""A table ends at the server's limit of moves (``max_table_actions``, ``--max-table-actions``).

In Viennese, Basic and Rommé ohne Auslegen a hand on which the stock runs out is not scored, so two
people who only draw and discard play a match that never ends, present and moving, past every
clock. The server ends such a table at its limit of stored moves, as it ends an idle one: stored
``expired``, every client told why in English and German, and not revived by a restart.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.web.app import create_app
from rummykit.web.limits import ServerSettings

LIMIT = 10


def two_people(client: TestClient, web: Any) -> tuple[str, list[str]]:
    """A started Viennese table of two people (Anna hosts, Ben joins); its code and both tokens."""
    host = web.create(client, preset="viennese", seats=2, name="Anna", seed=7)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    assert client.post(f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200
    return code, [host["token"], guest["token"]]


def draw_or_discard(legal: list[str]) -> str:
    """Only take from the stock and throw away: nobody ever scores."""
    return "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard "))


def play(sockets: list[Any], web: Any, moves: int) -> list[dict[str, Any]]:
    """Play ``moves`` draw/discard moves from the start (the first sockets hold the seats, a last
    one may watch); the state each socket got last."""
    states = [web.receive_state(ws, until=lambda s: s["version"] == 0) for ws in sockets]
    for version in range(moves):
        mover = next(i for i, s in enumerate(states) if s["legal"])
        action = draw_or_discard(states[mover]["legal"])
        sockets[mover].send_json({"type": "act", "action": action, "version": version})
        states = [web.receive_state(ws, until=lambda s, v=version + 1: s["version"] == v) for ws in sockets]
    return states


def stored(client: TestClient, code: str) -> tuple[str, int]:
    """The table's status and number of moves as the database has them."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    status, _ = manager.store.lobby(code)
    return status, len(manager.store.load(code).actions)


def test_a_table_ends_at_the_limit_and_every_client_is_told(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'limit.db'}"
    settings = web.settings(bot_delay=0, max_table_actions=LIMIT)
    with TestClient(create_app(url, settings=settings)) as client:
        code, tokens = two_people(client, web)
        with (
            web.connect(client, code, tokens[0]) as anna,
            web.connect(client, code, tokens[1]) as ben,
            web.connect(client, code, None) as watcher,
        ):
            before = play([anna, ben, watcher], web, LIMIT - 1)
            # Below the limit nothing changes: the table is played and listed, the next move offered.
            assert all(s["table"]["status"] == "playing" and s["version"] == LIMIT - 1 for s in before)
            assert any(s["legal"] for s in before)
            assert [t["code"] for t in client.get("/api/tables").json()["tables"]] == [code]
            assert stored(client, code) == ("playing", LIMIT - 1)
        with (  # connected again: each connection is sent the table as it is
            web.connect(client, code, tokens[0]) as anna,
            web.connect(client, code, tokens[1]) as ben,
            web.connect(client, code, None) as watcher,
        ):
            states = [web.receive_state(ws) for ws in (anna, ben, watcher)]
            mover = next(i for i, s in enumerate(states) if s["legal"])
            action = draw_or_discard(states[mover]["legal"])
            (anna, ben)[mover].send_json({"type": "act", "action": action, "version": LIMIT - 1})
            for ws in (anna, ben, watcher):
                ended = web.receive_state(ws, until=lambda s: s["version"] == LIMIT)
                assert ended["table"]["status"] == "expired" and ended["legal"] == []
                told = web.next_of(ws, "error")
                assert told["code"] == "move_limit"
                assert (
                    told["message"]
                    == told["texts"]["en"]
                    == (
                        f"this table reached the server's limit of {LIMIT} moves (undos included) "
                        "before the match ended; start a new table"
                    )
                )
                assert told["texts"]["de"] == (
                    f"Dieser Tisch hat die Grenze des Servers von {LIMIT} Zügen (Rücknahmen mitgezählt) "
                    "erreicht, bevor die Partie zu Ende war; eröffne einen neuen Tisch"
                )
                with pytest.raises(WebSocketDisconnect):  # and the connection ends
                    for _ in range(5):
                        ws.receive_json()
        assert stored(client, code) == ("expired", LIMIT)
        assert client.get(f"/api/tables/{code}").json()["status"] == "expired"
        assert client.get("/api/tables").json()["tables"] == []
    # A restart does not bring it back: it is not loaded, and it still shows as ended.
    with TestClient(create_app(url, settings=settings)) as client:
        assert code not in client.app.state.manager.tables  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{code}").json()["status"] == "expired"
        assert client.get("/api/tables").json()["tables"] == []
        assert stored(client, code) == ("expired", LIMIT)


def test_a_table_stored_at_the_limit_as_played_ends_on_restart(tmp_path: Path, web: Any) -> None:
    """A table whose end at the limit was not stored (the write failed, or the limit was lowered) is
    ended by the clock after a restart, not played on."""
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        code, tokens = two_people(client, web)
        with web.connect(client, code, tokens[0]) as anna, web.connect(client, code, tokens[1]) as ben:
            play([anna, ben], web, LIMIT)
        assert stored(client, code) == ("playing", LIMIT)
    settings = web.settings(bot_delay=0, max_table_actions=LIMIT, idle_table_seconds=60)
    with TestClient(create_app(url, settings=settings)) as client:
        for _ in range(100):
            if stored(client, code)[0] == "expired":
                break
            time.sleep(0.05)
        assert stored(client, code) == ("expired", LIMIT)
        assert client.get("/api/tables").json()["tables"] == []
        with web.connect(client, code, tokens[0]) as anna:
            shown = web.receive_state(anna)
            assert shown["table"]["status"] == "expired" and shown["legal"] == []
            anna.send_json({"type": "act", "action": "draw", "version": shown["version"]})
            assert web.next_of(anna, "error")["code"] == "not_playing"


def test_bots_stop_at_the_limit(tmp_path: Path, web: Any) -> None:
    """Moves of bots count as any other: a person with a bot ends at the limit as well."""
    url = f"sqlite:///{tmp_path / 'bots.db'}"
    settings = web.settings(bot_delay=0, max_table_actions=LIMIT)
    with TestClient(create_app(url, settings=settings)) as client:
        bot = [{"kind": "random"}]
        host = web.create(client, preset="viennese", seats=2, name="Anna", seed=3, bots=bot)
        code = host["code"]
        with web.connect(client, code, host["token"]) as anna:
            state = web.receive_state(anna)
            while state["table"]["status"] == "playing" and state["version"] <= LIMIT:
                if state["legal"]:
                    anna.send_json(
                        {
                            "type": "act",
                            "action": draw_or_discard(state["legal"]),
                            "version": state["version"],
                        }
                    )
                state = web.receive_state(anna, until=lambda s, v=state["version"]: s["version"] > v)
            assert state["table"]["status"] == "expired" and state["version"] == LIMIT
            assert web.next_of(anna, "error")["code"] == "move_limit"
        assert stored(client, code) == ("expired", LIMIT)


def test_the_default_limit_is_far_above_a_real_match() -> None:
    """Greedy bots play the longest preset match in 1,540 moves and the longest house rules in
    6,850 (README, ``ServerSettings.max_table_actions``); 0 switches the limit off."""
    assert ServerSettings().max_table_actions == 20_000
    assert ServerSettings(max_table_actions=0).max_table_actions == 0
    with pytest.raises(ValueError, match="max_table_actions"):
        ServerSettings(max_table_actions=-1)
