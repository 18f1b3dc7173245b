"""Gin on the surfaces around the engine: the OpenSpiel parameters, the terminal screens, the page."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import rummykit as rk
from rummykit.cli import screen
from rummykit.cli.gin_line import gin_line
from rummykit.errors import RulesError
from rummykit.explain import explain, gin_page
from rummykit.explain.language import Lang
from rummykit.interop.openspiel_gin import openspiel_params, rules_from_params
from tests.test_gin import GIN, deal, play


def knocked_with_melds_laid() -> rk.Round:
    """Seat 0 knocks with three melds and the 4♦, lays them, and the defender is to lay off."""
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", dealer="2C 3C 4C 6D 7D 8D 6H 7H 8H 5H")
    return play(
        rnd, "take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"
    )


def board(
    view: rk.PlayerView, names: tuple[str, ...], lang: str = "en", score: screen.Scoreboard | None = None
) -> screen.Board:
    return screen.Board(
        view=view, names=names, score=score or screen.Scoreboard(), ascii_only=True, lang=lang
    )


# 1, 2: OpenSpiel parameters ------------------------------------------------------------------------
def test_oklahoma_parameters_keep_the_presets_knock_card() -> None:
    """OpenSpiel lists ``knock_card`` under ``oklahoma`` too (and ignores it)."""
    params = {"gin_bonus": 25, "hand_size": 10, "knock_card": 8, "num_ranks": 13, "num_suits": 4,
              "oklahoma": True, "undercut_bonus": 25}  # fmt: skip
    rules = rules_from_params(params)
    assert rules.oklahoma and rules.knock_card == GIN.knock_card
    assert rules_from_params({"knock_card": 8}).knock_card == 8
    assert rules_from_params({"oklahoma": False, "knock_card": 8}).knock_card == 8


def test_oklahoma_parameters_of_openspiel_itself() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    params = pyspiel.load_game("gin_rummy", {"oklahoma": True, "knock_card": 8}).get_parameters()
    assert rules_from_params(params).oklahoma


@pytest.mark.parametrize(
    ("text", "option"),
    [("gin(deal_packets=p3334)", "deal_packets"), ("gin(hand_size=11)", "hand_size"),
     ("gin(hand_size=12)", "hand_size"), ("gin(max_upcard_draws=20)", "max_upcard_draws"),
     ("gin(hand_size=8)", "melds of three"), ("gin(hand_size=5)", "melds of three")],
)  # fmt: skip
def test_rules_openspiel_cannot_play_are_refused(text: str, option: str) -> None:
    with pytest.raises(ValueError, match=option):
        openspiel_params(rk.Rules.parse(text))


def test_rules_openspiel_plays_give_parameters_it_loads() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    for text in ("gin", "gin(hand_size=7)", "gin(knock_card=0)", "gin(match_end=target_score)"):
        params = openspiel_params(rk.Rules.parse(text))
        pyspiel.load_game("gin_rummy", params).new_initial_state()
    with pytest.raises(RulesError):
        rk.Rules.parse("gin(oklahoma=true, knock_card=8)")  # why rules_from_params must drop it


# 3: "You" on the gin screens -------------------------------------------------------------------------
def gin_result() -> rk.Round:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QC", dealer="4H 3C 4C 6D 7D 8D 6H 7H 8H 4S")
    return play(rnd, "take", "knock KD", "pass")


def test_the_result_says_you_have_gin() -> None:
    rnd = gin_result()
    assert rnd.result is not None
    assert screen.termination_text(rnd.result, ["You", "Bot 2"], "en", GIN) == "You have gin"
    assert screen.termination_text(rnd.result, ["Ann", "Bot 2"], "en", GIN) == "Ann has gin"
    assert screen.termination_text(rnd.result, ["Du", "Bot 2"], "de", GIN) == "Du hast Gin"
    assert screen.termination_text(rnd.result, ["Ann", "Bot 2"], "de", GIN) == "Ann hat Gin"
    view = rnd.view(0)
    table = screen.result_table(view, ["You", "Bot 2"], screen.Scoreboard(), ascii_only=True)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(table)
    assert "Hand 1 over: You have gin" in console.export_text()


def test_the_gin_line_says_your_melds() -> None:
    view = knocked_with_melds_laid().view(1)

    def plain(names: tuple[str, ...], lang: str) -> str:
        line = gin_line(view, names, lambda cards: screen.cards_text(cards, True), lang)
        assert line is not None
        return line.plain

    assert "· Your melds: AH 2H 3H |" in plain(("You", "Bot 2"), "en")
    assert "· Bot 2's melds:" in plain(("Bot 2", "You"), "en")
    assert "· Deine Figuren: AH 2H 3H |" in plain(("Du", "Bot 2"), "de")
    assert "· Figuren von Ann:" in plain(("Ann", "Du"), "de")


# 4: the header after a hand dealt again ---------------------------------------------------------------
def match_dealt_again() -> rk.Match:
    """A gin match whose first hand ended unscored (so a second hand is dealt)."""
    for seed in range(40):
        m = rk.Match.new(GIN, 2, seed=seed)
        rng = random.Random(seed)
        while len(m.rounds) == 1 and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        if len(m.rounds) == 2:
            return m
    raise AssertionError("no unscored first hand in 40 seeds")


def test_the_header_never_reads_round_2_of_1() -> None:
    m = match_dealt_again()
    score = screen.match_scoreboard(m)
    view = m.round.view(0)
    header = screen.header_text(board(view, ("You", "Bot 2"), "en", score))
    assert "of 1" not in header and "hand 2 (hand 1 not scored)" in header
    german = screen.header_text(board(view, ("Du", "Bot 2"), "de", score))
    assert "Spiel 2 (Spiel 1 zählte nicht)" in german
    third = screen.Scoreboard(round_number=3, rounds_planned=1, dealt_again=True)
    assert screen.header_text(board(view, ("You", "Bot 2"), "en", third)).count(
        "hand 3 (hands 1–2 not scored)"
    )
    assert "Spiel 3 (Spiele 1–2 zählten nicht)" in screen.header_text(
        board(view, ("Du", "Bot 2"), "de", third)
    )
    first = rk.Match.new(GIN, 2, seed=1)
    assert "hand 1 of 1" in screen.header_text(board(first.round.view(0), ("You", "Bot 2"), "en",
                                                      screen.match_scoreboard(first)))  # fmt: skip


# 5: the gin page ---------------------------------------------------------------------------------------
def page(text: str, lang: str = "en") -> str:
    return explain(rk.Rules.parse(text), lang)


@pytest.mark.parametrize(
    ("n", "word"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (11, "11th"), (22, "22nd"), (50, "50th")]
)
def test_the_upcard_limit_has_english_ordinals(n: int, word: str) -> None:
    text = page(f"gin(max_upcard_draws={n})")
    assert f"The {word} time a player takes the upcard" in text
    assert f"zum {n}. Mal genommen" in page(f"gin(max_upcard_draws={n})", "de")


def test_knock_card_0_says_only_gin_may_knock() -> None:
    text = page("gin(knock_card=0)")
    assert "No knocking" not in text and "count at most the knock card" not in text
    assert "you may knock only with gin" in text
    german = page("gin(knock_card=0)", "de")
    assert "Kein Klopfen" not in german and "klopfen darf man nur mit Gin" in german


def test_target_score_states_how_the_match_ends() -> None:
    text = page("gin(match_end=target_score, target_score=150)")
    assert "One hand:" not in text
    assert "The first to 150 points from won hands wins the match." in text
    assert "## The match" in text and "someone reaches 150 points" in text
    german = page("gin(match_end=target_score, target_score=150)", "de")
    assert "Ein Spiel:" not in german and "Wer zuerst 150 Punkte aus gewonnenen Spielen hat" in german
    assert "One hand:" in page("gin") and "## The match" not in page("gin")
    assert gin_page.match_end_text(rk.Rules.parse("gin(match_end=fixed_hands)"), Lang("en")).startswith(
        "A match has 2 hands"
    )


# 6: the knock line without melds -------------------------------------------------------------------------
def test_the_knock_line_shows_no_bar_without_melds() -> None:
    view = knocked_with_melds_laid().view(1)
    line = screen.knock_line(board(view, ("Ann", "Bob")))
    assert line is not None
    assert line.plain == "Ann knocked: 4D = 4"
    shown = screen.arrangement_text([], rk.parse_cards("AC 3H AS 5S"), 10, ascii_only=True).plain
    assert shown == "AC 3H AS 5S = 10"


def test_the_result_shows_how_a_gin_hand_scored() -> None:
    knock = play(
        deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", dealer="2C 3C 4C 6D 7D 8D KH QH JS 9S"),
        "take", "knock KD", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "pass",
    )  # fmt: skip
    assert knock.result is not None
    assert screen.gin_arithmetic(knock.result, GIN, ["You", "Bot 2"]) == "You score 39 − 4 = 35"
    assert screen.gin_arithmetic(knock.result, GIN, ["Du", "Bot 2"], "de") == "Du bekommst 39 − 4 = 35"
    gin = gin_result()
    assert gin.result is not None
    assert screen.gin_arithmetic(gin.result, GIN, ["Ann", "Bot 2"]) == "Ann scores 57 − 0 + 25 (gin) = 82"
    laid = ("meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H")
    undercut = play(knocked_with_melds_laid(), "layoff 5H", "pass", *laid, "pass")
    assert undercut.result is not None and undercut.result.points == (-29, 29)
    said = screen.gin_arithmetic(undercut.result, GIN, ["Ann", "Bot 2"], "de")
    assert said == "Bot 2 bekommt 4 − 0 + 25 (Unterbieten) = 29"
    table = screen.result_table(undercut.view(0), ["You", "Bot 2"], screen.Scoreboard(), ascii_only=True)
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(table)
    assert "Bot 2 scores 4 − 0 + 25 (undercut) = 29" in console.export_text()
    german = rk.Round.new(rk.Rules.preset("german"), players=2, seed=1)
    while not german.is_over:
        german.apply(german.legal_actions()[0])
    assert german.result is not None
    assert screen.gin_arithmetic(german.result, german.rules, ["A", "B"]) is None


@pytest.mark.parametrize(
    ("ace", "said", "points"),
    [
        (0, "Ann scores 4 − 0 + 25 (gin) = 29", (29, -29)),  # an ace worth nothing left over: gin
        (1, "Ann scores 4 − 1 = 3", (3, -3)),
        (10, "Bot 2 scores 10 − 4 + 25 (undercut) = 31", (-31, 31)),
    ],
)
def test_the_ace_s_deadwood_value_is_what_every_display_counts(
    ace: int, said: str, points: tuple[int, int]
) -> None:
    """``deadwood_ace``: a knock that leaves the A♠ counts it at the ace's value wherever the hand is
    shown (the terminal's table and sum, the page's result, the score sheet), as the score counts it;
    worth 0, it leaves no deadwood, which is gin (the rules page says so)."""
    from rummykit.sheet import ScoreSheet
    from rummykit.testing import arrange_deck
    from rummykit.web.protocol import result_json

    rules = GIN.replace(deadwood_ace=ace)
    hands = ["2H 3H 4H 5C 5D 5S 9C 10C JC AS", "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"]
    deck = arrange_deck(rules, 2, hands, dealer=1, upcard="KD")
    m = rk.Match.new(rules, 2, seed=1, dealer=1, deck=deck)
    m.apply("take")
    m.apply("knock KD")
    while not m.is_over:
        legal = m.legal_actions()
        melds = [a for a in legal if str(a).startswith("meld")]
        m.apply(melds[0] if melds else legal[0])
    rnd = m.rounds[0]
    result = rnd.result
    assert result is not None
    assert result.hand_values == (ace, 4) and result.points == points
    assert screen.gin_arithmetic(result, rules, ["Ann", "Bot 2"]) == said
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(screen.result_table(rnd.view(0), ["Ann", "Bot 2"], screen.Scoreboard(), ascii_only=True))
    shown = console.export_text()
    assert f"| AS = {ace}" in shown
    assert ("Ann has gin" in shown) is (ace == 0)
    sent = result_json(result, rules)
    assert sent["hand_values"] == [ace, 4] and sent["gin"] is (ace == 0)  # type: ignore[index]
    assert ScoreSheet.of(m).hands[0].points == points
    page = explain(rules)
    assert ("a knock with only aces left over has no deadwood and is **gin**" in page) is (ace == 0)
