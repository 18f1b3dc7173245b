"""The table websocket: views per seat, illegal and stale moves, limits, reconnecting, bot takeover."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import rummykit as rk
from rummykit.cards import Card
from rummykit.rules import Rules
from rummykit.seating import card_text
from rummykit.web import protocol
from rummykit.web.answers import _judged, opening_total
from rummykit.web.app import create_app
from rummykit.web.tables import Table


def table_of(client: TestClient, code: str) -> Table:
    table: Table = client.app.state.manager.tables[code]  # type: ignore[attr-defined]
    return table


def my_turn(state: dict[str, Any]) -> bool:
    return bool(state["legal"])


def expect_nothing_pending(ws: Any) -> None:
    """Nothing was queued for this connection: a ping is answered straight away."""
    ws.send_json({"type": "ping"})
    assert ws.receive_json()["type"] == "pong"


@pytest.fixture
def bot_table(client: TestClient, web: Any) -> dict[str, Any]:
    grant: dict[str, Any] = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11)
    return grant


def test_seat_gets_its_view_spectator_the_public_view(
    client: TestClient, bot_table: dict[str, Any], web: Any
) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as seat_ws:
        assert seat_ws.receive_json() == {"type": "welcome", "seat": 0, "code": code}
        state = web.receive_state(seat_ws, until=my_turn)
        engine_view = table_of(client, code).match.round.view(0)
        assert state["you"] == 0
        assert state["view"]["hand"] == [str(c) for c in engine_view.hand]
        assert state["legal"] == ["draw", "take"]
        assert state["version"] == table_of(client, code).version
        with web.connect(client, code) as watch_ws:
            assert watch_ws.receive_json()["seat"] is None
            public = web.receive_state(watch_ws)
            assert public["you"] is None and public["view"]["hand"] is None and public["legal"] == []
            assert public["view"]["hand_sizes"] == state["view"]["hand_sizes"]
            assert public["table"]["spectators"] == 1
            watch_ws.send_json({"type": "act", "action": "draw", "version": public["version"]})
            assert watch_ws.receive_json()["code"] == "spectator"


def test_illegal_action_is_refused_and_changes_nothing(
    client: TestClient, bot_table: dict[str, Any], web: Any
) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with (
        web.connect(client, code, token) as ws,
        web.connect(client, code) as watch,
    ):
        # The watcher's arrival, the first, is told to the player too: wait for the state that says it.
        state = web.receive_state(ws, until=lambda s: my_turn(s) and s["table"]["spectators"] == 1)
        web.receive_state(watch, until=lambda s: s["version"] == state["version"])
        before = table_of(client, code).match.round.view(0)
        ws.send_json(
            {"type": "act", "action": f"discard {state['view']['hand'][0]}", "version": state["version"]}
        )
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "illegal" and error["rule"]
        ws.send_json({"type": "act", "action": "discard ZZ", "version": state["version"]})
        assert ws.receive_json()["code"] == "notation"
        ws.send_json({"type": "act", "action": "fly away", "version": state["version"]})
        assert ws.receive_json()["code"] == "notation"
        assert table_of(client, code).match.round.view(0) == before
        assert table_of(client, code).version == state["version"]
        expect_nothing_pending(watch)  # nobody else heard about the refused move
        expect_nothing_pending(ws)


def test_stale_version_is_refused(client: TestClient, bot_table: dict[str, Any], web: Any) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as ws:
        state = web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "act", "action": "draw", "version": state["version"] + 1})
        error = ws.receive_json()
        assert error["code"] == "stale" and error["version"] == state["version"]
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        after = web.receive_state(ws)
        assert after["version"] == state["version"] + 1 and len(after["view"]["hand"]) == 14


def test_moves_on_one_table_are_serialised(client: TestClient, bot_table: dict[str, Any], web: Any) -> None:
    code, token = bot_table["code"], bot_table["token"]

    def until_pong(ws: Any) -> list[dict[str, Any]]:
        ws.send_json({"type": "ping"})
        seen = []
        while (msg := ws.receive_json())["type"] != "pong":
            seen.append(msg)
        return seen

    with web.connect(client, code, token) as a:
        state = web.receive_state(a, until=my_turn)
        with web.connect(client, code, token) as b:
            web.receive_state(b, until=my_turn)
            until_pong(a)
            for ws in (a, b):  # the same move twice against the same version
                ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
            replies = until_pong(a) + until_pong(b)
            errors = [m for m in replies if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["stale"]
            assert table_of(client, code).version == state["version"] + 1


def test_not_your_turn(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=2, seed=5)
    guest = client.post(f"/api/tables/{host['code']}/join", json={"name": "B"}).json()
    client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]})  # the host starts
    code = host["code"]
    table = table_of(client, code)
    waiting = guest if table.match.to_move == 0 else host
    with web.connect(client, code, waiting["token"]) as ws:
        state = web.receive_state(ws)
        assert state["legal"] == []
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        assert ws.receive_json()["code"] == "not_your_turn"
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["code"] == "no_hint"


def test_hint_and_evaluate(client: TestClient, bot_table: dict[str, Any], web: Any) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as ws:
        state = web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["action"] in state["legal"]
        ws.send_json(
            {"type": "evaluate", "melds": [["6H", "JK", "5H"], ["QS", "QD", "QC"], ["2C", "9D", "KH"]]}
        )
        ev = ws.receive_json()
        assert ev["type"] == "evaluation" and ev["opening_min"] == 40
        first, second, third = ev["melds"]
        assert first["legal"] and first["play"] == "5H 6H JK" and first["value"] == 18
        assert second["legal"] and second["value"] == 30
        assert not third["legal"] and third["error"]
        assert ev["total"] == 48


def test_the_composed_total_counts_as_an_opening_counts_under_the_table_s_rules(
    client: TestClient, web: Any
) -> None:
    """The total said for the composed groups is what the opening counts: under ``opening_scope =
    single_meld`` the best meld's value (the page said a sum of 48 was enough where one meld of 40
    is needed), and under ``opening_counts_taken_discard = false`` without the discard taken."""
    host = web.create(
        client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11,
        overrides={"opening_scope": "single_meld"},
    )  # fmt: skip
    with web.connect(client, host["code"], host["token"]) as ws:
        web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "evaluate", "melds": [["6H", "JK", "5H"], ["QS", "QD", "QC"], ["2C", "9D"]]})
        assert ws.receive_json()["total"] == 30
    rules = Rules.preset("german").replace(opening_counts_taken_discard=False)
    groups = [("QS", "QD", "QC"), ("5H", "6H", "7H")]
    entries = [_judged(g, rules) for g in groups]
    assert opening_total(groups, entries, rules, None) == 48
    assert opening_total(groups, entries, rules, Card.parse("QD")) == 38
    assert opening_total(groups, entries, Rules.preset("german"), Card.parse("QD")) == 48


def test_message_limits_and_bad_messages(client: TestClient, bot_table: dict[str, Any], web: Any) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as ws:
        state = web.receive_state(ws, until=my_turn)
        ws.send_text("x" * 5000)
        assert ws.receive_json()["code"] == "too_large"
        ws.send_text('{"type": "act", "action": "' + "draw " * 100 + '", "version": 0}')
        assert ws.receive_json()["code"] == "bad_message"
        for bad in ("not json", '{"type": "launch"}', '{"type": "act", "action": "draw"}', "[]"):
            ws.send_text(bad)
            answer = ws.receive_json()
            assert answer["code"] == "bad_message", bad
            assert answer["message"].startswith("bad message: ") and "  " not in answer["message"], answer
        # A client's own value comes back clipped to 40 characters and escaped, never raw.
        long = "y" * 3000 + "\n\x1b[31m"
        for bad in ({"type": long}, {"type": "ping", long: 1}):
            ws.send_text(json.dumps(bad))
            answer = ws.receive_json()
            assert answer["code"] == "bad_message" and "y" * 40 + "…" in answer["message"], answer
            assert "y" * 41 not in answer["message"] and "\n" not in answer["message"]
            assert "\x1b" not in answer["message"]
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json()["type"] == "pong"
        assert table_of(client, code).version == state["version"]


def test_bad_token_and_unknown_table_are_refused(
    client: TestClient, bot_table: dict[str, Any], web: Any
) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        web.connect(client, bot_table["code"], "guessed") as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    with pytest.raises(WebSocketDisconnect) as unknown, client.websocket_connect("/ws/ZZZZZZ") as ws:
        ws.receive_json()
    assert unknown.value.code == 4404


def test_reconnect_with_token_returns_to_the_seat(
    client: TestClient, bot_table: dict[str, Any], web: Any
) -> None:
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as ws:
        state = web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        drawn = web.receive_state(ws)
    with web.connect(client, code, token) as ws:
        again = web.receive_state(ws)
        assert again["you"] == 0 and again["view"]["hand"] == drawn["view"]["hand"]
        assert again["legal"] == drawn["legal"] and again["version"] == drawn["version"]


@pytest.fixture
def quick_takeover(tmp_path: Path, web: Any) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'takeover.db'}", settings=web.settings(bot_delay=0, takeover_seconds=0.3)
    )
    with TestClient(app) as c:
        yield c


def test_bot_takes_over_a_disconnected_seat_until_it_returns(quick_takeover: TestClient, web: Any) -> None:
    client = quick_takeover
    host = web.create(client, seats=2, seed=3)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "B"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})  # the host starts
    table = table_of(client, code)
    assert table.status == "playing"
    time.sleep(0.5)
    assert table.version == 0  # nobody is present: the table pauses, no bot plays
    with web.connect(client, code, host["token"]) as present:
        # The host is present: after the takeover time a bot plays the disconnected guest's seat.
        guest_moves = 0
        while guest_moves < 3:
            state = web.receive_state(present, until=lambda s: bool(s["legal"]))
            guest_moves = sum(1 for e in state["log"] if e["seat"] == 1)
            present.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
        web.receive_state(present, until=lambda s: s["version"] == table.version)
    with (
        web.connect(client, code, host["token"]) as a,
        web.connect(client, code, guest["token"]) as b,
    ):
        state_a = web.receive_state(a, until=lambda s: s["table"]["seats"][1]["connected"])
        version = state_a["version"]
        time.sleep(0.8)  # both are back: no bot moves for them any more
        assert table.version == version
        latest = {0: state_a, 1: {}}
        for seat, ws in enumerate((a, b)):
            ws.send_json({"type": "ping"})
            while (msg := ws.receive_json())["type"] != "pong":
                latest[seat] = msg if msg["type"] == "state" else latest[seat]
        to_move = table.match.to_move
        mover, other = (a, b) if to_move == 0 else (b, a)
        state = latest[to_move]
        assert state["version"] == version and state["legal"]  # the person takes over, even mid-turn
        move = state["legal"][-1]
        mover.send_json({"type": "act", "action": move, "version": version})
        assert (
            web.receive_state(other, until=lambda s: s["version"] == version + 1)["log"][-1]["action"] == move
        )


def started_with_a_guest(client: TestClient, web: Any) -> tuple[str, str, str]:
    """A two-seat table started with its host and a guest, B: its code, the host's and B's tokens."""
    host = web.create(client, seats=2, seed=3)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "B"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    return code, host["token"], guest["token"]


def play_while_guest_away(present: Any, web: Any, moves: int) -> list[int]:
    """The host at ``present`` plays on until a bot made ``moves`` moves for the absent guest (seat
    1): the guest's log indices seen by then."""
    guest_moves: list[int] = []
    while len(guest_moves) < moves:
        state = web.receive_state(present, until=lambda s: bool(s["legal"]))
        guest_moves = [e["index"] for e in state["log"] if e["seat"] == 1 and e["index"] >= 0]
        present.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
    return guest_moves


def welcome_of(client: TestClient, code: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": token})
        return dict(ws.receive_json())


def test_the_welcome_back_lists_the_moves_a_bot_made_for_the_seat(
    quick_takeover: TestClient, web: Any
) -> None:
    """A person whose link was down long enough for a bot to play their seat is told on coming back
    which moves it made (their log indices), once; the other seat's welcome says nothing of it."""
    client = quick_takeover
    code, host, guest = started_with_a_guest(client, web)
    table = table_of(client, code)
    with web.connect(client, code, host) as present:
        guest_moves = play_while_guest_away(present, web, 3)
        welcome = welcome_of(client, code, guest)
        assert welcome["type"] == "welcome" and welcome["seat"] == 1
        assert welcome["stood_in"][: len(guest_moves)] == guest_moves, (welcome, guest_moves)
        assert all(table.match.history[i].seat == 1 for i in welcome["stood_in"])
        assert "stood_in" not in welcome_of(client, code, guest)  # told once
    assert "stood_in" not in welcome_of(client, code, host)


def test_the_moves_a_bot_made_for_an_absent_seat_are_kept_only_the_last(
    quick_takeover: TestClient, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list told on coming back was cut when sent, while the table kept every index of an absence
    as long as the match lasted: what a person away holds in memory is bounded too."""
    from rummykit.web import tables

    monkeypatch.setattr(tables, "STOOD_IN_KEPT", 2)
    client = quick_takeover
    code, host, guest = started_with_a_guest(client, web)
    table = table_of(client, code)
    with web.connect(client, code, host) as present:
        guest_moves = play_while_guest_away(present, web, 4)
        assert len(table._stood_in[1]) == 2
        welcome = welcome_of(client, code, guest)
        assert len(welcome["stood_in"]) == 2 and welcome["stood_in"][0] > guest_moves[0]


def test_the_seat_draw_opens_the_log(client: TestClient, bot_table: dict[str, Any], web: Any) -> None:
    """The draw for the first dealer comes first in the moves list ("Bot 2: draws A♥ and deals first")."""
    code, token = bot_table["code"], bot_table["token"]
    match = table_of(client, code).match
    assert match.seat_draw is not None and match.first_dealer == match.seat_draw.dealer
    with web.connect(client, code, token) as ws:
        state = web.receive_state(ws)
    drawn = protocol.seat_draw_json(match)
    assert state["log"][: len(drawn)] == drawn
    cards = [card for row in match.seat_draw.drawn() for _, card in row]
    assert [e["action"] for e in drawn] == [f"draws {card_text(c)}" for c in cards[:-1]] + [
        f"draws {card_text(cards[-1])} and deals first"
    ]
    assert drawn[-1]["seat"] == match.first_dealer
    # In words the line is the seat draw, not a draw from the stock ("Bot 2: zieht Herz-3").
    assert all(e["texts"]["de"].startswith("zieht um Plätze und Geber ") for e in drawn), drawn
    assert drawn[-1]["texts"]["en"].endswith(" for the seats and deals first"), drawn


def test_the_moves_list_names_a_dealer_who_did_not_draw_last() -> None:
    """D21: two jokers are drawn again and both lose to the A♣ already shown; the list closes with
    the A♣'s player dealing first, and nobody else's draw says so."""
    match = rk.Match.new(rk.Rules.preset("german"), 4, seed=14)
    assert match.seat_draw is not None and not match.seat_draw.dealer_drew_last
    entries = protocol.seat_draw_json(match)
    assert [e["seat"] for e in entries] == [0, 1, 2, 3, 0, 3, 2] and match.first_dealer == 2
    assert not any("deals first" in e["action"] for e in entries[:-1])
    assert entries[-1]["action"] == "deals first with A♣"
    assert entries[-1]["texts"] == {
        "en": "deals first with the ace of clubs",
        "de": "gibt zuerst mit Kreuz-Ass",
    }


def test_a_hand_the_dealer_sits_out_lists_only_the_active_seats() -> None:
    """German Rummy by the DSkV at four: the dealer sits the hand out. The score sheet's hand says which
    seats played it (the dealer's 0 is no result), as the view does (in play, not active)."""
    from rummykit.bots import GreedyBot
    from rummykit.match import Match
    from rummykit.rules import Rules

    match = Match.new(Rules.preset("german_dskv"), 4, seed=2, dealer=3)
    view = protocol.view_json(match.round.view(0), own=True)
    assert (view["in_play"], view["active_seats"], view["hand_sizes"][3]) == ([0, 1, 2, 3], [0, 1, 2], 0)
    bot, rng = GreedyBot(), random.Random(2)
    while match.hands_dealt == 1 and not match.is_over:
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
    hand = protocol.match_json(match)["hands"][0]
    assert hand["active_seats"] == [0, 1, 2] and hand["points"][3] == 0
    assert (hand["dealer"], hand["multiplier"]) == (3, 1)


def test_the_score_sheet_keeps_each_hands_dealer_and_hand_romme_factor() -> None:
    """A tournament's sheet says who dealt every hand and marks a Hand-Rommé (×2): the match's state
    carries both per hand, as ``rummykit sheet`` prints them. Seed 3: seat 2 goes out at once."""
    from rummykit.bots import GreedyBot
    from rummykit.match import Match
    from rummykit.rules import Rules

    match = Match.new(Rules.preset("german_dskv"), 4, seed=3, dealer=3)
    bot, rng = GreedyBot(), random.Random(3)
    while match.hands_dealt < 3 and not match.is_over:
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
    hands = protocol.match_json(match)["hands"]
    assert [h["dealer"] for h in hands] == [3, 0]  # clockwise: everybody deals once
    assert hands[0]["multiplier"] == 2 and hands[0]["points"] == [-196, -100, 0, 0]
    assert hands[1]["multiplier"] == 1


def test_a_knock_games_state_says_the_seats_own_deadwood_and_the_knock_limit(
    client: TestClient, web: Any
) -> None:
    """Rommé ohne Auslegen: each seat's state carries its own deadwood and the knock limit (after the
    draw, the least a discard leaves, never by discarding the card just taken); a spectator's has
    none, and nobody's says anything about another hand."""
    from rummykit import solver
    from rummykit.cards import parse_cards
    from rummykit.rules import Rules

    rules = Rules.preset("romme_ohne_auslegen")
    grant = web.create(client, preset="romme_ohne_auslegen", seats=2, bots=[{"kind": "random"}], seed=1)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=my_turn)
        hand = parse_cards(" ".join(state["view"]["hand"]))
        line = state["view"]["knock_line"]
        assert line == {
            "deadwood": 44,
            "after_discard": False,
            "threshold": 10,
            "comparison": "lt",
            "melds": [[str(c) for c in m.cards] for m in solver.best_arrangement(hand, rules).melds],
        }
        assert line["deadwood"] == solver.min_deadwood(hand, rules)
        version = state["version"]
        ws.send_json({"type": "act", "action": "take", "version": version})
        state = web.receive_state(ws, until=lambda s: s["version"] > version)
        view = state["view"]
        hand = parse_cards(" ".join(view["hand"]))
        taken = parse_cards(view["taken_discard"])[0]
        least = min(solver.min_deadwood([c for j, c in enumerate(hand) if j != i], rules)
                    for i, card in enumerate(hand) if card != taken)  # fmt: skip
        melds = [[str(c) for c in m.cards] for m in solver.best_arrangement(hand, rules).melds]
        assert view["knock_line"] == {**line, "deadwood": least, "after_discard": True, "melds": melds}
        with web.connect(client, grant["code"]) as watch:
            assert web.receive_state(watch)["view"]["knock_line"] is None
    german = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=1)
    with web.connect(client, german["code"], german["token"]) as ws:
        assert web.receive_state(ws)["view"]["knock_line"] is None


def test_a_connection_too_slow_to_read_is_closed_and_leaves_its_seat(
    client: TestClient, bot_table: dict[str, Any]
) -> None:
    """A connection whose queue of outgoing messages is full is dropped: what it has not read is
    discarded so that its writer closes it at once, and its seat no longer counts as connected (bots
    stopped playing for nobody only when the client spoke again or its pings timed out)."""
    import asyncio

    from rummykit.web.tables import CLIENT_QUEUE, Client

    table = table_of(client, bot_table["code"])
    slow = Client(0)
    table.clients.add(slow)
    try:
        assert table.connected(0) and table.anyone_connected()
        for n in range(CLIENT_QUEUE + 1):  # the last message finds the queue full
            slow.send({"type": "chat", "n": n})
        assert slow.dropped and slow.queue.qsize() == 1 and slow.queue.get_nowait() is None
        assert not table.connected(0) and not table.anyone_connected()
        with pytest.raises(asyncio.QueueEmpty):
            slow.queue.get_nowait()
    finally:
        table.clients.remove(slow)
    # A queue just full when the table closes the connection keeps what it holds, the end marker after.
    busy = Client(0)
    for n in range(CLIENT_QUEUE):
        busy.send({"type": "chat", "n": n})
    busy.close()
    assert busy.dropped and busy.queue.qsize() == CLIENT_QUEUE + 1
    assert [busy.queue.get_nowait() for _ in range(CLIENT_QUEUE)][-1] == '{"type":"chat","n":63}'
    assert busy.queue.get_nowait() is None


def test_watchers_arriving_and_leaving_send_the_players_nothing(
    client: TestClient, bot_table: dict[str, Any], web: Any
) -> None:
    """A watcher gets the state; the people at the table are not sent one for each watcher (a burst
    of a hundred watchers, each a state to everybody, filled a player's queue and dropped the
    player), only for the first, so that they know at once that they are watched (and their chat
    read). The count of watchers comes with the next state."""
    code, token = bot_table["code"], bot_table["token"]
    with web.connect(client, code, token) as seat_ws:
        state = web.receive_state(seat_ws, until=my_turn)
        with web.connect(client, code) as first:
            web.receive_state(first, limit=5)
            watched = web.receive_state(seat_ws, limit=5)
            assert watched["table"]["spectators"] == 1 and watched["version"] == state["version"]
            for _ in range(3):
                with web.connect(client, code) as watch_ws:
                    assert watch_ws.receive_json()["seat"] is None
                    assert web.receive_state(watch_ws, limit=5)["table"]["spectators"] >= 2
            expect_nothing_pending(seat_ws)
            seat_ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
            after = web.receive_state(seat_ws, limit=5)
            assert after["table"]["spectators"] == 1 and after["version"] > state["version"]


def test_a_state_waiting_to_be_written_is_replaced_by_the_newer_one() -> None:
    import asyncio

    from rummykit.web.tables import CLIENT_QUEUE, Client

    async def read(c: Client, n: int) -> list[str | None]:
        return [await c.next() for _ in range(n)]

    c = Client(0)
    c.send('{"type":"state","version":1}')
    c.send('{"type":"state","version":2}')  # replaces version 1, which waited last
    c.send({"type": "notice", "version": 2})
    for version in range(3, 3 * CLIENT_QUEUE):  # far more states than the queue holds: none is dropped
        c.send(f'{{"type":"state","version":{version}}}')
    assert not c.dropped and c.queue.qsize() == 3
    # In order: the notice keeps its place, the state before it is skipped (a newer one follows).
    last = f'{{"type":"state","version":{3 * CLIENT_QUEUE - 1}}}'
    assert asyncio.run(read(c, 2)) == ['{"type":"notice","version":2}', last]
    c.send('{"type":"state","version":500}')  # written: the next one is queued anew
    c.send({"type": "chat", "text": "hi"})
    assert asyncio.run(read(c, 2)) == ['{"type":"state","version":500}', '{"type":"chat","text":"hi"}']
