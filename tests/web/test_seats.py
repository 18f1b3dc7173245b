"""Taking a seat back (``POST /api/tables/{code}/retake``) and the host's start of a full table."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect


def test_a_left_seat_is_taken_back_with_its_token_only(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=3, name="Anna")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    other = client.post(f"/api/tables/{code}/join", json={"name": "Cleo"}).json()
    # Nothing to take back before the start, nor with a seat that was never left.
    assert client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]}).status_code == 409
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    assert client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]}).status_code == 403

    lobby = client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).json()
    assert lobby["seats"][1]["kind"] == "bot" and lobby["seats"][1]["held"] is True
    assert guest["token"] not in str(lobby) and "held_for" not in str(lobby)
    # Another player's token, or a made-up one, cannot claim the held seat.
    for token in (other["token"], host["token"], "x" * 40):
        answer = client.post(f"/api/tables/{code}/retake", json={"token": token})
        assert answer.status_code == 403 and token not in answer.text
    # While the bot holds the seat the leaver's token opens no seat (the page watches instead) …
    with pytest.raises(WebSocketDisconnect) as closed, web.connect(client, code, guest["token"]) as ws:
        ws.receive_json()
    assert closed.value.code == 4403
    taken = client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]})
    assert taken.status_code == 200 and taken.json()["seat"] == 1 and taken.json()["token"] == guest["token"]
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    assert (seats[1]["kind"], seats[1]["name"], seats[1]["held"]) == ("human", "Ben", False)
    # … and plays again with the same token.
    with web.connect(client, code, guest["token"]) as ws:
        state = web.receive_state(ws)
        assert state["you"] == 1 and len(state["view"]["hand"]) > 0
    assert client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]}).status_code == 403


def test_a_held_seat_survives_a_restart(tmp_path: Any, web: Any) -> None:
    from rummykit.web.app import create_app

    url = f"sqlite:///{tmp_path / 'held.db'}"
    settings = web.settings(bot_delay=0)
    with TestClient(create_app(url, settings=settings)) as client:
        host = web.create(client, seats=2, name="Anna")
        code = host["code"]
        guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
        client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
        client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]})
    with TestClient(create_app(url, settings=settings)) as client:
        assert client.get(f"/api/tables/{code}").json()["seats"][1]["held"] is True
        taken = client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]})
        assert taken.status_code == 200 and taken.json()["seat"] == 1


def test_connections_that_showed_the_token_play_the_retaken_seat_again(client: TestClient, web: Any) -> None:
    """A second tab (or a client that stayed connected) watched from the moment its seat was left;
    when the token takes the seat back it is told so (a new welcome) and plays it, without a reload."""
    host = web.create(client, seats=2, name="Anna")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    with web.connect(client, code, guest["token"]) as tab:
        assert web.receive_state(tab)["you"] == 1
        client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]})
        assert web.next_of(tab, "welcome")["seat"] is None
        assert client.post(f"/api/tables/{code}/retake", json={"token": guest["token"]}).status_code == 200
        assert web.next_of(tab, "welcome")["seat"] == 1
        state = web.receive_state(tab, until=lambda s: s["you"] == 1)
        assert len(state["view"]["hand"]) > 0 and not state["table"]["seats"][1]["away"]
    with web.connect(client, code, host["token"]) as other:  # a token never takes another's seat
        assert web.receive_state(other)["you"] == 0


def test_a_token_left_while_its_connection_waited_for_the_table_holds_no_seat(
    client: TestClient, web: Any
) -> None:
    """The hello's token is checked before the table's lock, its seat found under it: a leave and a
    stranger's join that came first (a slow database holding the lock) must not hand the leaver's
    connection the stranger's seat, now or when the stranger's token retakes it later."""
    import asyncio

    from rummykit.web.tables import Client, hash_token

    host = web.create(client, seats=3, name="Anna")
    code = host["code"]
    ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    table = web.table_of(client, code)

    async def scenario() -> tuple[int | None, int, int | None, int | None]:
        anna = Client(None, "198.51.100.8")
        anna.token_digest = hash_token(host["token"])
        await table.lock.acquire()
        leave = asyncio.create_task(table.leave(ben["token"]))
        join = asyncio.create_task(table.join("Mallory"))
        await asyncio.sleep(0)
        late = Client(None, "198.51.100.7")
        late.token_digest = hash_token(ben["token"])  # what the hello found valid
        connects = [asyncio.create_task(table.connect(c)) for c in (late, anna)]
        await asyncio.sleep(0)
        table.lock.release()
        await leave
        mallory, _ = await join
        await asyncio.gather(*connects)
        return late.seat, mallory, table.seat_for_token(ben["token"]), anna.seat

    seat, mallory, bens, annas = client.portal.call(scenario)  # type: ignore[union-attr]
    assert bens is None and mallory == 1 and seat is None  # it watches
    assert annas == 0  # a token that still holds its seat plays it
