"""Every websocket message a client sends gets an answer, and errors share one shape: a program
talking to the server can tell "ignored" from "lost"."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def test_back_and_ready_that_change_nothing_are_answered_with_the_state(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "random"}], seed=7)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        for kind in ("back", "ready"):
            ws.send_json({"type": kind})
            answer = ws.receive_json()
            assert answer["type"] == "state" and answer["version"] == first["version"], kind
            assert not answer["table"]["seats"][0]["away"] and 0 not in answer["rest"]


def test_chat_errors_are_shaped_as_every_other_error(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "random"}], seed=7)
    with web.connect(client, grant["code"]) as spectator:
        state = web.receive_state(spectator)
        spectator.send_json({"type": "chat", "text": "hello"})
        error = web.next_of(spectator, "error")
    assert error["code"] == "spectator" and error["version"] == state["version"]
    assert set(error) >= {"code", "message", "rule", "version", "texts"}
    assert error["texts"]["en"] == "spectators cannot chat" and "chatten" in error["texts"]["de"]


def test_not_your_turn_counts_seats_from_one_as_the_other_texts_do(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=2, name="Anna")
    joined = client.post(f"/api/tables/{host['code']}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]})
    with web.connect(client, host["code"], host["token"]) as anna, web.connect(
        client, host["code"], joined["token"]
    ) as ben:
        state = web.receive_state(anna)
        waiting, waiting_state = (ben, web.receive_state(ben)) if state["legal"] else (anna, state)
        waiting.send_json({"type": "act", "action": "draw", "version": waiting_state["version"]})
        error = web.next_of(waiting, "error")
    to_move = state["match"]["to_move"]
    assert error["code"] == "not_your_turn" and error["message"] == f"it is seat {to_move + 1}'s turn"
