"""A table's game record (``GET /api/tables/{code}/record``): refused while the match can still be
played (it holds every hidden card), then a file that ``rummykit replay`` steps through, with every
deal and reshuffle of a table dealt from its secret and no player's name."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi.testclient import TestClient

import rummykit as rk
from rummykit.record import DEALT_VERSION, VERSION
from rummykit.web.lobby import LobbyError
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


def test_a_record_is_not_handed_out_while_an_end_is_being_stored(client: TestClient, web: Any) -> None:
    """The last person's leave sets ``closed`` and then stores it; a record asked for meanwhile would
    have held the stock of a match that goes on when the write fails (the status goes back)."""
    host = web.create(client, preset="german", seats=2, name="Anna", bots=[{"kind": "random"}])
    table = web.table_of(client, host["code"])
    manager = table.manager
    stored = manager.db
    writing = asyncio.Event()

    async def failing_write(fn: Any, *args: Any) -> Any:
        if fn == manager.store.update_lobby:
            writing.set()
            await asyncio.sleep(0.2)
            raise OSError("disk full")
        return await stored(fn, *args)

    async def scenario() -> tuple[BaseException | None, int]:
        manager.db = failing_write
        try:
            leave = asyncio.create_task(table.leave(host["token"]))
            await writing.wait()
            assert table.status == "closed"  # set before the write, in the lock
            try:
                await table.record_json()
            except LobbyError as exc:
                refused = exc.status
            else:
                refused = 200
            return (await asyncio.gather(leave, return_exceptions=True))[0], refused
        finally:
            manager.db = stored

    failed, refused = client.portal.call(scenario)  # type: ignore[union-attr]
    assert isinstance(failed, OSError) and refused == 409
    assert table.status == "playing"


def test_an_ended_table_s_record_is_made_once(client: TestClient, web: Any, monkeypatch: Any) -> None:
    host = web.create(client, preset="gin", seats=2, seed=4, bots=[{"kind": "random"}])
    with web.connect(client, host["code"], host["token"]) as anna:
        finish_gin_hand(anna, web)
    made = []
    original = rk.Record.from_match

    def counted(match: Any) -> Any:
        made.append(match)
        return original(match)

    monkeypatch.setattr(rk.Record, "from_match", counted)
    answers = [client.get(f"/api/tables/{host['code']}/record") for _ in range(3)]
    assert {a.status_code for a in answers} == {200} and len({a.content for a in answers}) == 1
    assert len(made) == 1


def test_a_table_s_record_says_who_played_each_seat_and_which_move_followed_a_hint(
    client: TestClient, web: Any
) -> None:
    host = web.create(client, preset="gin", seats=2, seed=4, name="Anna", bots=[{"kind": "random"}])
    with web.connect(client, host["code"], host["token"]) as anna:
        state = web.receive_state(anna, until=lambda s: bool(s["legal"]))
        anna.send_json({"type": "hint"})
        assert web.next_of(anna, "hint")["version"] == state["version"]
        anna.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
        finish_gin_hand(anna, web)
    data = client.get(f"/api/tables/{host['code']}/record").json()
    assert data["version"] == VERSION  # seats need no new version
    anna_seat, bot_seat = data["seats"]
    assert anna_seat == {"kind": "person", "stand_in": [], "hinted": [state["version"] + 1]}
    assert bot_seat == {"kind": "bot", "bot": "random"}  # a random bot has no level
    assert "Anna" not in json.dumps(data)
    record = rk.Record.from_dict(data)
    assert record.seats is not None and record.replay_match().is_over


def test_record_seats_of_stand_ins_held_seats_and_moves_stored_before_authors_were_kept() -> None:
    from rummykit.web.lobby import Seat
    from rummykit.web.tables import record_seats

    seats = [
        Seat("human", "Anna"),
        Seat("bot", "Ben (bot)", "greedy", "medium", held_for="x" * 64, held_name="Ben"),  # Ben left
        Seat("bot", "Bot 3", "search", "hard"),
    ]
    stored = [
        ("draw", 0, "person"), ("discard 5C", 0, "hinted"), ("draw", 1, "person"), ("#undo 2", 1, None),
        ("take", 1, "stand_in"), ("discard 7D", 1, "stand_in"), ("draw", 2, "bot"), ("discard 2S", 2, "bot"),
        ("draw", 0, "stand_in"),
    ]  # fmt: skip
    made = record_seats(seats, stored, 7)
    assert made == (
        rk.RecordSeat.person(stand_in=[7], hinted=[2]),
        rk.RecordSeat.person(stand_in=[3, 4], hinted=[]),
        rk.RecordSeat("bot", "search:hard"),
    )
    older = [(action, seat, None if n < 2 else by) for n, (action, seat, by) in enumerate(stored)]
    assert record_seats(seats, older, 7) == (rk.RecordSeat("person"), made[1], made[2])
    assert record_seats(seats, stored, 8) == (rk.RecordSeat("person"), rk.RecordSeat("person"), made[2])
    assert record_seats([Seat("human", "Anna"), Seat("open")], [], 0) is None
    # Hints for everyone at a table of two people: which moves followed a hint is not told (the
    # record goes to whoever has the code); which a bot made for a person away is.
    private = record_seats(seats, stored, 7, [True, True, False])
    assert private == (
        rk.RecordSeat.person(stand_in=[7], hinted=None),
        rk.RecordSeat.person(stand_in=[3, 4], hinted=None),
        made[2],
    )
    alone = [Seat("human", "Anna"), Seat("bot", "Bot 2", "greedy", "medium")]
    mine = [("draw", 0, "hinted"), ("discard 5C", 0, "person")]
    assert record_seats(alone, mine, 2, [True, False])[0] == rk.RecordSeat.person(stand_in=[], hinted=[1])
