"""The turn clock runs from the start of a turn: leaving and coming back (or saying ``back``) in the
same turn never starts it again, so nobody can hold a table for ever; pages are told what is left."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web.app import create_app


@pytest.fixture
def client(tmp_path: Path, web: Any) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'clock.db'}",
        settings=web.settings(
            bot_delay=1.0, turn_seconds=2.0, practice_turn_seconds=2.0, takeover_seconds=60
        ),
    )
    with TestClient(app) as made:
        yield made


def test_a_pong_says_what_is_left_of_the_turn_now(client: TestClient, web: Any) -> None:
    """A phone that slept gets the states sent meanwhile late, each with the clock as it was when it
    was sent; woken, its page asks with a ping, and the pong says the version and what is left now."""
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        time.sleep(1.0)  # the clock starts within a tick (0.5 s); the bot takes the seat at 2 s
        ws.send_json({"type": "ping"})
        pong = web.next_of(ws, "pong")
        assert pong["version"] == first["version"]
        assert pong["turn_left"] is not None and pong["turn_left"] < first["turn_left"] - 0.2


def test_reconnecting_does_not_start_the_turn_clock_again(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
    code = grant["code"]
    with web.connect(client, code, grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        started = time.monotonic()  # the turn's clock starts at the next tick, within 0.5 s
        assert first["turn_left"] == 2.0
        time.sleep(1.2)
    time.sleep(0.9)  # gone for longer than a tick of the clock, far less than the takeover time
    with web.connect(client, code, grant["token"]) as ws:
        again = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        assert again["version"] == first["version"] and again["turn_left"] < 0.5  # what is left, not 2 s
        while not web.away(client, code) and time.monotonic() - started < 3.0:
            time.sleep(0.05)
        assert web.away(client, code)  # replaced when the turn's 2 s were up, counted from its start


def test_back_in_a_turn_whose_time_ran_out_is_back_after_the_bots_move(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
    code = grant["code"]
    table = web.table_of(client, code)
    with web.connect(client, code, grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        web.receive_state(ws, until=lambda s: s["table"]["seats"][0]["away"], limit=500)
        ws.send_json({"type": "back"})  # at once, before the bot (1 s delay) has played the turn
        time.sleep(0.3)
        assert web.away(client, code) and table.version == first["version"]  # still the bot's turn to play
        back = web.receive_state(ws, until=lambda s: not s["table"]["seats"][0]["away"], limit=2000)
        assert back["version"] > first["version"]  # the bot played the timed-out turn, then they are back
        assert not web.away(client, code)
    # The move the bot made for the person is stored as a stand-in's (the record's seats say so).
    _, seat, played_by = table.manager.store.played_by(code)[first["version"]]
    assert (seat, played_by) == (0, "stand_in")


def test_alone_with_bots_no_clock_runs_unless_the_server_sets_one(tmp_path: Path, web: Any) -> None:
    """A person playing bots alone was replaced by a bot after ``turn_seconds`` like anyone, with no
    way to switch the clock off (WCAG 2.2.1). Nobody waits for them: no clock runs there, the page
    is told so (``turn_seconds`` 0, no ``turn_left``); at a table with another person it runs."""
    settings = web.settings(bot_delay=0, turn_seconds=0.4, takeover_seconds=60)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'alone.db'}", settings=settings)) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
        code = grant["code"]
        with web.connect(client, code, grant["token"]) as ws:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            assert state["table"]["turn_seconds"] == 0 and state["turn_left"] is None
            time.sleep(1.2)  # three turn clocks
            assert not web.away(client, code) and web.table_of(client, code).version == state["version"]
        # Another process lists it from the database with the same clock.
        from rummykit.web.manager import _stored_lobby

        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert _stored_lobby(manager.store.lobby_row(code), manager.settings)["turn_seconds"] == 0
        host = web.create(client, seats=3, name="Anna", bots=[{"kind": "greedy"}], seed=5)
        client.post(f"/api/tables/{host['code']}/join", json={"name": "Ben"})
        client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]})
        with web.connect(client, host["code"], host["token"]) as ws:
            shared = web.receive_state(ws)
            assert shared["table"]["turn_seconds"] == 0.4
        assert _stored_lobby(manager.store.lobby_row(host["code"]), manager.settings)["turn_seconds"] == 0.4


def test_a_move_of_their_own_brings_a_replaced_person_back(client: TestClient, web: Any) -> None:
    """Replaced when their time ran out, a person who moves before the bot does (a client that never
    says ``back``) is back: the bot does not go on playing their later turns beside them."""
    grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
    code = grant["code"]
    with web.connect(client, code, grant["token"]) as ws:
        first = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        web.receive_state(ws, until=lambda s: s["table"]["seats"][0]["away"], limit=500)
        # Before the bot (its delay is 1 s):
        ws.send_json({"type": "act", "action": first["legal"][0], "version": first["version"]})
        moved = web.receive_state(ws, until=lambda s: s["version"] > first["version"], limit=500)
        assert moved["log"][-1]["seat"] == 0 and moved["log"][-1]["action"] == first["legal"][0]
        deadline = time.monotonic() + 3.0
        while web.away(client, code) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not web.away(client, code)
