"""Big gin (``big_gin_bonus``, the rule schools' option; OpenSpiel has none): a knocker whose eleven
cards all lie in melds lays them all instead of discarding and scores the big gin bonus in place of
gin's. Arranged deals through the engine, the bots, the hint, the pages and the result texts."""

from __future__ import annotations

import random

import pytest

import rummykit as rk
from rummykit.actions import Discard, KnockDeclare, LayOffCard, MeldAction, Pass
from rummykit.bots import make_bot
from rummykit.bots.gin_play import gin_action
from rummykit.cards import parse_cards
from rummykit.cli.hints import hint
from rummykit.cli.screen import gin_arithmetic, termination_text
from rummykit.errors import IllegalActionError
from rummykit.explain import explain
from rummykit.explain.language import Lang
from rummykit.gin import knocked_big_gin, knocked_gin
from rummykit.interop.openspiel_gin import openspiel_params
from rummykit.record import Record
from rummykit.testing import arrange_deck, check_invariants, check_rules, play_random_round
from rummykit.views import Phase
from rummykit.web.protocol import result_json

GIN = rk.Rules.preset("gin")
BIG = GIN.replace(big_gin_bonus=31)
ELEVEN = "AH 2H 3H 5C 5D 5S 9C 10C JC QC"
"""With the upcard K♣ taken: A♥2♥3♥, 5♣5♦5♠ and 9♣ to K♣, all eleven cards in melds."""
DEFENDER = "4H 3C 4C 6D 7D 8D 6H 7H 8H 4S"
"""4♥ would fit the knocker's A♥2♥3♥ on a knock that is not gin; 4♥4♣4♠, two runs and 3♣ left."""
OTHER = "4C 3C 5C 6D 7D 8D 6C 7C 8C 4S"
"""The dealer's hand where the forehand holds hearts."""


def deal(
    rules: rk.Rules = BIG, first: str = ELEVEN, upcard: str = "KC", defender: str = DEFENDER
) -> rk.Round:
    deck = arrange_deck(rules, 2, [first, defender], dealer=1, upcard=upcard)
    return rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)


def melds(*texts: str) -> list[MeldAction]:
    return [MeldAction((parse_cards(t),)) for t in texts]


def test_the_option_is_accepted_and_written_back() -> None:
    assert BIG.big_gin_bonus == 31 and GIN.big_gin_bonus is None
    assert rk.Rules.parse(str(BIG)) == BIG


def test_after_the_knock_the_melds_of_all_eleven_cards_are_offered_beside_the_discards() -> None:
    rnd = deal()
    rnd.apply("take")
    assert rnd.legal_actions()[0] == KnockDeclare()
    rnd.apply("knock")
    legal = rnd.legal_actions()
    assert [a for a in legal if isinstance(a, MeldAction)] == melds("5C 5D 5S", "AH 2H 3H", "9C 10C JC QC KC")
    assert Discard(parse_cards("KC")[0]) in legal  # a discard to gin stays possible
    assert Pass() not in legal


def test_a_big_gin_scores_the_defenders_deadwood_and_its_bonus_with_no_layoff() -> None:
    rnd = deal()
    for move in ("take", "knock", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC QC KC"):
        rnd.apply(move)
    assert rnd.legal_actions() == [Pass()] and rnd.hands[0].cards() == ()
    rnd.apply("pass")
    assert (rnd.phase, rnd.to_move) == (Phase.LAYOFF, 1)
    assert not any(isinstance(a, LayOffCard) for a in rnd.legal_actions())  # 4♥ would fit A♥2♥3♥
    while rnd.result is None:
        rnd.apply(rnd.legal_actions()[-1] if len(rnd.legal_actions()) > 1 else Pass())
    check_invariants(rnd)
    result = rnd.result
    assert result.big_gin and knocked_big_gin(result, BIG) and knocked_gin(result, BIG)
    assert result.points == (result.hand_values[1] + 31, -(result.hand_values[1] + 31))
    assert result.hand_values[1] == 3  # 3♣ after 4♥4♣4♠ and the two runs
    assert result_json(result, BIG)["big_gin"] is True
    names = ["You", "Ben"]
    assert termination_text(result, names, "en", BIG) == "You have big gin"
    assert termination_text(result, ["Du", "Ben"], "de", BIG) == "Du hast großes Gin"
    assert gin_arithmetic(result, BIG, names, "en") == "You score 3 − 0 + 31 (big gin) = 34"


def test_a_big_gin_without_a_bonus_names_no_gin_bonus() -> None:
    rules = GIN.replace(big_gin_bonus=0)
    rnd = deal(rules)
    for move in ("take", "knock", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC QC KC", "pass"):
        rnd.apply(move)
    while rnd.result is None:
        rnd.apply(rnd.legal_actions()[-1])  # the defender's own melds, then the pass
    assert rnd.result.big_gin and rnd.result.points[0] == rnd.result.hand_values[1]
    assert gin_arithmetic(rnd.result, rules, ["You", "Ben"], "en") == "You score 3 − 0 = 3"


def test_a_gin_by_discard_at_a_big_gin_table_scores_gins_bonus() -> None:
    rnd = deal()
    rnd.apply("take")
    rnd.apply("knock KC")  # the shortcut: discard K♣, lay the best arrangement, pass
    while rnd.result is None:
        rnd.apply(rnd.legal_actions()[-1] if len(rnd.legal_actions()) > 1 else Pass())
    assert not rnd.result.big_gin and knocked_gin(rnd.result, BIG) and not knocked_big_gin(rnd.result, BIG)
    assert rnd.result.points[0] == rnd.result.hand_values[1] + 25
    assert result_json(rnd.result, BIG)["big_gin"] is False


@pytest.mark.parametrize(
    ("moves", "rule", "words"),
    [
        (("meld 9C 10C JC",), "big_gin", "could not all lie in melds"),  # leaves Q♣ K♣ unmelded
        (("meld AH 2H 3H", "pass"), "big_gin", "lays every card"),
        (("pass",), "knock_discard", "discard first"),
    ],
)
def test_a_big_gin_lays_every_card(moves: tuple[str, ...], rule: str, words: str) -> None:
    rnd = deal()
    rnd.apply("take")
    rnd.apply("knock")
    *before, last = moves
    for move in before:
        rnd.apply(move)
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(last)
    assert info.value.rule == rule and words in str(info.value)
    assert GERMAN[words] in info.value.localized("de", ["Anna", "Ben"])


GERMAN = {
    "could not all lie in melds": "könnten deine übrigen Karten nicht alle in Figuren liegen (großes Gin)",
    "lays every card": "alle Karten ausgelegt; lege Figuren aus den 8 übrigen Karten aus",
    "discard first": "Nach dem Klopfen zuerst abwerfen oder alle 11 Karten in Figuren auslegen (großes Gin)",
}


@pytest.mark.parametrize(
    ("rules", "first", "upcard", "dealer", "meld", "rule"),
    [
        # Without the option the knocker discards first.
        (GIN, ELEVEN, "KC", DEFENDER, "meld AH 2H 3H", "knock_discard"),
        # Ten melded cards and one over: a plain gin, no meld before the discard.
        (BIG, ELEVEN, "KD", DEFENDER, "meld AH 2H 3H", "big_gin"),
        # deadwood_ace = 0: the A♠ leaves deadwood 0, but a big gin lays every card (a gin by
        # discarding the ace is one).
        (BIG.replace(deadwood_ace=0), "2H 3H 4H 5C 5D 5S 9C 10C JC QC", "AS", DEFENDER.replace("4H", "KH"),
         "meld 2H 3H 4H", "big_gin"),
    ],
)  # fmt: skip
def test_no_meld_comes_before_the_discard_without_a_big_gin(
    rules: rk.Rules, first: str, upcard: str, dealer: str, meld: str, rule: str
) -> None:
    rnd = deal(rules, first=first, upcard=upcard, defender=dealer)
    rnd.apply("take")
    rnd.apply("knock")
    assert all(isinstance(a, Discard) for a in rnd.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(meld)
    assert info.value.rule == rule
    if rule == "big_gin":
        assert "do not all meld" in str(info.value)


def test_a_hand_of_melds_of_three_may_knock_only_as_big_gin() -> None:
    """Eight-card hands: nine cards in three melds of three leave deadwood after any discard (no knock
    at knock card 0), but they are a big gin."""
    first = "AH 2H 3H 5C 5D 5S 9C 10C"
    rules = GIN.replace(hand_size=8, knock_card=0)
    for bonus, knock in ((None, False), (31, True)):
        rnd = deal(rules.replace(big_gin_bonus=bonus), first=first, upcard="JC", defender=DEFENDER[:23])
        rnd.apply("take")
        assert (KnockDeclare() in rnd.legal_actions()) is knock
    rnd.apply("knock")
    assert [a for a in rnd.legal_actions() if isinstance(a, Discard)] == []
    for move in ("meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"):
        rnd.apply(move)
    assert rnd.phase is Phase.LAYOFF
    rnd.apply("pass")
    assert rnd.result is not None and rnd.result.big_gin
    assert rnd.result.points[0] == rnd.result.hand_values[1] + 31


def test_a_big_gin_at_the_wall_takes_the_top_discard() -> None:
    """Both players draw and throw back until the wall; the dealer's hand with the forehand's last
    discard, K♣, is a big gin: the wall's knock takes the K♣ and lays all eleven cards."""
    rules = BIG
    hands = [DEFENDER, ELEVEN]  # seat 1 deals and holds the ten cards the K♣ completes
    dealt = {str(c) for h in hands for c in parse_cards(h)} | {"KD", "KC"}
    filler = [str(c) for c in sorted(set(rk.cards.build_deck(1, 0))) if str(c) not in dealt]
    stock = " ".join([*filler[:28], "KC"])
    deck = arrange_deck(rules, 2, hands, dealer=1, upcard="KD", stock=stock)
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)
    rnd.apply("pass")
    rnd.apply("pass")
    while rnd.phase is not Phase.WALL:
        rnd.apply("draw")
        drawn = rnd.history[-1].card
        assert drawn is not None
        rnd.apply(Discard(drawn))
    assert rnd.to_move == 1 and str(rnd.discard_pile[-1]) == "KC"
    assert rnd.legal_actions() == [Pass(), KnockDeclare()]
    rnd.apply("knock")
    assert melds("5C 5D 5S", "AH 2H 3H", "9C 10C JC QC KC") == [
        a for a in rnd.legal_actions() if isinstance(a, MeldAction)
    ]
    for move in ("meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC QC KC", "pass", "pass"):
        rnd.apply(move)
    check_invariants(rnd)
    assert rnd.result is not None and rnd.result.big_gin and rnd.result.winner == 1
    assert rnd.result.points[1] == rnd.result.hand_values[0] + 31


def test_no_knock_is_offered_that_only_the_barred_taken_card_completes() -> None:
    """``may_discard_taken_discard = false``: the only discard that keeps the deadwood within the knock
    card is the K♦ just taken, so there is no knock (the knock phase would have no legal move)."""
    rules = GIN.replace(may_discard_taken_discard=False)
    rnd = deal(rules, first="2H 3H 4H 5H 9C 9D 9S 9H AS 2S", upcard="KD", defender=OTHER)
    rnd.apply("take")
    assert KnockDeclare() not in rnd.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        rnd.apply("knock")
    assert info.value.rule == "may_discard_taken_discard"
    assert "only discarding KD, the card you took" in str(info.value)
    german = info.value.localized("de", ["A", "B"])
    assert "Nur der Abwurf von Karo-König, der eben genommenen Karte" in german
    allowed = deal(GIN, first="2H 3H 4H 5H 9C 9D 9S 9H AS 2S", upcard="KD", defender=OTHER)
    allowed.apply("take")
    assert KnockDeclare() in allowed.legal_actions()  # the preset may throw the K♦ back


@pytest.mark.parametrize("kind", ["greedy", "search"])
@pytest.mark.parametrize(("bonus", "big"), [(31, True), (25, True), (0, False)])
def test_the_bots_lay_a_big_gin_unless_gin_pays_more(kind: str, bonus: int, big: bool) -> None:
    rules = GIN.replace(big_gin_bonus=bonus)
    rnd = deal(rules)
    rnd.apply("take")
    rng = random.Random(1)
    bot = make_bot(kind)
    while rnd.result is None:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    assert rnd.result.winner == 0 and rnd.result.big_gin is big


@pytest.mark.parametrize(
    ("knock_card", "gin_bonus"),
    [(0, 25), (10, 25)],  # no knock but the big gin; a knock with 3 left against a big gin of 20
)
def test_the_bots_lay_a_big_gin_where_no_discard_leaves_gin(knock_card: int, gin_bonus: int) -> None:
    """Eight-card hands: nine cards in three melds of three leave deadwood after every discard, so the
    big gin is the best knock there is, whatever gin's bonus."""
    rules = GIN.replace(hand_size=8, knock_card=knock_card, gin_bonus=gin_bonus, big_gin_bonus=20)
    rnd = deal(rules, first="AH 2H 3H 5C 5D 5S 9C 10C", upcard="JC", defender=DEFENDER[:23])
    rnd.apply("take")
    rng = random.Random(1)
    bot = make_bot("greedy")
    assert bot.choose(rnd.view(0), rnd.legal_actions(), rng) == KnockDeclare()
    while rnd.result is None:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    assert rnd.result.winner == 0 and rnd.result.big_gin


def test_the_hint_names_big_gin() -> None:
    rnd = deal()
    rnd.apply("take")
    assert hint(rnd.view(0), rnd.legal_actions(), rnd).reason == "big gin: all 11 cards lie in melds"
    rnd.apply("knock")
    suggestion = hint(rnd.view(0), rnd.legal_actions(), rnd, "de")
    assert isinstance(suggestion.actions[0], MeldAction)
    assert suggestion.reason == "großes Gin: alle Karten auslegen, ohne Abwurf"
    assert isinstance(gin_action(rnd.view(0), rnd.legal_actions()), MeldAction)


def test_records_replay_a_big_gin() -> None:
    rnd = deal()
    for move in ("take", "knock", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC QC KC", "pass"):
        rnd.apply(move)
    while rnd.result is None:
        rnd.apply(Pass())
    again = Record.loads(Record.from_round(rnd).dumps()).replay()
    assert again.result == rnd.result and again.result is not None and again.result.big_gin


def test_openspiel_has_no_big_gin() -> None:
    with pytest.raises(ValueError, match="no big gin"):
        openspiel_params(BIG)
    assert openspiel_params(GIN)["gin_bonus"] == 25


def test_the_rules_page_tells_big_gin() -> None:
    en, de = explain(BIG, "en"), explain(BIG, "de")
    assert "**Big gin**: when all 11 cards lie in melds as you knock (with the card you drew, or at" in en
    assert "Big gin adds 31 instead; like gin it is never undercut" in en
    assert "**Großes Gin**: Liegen beim Klopfen alle 11 Karten in Figuren (mit der gezogenen Karte" in de
    assert "There is no big gin" in explain(GIN, "en") and "There is no big gin" not in en


@pytest.mark.parametrize("text", ["gin(big_gin_bonus=31,hand_size=2,knock_card=0)", "gin(big_gin_bonus=31)"])
def test_random_play_with_big_gin_keeps_every_invariant(text: str) -> None:
    """The conformance harness (every offered action checked, cards conserved, records replayed,
    views private) over random hands; with two-card hands a knock is mostly a big gin."""
    rules = rk.Rules.parse(text)
    report = check_rules(rules, rounds=40, seed=7)
    assert report.rounds == 40 and report.terminations.get("knock", 0) > 0
    if rules.hand_size == 2:  # the harness's hands reach big gin: count them in the same random play
        rng = random.Random(7)
        big = 0
        for seed in range(120):
            rnd = rk.Round.new(rules, 2, seed=seed)
            play_random_round(rnd, rng)
            big += rnd.result is not None and rnd.result.big_gin
        assert big >= 2  # random play seldom knocks: 3 knocks in these 120 hands, all big gins


def test_an_older_record_with_such_a_knock_names_the_change() -> None:
    """A record of revision 2 that knocked where only the barred taken card completed the knock (its
    knock phase had no legal move) stops at the knock, naming the change of revision 3."""
    from rummykit.record import ReplayError

    rules = GIN.replace(may_discard_taken_discard=False)
    rnd = deal(rules, first="2H 3H 4H 5H 9C 9D 9S 9H AS 2S", upcard="KD", defender=OTHER)
    rnd.apply("take")
    data = Record.from_round(rnd).to_dict()
    data = {**data, "revision": 2, "actions": [*data["actions"], "knock"]}
    with pytest.raises(ReplayError) as caught:
        Record.from_dict(data).replay()
    assert [(c.revision, c.rule) for c in caught.value.changes] == [(3, "may_discard_taken_discard")]
    assert "a discard other than the card just taken" in str(caught.value)


def test_the_terminal_line_offers_the_big_gin_after_the_knock() -> None:
    from rummykit.cli.prompts import _gin_moves

    rnd = deal()
    rnd.apply("take")
    rnd.apply("knock")
    line = _gin_moves(rnd.phase, rnd.legal_actions(), Lang("en"))
    assert line == "after the knock: discard (x N) or lay every card for big gin (m …)"
    plain = deal(GIN)
    plain.apply("take")
    plain.apply("knock")
    assert _gin_moves(plain.phase, plain.legal_actions(), Lang("de")) == "Klopfen: abwerfen (x N)"
