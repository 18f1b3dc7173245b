"""The rules pages teach a beginner: an overview before the detail, terms defined where first used,
worked examples the engine plays, how to type at the terminal, and German pages that say "man"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.arrange import arrange_deck
from rummykit.cli import app
from rummykit.explain import LANGUAGES, explain, explain_html, rendered_pages
from tests.test_gin import deal, play

README = Path(__file__).resolve().parents[1] / "README.md"


def page(text: str, lang: str = "en") -> str:
    return explain(rk.Rules.parse(text), lang)


def section(text: str, heading: str) -> str:
    """The text of one ``## heading`` section of a page."""
    return text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0].strip()


@pytest.mark.parametrize("preset", ["german", "viennese", "gin"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_overview_follows_at_a_glance(preset: str, lang: str) -> None:
    text = page(preset, lang)
    heading = "## How a hand goes" if lang == "en" else "## So läuft ein Spiel"
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[headings.index(heading) - 1] in ("## At a glance", "## Auf einen Blick")


def test_the_overview_is_built_from_the_options() -> None:
    viennese = section(page("viennese"), "How a hand goes")
    assert viennese.startswith("You hold 10 cards and try to arrange them into **melds**")
    assert "With deadwood below 5 you may **knock**" in viennese and "at 101 bad points" in viennese
    house = section(page("viennese(knock_threshold=8, knock_comparison=le, elimination_threshold=150)"),
                    "How a hand goes")  # fmt: skip
    assert "With deadwood of 8 or less" in house and "at 150 bad points" in house
    assert "(the knocker writes 0)" in section(
        page("viennese(knocker_scores_own_deadwood=false)"), "How a hand goes"
    )
    german = section(page("german"), "How a hand goes")
    assert "must be worth at least 40 points together" in german and "**lay off**: add single" in german
    assert "at least 30 points together" in section(page("german(opening_min_points=30)"), "How a hand goes")
    assert "There is no opening minimum" in section(page("basic"), "How a hand goes")
    assert "mindestens 40 Punkte" in section(page("german", "de"), "So läuft ein Spiel")
    gin = section(page("gin"), "How a hand goes")
    assert "The **knock card** is the most deadwood you may knock with (here 10)." in gin
    assert "(here 7)" in section(page("gin(knock_card=7)"), "How a hand goes")
    assert "value of the first upcard" in section(page("gin(oklahoma=true)"), "How a hand goes")


def test_terms_are_defined_before_the_rules_use_them() -> None:
    """Viennese used meld, knock, deadwood and bad points before defining them and never defined "lay
    off"; gin never said what the terminal's "knock card 10" is."""
    viennese = page("viennese")
    body = viennese.split("## How a hand goes", 1)[1]
    for term in ("**melds**", "**deadwood**", "**knock**", "**Rummy**", "**bad points**"):
        assert term in section(viennese, "How a hand goes"), term
    assert viennese.index("## How a hand goes") < viennese.index("deadwood value")
    assert "nobody **lays off** (adds cards to someone's meld)" in body
    assert "niemand **legt an** (fügt Karten an eine Figur an)" in page("viennese", "de")
    gin = page("gin")
    assert gin.index("The **knock card** is") < gin.index("count at most the knock card")
    assert "| knock card | Klopfgrenze | the most deadwood you may knock with |" in gin


def test_the_gin_knock_leads_with_the_plain_rule() -> None:
    knocking = section(page("gin"), "Knocking")
    plain = knocking.index("Usually this is simply your deadwood after the discard.")
    assert plain < knocking.index("Exactly: the melds of greatest value first")
    assert "the game offers the knock only when you may" in knocking
    assert "Meist sind das einfach die Restpunkte nach dem Abwurf." in page("gin", "de")
    assert "Usually this" not in page("gin(eleven_card_deadwood=best_discard)")
    # The terminal's one-line knock is told in the terminal's section, not on the browser's page.
    assert "`knock QS` knocks, discards Q♠" in section(page("gin"), "Playing in the terminal")
    assert "knock QS" not in explain_html(rk.Rules.preset("gin"), "en")


def test_gin_says_how_the_match_ends_who_wins_and_that_big_gin_is_not_played() -> None:
    text = page("gin")
    assert "One scored hand decides the match: whoever scores plus points in it wins" in text
    assert "is not scored and is dealt again, by the other player" in text
    assert "There is no big gin (all 11 cards laid in melds" in text
    assert "Großes Gin (alle 11 Karten in Figuren ausgelegt, ohne Abwurf) gibt es nicht" in page("gin", "de")
    assert "There is no big gin" not in page("gin(big_gin_bonus=31)")
    # As the engine plays it: a dead hand is dealt again by the other player; a scored one ends it.
    m = rk.Match.new(rk.Rules.preset("gin"), 2, seed=1)
    dealer = m.round.dealer
    while not m.is_over:
        before = len(m.rounds)
        m.apply(m.legal_actions()[0])
        if len(m.rounds) > before:
            assert m.round.dealer != dealer  # dealt again, by the other player
            dealer = m.round.dealer
    result = m.rounds[-1].result
    assert result is not None and result.scored
    assert set(m.winners) == {s for s in (0, 1) if result.points[s] == max(result.points)}
    # The target-score match states its own end.
    assert "One scored hand" not in page("gin(match_end=target_score, target_score=150)")


def test_going_out_without_a_discard_follows_the_option() -> None:
    clause = "that ends your turn (not needed when you have laid all your cards: you have gone out)"
    clause_de = "damit endet der Zug (entfällt, wenn man alle Karten ausgelegt oder angelegt hat: dann hat"
    assert clause in page("german") and clause_de in page("german", "de")
    strict = "german(going_out_requires_discard=true)"
    assert clause not in page(strict) and clause_de not in page(strict, "de")
    assert "that ends your turn. " in page(strict)
    assert clause not in page("scala40")  # Scala 40 always ends with a discard


def test_the_identical_card_is_barred_where_the_deck_has_copies() -> None:
    german = section(page("german"), "Your turn")
    assert "nor an identical card from your hand (with two packs the two cannot be told apart" in german
    assert (
        "auch keine gleiche Karte (gleicher Wert, gleiche Farbe) aus der Hand – bei zwei Kartenspielen "
        "sind sie nicht zu unterscheiden" in page("german", "de")
    )
    assert "nor an identical card" in section(page("viennese"), "Your turn")
    basic = section(page("basic"), "Your turn")  # one pack: only the jokers are alike
    assert "identical card" not in basic and "after taking a joker, another joker" in basic
    assert "the card you took" not in page("german(may_discard_taken_discard=true)")
    # The engine refuses the copy as well as the card taken.
    rules = rk.Rules.preset("german")
    hand = "4S 7D 7S 9C 10C QC AS 2H 4D 6S 8H KD 3C"
    others = ["2C 2D 3D 3H 4C 4H 5C 5D 5H 6C 6D 6H 8C", hand, "8D 9D 9H 10D 10H JD JH QD QH KC KH 2S 3S"]
    rnd = rk.Round.new(rules, 3, deck=arrange_deck(rules, 3, others, dealer=0, upcard="4S"), dealer=0, seed=1)
    rnd.apply("take")
    discards = {str(a) for a in rnd.legal_actions() if str(a).startswith("discard")}
    assert "discard 4S" not in discards and "discard AS" in discards
    with pytest.raises(rk.IllegalActionError):
        rnd.apply("discard 4S")


def test_what_may_be_discarded_follows_the_options() -> None:
    assert "Any card may be discarded, a joker too, and a card that would fit a meld on the table." in page(
        "german"
    )
    assert "Abwerfen darf man jede Karte, auch einen Joker" in page("german", "de")
    house = page("german(joker_discard_allowed=only_when_closing, discard_playable_card_allowed=false)")
    assert "Any card may be discarded" not in house
    assert "A joker may only be discarded as your last card." in house
    assert "You may not discard a card that could be laid off" in house


def test_the_worked_turn_is_the_engine_s_and_follows_the_opening_minimum() -> None:
    said = (
        "Example turn: draw 7♣ from the stock; open with 7♣ 7♦ 7♠ and 9♣ 10♣ JK Q♣ (the joker is J♣): "
        "21 + 39 = 60 points, at least 40; discard A♠."
    )
    assert said in page("german")
    assert "legt als Erstmeldung 7♣ 7♦ 7♠ und 9♣ 10♣ JK D♣ aus (der Joker ist B♣)" in page("german", "de")
    assert "Example turn" not in page("german(opening_min_points=70)")
    assert "at least 60; discard" in page("german(opening_min_points=60)")
    rules = rk.Rules.preset("german")
    hand = "7D 7S 9C 10C JK QC AS 2H 4D 6S 8H KD 3C"
    others = ["2C 2D 3D 3H 4C 4H 5C 5D 5H 6C 6D 6H 8C", hand, "8D 9D 9H 10D 10H JD JH QD QH KC KH 2S 3S"]
    deck = arrange_deck(rules, 3, others, dealer=0, upcard="4S", stock="7C")
    rnd = rk.Round.new(rules, 3, deck=deck, dealer=0, seed=1)
    for move in ("draw", "open 7C 7D 7S | 9C 10C JK QC", "discard AS"):
        rnd.apply(move)
    assert rnd.to_move == 2


def test_the_worked_knock_hand_follows_the_options() -> None:
    said = (
        "Example with three players: Cleo knocks with only 2♥ left (deadwood 2). After one more turn "
        "each, Anna has deadwood 6 and Ben 20. They write down 6, 20 and 2 bad points (shown as -6, -20, "
        "-2). Cleo gets 1 chip from each of the other two."
    )
    assert said in page("viennese")
    assert "2 chips from each" in page("viennese(knock_money=2)")
    assert "write down 6, 20 and 0 bad points (shown as -6, -20, 0)" in page(
        "viennese(knocker_scores_own_deadwood=false)"
    )
    assert "Nobody plays again" in page("romme_ohne_auslegen")  # no extra turn after a knock there
    assert "Example with three players" not in page("viennese(knock_threshold=2)")
    assert "chip" not in page("viennese(match_end=fixed_hands)").split("Example with", 1)[1].split("\n")[0]


def test_the_worked_gin_hand_is_the_engine_s() -> None:
    said = (
        "Example: you knock with [K♣ K♦ K♠] [5♠ 6♠ 7♠] and A♦ 2♦ 3♥ 4♥ left (1 + 2 + 3 + 4 = 10). The "
        "other player lays K♥ off on your kings and keeps 45: you score 45 − 10 = 35."
    )
    assert said in page("gin")
    rnd = deal("KC KD KS 5S 6S 7S AD 2D 3H 4H", dealer="KH 9H 8C 7D 6C 5D 4C 3S 2S AC", upcard="9C")
    play(rnd, "take", "knock 9C", "layoff KH", "pass", "pass")
    assert rnd.result is not None and rnd.result.points == (35, -35) and rnd.result.hand_values == (10, 45)
    assert "keeps 55: you score 55 − 10 = 45" in page("gin(layoff_after_knock=none)")
    assert "Example: you knock" not in page("gin(knock_card=5)")


def test_the_terminal_section_says_how_to_type_and_the_terminal_reads_it() -> None:
    from rummykit.cli.parsing import parse_input

    en = section(page("german"), "Playing in the terminal")
    assert "Type a card as rank then suit letter: C clubs ♣, D diamonds ♦, H hearts ♥, S spades ♠" in en
    assert "runs low to high with the joker in its place: `meld 9C 10C JK QC`" in en
    de = section(page("german", "de"), "Im Terminal spielen")
    assert "(`DD` = Karo-Dame, `10S` = Pik-10, `JK` = Joker) – oder die Position in der Hand" in de
    assert "Folgen von unten nach oben, der Joker an seinem Platz: `auslegen 9C 10C JK DC`" in de
    assert (rk.Card.parse("DD"), rk.Card.parse("10S")) == (rk.Card.parse("QD"), rk.Card.parse("TS"))
    hand = rk.parse_cards("7C 7D 7S 9C 10C JK QC 2H")
    line = parse_input("auslegen 7C 7D 7S | 9C 10C JK DC", hand, False, lang="de", letters="de")
    assert str(line) == "open 7C 7D 7S | 9C 10C JK QC"
    assert str(parse_input("x 5", hand, True)) == "discard 10C"
    assert "`JK`" not in section(page("gin"), "Playing in the terminal")  # no jokers in gin
    for preset in ("german", "viennese", "gin"):
        html = explain_html(rk.Rules.preset(preset), "de")
        assert "Im Terminal" not in html and "Eintippen" not in html


def test_seats_wording_and_the_home_word_for_the_opening() -> None:
    assert "Nobody changes seats; the draw only decides who deals first." in page("german")
    assert "Die Sitzordnung bleibt; die gezogene Karte bestimmt nur, wer zuerst gibt." in page("german", "de")
    assert "keep the seats they took" not in page("viennese")
    assert "| opening | Erstmeldung (rauskommen), erstes Auslegen |" in page("german", "de")


_DU: re.Pattern[str] = re.compile(
    r"\b(du|dein|deine|deiner|deinen|deinem|dir|dich|hast|kannst|darfst|musst|behalte|lege|wirf)\b",
    re.IGNORECASE,
)


def test_the_german_pages_say_man_throughout() -> None:
    """german.de.md said „Dein Zug“ and „Behalte“ beside „man“."""
    for name, text in rendered_pages().items():
        if name.endswith(".de.md"):
            assert not _DU.search(text), (name, _DU.findall(text))
    assert "## Der Zug" in page("german", "de") and "man behält eine andere Karte" in page("german", "de")


def test_the_readme_sends_newcomers_to_the_rules_and_a_practice_game() -> None:
    readme = README.read_text(encoding="utf-8")
    line = "New to rummy? Read [the rules pages](docs/rules/README.md)"
    assert line in readme and readme.index(line) < readme.index("The core (`pip install rummykit`)")
    assert "`rummykit play --rules viennese --practice`; at the prompt, `help`, `hint` and `rules`" in readme
    result = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "--rules" in result.output and "--practice" in result.output
    from rummykit.cli.parsing import META_COMMANDS

    assert {"help", "hint", "rules", "hilfe", "tipp", "regeln"} <= set(META_COMMANDS)
