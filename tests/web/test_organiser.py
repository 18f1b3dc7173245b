"""The organiser's requests (``rummykit serve --organiser``): every table with its players and
totals, whether the lobby lists it or not, and closing an open one for everybody at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rummykit.cli import app as cli_app
from rummykit.web.app import create_app
from rummykit.web.organiser import new_key

KEY = new_key()
BEARER = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture
def organised(tmp_path: Path, web: Any) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'o.db'}", settings=web.settings(bot_delay=0), organiser_key=KEY)
    with TestClient(app) as client:
        yield client


def test_the_organiser_sees_every_table_with_its_players_and_totals(organised: TestClient, web: Any) -> None:
    practice = web.create(organised, preset="german", seats=2, name="Pia", bots=[{"kind": "random"}])
    hidden = web.create(organised, preset="viennese", seats=3, name="Lena", listed=False)
    listed = web.create(organised, preset="gin", seats=2, name="Tom")
    assert [t["code"] for t in organised.get("/api/tables").json()["tables"]] == [listed["code"]]
    with web.connect(organised, practice["code"], practice["token"]) as ws:
        web.receive_state(ws)
        listing = organised.get("/api/organiser/tables", headers=BEARER).json()["tables"]
    entries = {e["code"]: e for e in listing}
    assert set(entries) == {practice["code"], hidden["code"], listed["code"]}  # unlisted ones too
    seen = entries[practice["code"]]
    assert (seen["status"], seen["listed"], seen["preset"]) == ("playing", False, "german")
    assert [(s["kind"], s["name"]) for s in seen["seats"]] == [("human", "Pia"), ("bot", "Bot 2")]
    assert seen["match"]["hands_dealt"] == 1 and seen["match"]["scores"] == [0, 0]
    assert seen["match"]["to_move"] in (0, 1) and not seen["match"]["is_over"]
    waiting = entries[hidden["code"]]
    assert (waiting["status"], waiting["listed"], waiting["match"]["to_move"]) == ("waiting", False, None)
    assert "token" not in str(entries) and "token_hash" not in str(entries)  # no seat's key is shown


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {KEY}"}, {"Authorization": KEY}],
)
def test_without_the_key_nothing_is_shown_or_closed(organised: TestClient, web: Any, headers: Any) -> None:
    table = web.create(organised, preset="german", seats=2, name="Pia", bots=[{"kind": "random"}])
    for answer in (
        organised.get("/api/organiser/tables", headers=headers),
        organised.post(f"/api/organiser/tables/{table['code']}/close", headers=headers),
    ):
        assert answer.status_code == 403
        body = answer.json()
        assert body["code"] == "not_organiser" and "Spielleitung" in body["texts"]["de"]
        assert table["code"] not in answer.text
    assert web.table_of(organised, table["code"]).status == "playing"


def test_a_server_without_the_option_has_no_organiser_s_requests(client: TestClient) -> None:
    assert client.get("/api/organiser/tables", headers=BEARER).status_code == 404


def test_closing_a_table_ends_it_for_everybody_at_it(organised: TestClient, web: Any) -> None:
    table = web.create(organised, preset="german", seats=2, name="Pia", bots=[{"kind": "random"}])
    code = table["code"]
    with web.connect(organised, code, table["token"]) as pia, web.connect(organised, code) as watcher:
        web.receive_state(pia)
        answer = organised.post(f"/api/organiser/tables/{code}/close", headers=BEARER)
        assert answer.status_code == 200 and answer.json()["status"] == "closed"
        for ws in (pia, watcher):
            state = web.receive_state(ws, until=lambda s: s["table"]["status"] == "closed")
            assert state["table"]["status"] == "closed"
            told = web.next_of(ws, "error")
            assert told["code"] == "closed_by_organiser" and "Spielleitung" in told["texts"]["de"]
    assert web.table_of(organised, code).status == "closed"
    again = organised.post(f"/api/organiser/tables/{code}/close", headers=BEARER)
    assert again.status_code == 409 and again.json()["code"] == "table_status"
    assert organised.post("/api/organiser/tables/NOSUCH/close", headers=BEARER).status_code == 404
    # The closed table is listed after the open ones while the server holds it.
    other = web.create(organised, preset="gin", seats=2, name="Tom")
    codes = [e["code"] for e in organised.get("/api/organiser/tables", headers=BEARER).json()["tables"]]
    assert codes == [other["code"], code]


def test_a_waiting_table_can_be_closed_too(organised: TestClient, web: Any) -> None:
    table = web.create(organised, preset="viennese", seats=3, name="Lena")
    answer = organised.post(f"/api/organiser/tables/{table['code']}/close", headers=BEARER)
    assert answer.status_code == 200 and answer.json()["status"] == "closed"
    joined = organised.post(f"/api/tables/{table['code']}/join", json={"name": "Max"})
    assert joined.status_code == 409


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_refuses_the_organiser_s_page_with_a_shared_database(workers: str) -> None:
    pytest.importorskip("uvicorn")
    url = "postgresql+psycopg://nobody@127.0.0.1:1/x"
    args = ["serve", "--organiser", "--workers", workers, "--database-url", url]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 2
    assert "error: --organiser: the organiser's page lists the tables of one server process" in result.output
