"""Table chat (seats only, short, printable, rate limited, recent lines to a seat on connect) and the rematch
(the host's new table with the same seats and rules; connected people get their seats by websocket).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.web.chat import CHAT_BURST, CHAT_PER_SECOND, MAX_CHAT_CHARS
from rummykit.web.limits import RateLimiter


def test_chat_lines_reach_everybody_and_bad_ones_are_refused(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=2, name="Anna", bots=[{"kind": "random"}])
    code = host["code"]
    with web.connect(client, code, host["token"]) as anna, web.connect(client, code) as watcher:
        web.receive_state(watcher)  # watching: it reads what is said from now on
        anna.send_json({"type": "chat", "text": "  <b>gut</b>\t gespielt!  "})
        line = web.next_of(anna, "chat")
        assert (line["seat"], line["name"], line["text"]) == (0, "Anna", "<b>gut</b> gespielt!")
        assert web.next_of(watcher, "chat")["text"] == "<b>gut</b> gespielt!"  # text, never HTML
        watcher.send_json({"type": "chat", "text": "hallo"})
        assert web.next_of(watcher, "error")["code"] == "spectator"
        too_long = "x" * (MAX_CHAT_CHARS + 1)
        for bad in (too_long, "", "   ", "bell\\u0007", "\\udfff"):  # JSON escapes, as a page sends them
            anna.send_text('{"type": "chat", "text": "' + bad + '"}')
            error = web.next_of(anna, "error")
            assert error["code"] == "bad_message" and too_long not in error["message"]
        answers = []
        for i in range(CHAT_BURST + 2):
            anna.send_json({"type": "chat", "text": f"m{i}"})
            msg = anna.receive_json()
            while msg["type"] not in ("chat", "error"):
                msg = anna.receive_json()
            answers.append(msg["type"] if msg["type"] == "chat" else msg["code"])
        # One line was sent above, refused messages cost nothing: the burst has CHAT_BURST - 1 left.
        assert answers == ["chat"] * (CHAT_BURST - 1) + ["rate_limited"] * 3
    # A player who comes back gets the recent lines; a watcher who comes later does not (what was
    # said before a stranger came stays among those present), but reads what is said from then on.
    with web.connect(client, code, host["token"]) as anna:
        assert web.next_of(anna, "chat")["text"] == "<b>gut</b> gespielt!"
        with web.connect(client, code) as late:
            first = [late.receive_json() for _ in range(2)]
            assert [m["type"] for m in first] == ["welcome", "state"]
            web.table_of(client, code).chat.limiter = RateLimiter(CHAT_PER_SECOND, CHAT_BURST)  # time passed
            anna.send_json({"type": "chat", "text": "hallo Zuschauer"})
            assert web.next_of(late, "chat")["text"] == "hallo Zuschauer"


def test_rematch_keeps_seats_rules_and_hints(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=3, name="Anna", overrides={"opening_min_points": 30},
                      bots=[{"kind": "random", "level": "easy"}], hints="everyone")  # fmt: skip
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    refused = client.post(f"/api/tables/{code}/rematch", json={"token": host["token"]})
    assert refused.status_code == 409  # the match is not over
    with web.connect(client, code, guest["token"]) as ben, web.connect(client, code) as watcher:
        web.receive_state(ben)
        web.table_of(client, code).status = "over"  # the match's end, as the server marks it
        assert client.post(f"/api/tables/{code}/rematch", json={"token": guest["token"]}).status_code == 403
        answer = client.post(f"/api/tables/{code}/rematch", json={"token": host["token"]})
        assert answer.status_code == 201
        new = answer.json()
        assert new["code"] != code and new["seat"] == 0
        moved = web.next_of(ben, "rematch")
        assert moved["code"] == new["code"] and moved["seat"] == 1 and moved["token"] != guest["token"]
        seen = web.next_of(watcher, "rematch")
        assert seen == {"type": "rematch", "code": new["code"]}  # spectators get no token
    again = web.table_of(client, new["code"])
    old = web.table_of(client, code)
    assert again.rules == old.rules and again.rules.opening_min_points == 30
    assert again.hints == old.hints == "everyone"
    assert [(s.kind, s.name, s.bot) for s in again.seats] == [(s.kind, s.name, s.bot) for s in old.seats]
    assert again.status == "playing"  # everybody was there: one click starts it
    with web.connect(client, new["code"], moved["token"]) as ben:
        assert web.receive_state(ben)["you"] == 1


def test_a_connection_made_after_the_rematch_opened_is_told_where_it_is(client: TestClient, web: Any) -> None:
    """Only the connections open when the host asked were told of the rematch: a person who came
    back later learned nothing and their program could not find it. A connection to the finished
    table is now told the code, for information: it is not given a seat (reopening the old link for
    the final scores must not seat anybody), and the seat left open is joined by the code."""
    host = web.create(client, seats=2, name="Anna")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    with web.connect(client, code, guest["token"]) as ben:
        web.receive_state(ben)
        ben.send_json({"type": "ping"})
        assert web.next_of(ben, "pong")["type"] == "pong"  # no rematch yet: nothing said
    web.table_of(client, code).status = "over"  # the match's end, as the server marks it
    new = client.post(f"/api/tables/{code}/rematch", json={"token": host["token"]}).json()
    for token in (guest["token"], None):
        with web.connect(client, code, token) as late:
            assert web.next_of(late, "rematch") == {"type": "rematch", "code": new["code"], "offer": True}
    assert client.get(f"/api/tables/{new['code']}").json()["seats"][1]["kind"] == "open"
    joined = client.post(f"/api/tables/{new['code']}/join", json={"name": "Ben"}).json()
    assert joined["seat"] == 1


def test_a_seat_whose_rematch_message_was_lost_is_told_its_seat_again(client: TestClient, web: Any) -> None:
    """Ben's connection was open when the host asked, so his seat at the rematch was given to it, but
    the message went down a link the network had dropped. His next connection to the finished table
    is told that seat and token again; a watcher's is told the code alone."""
    host = web.create(client, seats=2, name="Anna")
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    with web.connect(client, code, guest["token"]) as ben:
        web.receive_state(ben)
        web.table_of(client, code).status = "over"  # the match's end, as the server marks it
        new = client.post(f"/api/tables/{code}/rematch", json={"token": host["token"]}).json()
        lost = web.next_of(ben, "rematch")
    with web.connect(client, code, guest["token"]) as ben:
        told = web.next_of(ben, "rematch")
    assert told == {"type": "rematch", "code": new["code"], "offer": True, "seat": 1, "token": lost["token"]}
    with web.connect(client, code) as watcher:
        assert web.next_of(watcher, "rematch") == {"type": "rematch", "code": new["code"], "offer": True}


def until_pong(ws: Any) -> list[dict[str, Any]]:
    """The messages a connection gets before the answer to a ping sent now."""
    ws.send_json({"type": "ping"})
    seen = []
    while (msg := ws.receive_json())["type"] != "pong":
        seen.append(msg)
    return seen


def types_until_pong(ws: Any) -> list[str]:
    return [msg["type"] for msg in until_pong(ws)]


def backlog(ws: Any) -> list[str]:
    """The texts of the chat lines a connection gets before the answer to a ping sent now."""
    return [msg["text"] for msg in until_pong(ws) if msg["type"] == "chat"]


def test_a_practice_rematch_is_not_told_to_watchers(client: TestClient, web: Any) -> None:
    """The rematch of a table where only bots are left beside the host is a practice table, found by
    its link alone: the watchers of the old table (strangers from the lobby) are not given its code,
    neither at once nor when they connect later; the host is."""
    host = web.create(client, seats=3, name="Anna", bots=[{"kind": "random"}], listed=True)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    client.post(f"/api/tables/{code}/leave", json={"token": guest["token"]})  # a bot holds Ben's seat
    with web.connect(client, code, host["token"]) as anna, web.connect(client, code) as watcher:
        web.receive_state(anna)
        web.receive_state(watcher)
        web.table_of(client, code).status = "over"  # the match's end, as the server marks it
        new = client.post(f"/api/tables/{code}/rematch", json={"token": host["token"]}).json()
        assert web.next_of(anna, "rematch")["code"] == new["code"]
        assert "rematch" not in types_until_pong(watcher)
    assert client.get(f"/api/tables/{new['code']}").json()["listed"] is False
    with web.connect(client, code) as late:
        assert "rematch" not in types_until_pong(late)
    with web.connect(client, code, host["token"]) as back:
        assert "rematch" in types_until_pong(back)


def test_a_person_who_takes_a_seat_reads_only_what_is_said_since(client: TestClient, web: Any) -> None:
    """At a waiting table in the lobby a stranger may take a seat: what the host said before (about a
    person just removed, say) is not sent to them; a person who comes back to their seat reads it."""
    host = web.create(client, seats=3, name="Anna")
    code = host["code"]
    with web.connect(client, code, host["token"]) as anna:
        web.receive_state(anna)
        anna.send_json({"type": "chat", "text": "before Ben came"})
        web.next_of(anna, "chat")
        ben = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
        with web.connect(client, code, ben["token"]) as ben_ws:
            assert "chat" not in types_until_pong(ben_ws)
            anna.send_json({"type": "chat", "text": "hallo Ben"})
            assert web.next_of(ben_ws, "chat")["text"] == "hallo Ben"
        with web.connect(client, code, ben["token"]) as again:
            assert backlog(again) == ["hallo Ben"]
    with web.connect(client, code, host["token"]) as back:
        assert backlog(back) == ["before Ben came", "hallo Ben"]
