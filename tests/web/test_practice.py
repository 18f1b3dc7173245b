"""Practice tables: undo as a stored event (append-only, replayed after a restart), refused where
another person sits or where it would show a hidden card; the move list of the current hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.bots import BOT_LEVELS, LEVEL_LINES
from rummykit.cards import Card
from rummykit.i18n.cards import card_name
from rummykit.i18n.levels import LEVEL_LINES_DE, LEVEL_NAMES_DE
from rummykit.match import Match
from rummykit.rules import Rules
from rummykit.web.app import create_app
from rummykit.web.handlog import hand_log_json, hand_numbers
from rummykit.web.practice import (
    UNDO_BURST,
    UndoRefused,
    effective_actions,
    is_undo,
    play_on,
    undo_record,
    undo_target,
    visible_cards,
)
from rummykit.web.protocol import log_json, seat_draw_json
from rummykit.web.tables import Seat, Table


def fresh_german(seed: int = 7) -> Callable[[], Match]:
    rules = Rules.preset("german")
    return lambda: Match.new(rules, 2, seed=seed)


def first_of(match: Match, prefix: str) -> str:
    return next(str(a) for a in match.legal_actions() if str(a).startswith(prefix))


# Records -------------------------------------------------------------------------------------------
def test_undo_records_fold_into_the_moves_in_force() -> None:
    records = ["draw", "discard QH", "take", undo_record(2), "draw", undo_record(1), "take"]
    assert effective_actions(records) == ["draw", "take"]
    assert is_undo(undo_record(0)) and not is_undo("draw")
    for bad in (["#undo 3"], ["draw", "#undo -1"], ["#undo x"], ["#undo 01"]):
        with pytest.raises(ValueError):
            effective_actions(bad)
    with pytest.raises(ValueError):
        undo_record(-1)


# What undo may take back -----------------------------------------------------------------------------
def test_a_draw_from_the_stock_is_never_taken_back() -> None:
    fresh = fresh_german()
    match = fresh()
    seat = match.to_move
    match.apply("draw")
    with pytest.raises(UndoRefused) as refused:
        undo_target(match, seat)
    assert refused.value.code == "undo_shows_card"
    # After the draw and a discard, undo takes back the discard and keeps the draw: the same card in
    # hand, the stock unseen.
    discard = first_of(match, "discard")
    held = match.round.view(seat).hand
    match.apply(discard)
    assert match.to_move != seat
    assert undo_target(match, seat) == 1
    again = fresh()
    again.apply("draw")
    assert again.round.view(seat).hand == held


def test_a_taken_discard_can_be_taken_back_and_the_stock_stays_unseen() -> None:
    fresh = fresh_german()
    match = fresh()
    seat = match.to_move
    before = match.round.view(seat)
    take = first_of(match, "take")
    match.apply(take)
    assert visible_cards(match.round.view(seat)) == visible_cards(before)  # nothing new was seen
    assert undo_target(match, seat) == 0


def test_undo_crosses_bot_moves_that_show_nothing_but_not_a_shown_card() -> None:
    fresh = fresh_german(11)
    match = fresh()
    me = match.to_move
    match.apply("draw")
    match.apply(first_of(match, "discard"))
    other = match.to_move
    assert other != me
    match.apply("draw")  # the other player draws from the stock: nothing shown to me
    assert undo_target(match, me) == 1  # my discard and the draw after it are taken back
    match.apply(first_of(match, "discard"))  # the other player's discard shows me a hidden card
    with pytest.raises(UndoRefused) as refused:
        undo_target(match, me)
    assert refused.value.code == "undo_shows_card"
    assert "discards" in refused.value.values["move"] and "wirft" in refused.value.values["move_de"]


def test_play_on_names_who_moved_since_a_hand_ended() -> None:
    """What a restart needs to give the break again: the seats that moved after the last hand's end
    (they closed its result), or ``None`` when no hand ended in the moves."""
    rules = Rules.from_mapping({"preset": "viennese"})
    whole = Match.new(rules, 3, seed=5)
    moves: list[str] = []
    movers: list[int] = []
    end = None
    while end is None or len(moves) < end + 2:
        in_play = whole.round
        action = whole.legal_actions()[0]
        movers.append(whole.to_move)
        moves.append(str(action))
        whole.apply(action)
        if end is None and in_play.result is not None:
            end = len(moves)
    assert play_on(Match.new(rules, 3, seed=5), moves[: end - 1]) is None
    assert play_on(Match.new(rules, 3, seed=5), moves[:end]) == set()
    assert play_on(Match.new(rules, 3, seed=5), moves[: end + 1]) == {movers[end]}
    assert play_on(Match.new(rules, 3, seed=5), moves[: end + 2]) == {movers[end], movers[end + 1]}


def test_nothing_to_undo_before_the_first_own_move() -> None:
    match = fresh_german()()
    idle = 1 - match.to_move
    with pytest.raises(UndoRefused) as refused:
        undo_target(match, idle)
    assert refused.value.code == "nothing_to_undo"
    # Nor across the end of a hand: right after a new deal, the last hand's moves stay.
    ended = finished_hands(1, extra=0)
    assert len(ended.rounds) == 2 and not ended.round.history
    for seat in (0, 1):
        with pytest.raises(UndoRefused) as refused:
            undo_target(ended, seat)
        assert refused.value.code == "nothing_to_undo"


# Over the websocket ----------------------------------------------------------------------------------
def practice_table(client: TestClient, web: Any) -> tuple[dict[str, Any], Table]:
    grant = web.create(client, seats=2, name="Anna", bots=[{"kind": "greedy"}])
    return grant, web.table_of(client, grant["code"])


def my_turn(state: dict[str, Any]) -> bool:
    return bool(state["legal"]) and state["you"] == state["match"]["to_move"]


def test_undo_at_a_practice_table_is_stored_and_survives_a_restart(sqlite_url: str, web: Any) -> None:
    settings = web.settings(bot_delay=0, takeover_seconds=30)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        grant, table = practice_table(client, web)
        code = grant["code"]
        with web.connect(client, code, grant["token"]) as ws:
            state = web.receive_state(ws, until=my_turn)
            take = next(a for a in state["legal"] if a == "take")
            ws.send_json({"type": "act", "action": take, "version": state["version"]})
            taken = web.receive_state(ws, until=lambda s: s["version"] > state["version"])
            assert "take" not in taken["legal"]
            ws.send_json({"type": "undo"})
            undone = web.receive_state(ws, until=lambda s: s["version"] > taken["version"])
            assert undone["version"] == taken["version"] + 1  # the undo is a record of its own
            assert undone["view"]["hand"] == state["view"]["hand"]
            assert undone["view"]["discard_pile"] == state["view"]["discard_pile"]
            assert "take" in undone["legal"] and "draw" in undone["legal"]
            # Now draw: that draw cannot be taken back.
            ws.send_json({"type": "act", "action": "draw", "version": undone["version"]})
            drew = web.receive_state(ws, until=lambda s: s["version"] > undone["version"])
            ws.send_json({"type": "undo"})
            error = web.next_of(ws, "error")
            assert error["code"] == "undo_shows_card" and error["version"] == drew["version"]
            assert "Karte" in error["texts"]["de"]
            stored = client.app.state.manager.store.actions(code)  # type: ignore[attr-defined]
            assert stored.count("#undo " + str(len(stored) - 3)) == 1 and stored[-1] == "draw"
            view = table.match.round.view(grant["seat"])
    # A new server on the same database replays the undo: the same hand, the same version.
    with TestClient(create_app(sqlite_url, settings=settings)) as again:
        rebuilt = web.table_of(again, code)
        assert rebuilt.version == drew["version"]
        assert rebuilt.match.round.view(grant["seat"]) == view
        assert [str(a) for a in rebuilt.match.actions] == effective_actions(stored)


def test_undo_is_refused_where_another_person_sits_and_to_spectators(client: TestClient, web: Any) -> None:
    host = web.create(client, seats=3, name="Anna", bots=[{"kind": "greedy"}])
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    with web.connect(client, code, host["token"]) as anna, web.connect(client, code) as watcher:
        anna.send_json({"type": "undo"})
        error = web.next_of(anna, "error")
        assert error["code"] == "not_practice" and "Übungstisch" in error["texts"]["de"]
        watcher.send_json({"type": "undo"})
        assert web.next_of(watcher, "error")["code"] == "spectator"
    # A bot holding the seat of a person who left: still not a practice table.
    table = web.table_of(client, code)
    table.seats[1] = Seat("bot", "Ben (bot)", "greedy", "medium", held_for="x" * 64, held_name="Ben")
    assert guest["seat"] == 1
    with web.connect(client, code, host["token"]) as anna:
        anna.send_json({"type": "undo"})
        assert web.next_of(anna, "error")["code"] == "not_practice"
    assert not any(str(a).startswith("#") for a in table.match.actions)


def test_hints_come_with_their_words(client: TestClient, web: Any) -> None:
    grant, _table = practice_table(client, web)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "hint"})
        hint = web.next_of(ws, "hint")
        assert hint["action"] and set(hint["texts"]) == {"en", "de"}
        # At the draw a take names the card on the discard pile, as the player sees it.
        assert state["legal"] == ["draw", "take"]
        top = state["view"]["discard_pile"][-1]
        assert hint["texts"]["en"] in (
            "draw from the stock",
            f"take the {card_name(Card.parse(top), 'en')} from the discard pile",
        )


# The move list of the current hand --------------------------------------------------------------------
def finished_hands(hands: int, extra: int = 4) -> Match:
    """A two-player German match played at random through ``hands`` hands and ``extra`` moves."""
    match = Match.new(
        Rules.from_mapping({"preset": "german", "match_end": "fixed_hands", "num_hands": 3}), 2, seed=3
    )
    import random

    rng = random.Random(5)
    while len(match.rounds) <= hands:
        match.apply(rng.choice(match.legal_actions()))
    for _ in range(extra):  # a few moves into the next hand
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_log_entries_carry_their_hand_and_the_hand_log_is_the_current_hand() -> None:
    match = finished_hands(1)
    truth = {id(e): n for n, r in enumerate(match.rounds, start=1) for e in r.history}
    entries = log_json(match, length=40)
    moves = [e for e in entries if e["index"] >= 0]
    assert {e["hand"] for e in moves} == {1, 2}
    for e in moves:
        assert e["hand"] == truth[id(match.history[e["index"]])]
    assert hand_numbers(match, 0)[-1] == 2
    log = hand_log_json(match, seat_draw_json)
    assert log["hand"] == 2
    assert [e["index"] for e in log["entries"]] == list(range(len(match.history) - 4, len(match.history)))
    assert all(set(e["texts"]) == {"en", "de"} for e in log["entries"])
    first = hand_log_json(Match.new(Rules.preset("german"), 2, seed=3), seat_draw_json)
    assert first["hand"] == 1 and all(e["index"] == -1 for e in first["entries"])  # the seat draw


def test_hand_log_over_the_websocket(client: TestClient, web: Any) -> None:
    grant, table = practice_table(client, web)
    with (
        web.connect(client, grant["code"], grant["token"]) as ws,
        web.connect(client, grant["code"]) as watcher,
    ):
        state = web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        web.receive_state(ws, until=lambda s: s["version"] > state["version"])
        watcher.send_json({"type": "hand_log"})
        answer = web.next_of(watcher, "hand_log")
        assert answer["hand"] == 1 and answer["version"] == table.version
        moves = [e for e in answer["entries"] if e["index"] >= 0]
        assert moves and moves[-1]["action"] == "draw" and all(e["hand"] == 1 for e in moves)


# Bot levels in German -------------------------------------------------------------------------------
def test_every_bot_level_has_a_german_menu_line(client: TestClient) -> None:
    assert set(LEVEL_LINES_DE) == set(BOT_LEVELS) == set(LEVEL_NAMES_DE)
    for level, line in LEVEL_LINES_DE.items():
        assert line.startswith(LEVEL_NAMES_DE[level] + ":")
    presets = client.get("/api/presets").json()
    texts = presets["level_texts"]
    assert texts == {level: {"en": LEVEL_LINES[level], "de": LEVEL_LINES_DE[level]} for level in BOT_LEVELS}
    assert presets["leveled_bots"] == ["search"]  # the lobby offers a level for the search alone


def test_every_bot_the_lobby_offers_has_a_line_in_both_languages(client: TestClient) -> None:
    from rummykit.bots import BOT_KIND_LINES
    from rummykit.i18n.levels import BOT_KIND_LINES_DE

    presets = client.get("/api/presets").json()
    assert set(presets["bot_texts"]) == set(presets["bots"])
    for kind, texts in presets["bot_texts"].items():
        assert texts == {"en": BOT_KIND_LINES[kind], "de": BOT_KIND_LINES_DE[kind]}


def test_every_bot_the_lobby_offers_has_a_name_in_both_languages(client: TestClient) -> None:
    """The lobby and the waiting room name a bot in words ("Greedy" / "Gierig"), not by its id."""
    from rummykit.bots import BOT_KIND_NAMES
    from rummykit.i18n.levels import BOT_KIND_NAMES_DE

    presets = client.get("/api/presets").json()
    assert set(presets["bot_names"]) == set(presets["bots"])
    for kind, names in presets["bot_names"].items():
        assert names == {"en": BOT_KIND_NAMES[kind], "de": BOT_KIND_NAMES_DE[kind]}
        assert kind not in (names["en"], names["de"])


def test_undos_in_a_row_are_rate_limited(client: TestClient, web: Any) -> None:
    grant, table = practice_table(client, web)
    answers = []
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=my_turn)
        start = state["version"]
        for _ in range(UNDO_BURST + 1):
            ws.send_json({"type": "act", "action": "take", "version": state["version"]})
            taken = web.receive_state(ws, until=lambda s, v=state["version"]: s["version"] > v)
            ws.send_json({"type": "undo"})
            msg = ws.receive_json()
            while msg["type"] not in ("state", "error"):
                msg = ws.receive_json()
            answers.append("undone" if msg["type"] == "state" else msg["code"])
            state = msg if msg["type"] == "state" else taken
            if msg["type"] == "error":
                break
    assert answers == ["undone"] * UNDO_BURST + ["undo_rate"]
    assert table.version == start + 2 * UNDO_BURST + 1  # every move and every undo is a record


def two_people(client: TestClient, web: Any, **spec: Any) -> tuple[str, dict[int, str]]:
    """A started table of Anna and Ben (no bots): its code and each seat's token."""
    host = web.create(client, seats=2, name="Anna", **spec)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
    return code, {host["seat"]: host["token"], guest["seat"]: guest["token"]}


def ask_for_a_hint(client: TestClient, web: Any, code: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The answer to a hint asked by the player to move."""
    mover = web.table_of(client, code).match.to_move
    with web.connect(client, code, tokens[mover]) as ws:
        web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "hint"})
        while (msg := ws.receive_json())["type"] not in ("hint", "error"):
            pass
        return dict(msg)


def test_hints_where_another_person_sits_only_at_a_table_made_with_hints_for_everyone(
    sqlite_url: str, web: Any
) -> None:
    settings = web.settings(bot_delay=0)
    with TestClient(create_app(sqlite_url, settings=settings)) as client:
        code, tokens = two_people(client, web)
        assert client.get(f"/api/tables/{code}").json()["hints"] == "practice"
        refused = ask_for_a_hint(client, web, code, tokens)
        assert refused["code"] == "hints_off" and "Übungstisch" in refused["texts"]["de"]

        open_code, open_tokens = two_people(client, web, hints="everyone")
        hint = ask_for_a_hint(client, web, open_code, open_tokens)
        assert hint["type"] == "hint" and hint["action"]
        listed = {t["code"]: t["hints"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {code: "practice", open_code: "everyone"}
        bad = client.post("/api/tables", json={"preset": "german", "hints": "sometimes"})
        assert bad.status_code == 422
    # The setting is stored with the table: a new server on the same database keeps it.
    with TestClient(create_app(sqlite_url, settings=settings)) as again:
        assert again.get(f"/api/tables/{open_code}").json()["hints"] == "everyone"
        assert ask_for_a_hint(again, web, open_code, open_tokens)["type"] == "hint"
        assert ask_for_a_hint(again, web, code, tokens)["code"] == "hints_off"
