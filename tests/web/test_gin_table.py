"""Gin at a web table: the generic legal-action list plays a whole hand (OpenSpiel's phases)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from rummykit.actions import Pass
from rummykit.i18n import describe_action
from rummykit.views import Phase


def test_a_gin_hand_is_played_to_its_end_through_the_legal_action_list(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], seed=5)
    rng = random.Random(5)
    seen: set[str] = set()
    passes: set[str] = set()
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws)
        for _ in range(3000):
            view = state["view"]
            if state["match"]["hands"]:
                break
            legal = state["legal"]
            if not legal:
                state = web.receive_state(ws)
                continue
            seen.add(view["phase"])
            if "pass" in legal:  # the move button says what the pass means in this phase
                words = state["legal_texts"][legal.index("pass")]["en"]
                assert words == describe_action(Pass(), "en", form="verb", phase=Phase(view["phase"])), words
                passes.add(words)
            action = "knock" if "knock" in legal else rng.choice(legal)
            version = state["version"]
            ws.send_json({"type": "act", "action": action, "version": version})
            state = web.receive_state(ws, until=lambda s, v=version: s["version"] > v)
        hands = state["match"]["hands"]
        assert hands and hands[0]["termination"] in ("knock", "wall", "drawn")
        if hands[0]["termination"] == "knock":
            assert sum(hands[0]["points"]) == 0
    assert {"first_upcard", "discard"} <= seen
    assert "pass on the upcard" in passes, passes


def test_the_move_list_says_what_a_gin_pass_or_knock_means() -> None:
    """An event does not keep its phase; the move list reads it from the hand's history. Checked
    against the phase each pass and knock was really made in, over seeded greedy-and-random gin
    hands (a knock at the wall is made with the upcard)."""
    import rummykit as rk
    from rummykit.actions import KnockDeclare, Pass
    from rummykit.bots import GreedyBot, RandomBot
    from rummykit.web.handlog import defender_layoffs_done, gin_move_phase, log_entry

    seen: set[str] = set()
    defender_passes: list[bool] = []
    for seed in range(40):
        match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=seed)
        bots = [GreedyBot(), RandomBot()] if seed % 2 else [RandomBot(), RandomBot()]  # random: the wall
        rng = random.Random(seed)
        truth: list[tuple[rk.Round, object, str]] = []
        while not match.is_over:
            view, legal = match.round.view(match.to_move), match.legal_actions()
            action, rnd = bots[match.to_move].choose(view, legal, rng), match.round
            match.apply(action)
            if isinstance(action, (Pass, KnockDeclare)):
                truth.append((rnd, rnd.history[-1], str(view.phase)))  # a dead hand is dealt again
            if isinstance(action, Pass) and view.phase is Phase.LAYOFF and view.gin is not None:
                # The defender's two passes: the log tells them apart as the view did.
                assert defender_layoffs_done(rnd, rnd.history[-1]) is view.gin.layoffs_done
                defender_passes.append(view.gin.layoffs_done)
        for rnd, event, phase in truth:
            assert str(gin_move_phase(rnd, event)) == phase  # type: ignore[arg-type]
            seen.add(f"{event.action} {phase}")  # type: ignore[attr-defined]
    assert set(defender_passes) == {False, True}
    passes = {"pass first_upcard", "pass knock", "pass layoff", "pass wall"}
    assert seen >= passes | {"knock discard", "knock wall"}, seen
    # In the log's words.
    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    match.apply("pass")
    entry = log_entry(0, match.round.history[-1], match, False, 1)
    assert entry["texts"] == {"en": "passes on the upcard", "de": "passt bei der offenen Karte"}


def test_a_gin_result_says_gin_and_who_undercut() -> None:
    """The result's ``winner`` is the knocker even when undercut; the state says so outright."""
    import rummykit as rk
    from rummykit.views import RoundResult, Termination
    from rummykit.web.protocol import result_json

    zero = (0, 0)
    gin, viennese = rk.Rules.preset("gin"), rk.Rules.preset("viennese")
    undercut = result_json(RoundResult(Termination.KNOCK, 1, (30, -30), zero, zero, (4, 9)), gin)
    assert undercut is not None and (undercut["gin"], undercut["undercut_by"]) == (False, 0)
    went_gin = result_json(RoundResult(Termination.KNOCK, 1, (-35, 35), zero, zero, (10, 0)), gin)
    assert went_gin is not None and (went_gin["gin"], went_gin["undercut_by"]) == (True, None)
    knocked = result_json(RoundResult(Termination.KNOCK, 1, (30, -30), zero, zero, (4, 9)), viennese)
    assert knocked is not None and (knocked["gin"], knocked["undercut_by"]) == (False, None)


def test_a_gin_seat_sees_its_deadwood_under_the_piles() -> None:
    """Gin's own deadwood, as the apps show it: the ten cards' least deadwood, and after the draw the
    count that decides the knock, against the hand's knock card (Oklahoma: the upcard's value)."""
    import rummykit as rk
    from rummykit.testing import arrange_deck
    from rummykit.web.protocol import knock_line_json

    rules = rk.Rules.preset("gin").replace(oklahoma=True)
    deck = arrange_deck(rules, 2, ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"],
                        dealer=1, upcard="7S")  # fmt: skip
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)
    melds = [["5C", "5D", "5S"], ["9C", "10C", "JC"], ["AH", "2H", "3H"]]  # the hand's best arrangement
    ten = {"deadwood": 4, "after_discard": False, "threshold": 7, "comparison": "le", "big_gin": False}
    assert knock_line_json(rnd.view(0)) == {**ten, "melds": melds}
    rnd.apply("take")
    assert knock_line_json(rnd.view(0)) == {**ten, "after_discard": True, "melds": melds}  # 7♠ or 4♦ goes
    dealer = knock_line_json(rnd.view(1))  # the dealer's 4♠ and three runs
    assert dealer is not None and dealer["deadwood"] == 4 and len(dealer["melds"]) == 3


def test_the_deadwood_line_leaves_out_a_taken_card_that_may_not_go_back() -> None:
    """``may_discard_taken_discard = false``: after taking the K♦ the least deadwood an allowed discard
    leaves is 10 (the 4♦ goes; the K♦ may not), not the 4 that throwing the K♦ back would leave."""
    import rummykit as rk
    from rummykit.testing import arrange_deck
    from rummykit.web.protocol import knock_line_json

    rules = rk.Rules.preset("gin").replace(may_discard_taken_discard=False, knock_card=9)
    deck = arrange_deck(rules, 2, ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"],
                        dealer=1, upcard="KD")  # fmt: skip
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)
    rnd.apply("take")
    line = knock_line_json(rnd.view(0))
    assert line is not None and (line["deadwood"], line["after_discard"]) == (10, True)
    assert rk.actions.KnockDeclare() not in rnd.legal_actions()  # the line agrees with the knock refused


def test_the_defender_sees_the_cards_the_knocker_kept_out_of_its_melds() -> None:
    """The page's gin line counts what the knocker knocked with from the view's ``revealed``: in the
    lay-off phase the defender's view holds the knocker's cards left out of its melds (what the
    showdown counts), a gin none."""
    import rummykit as rk
    from rummykit.testing import arrange_deck
    from rummykit.web.protocol import view_json

    gin = rk.Rules.preset("gin")
    hands = ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 5H"]
    knock = ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass")
    match = rk.Match.new(gin, 2, seed=1, dealer=1, deck=arrange_deck(gin, 2, hands, dealer=1, upcard="KD"))
    for move in knock:
        match.apply(move)
    sent = view_json(match.round.view(1), own=True)
    assert sent["phase"] == "layoff" and sent["knocker"] == 0
    assert sent["revealed"] == [["4D"], None]
    gin_hands = ["AH 2H 3H 5C 5D 5S 9C 10C JC QC", "2C 3C 4C 6D 7D 8D 6H 7H 9S KS"]
    deck = arrange_deck(gin, 2, gin_hands, dealer=1, upcard="KD")
    match = rk.Match.new(gin, 2, seed=1, dealer=1, deck=deck)
    for move in (*knock[:5], "meld 9C 10C JC QC", "pass"):
        match.apply(move)
    assert view_json(match.round.view(1), own=True)["revealed"] == [[], None]
