"""The lobby API: page, presets, create / join / start / leave, validation and limits."""

from __future__ import annotations

import math
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<script src="/static/app.js"></script>' in page.text
    for name in ("app.js", "cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/api/health").json()["ok"] is True
    # Monitors ask with HEAD (it answered 405): the headers of a GET, no body.
    for path in ("/", "/api/health"):
        head = client.head(path)
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers.get("content-security-policy") == page.headers.get("content-security-policy")


def test_presets_and_bots(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert {"german", "viennese"} <= set(data["presets"])
    assert data["presets"]["german"]["opening_min_points"] == 40
    assert "random" in data["bots"]
    assert data["default_bot"] in data["bots"]
    assert data["levels"] == ["easy", "medium", "hard"]
    assert "openspiel-simple" not in data["bots"] and "policy" not in data["bots"]


def test_a_table_seats_only_the_web_bots(client: TestClient) -> None:
    """OpenSpiel's bot plays only gin and the policy bot reads a file from the server's disk."""
    for kind in ("openspiel-simple", "policy", "policy:hard"):
        spec = {"preset": "german", "seats": 2, "bots": [{"kind": kind}]}
        response = client.post("/api/tables", json=spec)
        assert response.status_code == 400 and "unknown bot" in response.text
        assert response.json()["texts"]["de"].startswith("Unbekannter Bot ")  # the page's language too


def test_create_full_table_starts_at_once(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="german", seats=3, bots=[{"kind": "random"}, {"kind": "random"}])
    assert grant["seat"] == 0 and grant["url"] == f"/?table={grant['code']}"
    lobby = client.get(f"/api/tables/{grant['code']}").json()
    assert lobby["status"] == "playing"
    assert [s["kind"] for s in lobby["seats"]] == ["human", "bot", "bot"]
    assert "token" not in str(lobby) and grant["token"] not in str(lobby)


def test_join_start_and_leave(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="german", seats=4, bots=[{"kind": "random"}], name="Host")
    code = host["code"]
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
    guest = client.post(f"/api/tables/{code.lower()}/join", json={"name": "Gast"}).json()
    assert guest["seat"] == 1 and guest["token"] != host["token"]
    # Only the host starts; open seats are then filled with bots.
    assert client.post(f"/api/tables/{code}/start", json={"token": guest["token"]}).status_code == 403
    assert client.post(f"/api/tables/{code}/start", json={"token": "nonsense"}).status_code == 403
    lobby = client.post(f"/api/tables/{code}/start", json={"token": host["token"]}).json()
    assert lobby["status"] == "playing"
    assert [s["kind"] for s in lobby["seats"]] == ["human", "human", "bot", "bot"]
    assert client.post(f"/api/tables/{code}/join", json={}).status_code == 409
    # A player who leaves during play is replaced by a bot; the token stops working.
    lobby = client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).json()
    assert lobby["seats"][1]["kind"] == "bot" and lobby["seats"][1]["name"] == "Gast (bot)"
    assert client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).status_code == 403


def test_the_last_person_leaving_a_game_closes_the_table(make_client: Any, web: Any) -> None:
    """A practice table its person left stayed open, bots playing for nobody, and counted against
    its creator's open tables until it expired: five abandoned practice tables refused the sixth
    ("finish or leave one first", but it had been left). The last person's leave now closes it; a
    table another person still plays goes on with a bot in the seat."""
    client = make_client(max_tables_per_address=1)
    alone = web.create(client, seats=2, bots=[{"kind": "greedy"}], name="Anna")
    code = alone["code"]
    client.post(f"/api/tables/{code}/start", json={"token": alone["token"]})
    assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
    assert client.post("/api/tables", json={"seats": 2}).status_code == 429
    lobby = client.post(f"/api/tables/{code}/leave", json={"token": alone["token"]}).json()
    assert lobby["status"] == "closed"
    assert client.post(f"/api/tables/{code}/retake", json={"token": alone["token"]}).status_code == 409
    host = web.create(client, seats=3, bots=[{"kind": "greedy"}], name="Host")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Gast"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    lobby = client.post(f"/api/tables/{code}/leave", json={"token": host["token"]}).json()
    assert lobby["status"] == "playing" and lobby["seats"][0]["kind"] == "bot"
    lobby = client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).json()
    assert lobby["status"] == "closed"
    assert client.post("/api/tables", json={"seats": 2}).status_code == 201


def test_a_person_without_a_name_is_named_in_each_readers_language(client: TestClient, web: Any) -> None:
    """No name is stored for a person who gave none: pages say "Player 2" / "Spieler 2", and so do
    the server's texts in each language; when they leave, their bot is "Bot 2"."""
    from rummykit.errors import KnockError
    from rummykit.web.tables import Table

    host = web.create(client, preset="viennese", seats=3, bots=[{"kind": "random"}])
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    assert [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]] == ["", "", "Bot 3"]
    table: Table = web.table_of(client, code)
    knocked = KnockError(
        "knock 5H: the player in seat 1 has already knocked; now you only draw and discard",
        "knock_extra_turn",
    )
    texts = table._texts(knocked)
    assert texts["en"].startswith("knock 5♥: Player 2 has already knocked")
    assert "Herz-5 abwerfen: Spieler 2 hat schon geklopft" in texts["de"]
    lobby = client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).json()
    assert lobby["seats"][1]["kind"] == "bot" and lobby["seats"][1]["name"] == "Bot 2"


def test_a_full_table_waits_for_its_host_to_start(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=2)
    guest = client.post(f"/api/tables/{host['code']}/join", json={"name": "B"})
    assert guest.status_code == 200
    # Issue 19: filling the last seat no longer starts the table; the host does.
    assert client.get(f"/api/tables/{host['code']}").json()["status"] == "waiting"
    assert client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]}).status_code == 200
    assert client.get(f"/api/tables/{host['code']}").json()["status"] == "playing"
    listed = client.get("/api/tables").json()["tables"]
    assert host["code"] in [t["code"] for t in listed]


def test_host_leaving_a_waiting_table_closes_it(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=3)
    lobby = client.post(f"/api/tables/{host['code']}/leave", json={"token": host["token"]}).json()
    assert lobby["status"] == "closed"


def test_bad_requests(client: TestClient, web: Any) -> None:
    assert client.post("/api/tables", json={"preset": "chess"}).status_code == 400
    bad_option = client.post("/api/tables", json={"overrides": {"opening_min_points": "lots"}})
    assert bad_option.status_code == 400 and "opening_min_points" in bad_option.json()["detail"]
    assert client.post("/api/tables", json={"overrides": {"no_such_option": 1}}).status_code == 400
    assert client.post("/api/tables", json={"seats": 2, "bots": [{}, {}]}).status_code == 400
    assert client.post("/api/tables", json={"seats": 7}).status_code == 400  # german: 2 to 6 players
    assert client.post("/api/tables", json={"seats": 2, "bots": [{"kind": "oracle"}]}).status_code == 400
    assert client.post("/api/tables", json={"surprise": True}).status_code == 422
    twice = client.post("/api/tables", json={"seats": 2, "bots": [{"kind": "greedy:hard", "level": "easy"}]})
    assert twice.status_code == 400 and twice.json()["code"] == "bad_bot"
    assert "policy" not in twice.text and "openspiel" not in twice.text  # only what the web offers
    assert client.get("/api/tables/NOPE99").status_code == 404
    assert client.post("/api/tables/NOPE99/join", json={}).status_code == 404
    huge = client.post(
        "/api/tables",
        content=b'{"name": "' + b"x" * 20000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert huge.status_code == 413
    # Bodies the framework cannot decode at all are said as any body that is not JSON is.
    json_type = {"Content-Type": "application/json"}
    for body in (b"{", b'{"name": "\xff\xfe"}', b"[" * 5000 + b"]" * 5000):
        answer = client.post("/api/tables", content=body, headers=json_type)
        assert answer.status_code == 422 and answer.json()["code"] == "body_not_json", answer.text
        assert "JSON" in answer.json()["texts"]["de"]
    assert client.get("/api/nothing/here").json() == {"detail": "Not Found"}  # other errors as before


def test_overrides_and_seed_are_kept(client: TestClient, web: Any) -> None:
    grant = web.create(
        client, preset="viennese", seats=2, bots=[{"kind": "random", "level": "easy"}], seed=42,
        overrides={"knock_threshold": 7, "buyback_window": [80, 101]},
    )  # fmt: skip
    lobby = client.get(f"/api/tables/{grant['code']}").json()
    assert lobby["rules"].startswith("viennese(") and "knock_threshold=7" in lobby["rules"]
    assert lobby["knock_game"] is True
    assert lobby["seats"][1]["level"] == "easy"


def test_a_made_up_field_name_comes_back_clipped_and_escaped(client: TestClient) -> None:
    name = "k" * 100 + "\n\x1b[31m"
    answer = client.post("/api/tables", json={"overrides": {name: 1}})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert "k" * 40 + "…" in detail and "k" * 41 not in detail and "\n" not in detail and "\x1b" not in detail


def test_the_new_rule_options_reach_a_table(client: TestClient, web: Any) -> None:
    """winner_gets_sum, max_takes_in_a_row and the rummy.ch hand sizes are table options like any."""
    overrides = {
        "hand_scoring": "winner_gets_sum",
        "max_takes_in_a_row": 100,
        "hand_size_rule": "by_player_count",
    }
    grant = web.create(client, preset="german", seats=2, overrides=overrides)
    rules = client.get(f"/api/tables/{grant['code']}").json()["rules"]
    for option in (
        "hand_scoring=winner_gets_sum",
        "max_takes_in_a_row=100",
        "hand_size_rule=by_player_count",
    ):
        assert option in rules
    refused = client.post("/api/tables", json={"preset": "gin", "overrides": {"max_takes_in_a_row": 100}})
    assert refused.status_code == 400 and "max_upcard_draws" in refused.json()["detail"]


def test_tokens_are_unguessable_and_stored_hashed(client: TestClient, web: Any, sqlite_url: str) -> None:
    grants = [web.create(client, seats=2) for _ in range(5)]
    tokens = {g["token"] for g in grants}
    assert len(tokens) == 5 and all(len(t) >= 32 for t in tokens)
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        dump = " ".join(str(row) for row in conn.execute(text("SELECT seats FROM rk_tables")))
    engine.dispose()
    assert dump and not any(t in dump for t in tokens)


def test_a_lobby_change_the_database_refuses_is_not_made(client: TestClient, web: Any) -> None:
    """A join or start whose write fails (a full disk, a database away) answers 503 with a text in
    each language and leaves the table as stored: no seat held for a token nobody was given, no
    table played that did not start. Once the database takes writes again, both work."""
    from sqlalchemy.exc import OperationalError

    host = web.create(client, preset="german", seats=3, name="Host")
    code = host["code"]
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    update = store.update_lobby

    def full_disk(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("UPDATE rk_tables …", {}, Exception("database or disk is full"))

    store.update_lobby = full_disk
    refused = client.post(f"/api/tables/{code}/join", json={"name": "Ghost"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert refused.json()["detail"].startswith("the server cannot store changes right now; nothing changed")
    assert refused.json()["texts"]["de"].startswith("Der Server kann gerade nichts speichern")
    assert "UPDATE" not in refused.text and "disk" not in refused.text
    assert client.post(f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 503
    lobby = client.get(f"/api/tables/{code}").json()
    assert lobby["status"] == "waiting" and [s["kind"] for s in lobby["seats"]] == ["human", "open", "open"]
    store.update_lobby = update
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Real"}).json()
    assert guest["seat"] == 1
    started = client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    assert started.json()["status"] == "playing"


def test_the_last_move_is_answered_as_made_when_only_the_tables_end_fails_to_store(
    client: TestClient, web: Any
) -> None:
    """The move that ends the match is stored; the write of the table's end that follows fails.
    The players get the final state (not "nothing changed", which was untrue: the move stood and
    could not be sent again), and the table reads as over, as it also loads after a restart."""
    from sqlalchemy.exc import OperationalError

    grant = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], seed=3)
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    update = store.update_lobby

    def no_end(code: str, status: str, *args: Any, **kwargs: Any) -> Any:
        if status == "over":
            raise OperationalError("UPDATE rk_tables …", {}, Exception("database is locked"))
        return update(code, status, *args, **kwargs)

    store.update_lobby = no_end
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        for _ in range(400):
            if state["table"]["status"] == "over":
                break
            ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
            while True:
                msg = ws.receive_json()
                assert msg["type"] != "error", msg
                if msg["type"] == "state" and (msg["legal"] or msg["table"]["status"] == "over"):
                    state = msg
                    break
    assert state["table"]["status"] == "over"
    assert client.get(f"/api/tables/{grant['code']}").json()["status"] == "over"
    assert len(store.actions(grant["code"])) == state["version"]
    # The row still says the table is played; once the database takes writes again, the clock
    # stores the end (it used to stay "playing" for good: loaded at every start, never pruned).
    assert store.lobby_row(grant["code"])["status"] == "playing"
    table = web.table_of(client, grant["code"])
    assert table.end_unsaved

    def gone(code: str, *args: Any, **kwargs: Any) -> Any:
        raise KeyError(code)

    store.update_lobby = gone  # a row that has gone meanwhile: no end to write, no retry for ever
    table._end_tried = -math.inf  # the next tick tries at once
    deadline = time.monotonic() + 10
    while table.end_unsaved and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not table.end_unsaved and table.status == "over"
    store.update_lobby = update
    table.end_unsaved = True  # and the row that is there is written once the database takes writes
    table._end_tried = -math.inf
    deadline = time.monotonic() + 10
    while store.lobby_row(grant["code"])["status"] != "over" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.lobby_row(grant["code"])["status"] == "over"
    assert not table.end_unsaved


def test_health_says_when_the_database_does_not_answer(client: TestClient) -> None:
    """A monitor asking ``/api/health`` learns that the database is away (503), not only that the
    process answers; it is healthy again once the database answers."""
    import time

    from sqlalchemy.exc import OperationalError

    assert client.get("/api/health").json() == {"ok": True, "tables": 0}
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    ping = store.ping

    def away() -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    store.ping = away
    time.sleep(1.1)  # the last answer is kept a second
    answer = client.get("/api/health")
    assert answer.status_code == 503
    assert answer.json() == {"ok": False, "tables": 0, "database": "not answering"}
    assert client.head("/api/health").status_code == 503
    store.ping = ping
    time.sleep(1.1)
    assert client.get("/api/health").status_code == 200


def test_leaving_a_finished_table_keeps_the_others_connected(client: TestClient, web: Any) -> None:
    """Only the leave that closes a game closes its connections: a guest leaving a finished table
    (the result screen's Leave) cut the host's websocket too, and a rematch offer could be missed."""
    host = web.create(client, seats=2, name="Host")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Gast"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    table = web.table_of(client, code)
    with web.connect(client, code, host["token"]) as ws:
        web.receive_state(ws)
        table.status = "over"  # as at the end of the match
        assert client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]}).status_code == 200
        ws.send_json({"type": "ping"})
        kinds: list[str] = []
        while "pong" not in kinds and len(kinds) < 10:  # a closed socket raises here
            kinds.append(ws.receive_json()["type"])
        assert "pong" in kinds, kinds
