"""Every websocket message a client sends gets an answer, and errors share one shape: a program
talking to the server can tell "ignored" from "lost"."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def test_back_and_ready_that_change_nothing_are_answered_with_the_state(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "random"}], seed=7)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        ws.send_json({"type": "back"})
        answer = ws.receive_json()
        assert answer["type"] == "state" and answer["version"] == first["version"]
        assert not answer["table"]["seats"][0]["away"] and 0 not in answer["rest"]
        ws.send_json({"type": "ready"})  # the same version: the page has that state already
        assert web.next_of(ws, "error")["code"] == "unchanged"


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


def test_a_message_that_changes_nothing_is_answered_with_the_state_once_a_version(
    client: TestClient, web: Any
) -> None:
    """``back`` from a person not away, or from a watcher, and ``ready`` from anybody not resting
    changed nothing and were answered with the whole state each time: a hundred connections of one
    network sending them at the message rate kept a core writing states. The state is sent once per
    version; asked again, the answer is the small error ``unchanged``."""
    host = web.create(client, preset="german", seats=2, bots=[{"kind": "greedy"}])
    code = host["code"]
    with web.connect(client, code, host["token"]) as player, web.connect(client, code) as watcher:
        first = web.receive_state(player, until=lambda s: bool(s["legal"]))  # the player's turn: all wait
        version = first["version"]
        web.receive_state(watcher, until=lambda s: s["version"] == version)
        # The watcher's ready comes after its back was answered at this version: both are unchanged.
        for ws, message, unchanged in ((player, "back", 1), (watcher, "back", 1), (watcher, "ready", 2)):
            for sent in (message, message, "ping"):
                ws.send_json({"type": sent})
            answers = []  # up to the pong: states (the first answer, a watcher's arrival) and errors
            while (answer := ws.receive_json())["type"] != "pong":
                answers.append(answer)
            assert {a["version"] for a in answers} == {version}
            errors = [a for a in answers if a["type"] == "error"]
            assert [e["code"] for e in errors] == ["unchanged"] * unchanged
            assert "nichts" in errors[0]["texts"]["de"]
        assert web.table_of(client, code).version == version


def test_the_hand_s_log_and_the_moves_are_sent_once_a_version_to_a_connection(
    client: TestClient, web: Any
) -> None:
    """A hand's log can be hundreds of kilobytes: a connection asking for it again and again at one
    version turned twenty bytes into that much each time. It is sent once per version and connection;
    asked again, the answer is ``unchanged`` (another connection, or the next version, gets it)."""
    host = web.create(client, preset="german", seats=2, bots=[{"kind": "greedy"}])
    code = host["code"]
    with web.connect(client, code, host["token"]) as player, web.connect(client, code) as watcher:
        first = web.receive_state(player, until=lambda s: bool(s["legal"]))
        version = first["version"]
        web.receive_state(watcher, until=lambda s: s["version"] == version)
        for ws, kinds in ((player, ("hand_log", "moves")), (watcher, ("hand_log",))):
            for kind in kinds:
                for sent in (kind, kind, "ping"):
                    ws.send_json({"type": sent})
                answers = []
                while (answer := ws.receive_json())["type"] != "pong":
                    answers.append(answer)
                assert [(a["type"], a.get("code")) for a in answers if a["type"] != "state"] == [
                    (kind, None),
                    ("error", "unchanged"),
                ]
        player.send_json({"type": "act", "action": first["legal"][0], "version": version})
        web.receive_state(player, until=lambda s: s["version"] > version)
        player.send_json({"type": "hand_log"})
        assert web.next_of(player, "hand_log")["version"] > version
