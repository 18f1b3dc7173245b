"""A server that can face strangers: one regression test per finding of the security review.

1 seeded tables are marked · 2 deals and bots come from a 256-bit secret · 3 no endless bot tables ·
4 limits and expiry · 5 streaming body limit · 6 no 500 for NaN or lone surrogates · 7 no face-down
card in the log · 9 no token in the URL · 10 limits count networks (an IPv6 /64 is one address) and
seats at other people's waiting tables are capped · 11 a reply or log line quotes at most 40
characters of a client's own value, escaped · 12 no redirect is built from the request's Host. (8,
the command line, is in ``tests/test_cli_errors.py``.)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from rummykit.actions import Action, BuyBack, Decline
from rummykit.bots import MatchView, make_bot
from rummykit.match import Match, MatchPosition
from rummykit.record import Record
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.web import protocol
from rummykit.web.app import create_app
from rummykit.web.dealing import SEEDED_NOTICE, SecretDealing, SecretRandom, deal_order
from rummykit.web.limits import BodyLimit, HttpRate, RateLimiter, ServerSettings, network_key
from rummykit.web.matches import new_table_match
from rummykit.web.owners import address_digest
from rummykit.web.tables import Table


def table_of(client: TestClient, code: str) -> Table:
    table: Table = client.app.state.manager.tables[code]  # type: ignore[attr-defined]
    return table


def wait_until(condition: Any, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


# 1. The creator chose the seed: a seeded table is now marked for everybody ---------------------
def test_1_seeded_table_is_marked_in_the_lobby_and_at_the_table(client: TestClient, web: Any) -> None:
    seeded = web.create(client, seats=2, bots=[{"kind": "random"}], seed=42, listed=True)
    normal = web.create(client, seats=2, bots=[{"kind": "random"}], listed=True)
    lobby = {t["code"]: t for t in client.get("/api/tables").json()["tables"]}
    assert lobby[seeded["code"]]["seeded"] is True and lobby[seeded["code"]]["notice"] == SEEDED_NOTICE
    assert lobby[normal["code"]]["seeded"] is False and lobby[normal["code"]]["notice"] is None
    with web.connect(client, seeded["code"]) as watch:
        state = web.receive_state(watch)
        assert state["table"]["seeded"] is True and state["table"]["notice"] == SEEDED_NOTICE
    # The seed still reproduces the deal offline: that is what "seeded" promises, and says.
    rules = Rules.parse(lobby[seeded["code"]]["rules"])
    assert table_of(client, seeded["code"]).match.round.deck == Match.new(rules, 2, seed=42).round.deck


def test_1_a_server_can_refuse_seeded_tables(make_client: Any) -> None:
    client = make_client(allow_seeded=False)
    refused = client.post("/api/tables", json={"seed": 42})
    assert refused.status_code == 400 and "seeded" in refused.json()["detail"]
    assert client.post("/api/tables", json={}).status_code == 201


# 2. Deals and bots are not brute-forceable: a 256-bit secret, kept server-side ---------------------
def test_2_deal_comes_from_a_256_bit_secret_not_from_a_seed(
    client: TestClient, web: Any, sqlite_url: str
) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    table = table_of(client, grant["code"])
    assert table.seed is None and table.secret is not None and len(table.secret) == 32
    assert isinstance(table.match.dealing, SecretDealing) and table.match.seed == 0
    rules = table.rules
    assert list(table.match.round.deck) == deal_order(rules, table.secret, 1)
    with create_engine(sqlite_url).connect() as db:
        seed, secret = db.execute(
            text("SELECT seed, secret FROM rk_tables WHERE code = :c"), {"c": grant["code"]}
        ).one()
    assert bytes.fromhex(secret) == table.secret
    # What the old server stored as the table's seed does not rebuild the deal.
    assert table.match.round.deck != Match.new(rules, 2, seed=seed).round.deck
    # Bots draw from a generator keyed by the secret, not from Random(f"{seed}:{version}").
    rng = table.bot_rng("bots")
    assert isinstance(rng, SecretRandom)
    assert [rng.random() for _ in range(4)] != [
        random.Random(f"{seed}:{table.version}").random() for _ in range(4)
    ]


def test_2_secret_random_is_keyed_reproducible_and_separate() -> None:
    key = bytes(range(32))
    a, b = SecretRandom(key, "deal:1"), SecretRandom(key, "deal:1")
    assert [a.getrandbits(64) for _ in range(8)] == [b.getrandbits(64) for _ in range(8)]
    other_label, other_key = SecretRandom(key, "deal:2"), SecretRandom(bytes(32), "deal:1")
    first = SecretRandom(key, "deal:1").getrandbits(256)
    assert first not in (other_label.getrandbits(256), other_key.getrandbits(256))
    deck = list(range(52))
    SecretRandom(key, "x").shuffle(deck)
    assert sorted(deck) == list(range(52)) and deck != list(range(52))
    assert 0 <= SecretRandom(key, "f").random() < 1
    with pytest.raises(ValueError, match="at least 16 bytes"):
        SecretRandom(b"short", "x")


# 3. Endless bot-only tables --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "option", ["opening_min_points", "target_score", "max_stock_rebuilds", "penalty_joker", "pot_ante"]
)
def test_3_overrides_out_of_range_are_refused(client: TestClient, option: str) -> None:
    preset = "viennese" if option == "pot_ante" else "german"
    answer = client.post("/api/tables", json={"preset": preset, "overrides": {option: 1_000_000}})
    assert answer.status_code == 400, answer.text
    assert option in answer.json()["detail"] and "between" in answer.json()["detail"]


def test_3_unlimited_stock_rebuilds_are_refused_by_the_server(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"overrides": {"max_stock_rebuilds": None}})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("max_stock_rebuilds: unlimited is not offered by this server")


def test_3_a_table_of_bots_alone_does_not_play_and_expires(make_client: Any, web: Any) -> None:
    client = make_client(bot_delay=0, idle_table_seconds=0.6, finished_table_seconds=0.3)
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    code = grant["code"]
    table = table_of(client, code)
    # Its person never connects (leaving would close it: test_api): the bot is alone at the table.
    assert [s.kind for s in table.seats] == ["human", "bot"] and table.status == "playing"
    time.sleep(0.3)
    assert table.version == 0  # nobody present: the bots do not play
    assert wait_until(lambda: table.status == "expired")
    assert table.version == 0
    assert code not in {t["code"] for t in client.get("/api/tables").json()["tables"]}
    assert wait_until(lambda: code not in client.app.state.manager.tables)  # type: ignore[attr-defined]
    assert client.get(f"/api/tables/{code}").json()["status"] == "expired"  # looked up where it is kept


# 4. Limits and expiry -------------------------------------------------------------------------------
def test_4_table_creations_are_rate_limited_with_retry_after(make_client: Any) -> None:
    client = make_client(creations_per_second=0.01, creations_burst=3)
    answers = [client.post("/api/tables", json={}) for _ in range(5)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert int(answers[-1].headers["retry-after"]) >= 1
    assert "too many table creations" in answers[-1].json()["detail"]
    assert len(client.app.state.manager.tables) == 3  # type: ignore[attr-defined]


def test_4_open_tables_are_capped_per_address_and_in_total(make_client: Any) -> None:
    client = make_client(max_tables_per_address=2)
    assert [client.post("/api/tables", json={}).status_code for _ in range(3)] == [201, 201, 429]
    client = make_client(max_tables=1)
    first = client.post("/api/tables", json={})
    refused = client.post("/api/tables", json={})
    assert first.status_code == 201 and refused.status_code == 429 and "retry-after" in refused.headers
    # A table that is left frees its place.
    client.post(f"/api/tables/{first.json()['code']}/leave", json={"token": first.json()["token"]})
    assert client.post("/api/tables", json={}).status_code == 201


def test_4_lobby_requests_are_rate_limited(make_client: Any) -> None:
    client = make_client(requests_per_second=0.01, requests_burst=2)
    code = client.post("/api/tables", json={"seats": 4}).json()["code"]
    answers = [client.post(f"/api/tables/{code}/join", json={}).status_code for _ in range(3)]
    assert answers == [200, 200, 429]


def test_4_looking_tables_up_by_code_is_rate_limited(make_client: Any) -> None:
    """Guessing codes (each guess a lookup, with a shared database a database read) is bounded."""
    client = make_client(requests_per_second=0.01, requests_burst=2)
    code = client.post("/api/tables", json={}).json()["code"]
    answers = [client.get(f"/api/tables/{probe}").status_code for probe in (code, "NOPE99", code)]
    assert answers == [200, 404, 429]


def test_4_abandoned_waiting_table_expires_and_leaves_the_lobby(make_client: Any, web: Any) -> None:
    client = make_client(idle_table_seconds=0.5)
    grant = web.create(client, seats=3)
    code = grant["code"]
    with web.connect(client, code, grant["token"]):
        time.sleep(0.8)
        assert table_of(client, code).status == "waiting"  # somebody is there: it waits
    assert wait_until(lambda: table_of(client, code).status == "expired")
    assert code not in {t["code"] for t in client.get("/api/tables").json()["tables"]}
    assert client.post(f"/api/tables/{code}/join", json={}).status_code == 409


def test_4_a_connected_player_who_never_moves_is_replaced_until_back(make_client: Any, web: Any) -> None:
    client = make_client(bot_delay=0, turn_seconds=0.4, practice_turn_seconds=0.4)
    host = web.create(client, seats=2, bots=[{"kind": "random"}])
    code = host["code"]
    table = table_of(client, code)
    with web.connect(client, code, host["token"]) as ws:
        web.receive_state(ws, until=lambda s: bool(s["legal"]))
        mine = table.version
        # Not moving: after the turn time a bot plays the seat, and the lobby shows it away.
        state = web.receive_state(ws, until=lambda s: s["version"] > mine + 2)
        assert state["table"]["seats"][0]["away"] is True
        ws.send_json({"type": "back"})
        back = web.receive_state(ws, until=lambda s: not s["table"]["seats"][0]["away"] and bool(s["legal"]))
        version = back["version"]
        time.sleep(0.2)
        assert table.version == version  # the person moves again, not the bot


def test_4_connections_per_address_are_capped(make_client: Any, web: Any) -> None:
    client = make_client(max_connections_per_address=2)
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    with web.connect(client, code) as a, web.connect(client, code) as b:
        web.receive_state(a)
        web.receive_state(b)
        with client.websocket_connect(f"/ws/{code}") as third:
            error = third.receive_json()
            assert error["type"] == "error" and error["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
    with web.connect(client, code) as again:  # the places are free again
        assert web.receive_state(again)["you"] is None


def test_4_websocket_attempts_are_rate_limited_before_any_database_work(make_client: Any, web: Any) -> None:
    # Attempt burst: the request burst (1) plus the connection cap (1); refill 0.01 per second.
    client = make_client(requests_per_second=0.01, requests_burst=1, max_connections_per_address=1)
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    manager = table_of(client, code).manager
    counted: list[str] = []
    count = manager.open_connection

    async def counting(address: str) -> bool:
        counted.append(address)
        return await count(address)

    manager.open_connection = counting  # type: ignore[method-assign]
    with web.connect(client, code) as first:
        web.receive_state(first)
        with client.websocket_connect(f"/ws/{code}") as second:  # in the burst, over the cap
            assert second.receive_json()["code"] == "too_many_connections"
        with client.websocket_connect(f"/ws/{code}") as third:  # over the burst
            error = third.receive_json()
            assert error["code"] == "too_many_attempts" and error["retry_after"] > 0
            assert error["texts"]["de"] == "Zu viele Verbindungsversuche; bitte etwas warten"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
    assert len(counted) == 2  # the refused attempt was never counted, so it cost no storage work


def test_4_websocket_messages_are_rate_limited(make_client: Any, web: Any) -> None:
    client = make_client(messages_per_second=0.01, messages_burst=3)
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    with web.connect(client, code) as ws:
        web.receive_state(ws)
        for _ in range(4):
            ws.send_json({"type": "ping"})
        replies = [ws.receive_json() for _ in range(4)]
        assert [r["type"] for r in replies[:3]] == ["pong"] * 3
        assert replies[3]["code"] == "rate_limited" and replies[3]["retry_after"] > 0


def test_4_finished_tables_leave_memory(make_client: Any, web: Any) -> None:
    client = make_client(bot_delay=0, finished_table_seconds=0.2)
    grant = web.create(client, seats=2, bots=[{"kind": "random"}], overrides={"match_end": "single_hand"})
    code = grant["code"]
    table = table_of(client, code)
    with web.connect(client, code, grant["token"]) as ws:
        while table.status == "playing":
            state = web.receive_state(
                ws, until=lambda s: bool(s["legal"]) or s["table"]["status"] != "playing"
            )
            if state["legal"]:
                ws.send_json({"type": "act", "action": state["legal"][-1], "version": state["version"]})
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert wait_until(lambda: code not in manager.tables)


def test_4_rate_limiter_forgets_full_buckets() -> None:
    now = [0.0]
    limiter = RateLimiter(1.0, 2, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 1.0]
    for i in range(5000):
        limiter.take(i)
    now[0] += 10  # every bucket so far is full again
    for i in range(5000, 9000):
        limiter.take(i)
    assert len(limiter) < 5000  # the 5000 full buckets were forgotten, the 4000 new ones kept


def test_4_a_refunded_token_may_be_spent_again() -> None:
    """A network's share of the rebuilds is given back when the process's budget refuses: it paid for
    nothing."""
    limiter = RateLimiter(1e-6, 1, clock=lambda: 0.0)
    assert limiter.take("net") == 0.0 and limiter.take("net") > 0
    limiter.refund("net")
    assert limiter.take("net") == 0.0
    limiter.refund("net")
    limiter.refund("net")  # never above the burst
    assert limiter.take("net") == 0.0 and limiter.take("net") > 0


def test_4_client_queue_is_bounded(client: TestClient, web: Any) -> None:
    from rummykit.web.tables import CLIENT_QUEUE, Client

    async def flood() -> Client:
        c = Client(None)
        for i in range(CLIENT_QUEUE + 10):
            c.send({"n": i})
        return c

    slow = asyncio.run(flood())
    assert slow.dropped and slow.queue.qsize() <= CLIENT_QUEUE


# 5. The body limit counts bytes as they arrive ----------------------------------------------------
def test_5_chunked_body_over_the_limit_is_refused_without_echo(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(64):
            yield b"A" * 1024
        yield b'"}'

    answer = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert "AAAA" not in answer.text and len(answer.content) < 300  # the refusal alone, in two languages


def test_5_body_limit_stops_reading_at_the_limit() -> None:
    sent: list[dict[str, Any]] = []
    reached_app = []
    pulled = 0

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached_app.append(True)

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 1000, "more_body": True}  # endless

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"transfer-encoding", b"chunked")]}
    asyncio.run(BodyLimit(app, 16 * 1024)(scope, receive, send))
    assert sent[0]["status"] == 413 and not reached_app
    assert pulled == 17  # 17 000 bytes passed 16 KiB: nothing more was read


# 6. No 500 and no traceback for NaN or lone surrogates ---------------------------------------------
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", '{"takeover_seconds": NaN}'),
        ("/api/tables", '{"takeover_seconds": Infinity}'),
        ("/api/tables", '{"name": "\\ud800"}'),
        ("/api/tables", '{"name": "a\\u0000b"}'),
        ("join", '{"name": "\\udfff"}'),
    ],
)
def test_6_bad_numbers_and_text_are_422_with_a_clear_message(
    client: TestClient, path: str, body: str
) -> None:
    if path == "join":
        path = f"/api/tables/{client.post('/api/tables', json={'seats': 3}).json()['code']}/join"
    answer = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and ":" in detail
    assert "NaN" not in answer.text and "Traceback" not in answer.text and "\\ud" not in answer.text


@pytest.mark.parametrize(
    ("body", "code", "de"),
    [
        ({"name": "Anna\t"}, "name_not_printable", "keinen Tabulator, Zeilenumbruch oder andere"),
        ({"name": "A" * 33}, "name_too_long", "höchstens 32 Zeichen"),
        # Marks piled on one letter cover the names around it; fillers show nothing (or look like a name).
        ({"name": "Z" + "\u0300\u0301\u0302\u0303\u0316"}, "name_not_printable", "unsichtbare"),
        ({"name": "\u3164"}, "name_not_printable", "unsichtbare"),
        ({"name": "Anna\u115f"}, "name_not_printable", "unsichtbare"),
        ({"name": "Ann\u034fa"}, "name_not_printable", "unsichtbare"),
        # A variation selector or a mark with nothing under it, the blank braille pattern: they show nothing.
        ({"name": "\ufe0f"}, "name_not_printable", "unsichtbare"),
        ({"name": " \u0301\u0301"}, "name_not_printable", "unsichtbare"),
        ({"name": "\u2800"}, "name_not_printable", "unsichtbare"),
    ],
)
def test_6_a_name_a_person_typed_is_refused_in_their_language(
    client: TestClient, body: dict[str, Any], code: str, de: str
) -> None:
    """A name pasted with a tab (from a spreadsheet) reached a German page as pydantic's English
    ("name: Value error, must not contain control characters"): a name is what a person typed, so its
    refusal comes in every language, when creating a table and when joining one."""
    joining = f"/api/tables/{client.post('/api/tables', json={'seats': 3}).json()['code']}/join"
    for path in ("/api/tables", joining):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, answer.text
        got = answer.json()
        assert got["code"] == code and got["detail"].startswith("name: ") and de in got["texts"]["de"]


@pytest.mark.parametrize(
    "name",
    ["Nguye\u0302\u0303n", "Tiếng Việt", "\u0f56\u0f66\u0f92\u0fb2\u0f74\u0f56\u0f66", "❤\ufe0f Ana", "👍🏽"],
)
def test_6_names_in_any_script_are_taken(client: TestClient, name: str) -> None:
    """A letter's marks (two on a Vietnamese vowel written apart, a Tibetan stack of three), an emoji's
    variation selector and skin tone are text, not a pile of marks nor an invisible character."""
    made = client.post("/api/tables", json={"name": name, "seats": 3})
    assert made.status_code == 201, made.text


# 7. Face-down cards stay out of the log --------------------------------------------------------------
def _play_until(rules: Rules, found: Any, players: int = 2) -> Match:
    bot = make_bot("greedy")
    for seed in range(200):
        match = Match.new(rules, players, seed=seed)
        while not match.is_over:
            event = match.apply(
                bot.choose(match.round.view(match.to_move), match.legal_actions(), random.Random(0))
            )
            if found(match, event):
                return match
    raise AssertionError("no game reached the situation")


def test_7_face_down_knock_is_not_in_the_log() -> None:
    rules = Rules.from_mapping({"preset": "viennese", "knock_discard_face_up": False})
    match = _play_until(rules, lambda m, e: str(e.action).startswith("knock "))
    knock = match.history[-1]
    texts = [e["action"] for e in protocol.log_json(match, 1000)]
    assert texts[-1] == "knock" and str(knock.action) not in texts


def test_7_face_down_going_out_discard_is_not_in_the_log() -> None:
    rules = Rules.preset("german")
    assert rules.final_discard_face_down

    def went_out_by_discard(m: Match, e: Any) -> bool:
        last = m.rounds[-1] if m.rounds[-1].history and m.rounds[-1].history[-1] is e else m.rounds[-2]
        return (
            str(e.action).startswith("discard ")
            and last.result is not None
            and str(last.result.termination) == "went_out"
        )

    match = _play_until(rules, went_out_by_discard)
    entries = protocol.log_json(match, 1000)
    went_out = [e for e in entries if e["action"] == "discard face down"]
    assert went_out, entries[-5:]
    faces = {str(e.action) for e in match.history if str(e.action).startswith("discard ")}
    assert all(
        e["action"] in faces or e["action"] == "discard face down"
        for e in entries
        if "discard" in e["action"]
    )


# 9. The seat token never travels in the URL --------------------------------------------------------
def test_9_token_in_the_url_is_refused_and_grants_nothing(client: TestClient, web: Any) -> None:
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    code, token = grant["code"], grant["token"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/{code}?token={token}") as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4400
    assert not table_of(client, code).connected(0)
    with web.connect(client, code, token) as ws:
        assert ws.receive_json() == {"type": "welcome", "seat": 0, "code": code}
    page = client.get("/static/app.js").text
    assert "?token=" not in page and 'type: "hello"' in page


def test_9_a_connection_must_say_hello_first(client: TestClient, web: Any) -> None:
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "ping"})
        ws.receive_json()
    assert refused.value.code == 4400


# Nothing a seat receives rebuilds the randomness ----------------------------------------------------
def _secret_forms(secret: bytes) -> list[str]:
    return [
        secret.hex(),
        secret.hex().upper(),
        base64.b64encode(secret).decode(),
        base64.urlsafe_b64encode(secret).decode().rstrip("="),
        str(int.from_bytes(secret, "big")),
    ]


def _runs(cards: Sequence[Any], length: int) -> set[str]:
    texts = [str(c) for c in cards]
    return {",".join(texts[i : i + length]) for i in range(len(texts) - length + 1)}


def test_a_whole_game_reveals_nothing_to_rebuild_the_randomness(client: TestClient, web: Any) -> None:
    # No stretch of the stock that nobody has seen is sent: the cards still in the stock when the
    # hand ends never appear as a run of six in any message, in either order. (Cards drawn during
    # play are shown card by card, e.g. a drawn card discarded at once, so several drawn cards in a
    # row can lie on the discard pile in deck order; that is play, not a leak.) A hand that drains
    # the stock below six cards leaves nothing to check there: another table is played (the deal
    # is secret, so it cannot be chosen).
    for _ in range(_TABLES):
        everything, unseen = _play_a_whole_game(client, web)
        if len(unseen) >= 6:
            break
    assert len(unseen) >= 6, f"every one of {_TABLES} hands drained the stock"
    stock_runs = _runs(unseen, 6) | _runs(unseen[::-1], 6)
    compact = everything.replace('"', "").replace(" ", "")
    assert not any(run in compact for run in stock_runs)


_TABLES = 4


def _play_a_whole_game(client: TestClient, web: Any) -> tuple[str, list[Any]]:
    """Play a three-seat hand to its end as seat 0 (asking a hint every turn) with a watcher
    connected; check that no message carries the table's secret in any form or a key that names the
    randomness; return every message received and the cards still in the stock at the end."""
    grant = web.create(
        client, seats=3, bots=[{"kind": "random"}, {"kind": "greedy"}], overrides={"match_end": "single_hand"}
    )
    code, token = grant["code"], grant["token"]
    table = table_of(client, code)
    assert table.secret is not None
    received: list[str] = [json.dumps(grant)]
    received.append(client.get(f"/api/tables/{code}").text)
    received.append(client.get("/api/tables").text)
    with web.connect(client, code, token) as ws, web.connect(client, code) as watch:
        while True:
            msg = ws.receive_json()
            received.append(json.dumps(msg))
            if msg["type"] == "state" and msg["legal"]:
                ws.send_json({"type": "hint"})
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            if msg["type"] == "state" and msg["match"]["is_over"]:
                break
        ws.send_json({"type": "ping"})
        while (msg := ws.receive_json())["type"] != "pong":
            received.append(json.dumps(msg))
        watch.send_json({"type": "ping"})
        while (msg := watch.receive_json())["type"] != "pong":
            received.append(json.dumps(msg))
    received.append(client.get(f"/api/tables/{code}").text)
    everything = "\n".join(received)
    for form in _secret_forms(table.secret):
        assert form not in everything
    for message in received:
        keys = set(_keys(json.loads(message)))
        assert not keys & {"seed", "secret", "deck", "stock", "rng", "state_of_rng", "key"}, keys
    return everything, list(table.match.rounds[0].live_state().stock)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


# Identical requests deal different hands -------------------------------------------------------
def test_identical_create_requests_deal_different_hands(client: TestClient) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        preset=st.sampled_from(["german", "viennese"]),
        seats=st.integers(2, 4),
        bots=st.integers(0, 3),
        name=st.text(st.characters(categories=["L", "N"]), max_size=8),
    )
    def identical_requests(preset: str, seats: int, bots: int, name: str) -> None:
        spec = {
            "preset": preset,
            "seats": seats,
            "bots": [{"kind": "random"}] * min(bots, seats - 1),
            "name": name,
        }
        first = client.post("/api/tables", json=spec)
        second = client.post("/api/tables", json=spec)
        assert first.status_code == second.status_code == 201
        a, b = table_of(client, first.json()["code"]), table_of(client, second.json()["code"])
        assert a.match.round.deck != b.match.round.deck
        assert a.match.round.view(0).hand != b.match.round.view(0).hand
        for grant in (first.json(), second.json()):  # keep the server's open tables few
            client.post(f"/api/tables/{grant['code']}/leave", json={"token": grant["token"]})

    identical_requests()


# A secret table resumes exactly after a restart --------------------------------------------------
def test_a_secret_table_replays_exactly_from_the_database(sqlite_url: str, web: Any) -> None:
    settings = web.settings(bot_delay=0)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        grant = web.create(client, seats=3, bots=[{"kind": "random"}, {"kind": "greedy"}])
        code = grant["code"]
        with web.connect(client, code, grant["token"]) as ws:
            for _ in range(12):
                state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
                ws.send_json({"type": "act", "action": state["legal"][-1], "version": state["version"]})
            before = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        live = table_of(client, code).match
        stock = list(live.round.stock)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        with web.connect(client, code, grant["token"]) as ws:
            after = web.receive_state(ws)
        again = table_of(client, code).match
        assert list(again.round.stock) == stock and again.round.deck == live.round.deck
        assert {k: v for k, v in after.items() if k != "table"} == {
            k: v for k, v in before.items() if k != "table"
        }


# Issue 14: the web's bots answer buy-back offers from the match view ---------------------------------
class RecordingBot:
    """A bot that notes which entry point it was asked through."""

    name = "recording"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls.append("choose")
        return legal[0]

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls.append("choose_match")
        assert mv.buyback_target is not None
        return Decline() if Decline() in legal else legal[0]


def _pending_buyback_for_seat_1(rules: Rules) -> Match:
    bot = make_bot("greedy")
    for seed in range(100):
        match = Match.new(rules, 2, seed=seed, position=MatchPosition(totals=(40, 78)))
        while not match.is_over and not match.pending_buyback and match.hands_dealt == 1:
            match.apply(
                bot.choose(match.round.view(match.to_move), match.legal_actions(), random.Random(seed))
            )
        if match.pending_buyback == [1]:
            return match
    raise AssertionError("no seed gives seat 1 a buy-back offer")


def test_web_bots_decide_buybacks_from_the_match_view(client: TestClient, web: Any) -> None:
    rules = Rules.preset("viennese")
    match = _pending_buyback_for_seat_1(rules)
    assert BuyBack() in match.legal_actions()
    grant = web.create(client, preset="viennese", seats=2, bots=[{"kind": "random"}], seed=1)
    table = table_of(client, grant["code"])
    spy = RecordingBot()
    table._bots[("seat", "random", None)] = spy  # type: ignore[assignment]
    table.match = match
    with web.connect(client, grant["code"], grant["token"]) as ws:
        web.receive_state(ws, until=lambda s: not s["match"]["buyback_pending"])
    assert spy.calls and spy.calls[0] == "choose_match"


def test_every_deal_of_a_secret_match_comes_from_the_secret() -> None:
    """Later deals and reshuffles too: the library's 32-bit per-deal seeds are not used."""
    rules = Rules.from_mapping({"preset": "german", "num_hands": 3, "match_end": "fixed_hands"})
    secret = bytes(range(100, 132))
    match = new_table_match(rules, 3, None, secret, None)
    assert repr(secret) not in repr(match.dealing)  # nor in a log or a traceback
    bot = make_bot("greedy")
    while not match.is_over:
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), random.Random(1)))
    assert len(match.rounds) == 3
    for number, rnd in enumerate(match.rounds, start=1):
        assert list(rnd.deck) == deal_order(rules, secret, number)
        assert isinstance(rnd.state().rng, SecretRandom)
    # So its seed and actions are no record of it (one would replay other deals: it did, silently):
    # its record keeps every deal and every reshuffle's stock, and so does a round's.
    assert not match.deals_follow_seed and not match.rounds[0].reshuffles_follow_seed
    record = Record.from_match(match)
    assert record.seed == 0 and record.deck is None and record.deals == tuple(r.deck for r in match.rounds)
    assert record.replay_match().totals == match.totals
    assert Record.from_round(match.rounds[0]).reshuffles == (match.rounds[0].reshuffled_stocks,)
    assert Round.new(rules, 3, seed=1).reshuffles_follow_seed


def test_only_open_tables_are_loaded_after_a_restart(sqlite_url: str, web: Any) -> None:
    with TestClient(create_app(sqlite_url, settings=web.settings())) as client:
        closed = web.create(client, seats=3)
        client.post(f"/api/tables/{closed['code']}/leave", json={"token": closed["token"]})
        waiting = web.create(client, seats=3)
        assert table_of(client, closed["code"]).status == "closed"
    with TestClient(create_app(sqlite_url, settings=web.settings())) as client:
        tables = client.app.state.manager.tables  # type: ignore[attr-defined]
        assert set(tables) == {waiting["code"]}


# 10. Limits count networks (an IPv6 /64 is one customer) and seats at strangers' tables -----------
class ClientFrom:
    """ASGI middleware for tests: the client address is the ``x-test-client`` header, if sent."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope.get("headers") or []:
                if name == b"x-test-client":
                    scope = {**scope, "client": (value.decode(), 50000)}
        await self.app(scope, receive, send)


@pytest.fixture
def net_client(tmp_path: Path, web: Any) -> Iterator[Any]:
    """A test client whose requests come from the address they name (``frm=``)."""
    yield from web.clients(tmp_path, "net", ClientFrom)


def post_from(client: TestClient, address: str, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json=body or {}, headers={"x-test-client": address})


def test_10_network_key_is_the_ipv4_address_or_the_ipv6_64() -> None:
    assert network_key("192.0.2.7") == "192.0.2.7"
    assert network_key("::ffff:192.0.2.7") == network_key("192.0.2.7") == "192.0.2.7"
    assert network_key("2001:db8:1:2::1") == network_key("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert network_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert network_key("2001:DB8:1:2:0:0:0:9") == "2001:db8:1:2::/64"  # spelled differently, same key
    assert network_key("fe80::1%eth0") == network_key("fe80::2") == "fe80::/64"
    assert network_key("2001:db8:1:3::1") != network_key("2001:db8:1:2::1")
    assert network_key("testclient") == "testclient" and network_key("unknown") == "unknown"


def test_10_stored_ipv4_digests_are_unchanged() -> None:
    """An IPv4 key is the address text itself: creator digests stored before still count."""
    assert address_digest(network_key("192.0.2.7")) == address_digest("192.0.2.7")


def test_10_addresses_of_one_ipv6_64_share_one_table_limit(net_client: Any) -> None:
    client = net_client(max_tables_per_address=2)
    same_64 = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:abcd::3"]
    answers = [post_from(client, a, "/api/tables") for a in same_64]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert "2 open tables were created from your network" in answers[-1].json()["detail"]
    # Another /64 (the next customer) is not held up.
    assert post_from(client, "2001:db8:1:3::1", "/api/tables").status_code == 201


def test_10_one_wide_network_cannot_fill_the_server(net_client: Any) -> None:
    """A home /56 holds 256 /64s, each with its own table cap: its /48 (an IPv4 /24 likewise) has a
    cap of its own, so one connection cannot take every table the server offers."""
    client = net_client(max_tables_per_address=2, max_tables_per_network=5)
    answers = [post_from(client, f"2001:db8:1:{n:x}::1", "/api/tables") for n in range(6)]
    assert [a.status_code for a in answers] == [201] * 5 + [429]
    assert "5 open tables were created from your network" in answers[-1].json()["detail"]
    assert post_from(client, "2001:db8:2::1", "/api/tables").status_code == 201  # another site
    answers = [post_from(client, f"198.51.100.{n}", "/api/tables") for n in range(1, 7)]
    assert [a.status_code for a in answers] == [201] * 5 + [429]
    assert post_from(client, "203.0.113.1", "/api/tables").status_code == 201


def test_10_an_ipv4_mapped_address_is_its_ipv4_address(net_client: Any) -> None:
    client = net_client(max_tables_per_address=2)
    assert post_from(client, "192.0.2.7", "/api/tables").status_code == 201
    assert post_from(client, "::ffff:192.0.2.7", "/api/tables").status_code == 201
    assert post_from(client, "192.0.2.7", "/api/tables").status_code == 429
    assert post_from(client, "::ffff:192.0.2.7", "/api/tables").status_code == 429
    assert post_from(client, "192.0.2.8", "/api/tables").status_code == 201


def test_10_rates_and_connections_count_by_network(net_client: Any, web: Any) -> None:
    client = net_client(creations_per_second=0.01, creations_burst=2, max_connections_per_address=1)
    answers = [post_from(client, f"2001:db8:5:6::{i}", "/api/tables").status_code for i in (1, 2, 3)]
    assert answers == [201, 201, 429]
    code = client.get("/api/tables").json()["tables"][0]["code"]
    with client.websocket_connect(f"/ws/{code}", headers={"x-test-client": "2001:db8:9:9::1"}) as first:
        first.send_json({"type": "hello", "token": None})
        web.receive_state(first)
        with client.websocket_connect(f"/ws/{code}", headers={"x-test-client": "2001:db8:9:9::2"}) as same:
            assert same.receive_json()["code"] == "too_many_connections"
        with client.websocket_connect(f"/ws/{code}", headers={"x-test-client": "2001:db8:9:a::1"}) as other:
            other.send_json({"type": "hello", "token": None})
            web.receive_state(other)


def test_10_seats_at_other_peoples_waiting_tables_are_capped(net_client: Any) -> None:
    client = net_client(max_seats_per_address=2)
    host, squatter = "198.51.100.1", "2001:db8:7:7::1"
    tables = [post_from(client, host, "/api/tables", {"seats": 4}).json() for _ in range(3)]
    codes = [t["code"] for t in tables]
    joined = [post_from(client, squatter, f"/api/tables/{codes[0]}/join") for _ in range(2)]
    assert [j.status_code for j in joined] == [200, 200]
    refused = post_from(client, "2001:db8:7:7::99", f"/api/tables/{codes[1]}/join")  # same /64
    assert refused.status_code == 429 and "retry-after" in refused.headers
    body = refused.json()
    assert body["detail"] == body["texts"]["en"]
    assert "already holds 2 seats at other people's waiting tables" in body["detail"]
    assert "Dein Netz hält schon 2 Plätze an wartenden Tischen anderer" in body["texts"]["de"]
    # The host's friend on another network still gets the seat.
    assert post_from(client, "203.0.113.5", f"/api/tables/{codes[1]}/join").status_code == 200
    # Leaving a seat frees a place under the cap.
    post_from(client, squatter, f"/api/tables/{codes[0]}/leave", {"token": joined[0].json()["token"]})
    assert post_from(client, squatter, f"/api/tables/{codes[1]}/join").status_code == 200
    assert post_from(client, squatter, f"/api/tables/{codes[2]}/join").status_code == 429
    # A table that starts no longer counts: its seats are being played, not held.
    started = post_from(client, host, f"/api/tables/{codes[0]}/start", {"token": tables[0]["token"]})
    assert started.status_code == 200
    assert post_from(client, squatter, f"/api/tables/{codes[2]}/join").status_code == 200
    # The seat's network is stored but never shown.
    assert "joined_from" not in json.dumps(client.get(f"/api/tables/{codes[2]}").json())
    assert "joined_from" not in json.dumps(client.get("/api/tables").json())


def test_10_one_wide_network_cannot_take_every_open_seat(net_client: Any) -> None:
    """Each /64 of a /48 has its own seat cap; the /48 has one too (an IPv4 /24 likewise)."""
    client = net_client(max_seats_per_address=2, max_seats_per_network=3)
    tables = [post_from(client, "198.51.100.1", "/api/tables", {"seats": 6}).json() for _ in range(2)]
    answers = [
        post_from(client, f"2001:db8:7:{n}::1", f"/api/tables/{tables[0]['code']}/join") for n in range(4)
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    body = answers[-1].json()
    assert "your network already holds 3 seats at other people's waiting tables" in body["detail"]
    assert "Von deinem Netz aus sind schon 3 Plätze" in body["texts"]["de"]
    assert post_from(client, "2001:db8:8::1", f"/api/tables/{tables[1]['code']}/join").status_code == 200
    assert "joined_net" not in json.dumps(client.get(f"/api/tables/{tables[0]['code']}").json())


def test_10_a_network_fills_its_own_tables_without_the_seat_cap(net_client: Any) -> None:
    """A household (one address) that opens a table and joins it from several devices is not refused."""
    client = net_client(max_seats_per_address=1)
    home = "2001:db8:8:8::1"
    table = post_from(client, home, "/api/tables", {"seats": 4}).json()
    joins = [post_from(client, f"2001:db8:8:8::{i}", f"/api/tables/{table['code']}/join") for i in (2, 3, 4)]
    assert [j.status_code for j in joins] == [200, 200, 200]


def test_10_the_seat_cap_survives_a_restart(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'seats.db'}"
    settings = web.settings(max_seats_per_address=1)

    def client_of() -> TestClient:
        app = create_app(url, settings=settings)
        app.add_middleware(ClientFrom)
        return TestClient(app)

    with client_of() as client:
        codes = [post_from(client, "192.0.2.1", "/api/tables", {"seats": 3}).json()["code"] for _ in range(2)]
        assert post_from(client, "192.0.2.9", f"/api/tables/{codes[0]}/join").status_code == 200
    with client_of() as client:
        assert post_from(client, "::ffff:192.0.2.9", f"/api/tables/{codes[1]}/join").status_code == 429


def test_a_new_code_equal_to_a_stored_table_draws_again(tmp_path: Path, web: Any, monkeypatch: Any) -> None:
    """Closed tables keep their rows and are not loaded after a restart, so a new code can equal an
    old one: the creation draws another code instead of failing with a 500; with no free code found
    it says so with a 503."""
    from rummykit.web.manager import TableManager

    url = f"sqlite:///{tmp_path / 'codes.db'}"
    with TestClient(create_app(url, settings=web.settings())) as c:
        old = web.create(c, name="old")
        c.post(f"/api/tables/{old['code']}/leave", json={"token": old["token"]})
    draws = iter([old["code"], old["code"], "NEWCDE"])
    monkeypatch.setattr(TableManager, "_new_code", lambda self: next(draws))
    with TestClient(create_app(url, settings=web.settings()), raise_server_exceptions=False) as c:
        response = c.post("/api/tables", json={"name": "new"})
        assert response.status_code == 201 and response.json()["code"] == "NEWCDE"
        monkeypatch.setattr(TableManager, "_new_code", lambda self: old["code"])
        response = c.post("/api/tables", json={"name": "unlucky"})
        assert response.status_code == 503 and "no free table code" in response.json()["detail"]
        assert response.headers["Retry-After"] == "1"


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/health", "/api/tables/NOSUCH", "/nothing"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    """The page may not be framed by any site, loads only its own scripts and styles, is not sniffed
    into another type and sends no Referer: on every answer, errors included."""
    from rummykit.web.headers import CONTENT_SECURITY_POLICY

    headers = client.get(path).headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    policy = CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert "camera=()" in headers["permissions-policy"] and "geolocation=()" in headers["permissions-policy"]
    # No answer of the API is cached (a create's or join's carries a seat's token); the page may be.
    assert (headers.get("cache-control") == "no-store") == path.startswith("/api/")


@pytest.mark.parametrize(("proxies", "believed"), [("127.0.0.1", True), ("", False), ("10.9.0.0/16", False)])
def test_forwarded_addresses_are_believed_only_from_the_named_proxies(
    tmp_path: Path, server_factory: Any, proxies: str, believed: bool
) -> None:
    """Behind a reverse proxy the client is the one ``X-Forwarded-For`` names; from anybody else
    the header is ignored, or a client could claim any address and escape every per-address limit."""
    import httpx

    url = f"sqlite:///{tmp_path / 'proxy.db'}"
    server = server_factory(url, extra=("--forwarded-allow-ips", proxies, "--max-tables-per-address", "1"))
    statuses = []
    for i in range(1, 4):
        forwarded = {"X-Forwarded-For": f"198.51.100.{i}"}
        response = httpx.post(server.url + "/api/tables", json={"name": "A"}, headers=forwarded)
        statuses.append(response.status_code)
    assert statuses == ([201, 201, 201] if believed else [201, 429, 429])


def test_every_http_request_counts_against_the_address_rate(tmp_path: Path, web: Any) -> None:
    """Cheap GETs (the lobby list, the scripts) are counted too: past the burst an address gets 429
    with Retry-After before any work is done, and another network is still served."""
    settings = web.settings(http_per_second=0.001, http_burst=5)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'rate.db'}", settings=settings)) as c:
        codes = [c.get(path).status_code for path in ("/api/tables", "/", "/static/app.js", "/api/presets")]
        codes += [c.get("/api/tables").status_code for _ in range(3)]
        assert codes == [200, 200, 200, 200, 200, 429, 429]
        assert c.head("/api/health").status_code == 429  # a HEAD counts as a GET does
        refused = c.get("/api/messages")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "too many requests" in refused.json()["detail"]
        assert refused.headers["x-frame-options"] == "DENY"  # the refusal carries the headers too
        # A browser opening the page over the rate gets a page, not JSON, that reloads itself.
        page = c.get("/", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
        assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
        seconds = page.headers["retry-after"]
        assert f'<meta http-equiv="refresh" content="{seconds}">' in page.text
        assert "school or office shares one address" in page.text and "Bitte einen Moment warten" in page.text
        assert page.headers["cache-control"] == "no-store"  # a cache in front never serves it to others
    # The count is per network: another address is served while the first waits, one of its /64 not.
    statuses: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        statuses.append(200)

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    limited = HttpRate(app, RateLimiter(0.001, 1))
    for host in ("2001:db8::1", "2001:db8::2", "203.0.113.9", "2001:db8:0:1::1"):
        asyncio.run(limited({"type": "http", "client": (host, 5000)}, receive, send))
    assert statuses == [200, 429, 200, 200]


def test_an_http_rate_of_zero_means_no_limit(tmp_path: Path, web: Any) -> None:
    settings = web.settings(http_per_second=0.0, http_burst=1)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'off.db'}", settings=settings)) as c:
        assert {c.get("/api/health").status_code for _ in range(20)} == {200}


def test_the_default_http_rate_lets_a_class_open_the_page_together(tmp_path: Path, web: Any) -> None:
    """Thirty people behind one address (a school, an office) open the page at the same moment:
    every request of every page load is served under the default rate."""
    defaults = ServerSettings()
    settings = web.settings(http_per_second=defaults.http_per_second, http_burst=defaults.http_burst)
    page = ["/", "/static/style.css", "/static/cards.js", "/static/app.js", "/api/messages", "/api/presets",
            "/api/tables"]  # fmt: skip
    with TestClient(create_app(f"sqlite:///{tmp_path / 'class.db'}", settings=settings)) as c:
        assert {c.get(path).status_code for _ in range(30) for path in page} == {200}


def test_10_requests_and_messages_take_their_own_types_only(client: TestClient, web: Any) -> None:
    """A number is a JSON number: ``"2"``, ``3.0`` or ``true`` are refused, as is the preset among
    the overrides; a refusal names the field and never repeats a large value."""
    for body in ({"seats": "2"}, {"seed": "5"}, {"seats": 2.0}, {"seats": True}, {"hints": 1}):
        assert client.post("/api/tables", json=body).status_code == 422, body
    preset = client.post("/api/tables", json={"preset": "german", "overrides": {"preset": "gin"}})
    assert preset.status_code == 422 and "chosen by 'preset'" in preset.text
    huge = client.post("/api/tables", json={"overrides": {"num_hands": 10**30}})
    assert huge.status_code == 422 and "1000000000000" not in huge.text
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    with web.connect(client, grant["code"], grant["token"]) as ws:
        web.receive_state(ws)
        for version in ("0", 0.0, True, 10**3000):
            raw = '{"type": "act", "action": "draw", "version": ' + json.dumps(version) + "}"
            ws.send_text(raw)
            answer = web.next_of(ws, "error")
            assert answer["code"] == "bad_message" and "0000000000" not in json.dumps(answer), version


# 11. A client's own value comes back clipped to 40 characters and escaped ---------------------------
LONG = "y" * 20 + "\n\x1b[31m" + "y" * 9980
"""A client's value: 10,000 characters with a newline and a terminal escape within the first 40
(a field with a bound sends as much of it as the bound allows)."""
WORD = LONG.replace("\n", "")
"""The same without the newline: one word of card or action text."""


def _texts(value: Any) -> Iterator[str]:
    """Every string of a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def assert_clipped(answer: Any, caplog: pytest.LogCaptureFixture, filler: str) -> None:
    """No text of ``answer`` and no log line quotes more than 40 characters of a value made of
    ``filler``, nor a newline or terminal escape of it unescaped."""
    for said in _texts(answer):
        assert filler * 41 not in said and "\n" not in said and "\x1b" not in said, said
    for record in caplog.records:
        line = record.getMessage() + (record.exc_text or "")
        assert filler * 41 not in line and f"{filler}\n" not in line and "\x1b" not in line, line


@pytest.mark.parametrize(
    ("overrides", "filler"),
    [
        pytest.param({LONG[:48]: 1}, "y", id="unknown option"),  # names are bounded at 48
        pytest.param({"start_mode": LONG[:64]}, "y", id="choice"),  # text values at 64
        pytest.param({"joker_robbing": LONG[:64]}, "y", id="switch"),
        pytest.param({"opening_min_points": "9" * 64}, "9", id="number"),
        pytest.param({"buyback_window": LONG[:64]}, "y", id="pair"),
    ],
)
def test_11_a_refused_option_comes_back_clipped_and_escaped(
    client: TestClient, caplog: pytest.LogCaptureFixture, overrides: dict[str, Any], filler: str
) -> None:
    caplog.set_level("DEBUG")
    answer = client.post("/api/tables", json={"preset": "viennese", "overrides": overrides})
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert "…" in body["detail"] and "…" in body["texts"]["de"], body
    assert_clipped(body, caplog, filler)


@pytest.mark.parametrize(
    ("action", "filler"),
    [
        pytest.param(LONG[:400], "y", id="not an action"),
        pytest.param("draw " + LONG[:395], "y", id="a bare verb"),
        pytest.param("discard " + WORD[:392], "y", id="not a card"),
        pytest.param("open 7C 8C 9C | " + WORD[:384], "y", id="not a card in a meld"),
        pytest.param("layoff 5H " + LONG[:385] + " on 2", "y", id="not a lay-off"),
        pytest.param("layoff 5H on " + "9" * 387, "9", id="a meld number"),
        pytest.param("swap 5H on 2 then " + LONG[:382], "y", id="not a joker exchange"),
    ],
)
def test_11_a_refused_move_comes_back_clipped_and_escaped(
    client: TestClient, web: Any, caplog: pytest.LogCaptureFixture, action: str, filler: str
) -> None:
    caplog.set_level("DEBUG")
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=lambda s: s["view"]["to_move"] == 0)
        ws.send_json({"type": "act", "action": action, "version": state["version"]})
        answer = web.next_of(ws, "error")
    assert answer["code"] == "notation" and "…" in answer["message"], answer
    assert_clipped(answer, caplog, filler)


def test_11_composed_cards_come_back_escaped(
    client: TestClient, web: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    grant = web.create(client, seats=2, bots=[{"kind": "random"}])
    with web.connect(client, grant["code"], grant["token"]) as ws:
        web.receive_state(ws)
        ws.send_json({"type": "evaluate", "melds": [["7C\n\x1b[31", "8C", "9C"], ["yyyyyyyy"]]})
        answer = web.next_of(ws, "evaluation")
    assert answer["melds"][0]["cards"] == ["7C\\n\\x1b[31", "8C", "9C"], answer
    assert answer["melds"][1]["cards"] == ["yyyyyyyy"] and answer["melds"][1]["error"], answer
    assert_clipped(answer, caplog, "y")


def test_composed_melds_are_judged_for_a_seat_within_its_hand_and_its_address_budget(
    sqlite_url: str, web: Any
) -> None:
    """Judging composed melds costs the server work (about 2.5 ms for 8 groups of 16 cards), and a
    stranger could ask for it from 32 connections at once, watching a table, at the message rate of
    each: an honest player's ping at another table took seconds. Now only a seat's person composes,
    within the cards of their hand, and an address's evaluations share one budget (three
    connections' worth); a card text with spaces (``"5H 6H 7H"``, judged as a run of three) is not a
    card."""

    def answer(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``message``: the next message that is not a table's state."""
        ws.send_json(message)
        while (msg := ws.receive_json())["type"] in ("state", "welcome", "chat"):
            pass
        return msg  # type: ignore[no-any-return]

    settings = web.settings(bot_delay=0, messages_per_second=0.001, messages_burst=1)
    queens = {"type": "evaluate", "melds": [["QS", "QD", "QC"]]}
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        grant = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11)
        code, token = grant["code"], grant["token"]
        with web.connect(client, code) as spectator:
            web.receive_state(spectator)
            assert answer(spectator, queens)["code"] == "spectator"
        with web.connect(client, code, token) as ws:
            held = len(web.receive_state(ws)["view"]["hand"])
            heavy = ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS", "JK"]
            refused = answer(ws, {"type": "evaluate", "melds": [heavy] * 8})
        assert refused["code"] == "too_many_cards", refused
        assert refused["message"] == f"the melds composed hold 112 cards, more than the {held} of your hand"
        assert refused["texts"]["de"].startswith("Die gebildeten Figuren haben 112 Karten")
        answers = []
        three = ["QS", "QD", "QC"]
        for melds in ([["5H 6H 7H"], three], [three], [three], [["QH"]]):
            with web.connect(client, code, token) as tab:  # another tab each: one message of its own
                web.receive_state(tab)
                answers.append(answer(tab, {"type": "evaluate", "melds": melds}))
        spaced, queens_judged = answers[0]["melds"]
        assert not spaced["legal"] and spaced["error"].startswith("not a card: '5H 6H 7H'"), spaced
        assert queens_judged["legal"] and answers[0]["total"] == 30
        assert answers[1]["total"] == answers[2]["total"] == 30
        spent = answers[3]
        assert spent["code"] == "rate_limited" and spent["retry_after"] > 0, spent


@pytest.mark.parametrize("path", ["/api/health/", "/api/tables/", "/static"])
def test_12_no_redirect_is_built_from_the_requests_host(client: TestClient, path: str) -> None:
    answer = client.get(path, headers={"host": "evil.example"}, follow_redirects=False)
    assert answer.status_code == 404, (answer.status_code, answer.headers)
    assert "location" not in answer.headers


def test_10_connections_count_by_wider_network_too(net_client: Any, web: Any) -> None:
    """One customer's many /64s (an IPv6 /48), or an IPv4 /24, cannot hold every connection the server
    can take: a wider network has a cap of its own beside each address's."""
    client = net_client(max_connections_per_address=32, max_connections_per_network=2)
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]

    def watch(address: str) -> Any:
        ws = client.websocket_connect(f"/ws/{code}", headers={"x-test-client": address})
        return ws

    with watch("2001:db8:7:1::1") as a, watch("2001:db8:7:2::1") as b:
        for ws in (a, b):
            ws.send_json({"type": "hello", "token": None})
            web.receive_state(ws)
        with watch("2001:db8:7:3::1") as third:  # another /64 of the same /48
            error = third.receive_json()
            assert error["code"] == "too_many_connections"
            assert "--max-connections-per-network" in error["message"]
            assert "größeren Netz" in error["texts"]["de"]
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
        with watch("2001:db8:8:1::1") as elsewhere:  # another /48
            elsewhere.send_json({"type": "hello", "token": None})
            web.receive_state(elsewhere)
    with watch("2001:db8:7:3::1") as later:  # the places are free again
        later.send_json({"type": "hello", "token": None})
        web.receive_state(later)


def test_4_a_process_holds_at_most_max_connections(make_client: Any, web: Any) -> None:
    client = make_client(max_connections=2)
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    with web.connect(client, code) as a, web.connect(client, code) as b:
        web.receive_state(a)
        web.receive_state(b)
        with client.websocket_connect(f"/ws/{code}") as third:
            error = third.receive_json()
            assert error["code"] == "too_many_connections" and "this server holds" in error["message"]
            with pytest.raises(WebSocketDisconnect):
                third.receive_json()
        assert client.get("/api/health").status_code == 200  # HTTP is still answered
    with web.connect(client, code) as again:
        assert web.receive_state(again)["you"] is None


def test_the_open_file_limit_is_raised_or_the_connections_lowered_to_fit(monkeypatch: Any) -> None:
    """A service manager's usual 1,024 open files: the soft limit is raised to the hard one, and
    where even that is too low for ``--max-connections``, the connections are capped to fit."""
    import resource

    from rummykit.web.runtime import FILES_BESIDE, open_files_for

    limits = {"now": (1024, 4096)}
    monkeypatch.setattr(resource, "getrlimit", lambda _which: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda _which, value: limits.update(now=value))
    assert open_files_for(1000) == 1000 and limits["now"] == (1000 + FILES_BESIDE, 4096)  # raised
    limits["now"] = (1024, 4096)
    assert open_files_for(10_000) == 4096 - FILES_BESIDE and limits["now"] == (4096, 4096)  # lowered
    limits["now"] = (2048, 2048)
    assert open_files_for(100) == 100 and limits["now"] == (2048, 2048)  # enough already: unchanged


def test_4_a_failed_connection_count_holds_no_place(make_client: Any, web: Any) -> None:
    """The process counts a websocket before the count's database call; when that call fails (the
    database is away) the place is given back, or every reconnecting page would fill the cap."""
    client = make_client()
    code = web.create(client, seats=2, bots=[{"kind": "random"}])["code"]
    manager = table_of(client, code).manager

    async def failing(address: str) -> None:
        raise OSError("the database is away")

    manager.open_connection = failing  # type: ignore[method-assign]
    for _ in range(3):
        with contextlib.suppress(Exception), client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": None})
            ws.receive_json()
    assert manager.sockets == 0

