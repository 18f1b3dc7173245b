"""The break between hands: a person's turn clock rests while the hand's result is shown, until they
close it (``ready``) or the break's time has passed."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from rummykit.bots import make_bot

SEED_BEN_STARTS = 11
"""A deal of a three-seat table (Anna, Ben, a bot) whose second hand Ben begins."""


def play_first_hand(client: TestClient, web: Any, ws: Any, code: str) -> dict[str, Any]:
    """Play seat 0's moves as a greedy bot would until the first hand ends; that state."""
    table, bot, rng = web.table_of(client, code), make_bot("greedy"), random.Random(3)
    while True:
        state = web.receive_state(
            ws, until=lambda s: s["version"] == table.version or s["match"]["hands"], limit=2000
        )
        if state["match"]["hands"]:
            return state
        if not (state["legal"] or state["compose"]):
            continue
        match = table.match
        action = bot.choose(match.round.view(0), match.legal_actions(), rng)
        ws.send_json({"type": "act", "action": str(action), "version": state["version"]})


def test_the_turn_clock_rests_until_the_result_is_closed(make_client: Any, web: Any) -> None:
    client = make_client(bot_delay=0, turn_seconds=1.0, practice_turn_seconds=1.0, hand_break_seconds=60)
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=11, overrides={"num_hands": 2})
    code = grant["code"]
    with web.connect(client, code, grant["token"]) as ws:
        ended = play_first_hand(client, web, ws, code)
        assert ended["rest"] == [0]  # the bot's seat has no break
        web.receive_state(ws, until=lambda s: s["match"]["hands_dealt"] == 2 and bool(s["legal"]))
        time.sleep(1.6)  # longer than a turn: the result is still shown, the clock rests
        assert not web.away(client, code) and web.table_of(client, code).match.to_move == 0
        ws.send_json({"type": "ready"})
        assert web.receive_state(ws, until=lambda s: s["rest"] == [])["match"]["to_move"] == 0
        deadline = time.monotonic() + 5
        while not web.away(client, code) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert web.away(client, code)  # the clock ran again: a bot plays the seat after a turn's time


def test_the_break_ends_by_itself(make_client: Any, web: Any) -> None:
    """Nobody stalls a table: without ``ready`` the break ends after ``hand_break_seconds``."""
    client = make_client(bot_delay=0, turn_seconds=30, practice_turn_seconds=30, hand_break_seconds=0.4)
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=11, overrides={"num_hands": 2})
    code = grant["code"]
    with web.connect(client, code, grant["token"]) as ws:
        assert play_first_hand(client, web, ws, code)["rest"] == [0]
        started = time.monotonic()
        web.receive_state(ws, until=lambda s: s["rest"] == [], limit=2000)
        assert 0.3 < time.monotonic() - started < 3


def test_no_break_means_no_break_and_no_faster_clock(make_client: Any, web: Any) -> None:
    """``--hand-break-seconds 0`` switches the break off: nobody rests after a hand, and the clocks
    still run once a second (a quarter of 0 s made them run every 20 ms)."""
    client = make_client(bot_delay=0, turn_seconds=30, practice_turn_seconds=30, hand_break_seconds=0)
    assert client.app.state.manager.tick_seconds == 1.0  # type: ignore[attr-defined]
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=11, overrides={"num_hands": 2})
    with web.connect(client, grant["code"], grant["token"]) as ws:
        assert play_first_hand(client, web, ws, grant["code"])["rest"] == []


def test_a_break_survives_a_restart(tmp_path: Any, web: Any) -> None:
    """The server restarts while the result is shown: the reloaded table gives the break again in
    full (its end was not stored), so the person reading the result does not find their clock running."""
    from rummykit.web import create_app

    settings = web.settings(bot_delay=0, turn_seconds=1.0, practice_turn_seconds=1.0, hand_break_seconds=60)
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(url, settings=settings)) as first:
        grant = web.create(first, seats=2, bots=[{"kind": "greedy"}], seed=11, overrides={"num_hands": 2})
        code = grant["code"]
        with web.connect(first, code, grant["token"]) as ws:
            assert play_first_hand(first, web, ws, code)["rest"] == [0]
    second = TestClient(create_app(url, settings=settings))
    with second, web.connect(second, code, grant["token"]) as ws:
        state = web.receive_state(ws, until=lambda s: s["match"]["hands_dealt"] == 2 and bool(s["legal"]))
        assert state["rest"] == [0]
        time.sleep(1.6)  # longer than a turn: the clock rests after the restart too
        assert not web.away(second, code) and web.table_of(second, code).match.to_move == 0
        ws.send_json({"type": "ready"})
        assert web.receive_state(ws, until=lambda s: s["rest"] == [])["match"]["to_move"] == 0


def test_when_others_close_their_result_is_theirs_alone(make_client: Any, web: Any) -> None:
    """A page is told of its own break and of the break of the person to move (whose clock rests),
    not when the others close their result: Ben, to move in the new hand, sees nothing of Anna's."""
    client = make_client(bot_delay=0, turn_seconds=30, hand_break_seconds=60)
    host = web.create(client, seats=3, name="Anna", bots=[{"kind": "greedy"}], seed=SEED_BEN_STARTS)
    code = host["code"]
    ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    table, bot, rng = web.table_of(client, code), make_bot("greedy"), random.Random(3)
    with (
        web.connect(client, code, host["token"]) as anna_ws,
        web.connect(client, code, ben["token"]) as ben_ws,
    ):
        sockets = {host["seat"]: anna_ws, ben["seat"]: ben_ws}
        seen_by_ben: list[dict[str, Any]] = []
        while True:  # both play as greedy would until the first hand ends
            state = web.receive_state(
                anna_ws, until=lambda s: s["version"] == table.version or s["match"]["hands"], limit=2000
            )
            if state["match"]["hands"]:
                break
            match = table.match
            if match.to_move in sockets and state["version"] == table.version:
                action = bot.choose(match.round.view(match.to_move), match.legal_actions(), rng)
                sockets[match.to_move].send_json(
                    {"type": "act", "action": str(action), "version": table.version}
                )
        assert table.match.to_move == ben["seat"] and table.match.hands_dealt == 2
        ben_ws.send_json({"type": "ping"})
        while (msg := ben_ws.receive_json())["type"] != "pong":
            seen_by_ben.append(msg)
        anna_ws.send_json({"type": "ready"})
        assert web.receive_state(anna_ws, until=lambda s: host["seat"] not in s["rest"])["rest"] == [
            ben["seat"]
        ]
        ben_ws.send_json({"type": "ping"})
        assert ben_ws.receive_json()["type"] == "pong"  # no state: Anna's closing changed nothing Ben sees
        states = [m for m in seen_by_ben if m["type"] == "state"]
        assert states[-1]["rest"] == [ben["seat"]]
        assert all(set(s["rest"]) <= {ben["seat"], s["match"]["to_move"]} for s in states)
