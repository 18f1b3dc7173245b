"""Which tables the lobby lists: every open table, except a practice table (every other seat a bot)
and one its creator keeps off the list (``"listed": false``); both are found by their code, and a
rematch keeps the choice."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.web.app import create_app
from tests.web.test_ended_tables import finish_gin_hand


def listed(client: TestClient) -> set[str]:
    return {t["code"] for t in client.get("/api/tables").json()["tables"]}


def test_practice_and_link_only_tables_are_not_listed_but_found_by_code(client: TestClient, web: Any) -> None:
    open_seats = web.create(client, preset="german", seats=3, bots=[{"kind": "greedy"}])
    practice = web.create(client, preset="german", seats=3, bots=[{"kind": "greedy"}] * 2)
    link_only = web.create(client, preset="german", seats=3, listed=False)
    shown_practice = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], listed=True)
    assert listed(client) == {open_seats["code"], shown_practice["code"]}
    for grant, flag in ((practice, False), (link_only, False), (open_seats, True)):
        entry = client.get(f"/api/tables/{grant['code']}").json()
        assert entry["listed"] is flag and entry["status"] in ("waiting", "playing")
    # The link still seats a person at a table kept off the list.
    joined = client.post(f"/api/tables/{link_only['code']}/join", json={"name": "Bea"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_the_choice_survives_a_restart_and_a_rematch(sqlite_url: str, web: Any) -> None:
    settings = web.settings(bot_delay=0)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        hidden = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], seed=4)
        shown = web.create(client, preset="german", seats=3)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        assert listed(client) == {shown["code"]}
        with web.connect(client, hidden["code"], hidden["token"]) as anna:
            finish_gin_hand(anna, web)
        rematch = client.post(f"/api/tables/{hidden['code']}/rematch", json={"token": hidden["token"]})
        assert rematch.status_code == 201
        assert client.get(f"/api/tables/{rematch.json()['code']}").json()["listed"] is False
        assert listed(client) == {shown["code"]}


def test_a_rematch_of_a_listed_table_left_to_bots_is_a_practice_table(client: TestClient, web: Any) -> None:
    shown = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], seed=4, listed=True)
    assert listed(client) == {shown["code"]}
    with web.connect(client, shown["code"], shown["token"]) as anna:
        finish_gin_hand(anna, web)
    rematch = client.post(f"/api/tables/{shown['code']}/rematch", json={"token": shown["token"]}).json()
    assert client.get(f"/api/tables/{rematch['code']}").json()["listed"] is False
    assert listed(client) == set()
