"""Oklahoma's spade upcard (``oklahoma_spade_doubles``, the rule books' Oklahoma; OpenSpiel has no
doubling): a gin hand whose first upcard is a spade scores double, bonuses included. Arranged deals
through the engine, the texts of the terminal and the page, the rules pages, the lobby and the
bounds of the environments."""

from __future__ import annotations

import pytest
from rich.text import Text

import rummykit as rk
from rummykit.cli.gin_line import gin_line
from rummykit.cli.screen import gin_arithmetic
from rummykit.envs.game import worst_hand_points
from rummykit.errors import RulesError
from rummykit.explain import explain
from rummykit.gin import gin_json, knocked_gin, undercut_by
from rummykit.interop.openspiel_gin import openspiel_params
from rummykit.record import Record
from rummykit.testing import arrange_deck, check_invariants
from rummykit.web.houserules import house_rules
from rummykit.web.protocol import result_json

GIN = rk.Rules.preset("gin")
OKLAHOMA = GIN.replace(oklahoma=True)
SPADES = OKLAHOMA.replace(oklahoma_spade_doubles=True)
DEALER = "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"
"""Three runs and the 4♠: 4 deadwood, nothing to lay off on the knocker's melds below."""
GIN_HAND = "AH 2H 3H 5C 5D 9C 10C JC QC 4D"
"""Takes a five as the upcard and throws the 4♦: gin."""
KNOCK_HAND = "AH 2H 3H 5C 5D 5S 9C 10C JC 4D"
"""Draws the A♣ below and knocks with it (1 deadwood) after throwing the 4♦."""
UNDERCUT_HAND = "AH 2H 3H 5C 5D 5S 9C 10C JC 9D"
"""Draws the A♣, throws it and knocks with the 9♦: the dealer's 4 undercuts."""


def deal(first: str, upcard: str, rules: rk.Rules = SPADES) -> rk.Round:
    deck = arrange_deck(rules, 2, [first, DEALER], dealer=1, upcard=upcard, stock="AC")
    return rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)


def play_out(rnd: rk.Round, *moves: str) -> rk.RoundResult:
    """Play ``moves``, then the defender's lay-offs and melds as offered: pass, the melds, pass."""
    for move in moves:
        rnd.apply(move)
    while rnd.result is None:
        legal = rnd.legal_actions()
        melds = [a for a in legal if str(a).startswith("meld")]
        rnd.apply(melds[0] if melds else legal[0])
        check_invariants(rnd)
    return rnd.result


def test_the_option_needs_oklahoma_and_is_written_back() -> None:
    with pytest.raises(RulesError, match="oklahoma_spade_doubles: does not apply") as info:
        GIN.replace(oklahoma_spade_doubles=True)
    assert info.value.option == "oklahoma_spade_doubles"
    assert "keine erste offene Karte" in info.value.localized("de")
    assert rk.Rules.parse(str(SPADES)) == SPADES
    assert str(SPADES) == "gin(oklahoma=true, oklahoma_spade_doubles=true)"
    with pytest.raises(RulesError, match="oklahoma_spade_doubles"):
        SPADES.replace(oklahoma=False)  # turning Oklahoma off leaves a doubling that cannot matter


@pytest.mark.parametrize(
    ("upcard", "rules", "doubled"),
    [("9S", SPADES, True), ("9D", SPADES, False), ("9S", OKLAHOMA, False), ("KS", SPADES, True)],
)
def test_only_a_spade_upcard_under_the_option_doubles_the_hand(
    upcard: str, rules: rk.Rules, doubled: bool
) -> None:
    rnd = deal(KNOCK_HAND, upcard, rules)
    gin = rnd.view(0).gin
    assert gin is not None and gin.doubled is doubled
    assert gin_json(gin)["doubled"] is doubled  # type: ignore[index]
    result = play_out(rnd, "pass", "pass", "draw", "knock 4D")
    factor = 2 if doubled else 1
    assert result.hand_values == (1, 4)
    assert result.points == (3 * factor, -3 * factor) and result.multiplier == factor
    assert result_json(result, rules)["multiplier"] == factor  # type: ignore[index]


def test_the_bonuses_are_doubled_with_the_deadwood() -> None:
    # Gin on the 5♠ upcard: (4 − 0 + 25) × 2.
    rnd = deal(GIN_HAND, "5S")
    result = play_out(rnd, "take", "knock 4D")
    assert knocked_gin(result, SPADES) and result.points == (58, -58)
    # Undercut: the knocker keeps 9, the dealer 4: (9 − 4 + 25) × 2 to the dealer.
    rnd = deal(UNDERCUT_HAND, "9S")
    result = play_out(rnd, "pass", "pass", "draw", "knock AC")
    assert undercut_by(result, SPADES) == 1 and result.points == (-60, 60)


def test_the_score_line_shows_the_doubling_in_both_languages() -> None:
    result = play_out(deal(GIN_HAND, "5S"), "take", "knock 4D")
    en = gin_arithmetic(result, SPADES, ["You", "Ben"], "en")
    assert en == "You score (4 − 0 + 25 (gin)) × 2 (spade upcard) = 58"
    de = gin_arithmetic(result, SPADES, ["Du", "Ben"], "de")
    assert de == "Du bekommst (4 − 0 + 25 (Gin)) × 2 (Pik aufgedeckt) = 58"
    plain = play_out(deal(GIN_HAND, "5H"), "take", "knock 4D")
    assert gin_arithmetic(plain, SPADES, ["You", "Ben"], "en") == "You score 4 − 0 + 25 (gin) = 29"
    undercut = play_out(deal(UNDERCUT_HAND, "9S"), "pass", "pass", "draw", "knock AC")
    en = gin_arithmetic(undercut, SPADES, ["You", "Ben"], "en")
    assert en == "Ben scores (9 − 4 + 25 (undercut)) × 2 (spade upcard) = 60"


def test_the_terminals_gin_line_says_the_hand_counts_double() -> None:
    def line(upcard: str, lang: str) -> str:
        text = gin_line(deal(KNOCK_HAND, upcard).view(0), ["You", "Ben"], lambda cards: Text(""), lang)
        assert text is not None
        return text.plain

    assert line("9S", "en") == "knock card 9 · spade upcard: the hand counts double"
    assert line("9S", "de") == "Klopfgrenze 9 · Pik aufgedeckt: das Spiel zählt doppelt"
    assert line("9H", "en") == "knock card 9"


def test_a_record_replays_the_doubled_score() -> None:
    rnd = deal(KNOCK_HAND, "9S")
    result = play_out(rnd, "pass", "pass", "draw", "knock 4D")
    replayed = Record.loads(Record.from_round(rnd).dumps()).replay()
    assert replayed.result == result and replayed.result is not None and replayed.result.points == (6, -6)


def test_openspiel_refuses_it_and_the_environments_bound_doubles() -> None:
    assert openspiel_params(OKLAHOMA)["oklahoma"] is True
    with pytest.raises(ValueError, match="never doubles"):
        openspiel_params(SPADES)
    assert worst_hand_points(SPADES) == 2 * worst_hand_points(OKLAHOMA)


def test_the_rules_page_and_the_lobby_offer_it() -> None:
    en, de = explain(SPADES), explain(SPADES, lang="de")
    assert "If the first upcard is a spade, the hand counts double" in en
    assert "a spade there doubles the hand" in en
    assert "Ist die erste offene Karte ein Pik, zählt das Spiel doppelt" in de
    assert "spade" not in explain(OKLAHOMA).split("Scoring a hand")[1].split("##")[0]
    control = next(c for c in house_rules()["gin"] if c["option"] == "oklahoma_spade_doubles")
    assert control["kind"] == "bool" and control["value"] is False
    assert control["unused_when"] == [{"option": "oklahoma", "value": False}]  # greyed until Oklahoma


def test_openspiels_bot_plays_a_table_that_doubles() -> None:
    """The doubling scales a hand's score and changes none of its moves: OpenSpiel's simple bot plays
    such a table as OpenSpiel's game (only the interop, which builds OpenSpiel's game, refuses it)."""
    pytest.importorskip("pyspiel")
    import random

    from rummykit.bots import make_bot

    bot = make_bot("openspiel-simple")
    bot.check_table(SPADES, 2)
    rnd = deal(KNOCK_HAND, "9S")
    rng = random.Random(1)
    while rnd.result is None:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    assert rnd.view(0).gin is not None and rnd.view(0).gin.doubled


def test_a_doubled_hand_counts_once_for_the_box_bonus_on_the_sheet_and_the_rules_page() -> None:
    """Rule books differ on whether a spade upcard doubles the box (line) bonus too; here it pays for
    hands won, not points: a doubled gin scores 58 and counts one hand for the box. The sheet shows
    the hand's ×2 and the box as 25 a hand won; the rules page says the box is not doubled."""
    from rummykit.sheet import ScoreSheet, sheet_text

    rules = SPADES.replace(match_end="target_score", box_bonus=25)
    deck = arrange_deck(rules, 2, [GIN_HAND, DEALER], dealer=1, upcard="5S", stock="AC")
    position = rk.MatchPosition(totals=(0, 0), gains=(50, 0), hands_won=(1, 0))
    m = rk.Match.new(rules, 2, seed=1, dealer=1, deck=deck, position=position)
    for move in ("take", "knock 4D"):
        m.apply(move)
    while not m.is_over:
        legal = m.legal_actions()
        melds = [a for a in legal if str(a).startswith("meld")]
        m.apply(melds[0] if melds else legal[0])
    assert m.rounds[0].result is not None and m.rounds[0].result.multiplier == 2
    assert m.gains == [50 + 58 + 2 * 25, 0] and m.bonus_parts()[0].box == 2 * 25
    lines = sheet_text(ScoreSheet.of(m), ("Anna", "Ben")).splitlines()
    hand = next(line for line in lines if line.startswith("1 "))
    assert hand.split()[-5:] == ["58", "0", "×2", "108", "0"]
    box = next(line for line in lines if line.startswith("Box bonus"))
    assert box.split() == ["Box", "bonus", "(25", "a", "hand", "won)", "50", "0"]
    en, de = explain(rules), explain(rules, lang="de")
    assert "The box bonus at the end is not: a doubled hand won still counts one hand (25 points)." in en
    assert "Der Box-Bonus am Ende nicht: Ein gewonnenes doppeltes Spiel zählt als ein Spiel" in de
    assert "box bonus at the end is not" not in explain(SPADES)  # no box played, nothing to say
