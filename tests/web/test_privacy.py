"""No hidden card reaches another seat: every message of a four-player game is inspected.

Four people and a spectator play two German hands to the end. After every move each connection's
messages are checked against the engine: a seat's message holds its own hand and nothing of any
other hand that is not public (table melds, the discard pile, revealed hands, cards known to have
been taken from the pile); the spectator's holds no hand at all. Cards are compared by face, which
two decks share, so the structure is checked as well: only ``view.hand`` is private, and every
other seat appears as a card count until its hand is revealed.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

from fastapi.testclient import TestClient

from rummykit.match import Match
from rummykit.round import Round
from rummykit.web.tables import Table

POINTS = {"A": 11, "J": 10, "Q": 10, "K": 10, "10": 10}


def faces(cards: Any) -> set[str]:
    return {str(c) for c in cards}


def public_faces(rnd: Round) -> set[str]:
    seen = faces(rnd.discard_pile)
    for tm in rnd.table:
        seen |= faces(tm.meld.cards)
    for seat in range(rnd.seats):
        view = rnd.view(seat)
        for shown in view.revealed:
            seen |= faces(shown or ())
        for known in view.known_cards:
            seen |= faces(known)
        if rnd.is_over:
            seen |= faces(rnd.hands[seat])
    return seen


def allowed_faces(match: Match, seat: int | None) -> set[str]:
    allowed = public_faces(match.round)
    finished = [r for r in match.rounds if r.result is not None]
    if finished:
        allowed |= public_faces(finished[-1])
    if seat is not None:
        allowed |= faces(match.round.hands[seat])
    return allowed


def check_message(message: dict[str, Any], seat: int | None, match: Match, card_pattern: Any) -> None:
    # A joker's annotation in a meld's text, JK(=10S), names what it stands for, not a card.
    text = re.sub(r"\(=[^)]*\)", "", json.dumps(message))
    leaked = set(card_pattern.findall(text)) - allowed_faces(match, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {leaked}: {text[:400]}"
    if message["type"] != "state":
        return
    rnd = match.round
    view = message["view"]
    keys = {"type", "version", "you", "table", "view", "legal", "compose", "legal_texts", "match", "log"}
    assert set(message) == keys | {"last_round", "rest", "turn_left"}
    assert message["turn_left"] is None or isinstance(message["turn_left"], (int, float))  # a time, no card
    if seat is None:
        assert view["hand"] is None and message["legal"] == [] and message["compose"] == []
    else:
        assert sorted(view["hand"]) == sorted(str(c) for c in rnd.hands[seat])
    assert all(isinstance(n, int) for n in view["hand_sizes"])
    for other, shown in enumerate(view["revealed"]):
        if shown is not None:
            assert rnd.is_over or other == rnd.knocker
    for key in ("stock", "deck", "hands", "face_down"):
        assert key not in view
    if message["last_round"] is not None:
        last = message["last_round"]
        assert last["result"] is not None and last["phase"] == "over"
        assert (last["hand"] is None) == (seat is None)


def choose(legal: list[str], rng: random.Random) -> str:
    """A simple player: lay what can be laid, else discard the highest card."""
    for prefix in ("open", "meld", "layoff", "swap", "draw"):
        options = [a for a in legal if a.startswith(prefix)]
        if options:
            return options[0] if prefix != "layoff" else rng.choice(options)
    discards = [a for a in legal if a.startswith("discard")]
    if discards:

        def points(action: str) -> int:
            face = action.split()[1]
            return 30 if face == "JK" else POINTS.get(face[:-1], 0) or int(face[:-1])

        return max(discards, key=points)
    return legal[0]


def test_no_hidden_card_in_any_message_of_a_four_player_game(client: TestClient, web: Any) -> None:
    host = web.create(
        client, preset="german", seats=4, seed=2024, overrides={"num_hands": 2}, name="P1", hints="everyone"
    )
    code = host["code"]
    joins = [client.post(f"/api/tables/{code}/join", json={"name": f"P{i}"}) for i in (2, 3, 4)]
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})  # the host starts
    grants = [host] + [j.json() for j in joins]
    table: Table = client.app.state.manager.tables[code]  # type: ignore[attr-defined]
    assert table.status == "playing"
    rng = random.Random(7)
    inspected = 0
    hints = 0
    with contextlib.ExitStack() as stack:
        connections: list[tuple[int | None, Any]] = [
            (seat, stack.enter_context(web.connect(client, code, g["token"])))
            for seat, g in enumerate(grants)
        ]
        connections.append((None, stack.enter_context(web.connect(client, code))))

        def drain(first: int = 0) -> dict[int | None, dict[str, Any]]:
            """Read every connection up to a pong, checking each message; the last state of each.

            The mover's connection goes first: its pong comes after its move was applied and
            broadcast, so the others have the new state queued by then."""
            latest: dict[int | None, dict[str, Any]] = {}
            for seat, ws in connections[first:] + connections[:first]:
                ws.send_json({"type": "ping"})
                while (msg := ws.receive_json())["type"] != "pong":
                    nonlocal inspected, hints
                    inspected += 1
                    hints += msg["type"] == "hint"
                    check_message(msg, seat, table.match, web.CARD)
                    if msg["type"] == "state":
                        latest[seat] = msg
            return latest

        latest = drain()
        moves = 0
        while not table.match.is_over:
            mover = table.match.to_move
            state = latest.get(mover) or drain()[mover]
            assert state["version"] == table.version and (state["legal"] or state["compose"])
            legal = state["legal"]
            if state["compose"]:  # the complete list, compound moves included, on request
                ws = connections[mover][1]
                ws.send_json({"type": "moves"})
                while (msg := ws.receive_json())["type"] != "moves":
                    check_message(msg, mover, table.match, web.CARD)
                check_message(msg, mover, table.match, web.CARD)
                assert msg["version"] == state["version"] and set(legal) <= set(msg["actions"])
                legal = msg["actions"]
            action = choose(legal, rng)
            connections[mover][1].send_json({"type": "act", "action": action, "version": state["version"]})
            if moves % 10 == 0:  # now and then ask for a hint: it goes to the mover only
                connections[mover][1].send_json({"type": "hint"})
            latest = drain(mover)
            moves += 1
            assert moves < 2000
        assert table.match.hands_dealt == 2
        assert inspected > 5 * moves
        assert hints > 0  # hints were given (the table gives them to everyone) and checked too


def test_a_failed_statement_does_not_carry_its_parameters(tmp_path: Any, postgres_url: str) -> None:
    """A database error reaches the log with the statement's shape only: the values it wrote (seat
    tokens' digests, a table's dealing secret) stay out of the message, on SQLite and PostgreSQL."""
    import pytest
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from rummykit.web.store import _make_engine

    for url in (f"sqlite:///{tmp_path / 'p.db'}", postgres_url):
        engine = _make_engine(url)
        with pytest.raises(SQLAlchemyError) as caught, engine.connect() as connection:
            connection.execute(text("INSERT INTO nowhere VALUES (:secret)"), {"secret": "s3cr3t-digest"})
        assert "s3cr3t-digest" not in str(caught.value) and "hidden" in str(caught.value)
        engine.dispose()
