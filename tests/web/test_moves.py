"""The cheap state message: ``legal`` is exactly the engine's simple moves, ``compose`` covers every
compound kind the engine would offer, and the full list comes on request once per version."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest

from rummykit.actions import Action
from rummykit.match import Match
from rummykit.rules import Rules
from rummykit.web.moves import COMPOUND_VERBS, allowed
from rummykit.web.texts import action_texts

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.mark.parametrize("preset", ["german", "scala40", "basic", "viennese"])
def test_cheap_options_match_the_engine_list(preset: str) -> None:
    rng = random.Random(preset)
    seen_compose = 0
    for game in range(3):
        match = Match.new(Rules.from_mapping({"preset": preset, "match_end": "single_hand"}), 3, seed=game)
        while not match.is_over and len(match.actions) < 300:
            full = [str(a) for a in match.legal_actions()]
            options = allowed(match, action_texts)
            assert options.texts == [action_texts(Action.parse(a)) for a in options.legal]
            simple = [a for a in full if a.split()[0] not in COMPOUND_VERBS]
            assert options.legal == simple
            compound = {a.split()[0] for a in full} & set(COMPOUND_VERBS)
            assert compound <= set(options.compose), (full, options)
            assert options.complete == (not options.compose)
            if options.complete:
                assert options.legal == full
            seen_compose += bool(options.compose)
            match.apply(rng.choice(full))
    if preset != "viennese":
        assert seen_compose > 0
    else:
        assert seen_compose == 0  # a knock game's list is short: it is always sent whole


def test_moves_on_request_for_the_player_to_move_only(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="german", seats=2, seed=3)  # the mover can open after the draw
    guest = client.post(f"/api/tables/{host['code']}/join", json={"name": "G"}).json()
    assert client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]}).status_code == 200
    table = client.app.state.manager.tables[host["code"]]  # type: ignore[attr-defined]
    mover = table.match.to_move
    grants = [host, guest]
    with web.connect(client, host["code"], grants[mover]["token"]) as ws:
        state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        assert state["legal"] == ["draw", "take"] and state["compose"] == []
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        state = web.receive_state(ws, until=lambda s: s["version"] == 1)
        assert state["compose"] and state["compose"][0] in ("open", "meld")
        assert all(a.startswith("discard ") for a in state["legal"])
        ws.send_json({"type": "moves"})
        answer = ws.receive_json()
        assert answer["type"] == "moves" and answer["version"] == 1
        # Two people, no hints: the openings and melds are not listed (a list of them is a hint).
        full = table.match.legal_actions()
        shown = [a for a in full if str(a).split()[0] not in ("open", "meld")]
        assert any(str(a).startswith("open ") for a in full) and len(shown) < len(full)
        assert answer["actions"] == [str(a) for a in shown]
        assert answer["texts"] == [action_texts(a) for a in shown]
        assert state["legal_texts"] == [action_texts(Action.parse(a)) for a in state["legal"]]
        assert table._moves is not None and table._moves[0] == 1
        cached = table._moves[1]
        ws.send_json({"type": "moves"})  # asked again at this version: the page has the list
        again = ws.receive_json()
        assert again["type"] == "error" and again["code"] == "unchanged" and table._moves[1] is cached
    with web.connect(client, host["code"], grants[1 - mover]["token"]) as other:
        web.receive_state(other)
        other.send_json({"type": "moves"})
        while (msg := other.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "no_moves"


def test_openings_are_listed_where_the_table_gives_hints(client: TestClient, web: Any) -> None:
    """The same deal at a table made with hints for everyone: the moves answer lists the openings
    (at a table without hints they are left out, the test above)."""
    host = web.create(client, preset="german", seats=2, seed=3, hints="everyone")
    guest = client.post(f"/api/tables/{host['code']}/join", json={"name": "G"}).json()
    assert client.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]}).status_code == 200
    table = client.app.state.manager.tables[host["code"]]  # type: ignore[attr-defined]
    mover = [host, guest][table.match.to_move]
    with web.connect(client, host["code"], mover["token"]) as ws:
        state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        web.receive_state(ws, until=lambda s: s["version"] == 1)
        ws.send_json({"type": "moves"})
        answer = ws.receive_json()
        assert answer["actions"] == [str(a) for a in table.match.legal_actions()]
        assert any(a.startswith("open ") for a in answer["actions"])
