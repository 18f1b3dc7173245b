"""Tables the organiser makes from the organiser's page (``rummykit serve --organiser``) for others,
holding no seat: pupils join them as any table, the organiser starts them (one, or every waiting
one) and takes a seat back; nobody at such a table can, and seat 1 is a player's like any other.
They count against the server's caps and the organiser's own, not against the address's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web import organiser
from rummykit.web.app import create_app
from rummykit.web.organiser import new_key
from tests.web.test_ended_tables import finish_gin_hand

KEY = new_key()
BEARER = {"Authorization": f"Bearer {KEY}"}


def organiser_app(url: str, web: Any, key: str = KEY, **settings: Any) -> Any:
    return create_app(url, settings=web.settings(bot_delay=0, **settings), organiser_key=key)


@pytest.fixture
def organised(tmp_path: Path, web: Any) -> Iterator[TestClient]:
    with TestClient(organiser_app(f"sqlite:///{tmp_path / 'o.db'}", web)) as client:
        yield client


def make(client: TestClient, headers: dict[str, str] = BEARER, **spec: Any) -> dict[str, Any]:
    """A table the organiser makes: its organiser's entry."""
    answer = client.post("/api/organiser/tables", json=spec, headers=headers)
    assert answer.status_code == 201, answer.text
    entry: dict[str, Any] = answer.json()
    return entry


def join(client: TestClient, code: str, name: str) -> dict[str, Any]:
    answer = client.post(f"/api/tables/{code}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    grant: dict[str, Any] = answer.json()
    return grant


def organiser_post(client: TestClient, path: str, body: Any = None) -> Any:
    if body is None:
        return client.post(path, headers=BEARER)
    return client.post(path, json=body, headers=BEARER)


GIN = {"preset": "gin", "seats": 2, "seed": 4, "bots": [{"kind": "random"}]}
"""A table the organiser makes for one pupil: a gin hand against a random bot, short to play out."""


def finished(client: TestClient, web: Any, *names: str) -> list[tuple[str, dict[str, Any]]]:
    """One table of :data:`GIN` per pupil of ``names`` (the organiser's only ones), each started and its
    hand played out by its pupil, whose connection is then closed: (code, the pupil's grant) each."""
    codes = [make(client, **GIN)["code"] for _ in names]
    grants = [join(client, code, name) for code, name in zip(codes, names, strict=True)]
    assert organiser_post(client, "/api/organiser/start").json()["started"] == codes
    for code, grant in zip(codes, grants, strict=True):
        with web.connect(client, code, grant["token"]) as ws:
            assert finish_gin_hand(ws, web)["match"]["is_over"]
    return list(zip(codes, grants, strict=True))


def test_the_organiser_makes_a_table_without_a_seat_and_pupils_join_it(organised: TestClient) -> None:
    bots = [{"kind": "greedy", "level": "easy"}]
    entry = make(organised, preset="german", seats=4, bots=bots, overrides={"opening_min_points": 24})
    code = entry["code"]
    assert entry["organised"] is True and entry["status"] == "waiting"
    assert entry["listed"] is False  # by the code on the board only: strangers in the lobby do not see it
    assert code not in {t["code"] for t in organised.get("/api/tables").json()["tables"]}
    assert [s["kind"] for s in entry["seats"]] == ["open", "open", "open", "bot"]
    assert entry["preset"] == "german" and "24" in entry["rules"]
    listed = make(organised, preset="german", seats=2, listed=True)  # unless the organiser lists it
    assert listed["listed"] is True
    assert listed["code"] in {t["code"] for t in organised.get("/api/tables").json()["tables"]}
    # Nobody holds a seat for the organiser: the pupils take seat 1 onwards, from the link or the code.
    assert organised.get(f"/api/tables/{code}").json()["organised"] is True
    assert [join(organised, code, name)["seat"] for name in ("Ada", "Ben")] == [0, 1]
    listing = {e["code"]: e for e in organised.get("/api/organiser/tables", headers=BEARER).json()["tables"]}
    assert [s["name"] for s in listing[code]["seats"]] == ["Ada", "Ben", "", "Bot 4"]
    # The create request's checks hold as in the lobby.
    for spec, error in (
        ({"preset": "gin", "seats": 2, "bots": [{"kind": "random"}] * 2}, "too_many_bots"),
        ({"preset": "german", "bots": [{"kind": "policy"}]}, "unknown_bot"),
        ({"preset": "german", "overrides": {"opening_min_points": -3}}, "rules"),
    ):
        refused = organised.post("/api/organiser/tables", json=spec, headers=BEARER)
        assert refused.status_code == 400 and refused.json()["code"] == error, refused.text
    assert organised.post("/api/organiser/tables", json={"seats": 9}, headers=BEARER).status_code == 422


def test_the_organiser_starts_and_no_pupil_can(organised: TestClient, web: Any) -> None:
    code = make(organised, preset="german", seats=3)["code"]
    ada, ben = join(organised, code, "Ada"), join(organised, code, "Ben")
    for token in (ada["token"], ben["token"]):
        refused = organised.post(f"/api/tables/{code}/start", json={"token": token})
        assert refused.status_code == 403 and refused.json()["code"] == "organiser_starts"
        assert "Spielleitung" in refused.json()["texts"]["de"]
        removing = organised.post(f"/api/tables/{code}/remove", json={"token": token, "seat": 1})
        assert removing.status_code == 403 and removing.json()["code"] == "organiser_removes"
    assert web.table_of(organised, code).status == "waiting"
    with web.connect(organised, code, ada["token"]) as ws:
        web.receive_state(ws)
        started = organiser_post(organised, f"/api/organiser/tables/{code}/start")
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "playing"
        assert [s["kind"] for s in started.json()["seats"]] == ["human", "human", "bot"]  # bots fill
        state = web.receive_state(ws, until=lambda s: s["table"]["status"] == "playing")
        assert state["you"] == 0 and state["view"] is not None
    again = organiser_post(organised, f"/api/organiser/tables/{code}/start")
    assert again.status_code == 409 and again.json()["code"] == "table_status"


def test_a_pupil_leaving_seat_1_frees_it_and_the_table_stays(organised: TestClient, web: Any) -> None:
    code = make(organised, preset="german", seats=2)["code"]
    ada = join(organised, code, "Ada")
    left = organised.post(f"/api/tables/{code}/leave", json={"token": ada["token"]})
    assert left.status_code == 200 and left.json()["status"] == "waiting"
    assert [s["kind"] for s in left.json()["seats"]] == ["open", "open"]
    assert join(organised, code, "Ben")["seat"] == 0  # seat 1 is free again for the next pupil
    assert organised.post(f"/api/tables/{code}/start", json={"token": ada["token"]}).status_code == 403


def test_the_organiser_takes_a_seat_back(organised: TestClient, web: Any) -> None:
    code = make(organised, preset="german", seats=3)["code"]
    ada, ben = join(organised, code, "Ada"), join(organised, code, "Ben")
    with web.connect(organised, code, ada["token"]) as ws:
        web.receive_state(ws)
        stale = organiser_post(organised, f"/api/organiser/tables/{code}/remove", {"seat": 0, "name": "Eve"})
        assert stale.status_code == 409 and stale.json()["code"] == "lobby_changed"
        taken = organiser_post(organised, f"/api/organiser/tables/{code}/remove", {"seat": 0, "name": "Ada"})
        assert taken.status_code == 200, taken.text
        assert [s["kind"] for s in taken.json()["seats"]] == ["open", "human", "open"]
        told = web.next_of(ws, "error")
        assert told["code"] == "removed" and "organiser" in told["message"]
        assert "Spielleitung" in told["texts"]["de"]
        assert web.next_of(ws, "welcome")["seat"] is None  # the connection watches
    empty = organiser_post(organised, f"/api/organiser/tables/{code}/remove", {"seat": 2})
    assert empty.status_code == 409 and empty.json()["code"] == "no_person"
    gone = organised.post(f"/api/tables/{code}/leave", json={"token": ada["token"]})
    assert gone.status_code == 403  # the token holds nothing any more
    assert organised.post(f"/api/tables/{code}/leave", json={"token": ben["token"]}).status_code == 200


def test_start_all_starts_the_waiting_tables_someone_sits_at(organised: TestClient, web: Any) -> None:
    first, second, empty = (make(organised, preset="gin", seats=2)["code"] for _ in range(3))
    join(organised, first, "Ada")
    join(organised, second, "Ben")
    host = web.create(organised, preset="german", seats=2, name="Hanna")
    answer = organiser_post(organised, "/api/organiser/start")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"started": [first, second], "waiting": [empty]}  # in the order made
    statuses = {c: web.table_of(organised, c).status for c in (first, second, empty, host["code"])}
    assert statuses == {first: "playing", second: "playing", empty: "waiting", host["code"]: "waiting"}
    nobody = organiser_post(organised, f"/api/organiser/tables/{empty}/start")
    assert nobody.status_code == 409 and nobody.json()["code"] == "nobody_seated"
    assert "niemand" in nobody.json()["texts"]["de"]
    # A table a person made keeps its host: the organiser neither starts it nor takes its seats.
    for path, body in ((f"/api/organiser/tables/{host['code']}/start", None),
                       (f"/api/organiser/tables/{host['code']}/remove", {"seat": 0})):  # fmt: skip
        refused = organiser_post(organised, path, body)
        assert refused.status_code == 409 and refused.json()["code"] == "has_host"


def test_the_organiser_s_list_keeps_the_tables_in_the_order_they_were_made(organised: TestClient) -> None:
    made = [make(organised, preset="german", seats=2)["code"] for _ in range(7)]
    join(organised, made[3], "Ada")
    assert organiser_post(organised, f"/api/organiser/tables/{made[3]}/start").status_code == 200
    listed = organised.get("/api/organiser/tables", headers=BEARER).json()["tables"]
    assert [entry["code"] for entry in listed] == made  # a class's batch stays together, not by code


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY}])
def test_without_the_key_no_table_is_made_started_or_emptied(
    organised: TestClient, web: Any, headers: dict[str, str]
) -> None:
    code = make(organised, preset="german", seats=2)["code"]
    join(organised, code, "Ada")
    for answer in (
        organised.post("/api/organiser/tables", json={"preset": "gin"}, headers=headers),
        organised.post("/api/organiser/tables", json={"seats": 99}, headers=headers),  # the key comes first
        organised.post("/api/organiser/tables", headers=headers),
        organised.post(f"/api/organiser/tables/{code}/start", headers=headers),
        organised.post("/api/organiser/start", headers=headers),
        organised.post("/api/organiser/rematch", headers=headers),
        organised.post(f"/api/organiser/tables/{code}/remove", json={"seat": 0}, headers=headers),
    ):
        assert answer.status_code == 403, answer.text
        assert answer.json()["code"] == "not_organiser" and code not in answer.text
    assert len(organised.app.state.manager.tables) == 1  # type: ignore[attr-defined]
    assert web.table_of(organised, code).status == "waiting"
    assert web.table_of(organised, code).seats[0].kind == "human"


def test_the_organiser_s_tables_count_against_the_server_not_the_address(sqlite_url: str, web: Any) -> None:
    """A class shares the school's address, whose caps are five tables and five seats at others'
    waiting tables: the organiser's tables and the pupils' seats there count for neither. The
    server's cap counts every table, and the organiser's own bounds what the key may open."""
    caps = {"max_tables": 6, "max_organiser_tables": 4}
    caps.update(max_tables_per_address=1, max_seats_per_address=1)
    with TestClient(organiser_app(sqlite_url, web, **caps)) as client:
        codes = [make(client, preset="gin", seats=2)["code"] for _ in range(4)]
        for i, code in enumerate(codes):  # four pupils behind the one address
            assert join(client, code, f"Pupil {i}")["seat"] == 0
        refused = client.post("/api/organiser/tables", json={"preset": "gin"}, headers=BEARER)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_organiser_tables"
        assert "Spielleitung" in refused.json()["texts"]["de"] and refused.headers["Retry-After"]
        # The address's own cap is untouched by the organiser's tables: one table of its own.
        web.create(client, preset="german", seats=3, name="Hanna")
        assert client.post("/api/tables", json={"preset": "gin"}).json()["code"] == "too_many_tables"
        # Closing one frees the organiser's share; the server's cap still counts every table.
        assert organiser_post(client, f"/api/organiser/tables/{codes[0]}/close").status_code == 200
        make(client, preset="gin", seats=2)
    full = organiser_app(sqlite_url, web, max_tables=5)
    with TestClient(full) as client:  # after a restart: four organiser's tables and Hanna's are open
        refused = client.post("/api/organiser/tables", json={"preset": "gin"}, headers=BEARER)
        assert refused.status_code == 429 and refused.json()["code"] == "server_full"


def test_a_restart_keeps_the_tables_the_organiser_s_and_playable(sqlite_url: str, web: Any) -> None:
    with TestClient(organiser_app(sqlite_url, web)) as client:
        code = make(client, preset="gin", seats=2, seed=4, bots=[{"kind": "random"}])["code"]
        ada = join(client, code, "Ada")
    other_key = new_key()  # a new run of the server makes a new key, which manages the tables made before
    with TestClient(organiser_app(sqlite_url, web, key=other_key)) as client:
        assert client.get(f"/api/tables/{code}").json()["organised"] is True
        refused = client.post(f"/api/tables/{code}/start", json={"token": ada["token"]})
        assert refused.status_code == 403 and refused.json()["code"] == "organiser_starts"
        assert client.post(f"/api/organiser/tables/{code}/start", headers=BEARER).status_code == 403
        new_bearer = {"Authorization": f"Bearer {other_key}"}
        started = client.post(f"/api/organiser/tables/{code}/start", headers=new_bearer)
        assert started.status_code == 200 and started.json()["status"] == "playing"
        with web.connect(client, code, ada["token"]) as ws:
            state = finish_gin_hand(ws, web)
            assert state["match"]["is_over"]
        # The pupil at seat 1 is no host: the organiser makes the next tables.
        rematch = client.post(f"/api/tables/{code}/rematch", json={"token": ada["token"]})
        assert rematch.status_code == 403 and rematch.json()["code"] == "organised_rematch"


def test_an_organiser_s_waiting_table_lasts_while_the_page_is_open(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'idle.db'}"
    with TestClient(organiser_app(url, web, idle_table_seconds=0.4)) as client:
        code = make(client, preset="german", seats=2)["code"]
        client.get("/api/organiser/tables", headers=BEARER)  # the page asks: it is open
        time.sleep(1.0)
        assert web.table_of(client, code).status == "waiting"
        client.app.state.manager.organiser_seen = float("-inf")  # type: ignore[attr-defined]  # page closed
        deadline = time.monotonic() + 5
        while web.table_of(client, code).status == "waiting" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert web.table_of(client, code).status == "expired"


def test_the_organiser_labels_a_table_and_everybody_at_it_sees_the_label(sqlite_url: str, web: Any) -> None:
    """A teacher tells a class "Group A" and "Group B", not two codes: the organiser's label is in the
    table's entry (the organiser's list, the lobby's lookup, every state message), kept over a
    restart, without its surrounding spaces; no label is ''."""
    with TestClient(organiser_app(sqlite_url, web)) as client:
        entry = make(client, preset="gin", seats=2, label="  Gruppe A – Fenster  ")
        code = entry["code"]
        assert entry["label"] == "Gruppe A – Fenster"
        assert make(client, preset="gin", seats=2)["label"] == ""
        tables = client.get("/api/organiser/tables", headers=BEARER).json()["tables"]
        listed = {e["code"]: e["label"] for e in tables}
        assert listed[code] == "Gruppe A – Fenster"
        ada = join(client, code, "Ada")
        with web.connect(client, code, ada["token"]) as ws:
            assert web.receive_state(ws)["table"]["label"] == "Gruppe A – Fenster"
    with TestClient(organiser_app(sqlite_url, web)) as client:
        assert client.get(f"/api/tables/{code}").json()["label"] == "Gruppe A – Fenster"


@pytest.mark.parametrize(
    ("label", "code", "german"),
    [
        ("G" * 25, "label_too_long", "höchstens 24 Zeichen"),
        ("Gruppe\tA", "label_not_printable", "nur sichtbare Zeichen"),
        ("Gruppe\nA", "label_not_printable", "nur sichtbare Zeichen"),
        ("Gruppe \u202eA", "label_not_printable", "nur sichtbare Zeichen"),  # a right-to-left override
        ("Gruppe \u200bA", "label_not_printable", "nur sichtbare Zeichen"),  # a zero-width space
        ("\u3164\u3164", "label_not_printable", "nur sichtbare Zeichen"),  # Hangul fillers: looks empty
        ("A" + "\u0489" * 5, "label_not_printable", "nur sichtbare Zeichen"),  # marks piled on one letter
    ],
)
def test_a_label_too_long_or_with_an_invisible_character_is_refused(
    organised: TestClient, label: str, code: str, german: str
) -> None:
    refused = organised.post("/api/organiser/tables", json={"preset": "gin", "label": label}, headers=BEARER)
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["code"] == code and german in body["texts"]["de"], body
    assert organised.get("/api/organiser/tables", headers=BEARER).json()["tables"] == []
    assert make(organised, preset="gin", label="G" * 24)["label"] == "G" * 24  # the longest there is


def test_the_organiser_changes_or_clears_a_table_s_label_and_only_the_organiser(
    sqlite_url: str, web: Any
) -> None:
    """A teacher who typed the wrong group renames the table: checked as at its making, stored (a
    restart keeps it), and seen at once by everybody at it and in the lobby. No pupil at it, nor
    anybody without the key, can; a player's own table gets none; a closed table is not renamed."""
    with TestClient(organiser_app(sqlite_url, web)) as client:
        code = make(client, preset="gin", seats=2, label="Gruppe A", listed=True)["code"]
        ada = join(client, code, "Ada")
        path = f"/api/organiser/tables/{code}/label"
        with web.connect(client, code, ada["token"]) as ws:
            web.receive_state(ws)
            renamed = organiser_post(client, path, {"label": "  Gruppe B  "})
            assert renamed.status_code == 200 and renamed.json()["label"] == "Gruppe B"
            assert web.receive_state(ws)["table"]["label"] == "Gruppe B"
        lobby = {t["code"]: t for t in client.get("/api/tables").json()["tables"]}
        assert lobby[code]["label"] == "Gruppe B"
        for label, error in (("G" * 25, "label_too_long"), ("B\u200bB", "label_not_printable")):
            refused = organiser_post(client, path, {"label": label})
            assert refused.status_code == 422 and refused.json()["code"] == error, refused.text
        for headers in ({}, {"Authorization": f"Bearer {ada['token']}"}):  # a pupil, a stranger
            refused = client.post(path, json={"label": "Gratis Chips!"}, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
        own = web.create(client, preset="gin", name="Pia")["code"]
        refused = organiser_post(client, f"/api/organiser/tables/{own}/label", {"label": "Pia's"})
        assert refused.status_code == 409 and refused.json()["code"] == "has_host"
        assert client.get(f"/api/tables/{own}").json()["label"] == ""
        assert client.get(f"/api/tables/{code}").json()["label"] == "Gruppe B"
    with TestClient(organiser_app(sqlite_url, web)) as client:
        assert client.get(f"/api/tables/{code}").json()["label"] == "Gruppe B"  # stored
        cleared = organiser_post(client, f"/api/organiser/tables/{code}/label", {"label": ""})
        assert cleared.status_code == 200 and cleared.json()["label"] == ""
        assert organiser_post(client, f"/api/organiser/tables/{code}/close").status_code == 200
        refused = organiser_post(client, f"/api/organiser/tables/{code}/label", {"label": "Gruppe C"})
        assert refused.status_code == 409 and refused.json()["code"] == "table_status"


def test_only_the_organiser_labels_a_table(organised: TestClient) -> None:
    """A label in the public lobby would be anybody's words beside a code: a player's own table has none."""
    refused = organised.post("/api/tables", json={"name": "Pia", "preset": "gin", "label": "Gratis Chips!"})
    assert refused.status_code == 400 and refused.json()["code"] == "label_organiser_only"
    assert "Spielleitung" in refused.json()["texts"]["de"]
    made = organised.post("/api/tables", json={"name": "Pia", "preset": "gin", "label": " "})
    assert made.status_code == 201  # spaces are no label
    assert organised.get(f"/api/tables/{made.json()['code']}").json()["label"] == ""


def test_a_label_at_a_player_s_table_is_refused_however_full_the_server_is(tmp_path: Path, web: Any) -> None:
    """An invalid request is refused as invalid: the answer does not depend on the server's load (a full
    server answered 429 ``server_full`` to it, and 400 once a table had closed)."""
    with TestClient(organiser_app(f"sqlite:///{tmp_path / 'o.db'}", web, max_tables=1)) as client:
        web.create(client, preset="gin", name="Hanna")
        assert client.post("/api/tables", json={"preset": "gin"}).json()["code"] == "server_full"
        refused = client.post("/api/tables", json={"name": "Pia", "preset": "gin", "label": "Gratis Chips!"})
        assert refused.status_code == 400 and refused.json()["code"] == "label_organiser_only", refused.text


def test_the_organiser_opens_the_rematch_of_every_finished_table(organised: TestClient, web: Any) -> None:
    """A class plays on after its first match: one press opens the rematch of every finished table
    of the organiser's (none of one still waiting or playing), with the same game, bots and label;
    a pupil still at the old table is moved to their seat and a full table starts, a pupil who closed
    the page keeps their seat and the table waits for the organiser. Each table has one rematch."""
    gin = {"preset": "gin", "seats": 2, "seed": 4, "bots": [{"kind": "random"}]}
    first, second = (make(organised, **gin, label=f"Gruppe {x}")["code"] for x in "AB")
    playing = make(organised, **gin, label="Gruppe C")["code"]
    ada, ben = join(organised, first, "Ada"), join(organised, second, "Ben")
    join(organised, playing, "Cem")
    assert organiser_post(organised, "/api/organiser/start").json()["started"] == [first, second, playing]
    with web.connect(organised, second, ben["token"]) as ws:
        assert finish_gin_hand(ws, web)["match"]["is_over"]  # Ben closes the page afterwards
    with web.connect(organised, first, ada["token"]) as ws:
        assert finish_gin_hand(ws, web)["match"]["is_over"]
        answer = organiser_post(organised, "/api/organiser/rematch")
        assert answer.status_code == 200, answer.text
        rematches = answer.json()["rematches"]
        assert [r["from"] for r in rematches] == [first, second]  # not Cem's table, still playing
        moved = web.next_of(ws, "rematch")
    new_first, new_second = (r["code"] for r in rematches)
    assert moved["code"] == new_first and moved["seat"] == 0
    # The rematch kept for whoever asks again carries no host's token: seat 1's is Ada's alone.
    kept = web.table_of(organised, first).rematch.result()
    assert kept[0].code == new_first and kept[2] == "" and moved["token"] not in kept
    with web.connect(organised, new_first, moved["token"]) as ws:
        state = web.receive_state(ws)
        assert state["you"] == 0 and state["table"]["status"] == "playing"  # full: it starts at once
        assert state["table"]["label"] == "Gruppe A" and state["table"]["organised"] is True
        assert [s["kind"] for s in state["table"]["seats"]] == ["human", "bot"]
    waiting = organised.get(f"/api/tables/{new_second}").json()
    assert waiting["status"] == "waiting" and waiting["label"] == "Gruppe B"
    assert [(s["kind"], s["name"]) for s in waiting["seats"]] == [("human", "Ben"), ("bot", "Bot 2")]
    listed = organiser_post(organised, "/api/organiser/rematch").json()
    assert listed == {"rematches": []}  # one rematch each
    tables = {e["code"]: e for e in organised.get("/api/organiser/tables", headers=BEARER).json()["tables"]}
    assert tables[first]["rematch"] == new_first and tables[second]["rematch"] == new_second
    assert tables[playing]["rematch"] is None
    # A pupil at the old table still cannot open one (no host there).
    refused = organised.post(f"/api/tables/{first}/rematch", json={"token": ada["token"]})
    assert refused.status_code == 403 and refused.json()["code"] == "organised_rematch"


def test_two_presses_at_once_open_each_rematch_once(organised: TestClient, web: Any) -> None:
    """A double click on "Rematch all": the second press found the tables the first was opening and
    skipped them, so each answered part of the list (and the page said fewer rematches); now both
    list every one, and each table still has one rematch."""
    codes = [code for code, _ in finished(organised, web, "Pupil 0", "Pupil 1", "Pupil 2")]
    tables = [web.table_of(organised, code) for code in codes]

    async def both() -> list[dict[str, list[dict[str, str]]]]:
        return list(await asyncio.gather(organiser.rematch_all(tables), organiser.rematch_all(tables)))

    first, second = organised.portal.call(both)
    assert [r["from"] for r in first["rematches"]] == codes
    assert first == second
    assert len({r["code"] for r in first["rematches"]}) == 3
    assert organiser_post(organised, "/api/organiser/rematch").json() == {"rematches": []}


def test_a_pupil_away_at_the_organiser_s_rematch_is_given_their_seat_on_coming_back(
    organised: TestClient, web: Any
) -> None:
    """A tablet that slept through the organiser's press: its pupil's seat at the rematch is kept
    under their name (not open for anybody), the table waits for them, and reconnecting to the old
    table tells them the seat and its token, which plays it."""
    [(code, ben)] = finished(organised, web, "Ben")  # then the tablet sleeps
    new = organiser_post(organised, "/api/organiser/rematch").json()["rematches"][0]["code"]
    kept = organised.get(f"/api/tables/{new}").json()
    assert kept["status"] == "waiting"  # not started with its only person away
    assert [(s["kind"], s["name"], s["connected"]) for s in kept["seats"]] == [
        ("human", "Ben", False),
        ("bot", "Bot 2", False),
    ]
    refused = organised.post(f"/api/tables/{new}/join", json={"name": "Stranger"})
    assert refused.status_code == 409 and refused.json()["code"] == "no_free_seat"  # the seat is Ben's
    with web.connect(organised, code, ben["token"]) as ws:  # Ben opens the old table again
        told = web.next_of(ws, "rematch")
    assert told["code"] == new and told["offer"] is True and told["seat"] == 0
    with web.connect(organised, new, told["token"]) as ws:
        assert web.receive_state(ws)["you"] == 0
        started = organiser_post(organised, f"/api/organiser/tables/{new}/start")
        assert started.status_code == 200 and started.json()["status"] == "playing"


def test_a_pupil_who_left_the_finished_table_gets_no_seat_kept_at_the_rematch(
    organised: TestClient, web: Any
) -> None:
    """A pupil who left the finished table (their token holds nothing there) was kept a seat at the
    rematch all the same, which nobody could ever be given: the table waited for nobody. The seat is
    open, as for a person who left during the match."""
    [(code, ben)] = finished(organised, web, "Ben")
    left = organised.post(f"/api/tables/{code}/leave", json={"token": ben["token"]})
    assert left.status_code == 200, left.text
    new = organiser_post(organised, "/api/organiser/rematch").json()["rematches"][0]["code"]
    seats = organised.get(f"/api/tables/{new}").json()["seats"]
    assert [s["kind"] for s in seats] == ["open", "bot"]


def test_a_kept_seat_the_organiser_freed_is_not_offered_on_coming_back(
    organised: TestClient, web: Any
) -> None:
    """The organiser frees the seat kept for a pupil who went home, and another takes it: the pupil
    reopening the old table was still told that seat with its dead token, and their page went there
    to be refused. They are told where the rematch is, with no seat."""
    [(code, ben)] = finished(organised, web, "Ben")
    new = organiser_post(organised, "/api/organiser/rematch").json()["rematches"][0]["code"]
    freed = organiser_post(organised, f"/api/organiser/tables/{new}/remove", {"seat": 0, "name": "Ben"})
    assert freed.status_code == 200, freed.text
    assert join(organised, new, "Cem")["seat"] == 0
    with web.connect(organised, code, ben["token"]) as ws:
        told = web.next_of(ws, "rematch")
    assert told == {"type": "rematch", "code": new, "offer": True}


def test_a_rematch_refused_by_the_organiser_s_limit_stops_there_and_is_opened_later(
    tmp_path: Path, web: Any
) -> None:
    """The rematches opened before the refusal stay (listed with their tables); the table refused has
    none, and the next press, once a table is closed, opens it."""
    with TestClient(organiser_app(f"sqlite:///{tmp_path / 'o.db'}", web, max_organiser_tables=2)) as client:
        codes = [code for code, _ in finished(client, web, "Pupil 0", "Pupil 1")]
        waiting = make(client, **GIN)["code"]
        refused = organiser_post(client, "/api/organiser/rematch")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_organiser_tables"
        tables = {e["code"]: e for e in client.get("/api/organiser/tables", headers=BEARER).json()["tables"]}
        assert tables[codes[0]]["rematch"] is not None and tables[codes[1]]["rematch"] is None
        assert organiser_post(client, f"/api/organiser/tables/{waiting}/close").status_code == 200
        again = organiser_post(client, "/api/organiser/rematch").json()["rematches"]
        assert [r["from"] for r in again] == [codes[1]]
