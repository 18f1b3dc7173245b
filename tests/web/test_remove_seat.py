"""The host frees a seat a person took at the waiting table (a stranger from the lobby, a pupil at the
wrong table): only the host, only before the start, only a person's seat."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def test_the_host_removes_a_person_who_took_a_seat_before_the_start(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="german", seats=3, name="Frau Meyer")
    code = host["code"]
    mallory = client.post(f"/api/tables/{code}/join", json={"name": "Mallory"}).json()
    bea = client.post(f"/api/tables/{code}/join", json={"name": "Bea"}).json()
    with web.connect(client, code, mallory["token"]) as ws:
        web.receive_state(ws)
        refused = client.post(f"/api/tables/{code}/remove", json={"token": mallory["token"], "seat": 2})
        assert refused.status_code == 403 and refused.json()["code"] == "not_host_remove"
        assert "Nur der Gastgeber" in refused.json()["texts"]["de"]
        removed = client.post(f"/api/tables/{code}/remove", json={"token": host["token"], "seat": 1})
        assert removed.status_code == 200
        assert [s["kind"] for s in removed.json()["seats"]] == ["human", "open", "human"]
        told = web.next_of(ws, "error", limit=5)
        assert told["code"] == "removed" and "watch" in told["message"] and "schaust" in told["texts"]["de"]
        assert web.next_of(ws, "welcome", limit=5)["seat"] is None
        state = web.receive_state(ws, limit=5)
        assert state["you"] is None and state["table"]["seats"][1]["kind"] == "open"
    # The token holds nothing any more; the seat is free for somebody else.
    left = client.post(f"/api/tables/{code}/leave", json={"token": mallory["token"]})
    assert left.status_code == 403 and left.json()["code"] == "unknown_token"
    again = client.post(f"/api/tables/{code}/remove", json={"token": host["token"], "seat": 1})
    assert again.status_code == 409 and again.json()["code"] == "no_person"
    own = client.post(f"/api/tables/{code}/remove", json={"token": host["token"], "seat": 0})
    assert own.status_code == 409 and own.json()["code"] == "no_person"
    assert client.post(f"/api/tables/{code}/join", json={"name": "Carl"}).json()["seat"] == 1
    # The host saw Mallory there: Carl, who took the seat since, is not removed in Mallory's place.
    seen = {"token": host["token"], "seat": 1, "name": "Mallory"}
    stale = client.post(f"/api/tables/{code}/remove", json=seen)
    assert stale.status_code == 409 and stale.json()["code"] == "lobby_changed"
    # Once play began, a seat is its player's.
    assert client.post(f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200
    late = client.post(f"/api/tables/{code}/remove", json={"token": host["token"], "seat": 2})
    assert late.status_code == 409 and late.json()["code"] == "table_status"
    assert client.get(f"/api/tables/{code}").json()["seats"][2]["name"] == "Bea" and bea["seat"] == 2
