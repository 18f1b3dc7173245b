"""The browser's texts in English and German: engine errors, move log, lobby errors, table labels
(issue #19, item 6). The server sends both languages (``texts``); the client shows its own."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.i18n import LABEL_KEYS
from rummykit.i18n.cards import glyphs


def my_turn(state: dict[str, Any]) -> bool:
    return bool(state["legal"])


def test_labels_in_both_languages(client: TestClient) -> None:
    body = client.get("/api/messages").json()
    assert set(body) == {"en", "de"}
    assert set(body["en"]) == set(body["de"]) == set(LABEL_KEYS)
    assert body["de"]["termination.went_out"] == "ausgemacht" and body["en"]["deadwood"] == "deadwood"
    assert body["de"]["hand_n_of_m"] == "Spiel {n} von {m}"


def test_engine_errors_come_in_both_languages(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11, name="Anna")
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=my_turn)
        card = state["view"]["hand"][0]
        ws.send_json({"type": "act", "action": f"discard {card}", "version": state["version"]})
        error = ws.receive_json()
        assert error["code"] == "illegal" and error["rule"] == "draw_first"
        # The message is the engine's text (for programs); the texts are for people: cards by symbol.
        assert error["message"] == f"discard {card}: first draw from the stock or take the discard"
        people = f"discard {glyphs(card)}: first draw from the stock or take the discard"
        assert error["texts"]["en"] == people
        assert error["texts"]["de"].endswith(": Zuerst vom Stoß ziehen oder von der Ablage nehmen")
        assert "abwerfen" in error["texts"]["de"]
        ws.send_json({"type": "act", "action": "discard ZZ", "version": state["version"]})
        notation = ws.receive_json()
        assert notation["code"] == "notation" and notation["texts"]["de"].startswith("Keine Karte: 'ZZ'")
        ws.send_json({"type": "act", "action": "draw", "version": state["version"] + 5})
        stale = ws.receive_json()
        assert stale["code"] == "stale" and stale["texts"]["de"].startswith("Der Tisch hat sich")


def test_log_entries_come_in_both_languages(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws, until=my_turn)
        # Move chips: every legal move worded for a button, in the order of ``legal``.
        assert state["legal"] == ["draw", "take"]
        assert [t["de"] for t in state["legal_texts"]] == ["vom Stoß ziehen", "von der Ablage nehmen"]
        ws.send_json({"type": "act", "action": "draw", "version": state["version"]})
        played = web.receive_state(ws, until=lambda s: s["version"] > state["version"] and s["legal"])
        assert len(played["legal_texts"]) == len(played["legal"])
        chips = dict(zip(played["legal"], played["legal_texts"], strict=True))
        discard = next(a for a in chips if a.startswith("discard "))
        assert chips[discard]["de"].endswith(" abwerfen") and chips[discard]["en"].startswith("discard the ")
        state = played  # its log holds the draw
        for entry in state["log"]:
            assert set(entry["texts"]) == {"en", "de"}
        moves = [e for e in state["log"] if e["index"] >= 0]
        assert any(e["action"] == "draw" and e["texts"]["de"] == "zieht vom Stoß" for e in moves)
        drawn = [e for e in state["log"] if e["index"] < 0]
        assert drawn and (
            drawn[-1]["texts"]["de"].endswith("gibt zuerst") or "ausgelost" in drawn[-1]["texts"]["de"]
        )


def test_a_bad_rule_change_in_the_lobby_is_explained_in_german(client: TestClient) -> None:
    response = client.post(
        "/api/tables", json={"preset": "german", "overrides": {"opening_min_points": "abc"}, "seats": 2}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "opening_min_points must be an integer, not 'abc'"
    assert body["texts"]["en"] == (
        "“opening minimum (points)” (opening_min_points) must be an integer, not 'abc'"
    )
    assert "Mindestwert beim Auslegen" in body["texts"]["de"] and "'abc'" in body["texts"]["de"]


def test_meld_composer_errors_in_both_languages(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="german", seats=2, bots=[{"kind": "random"}], seed=11)
    with web.connect(client, grant["code"], grant["token"]) as ws:
        web.receive_state(ws, until=my_turn)
        ws.send_json({"type": "evaluate", "melds": [["5H", "6C", "9D"]]})
        answer = ws.receive_json()
        while answer["type"] != "evaluation":
            answer = ws.receive_json()
        (entry,) = answer["melds"]
        assert entry["legal"] is False and entry["error"].startswith("5H 6C 9D: ")
        assert entry["error_texts"]["en"] == glyphs(entry["error"])
        assert entry["error_texts"]["de"].startswith("5♥ 6♣ 9♦: ")


def test_a_card_laid_face_down_is_not_named_in_any_language() -> None:
    import rummykit as rk
    from rummykit.testing import arrange_deck
    from rummykit.web import protocol

    rules = rk.Rules.preset("viennese")
    rummy_hand = "2H 3H 4H 5H 9S 9D 9C QC QD QH"
    other = "2C 6C 10C 3D 7D JD 4S 8S QS 5S"
    deck = arrange_deck(rules, 2, [rummy_hand, other], dealer=0, extra="KS")
    match = rk.Match.new(rules, 2, deck=deck, dealer=0)
    match.apply("rummy KS")
    (entry,) = [e for e in protocol.log_json(match) if e["index"] >= 0]
    assert entry["action"] == "rummy"
    assert entry["texts"] == {
        "en": "calls Rummy, laying a card face down",
        "de": "ruft Rummy und legt eine Karte verdeckt ab",
    }


def _card_reader() -> Any:
    """A function giving the cards a text names in any form: notation (``QS``), words in both
    languages (``queen of spades``, ``Pik-Dame``, as an object ``Pik-Buben``) or table glyphs (``Q♠``)."""
    import re

    import rummykit as rk
    from rummykit.cards import ALL_FACES, JOKER
    from rummykit.i18n import card_name
    from rummykit.i18n.cards import card_object

    forms: dict[str, int] = {}
    for card in (*ALL_FACES, JOKER):
        for form in (
            card_name(card, "en"),
            card_name(card, "de"),
            card_object(card, "de"),
            rk.Card(card).symbol(),
            str(rk.Card(card)),
        ):
            forms[form] = int(card)
    ordered = sorted(forms, key=len, reverse=True)  # "10 of clubs" before "10"-anything
    pattern = re.compile(r"(?<![\w♣♦♥♠-])(" + "|".join(map(re.escape, ordered)) + r")(?![\w♣♦♥♠])")

    def read(text: str) -> set[int]:
        return {forms[m] for m in pattern.findall(text)}

    return read


def test_texts_reveal_exactly_the_cards_the_notation_reveals() -> None:
    """The privacy tests read card notation; the texts name cards in words. Over whole games, every
    log text and every button text names exactly the cards of its notation field, no more."""
    import random

    import rummykit as rk
    from rummykit.web import protocol
    from rummykit.web.texts import action_texts

    cards_in = _card_reader()
    for preset, players in (("german", 4), ("viennese", 3), ("german_dskv", 3)):
        match = rk.Match.new(rk.Rules.preset(preset), players, seed=5)
        rng = random.Random(5)
        checked = 0
        while not match.is_over and len(match.actions) < 400:
            legal = match.legal_actions()
            for action in legal[:: max(1, len(legal) // 8)]:  # a sample of each position's moves
                for text in action_texts(action).values():
                    assert cards_in(text) == cards_in(str(action)), (action, text)
            match.apply(rng.choice(legal))
        for entry in protocol.log_json(match, length=10_000):
            for text in entry["texts"].values():
                assert cards_in(text) == cards_in(entry["action"]), (entry, text)
                checked += 1
        assert checked > 50


def test_a_hint_names_the_card_it_takes_and_what_a_gin_pass_means() -> None:
    """The hint's words: a take names the top discard the player sees; a gin pass says which pass."""
    from rummykit.actions import Pass, TakeDiscard
    from rummykit.cards import Card
    from rummykit.views import Phase
    from rummykit.web.texts import action_texts

    nine = Card.parse("9S")
    assert action_texts(TakeDiscard(), taken=nine) == {
        "en": "take the 9 of spades from the discard pile",
        "de": "Pik-9 von der Ablage nehmen",
    }
    assert action_texts(Pass(), phase=Phase.FIRST_UPCARD) == {
        "en": "pass on the upcard",
        "de": "bei der offenen Karte passen",
    }
    assert action_texts(TakeDiscard()) == {"en": "take the discard", "de": "von der Ablage nehmen"}  # a chip


def test_a_joker_exchange_button_counts_the_jokers_it_frees() -> None:
    """Two naturals free one joker of a set in DSkV (the other completes the four), or two jokers."""
    from rummykit import Rules
    from rummykit.actions import Action
    from rummykit.melds import Meld
    from rummykit.web.tables import _freed
    from rummykit.web.texts import action_texts

    dskv, german = Rules.preset("german_dskv"), Rules.preset("german")
    set_of_three = [Meld.parse("6S 6H JK", dskv)]
    run = [Meld.parse("JK 6H JK 8H", german)]
    one = Action.parse("swap 6C 6D on 1")
    assert action_texts(one, freed=_freed(one, set_of_three, dskv)) == {
        "en": "swap 6♣ 6♦ for a joker of meld 1",
        "de": "6♣ 6♦ gegen einen Joker von Figur 1 tauschen",
    }
    two = Action.parse("swap 5H 7H on 1")
    assert action_texts(two, freed=_freed(two, run, german)) == {
        "en": "swap 5♥ 7♥ for two jokers of meld 1",
        "de": "5♥ 7♥ gegen zwei Joker von Figur 1 tauschen",
    }


def test_lobby_refusals_come_in_both_languages(tmp_path: Any, web: Any) -> None:
    """A full table, a started one, the table cap and the request rates: every refusal a stranger
    meets in the lobby carries German words, not only the English detail."""
    from rummykit.web.app import create_app

    settings = web.settings(max_tables_per_address=1, requests_per_second=0.001, requests_burst=4)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'de.db'}", settings=settings)) as c:
        grant = web.create(c, seats=2, name="Anna")
        code = grant["code"]
        seen = {}
        seen["cap"] = c.post("/api/tables", json={"name": "Bob"})
        assert c.post(f"/api/tables/{code}/join", json={"name": "Bob"}).status_code == 200
        seen["full"] = c.post(f"/api/tables/{code}/join", json={"name": "Cleo"})
        assert c.post(f"/api/tables/{code}/start", json={"token": grant["token"]}).status_code == 200
        seen["started"] = c.post(f"/api/tables/{code}/start", json={"token": grant["token"]})
        seen["rate"] = c.get(f"/api/tables/{code}")
        expected = {
            "cap": (429, "offene Tische eröffnet"),
            "full": (409, f"An Tisch {code} ist kein Platz mehr frei"),
            "started": (409, f"Tisch {code} ist schon im Spiel"),
            "rate": (429, "Zu viele Anfragen aus deinem Netz"),
        }
        for name, (status, german) in expected.items():
            body = seen[name].json()
            assert seen[name].status_code == status, (name, body)
            assert body["texts"]["en"] == body["detail"] and german in body["texts"]["de"], (name, body)
