"""A table's game record (``GET /api/tables/{code}/record``): refused while the match can still be
played (it holds every hidden card), then a file that ``rummykit replay`` steps through, with every
deal and reshuffle of a table dealt from its secret and no player's name."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import rummykit as rk
from rummykit.record import DEALT_VERSION, VERSION
from tests.web.test_ended_tables import finish_gin_hand


def test_a_table_s_record_is_handed_out_once_its_match_is_over(client: TestClient, web: Any) -> None:
    one_hand = {"match_end": "single_hand"}  # unseeded: a short match, whatever is dealt
    bots = [{"kind": "greedy"}]
    host = web.create(client, preset="gin", seats=2, name="Anna", bots=bots, overrides=one_hand)
    code = host["code"]
    with web.connect(client, code, host["token"]) as anna:
        first = web.table_of(client, code).match.round.view(0).hand  # the hand dealt to the host
        early = client.get(f"/api/tables/{code}/record")
        assert early.status_code == 409 and early.json()["code"] == "match_not_over"
        assert "every hidden card" in early.json()["detail"]
        assert "noch nicht beendet" in early.json()["texts"]["de"]
        final = finish_gin_hand(anna, web)
    response = client.get(f"/api/tables/{code}/record")
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == f'attachment; filename="rummykit-{code}.json"'
    assert "Anna" not in response.text
    data = response.json()
    assert data["version"] == DEALT_VERSION and data["kind"] == "match" and data["seed"] == 0
    # The first deal is the one the host was dealt, and the replay ends where the table ended.
    record = rk.Record.from_dict(data)
    assert record.deals is not None and len(record.deals) == len(final["match"]["hands"] or [0])
    match = record.replay_match()
    assert match.is_over and list(match.totals) == final["match"]["totals"]
    assert list(next(record.states()).hands[0]) == list(first)


def test_a_seeded_table_s_record_is_its_seed_and_moves(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="gin", seats=2, seed=4, bots=[{"kind": "random"}])
    with web.connect(client, host["code"], host["token"]) as anna:
        final = finish_gin_hand(anna, web)
    data = client.get(f"/api/tables/{host['code']}/record").json()
    assert data["version"] == VERSION and "deals" not in data
    assert list(rk.Record.from_dict(data).replay_match().totals) == final["match"]["totals"]


def test_a_waiting_table_has_no_record_and_an_unknown_code_none(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="german", seats=3)
    waiting = client.get(f"/api/tables/{host['code']}/record")
    assert waiting.status_code == 409 and waiting.json()["code"] == "match_not_over"
    assert client.get("/api/tables/ZZZZZZ/record").json()["code"] == "no_table"
