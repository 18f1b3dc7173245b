"""A finished table, once its end is stored, keeps only what it still shows (``rummykit.web.settled``):
every connection is shown the same end, its record, its last hand's log, the organiser's figures and
its rematch are as before, and it no longer holds its match."""

from __future__ import annotations

import gc
import json
import random
import time
import types
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.bots import make_bot
from rummykit.match import Match
from rummykit.round import Round
from rummykit.web import handlog, organiser, protocol
from tests.web.test_ended_tables import finish_gin_hand

SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
"""Objects every table shares (classes, modules, functions), not walked through."""
NOT_WALKED = {"manager", "clients", "lock", "rematch", "_driver", "chat"}
"""What a table refers to that is not its own state (the server, connections, tasks)."""


def engine_objects(table: Any) -> list[Any]:
    """The matches and hands reachable from ``table``'s own state."""
    found, seen = [], set()
    todo = [value for name, value in vars(table).items() if name not in NOT_WALKED]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, SHARED):
            continue
        seen.add(id(obj))
        if isinstance(obj, (Match, Round)):
            found.append(obj)
        todo.extend(gc.get_referents(obj))
    return found


def settled(table: Any) -> bool:
    deadline = time.monotonic() + 10
    while table._settled is None:  # the clock settles it within a second
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_finished_table_keeps_what_it_shows_and_not_its_match(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4, bots=[{"kind": "random"}])
    code, token = host["code"], host["token"]
    table = web.table_of(client, code)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    with web.connect(client, code, token) as anna:
        finish_gin_hand(anna, web)

        def shown() -> dict[str, Any]:
            return {
                "states": [table.state_text(seat) for seat in (0, 1, None)],
                "figures": organiser.organiser_entry(table)["match"],
            }

        before = portal.call(shown)
        held = len(table.match.round.hands[0])
        hand_log = portal.call(handlog.hand_log_text, table.match, table.version, protocol.seat_draw_json)
        record = json.loads(json.dumps(table.record(manager.store.played_by(code)).to_dict()))
        assert engine_objects(table)
        assert settled(table)
        assert engine_objects(table) == []  # no match, no hand: a few texts instead
        assert portal.call(shown) == before  # every seat and the spectators see the same end

        with web.connect(client, code) as late:  # a page that connects late is shown the end
            state = web.receive_state(late)
            watched = json.loads(before["states"][2])
            assert state["match"]["is_over"]
            assert (state["view"], state["log"]) == (watched["view"], watched["log"])
            late.send_json({"type": "hand_log"})
            assert web.next_of(late, "hand_log") == json.loads(hand_log)
        assert client.get(f"/api/tables/{code}/record").json() == record
        anna.send_json({"type": "evaluate", "melds": [["2C", "3C"] * 6]})  # more than any hand held
        refused = web.next_of(anna, "error")
        assert refused["code"] == "too_many_cards" and refused["message"].endswith(f"the {held} of your hand")
        anna.send_json({"type": "rematch"})
        assert web.next_of(anna, "rematch")["seat"] == 0
    assert table._match is None and engine_objects(table) == []  # the record and the log replayed it aside
    assert table.match.actions and table.version == len(table.match.actions)  # read anyway: replayed


ENDS = [
    ("german", 3, "over"),
    ("german_dskv", 4, "over"),
    ("viennese", 4, "over"),
    ("romme_ohne_auslegen", 2, "over"),
    ("scala40", 3, "over"),
    ("basic", 2, "over"),
    ("gin", 2, "over"),
    ("viennese", 3, "closed"),
    ("gin", 2, "expired"),
]
"""Presets, seats and how the table ended (over: the match played out; closed, expired: before)."""


@pytest.mark.parametrize(("preset", "seats", "status"), ENDS)
def test_every_preset_shows_the_same_end_once_settled(
    client: TestClient, web: Any, preset: str, seats: int, status: str
) -> None:
    """Each seat, the spectators, the hand log, the record and the organiser's figures are the same
    before and after a table is settled, for a seeded match of every preset played out by bots
    (Viennese rubbers buying back whenever they may), or ended in its second hand."""
    bots = [{"kind": "random"}] * (seats - 1)
    table = web.table_of(client, web.create(client, preset=preset, seats=seats, seed=5, bots=bots)["code"])
    portal = client.portal  # type: ignore[attr-defined]

    async def shown(settle: bool) -> dict[str, Any]:
        async with table.lock:
            if not settle:
                match, bot, rng = table.fresh_match(), make_bot("greedy"), random.Random(5)
                while not match.is_over and not (status != "over" and match.hands_dealt >= 2):
                    legal = match.legal_actions()
                    buys = [a for a in legal if str(a) == "buyback"]
                    match.apply(buys[0] if buys else bot.choose(match.round.view(match.to_move), legal, rng))
                table.match, table.records, table.status = match, len(match.actions), status
                table.end_unsaved = False
            return {
                "states": [json.loads(table.state_text(seat)) for seat in (*range(seats), None)],
                "hand_log": await table._hand_log_text(),
                "record": table.record(None, table._readable_match()).to_dict(),
                "figures": organiser.organiser_entry(table)["match"],
            }

    before = portal.call(shown, False)
    assert portal.call(table.settle) and table._match is None
    assert portal.call(shown, True) == before
    assert table._match is None  # replayed aside, not kept
    after = [json.loads(table.state_text(seat)) for seat in (*range(seats), None)]
    assert [state["view"]["seat"] for state in after] == [*range(seats), None]  # each its own hand
    assert after[-1]["view"]["hand"] is None and after[-1]["view"]["knock_line"] is None  # spectators
