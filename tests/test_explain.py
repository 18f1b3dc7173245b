"""The rules pages for players: built from the option values, committed under docs/rules, in the CLI."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Literal, get_args, get_origin, get_type_hints

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.cli import app
from rummykit.explain import LANGUAGES, explain, explain_html, page_name, rendered_pages
from rummykit.explain.document import Paragraph, to_html
from rummykit.explain.language import Lang
from rummykit.explain.terms import NONE_WORDS, OPTION_LABELS, option_label
from rummykit.rules import OPTION_RANGES, PRESET_NAMES

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
runner = CliRunner()


def test_committed_pages_equal_the_generator() -> None:
    expected = rendered_pages()
    committed = {p.name for p in DOCS.glob("*.md")}
    assert committed == set(expected), "regenerate with: python -m rummykit.explain docs/rules"
    for name, text in expected.items():
        assert (DOCS / name).read_text(encoding="utf-8") == text, (
            f"docs/rules/{name} is out of date: python -m rummykit.explain docs/rules"
        )


def test_every_preset_has_a_page_in_every_language() -> None:
    pages = rendered_pages()
    for preset in PRESET_NAMES:
        for lang in LANGUAGES:
            assert page_name(preset, lang) in pages
            assert f"({page_name(preset, lang)})" in pages["README.md"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_pages_explain_the_terms_players_meet(preset: str) -> None:
    rules = rk.Rules.preset(preset)
    en, de = explain(rules, "en"), explain(rules, "de")
    if rules.is_gin:
        for word in ("deadwood", "knock", "gin", "undercut", "lay off", "the wall", "upcard"):
            assert word in en, word
        for word in ("Restpunkte", "Klopfen", "Gin", "unterbieten", "anlegen", "Mauer"):
            assert word in de, word
    elif rules.is_knock_game:
        for word in ("deadwood", "knock", "Rummy", "bad points", "rubber", "buy-back", "knock money"):
            assert word in en, word
        for word in ("Schlechtpunkte", "Klopfen", "Rummy", "Rückkauf", "Klopfgeld", "Pott"):
            assert word in de, word
    else:
        score = "minus points" if rules.hand_scoring == "losers_penalty" else "plus points"
        for word in ("meld", "lay off", "joker", score):
            assert word in en, word
        for word in ("auslegen", "Anlegen", "Joker tauschen", "Ablage"):
            assert word in de, word
    # No page is written as if it were another preset's.
    assert "house rules" not in en.splitlines()[0] and "Hausregeln" not in de


def test_house_rules_show_their_own_values_and_are_listed() -> None:
    house = rk.Rules.preset("german").replace(opening_min_points=30, penalty_joker=20)
    en = explain(house, "en")
    assert en.startswith("# German Rummy (Rommé) — house rules\n")
    assert "| opening minimum (points) | 30 | 40 |" in en
    assert "| joker left in hand (points) | 20 | 30 |" in en
    assert "must be worth at least **30 points** together" in en
    assert "11 + 20 + 7 + 10 = 48 minus points (after a Hand-Rommé: 96)" in en
    de = explain(house, "de")
    assert "## Hausregeln an diesem Tisch" in de and "| Mindestwert beim Auslegen (Punkte) | 30 | 40 |" in de

    viennese = rk.Rules.preset("viennese").replace(knock_threshold=8, knock_comparison="le", pot_ante=10)
    text = explain(viennese, "en")
    assert "Knock with deadwood of 8 points or less" in text
    assert "Everybody pays 10 chips into the pot once per rubber." in text
    assert "| knock when deadwood is | at or below the limit | below the limit |" in text


def test_examples_are_computed_by_the_engine() -> None:
    german = explain(rk.Rules.preset("german"), "en")
    assert "A♥ 2♥ 3♥ is worth 6, Q♣ K♣ A♣ 31" in german
    assert "| K♠ A♠ 2♠ | no |" in german and "| 3♠ JK JK 6♠ | yes |" in german
    # The same meld is judged differently where the rules differ: no high ace in Basic Rummy.
    assert "| Q♣ K♣ A♣ | no |" in explain(rk.Rules.preset("basic"), "en")
    viennese = explain(rk.Rules.preset("viennese"), "en")
    assert "with 3♦ left: deadwood 3." in viennese and "you may knock." in viennese
    strict = explain(rk.Rules.preset("viennese").replace(knock_threshold=3), "en")
    assert "the hand above has deadwood 3: you may not knock." in strict


def test_dskv_and_scala_pages_name_their_special_rules() -> None:
    dskv = explain(rk.Rules.preset("german_dskv"), "en")
    assert "At a table of 4 the dealer sits out the hand, so 3 play; the dealer scores nothing" in dskv
    dskv_de = explain(rk.Rules.preset("german_dskv"), "de")
    assert "es spielen 3. Der Geber schreibt in diesem Spiel keine Punkte." in dskv_de
    # Going out by melding everything lays no card down: only a discarded last card goes face down.
    assert "Wirft man die letzte Karte ab, legt man sie verdeckt ab; so oder so ruft man „Rommé!“." in dskv_de
    assert "Die letzte Karte wird verdeckt abgelegt" not in dskv_de
    must = explain(rk.Rules.preset("german_dskv").replace(going_out_requires_discard=True), "de")
    assert "Die letzte Karte wird verdeckt abgelegt und man ruft „Rommé!“." in must
    assert "only be taken if the set then holds four natural cards" in dskv
    scala = explain(rk.Rules.preset("scala40"), "de")
    assert "Von der Ablage darf nur nehmen, wer ausgelegt hat oder in diesem Zug damit auslegt." in scala
    assert "Ein Joker darf nur als letzte Karte abgeworfen werden." in scala


def test_html_is_escaped_and_has_the_same_content() -> None:
    assert to_html([Paragraph("<script>x</script> **a<b** `c&d`")]) == (
        "<p>&lt;script&gt;x&lt;/script&gt; <strong>a&lt;b</strong> <code>c&amp;d</code></p>\n"
    )
    page = explain_html(rk.Rules.preset("viennese"), "de")
    assert page.startswith("<h1>Wiener Rommé (Wiener Rummy)</h1>")
    assert "<table><thead><tr><th>Karte</th>" in page and "<script" not in page


@pytest.mark.parametrize("preset", ["german", "viennese", "gin"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browsers_page_names_no_command_and_no_typing(preset: str, lang: str) -> None:
    """The web's rules dialog is read by people who click: the terminal's page tells how to type the
    cards and which command lists the options; the browser's page leaves both out."""
    rules = rk.Rules.preset(preset)
    typed = explain(rules, lang)
    assert "rummykit rules --options" in typed
    page = explain_html(rules, lang)
    for said in ("rummykit", "--letters", "Eintippen", "--lang"):
        assert said not in page
    assert f"<code>{rules}</code>" in page


def test_unknown_language_is_refused() -> None:
    with pytest.raises(rk.RulesError, match="languages: en, de"):
        explain(rk.Rules.preset("german"), "fr")
    assert explain(rk.Rules.preset("german"), "de_DE.UTF-8") == explain(rk.Rules.preset("german"), "de")


def test_cli_rules_explain() -> None:
    result = runner.invoke(app, ["rules", "--explain", "viennese", "--lang", "de"])
    assert result.exit_code == 0
    assert result.output == explain(rk.Rules.preset("viennese"), "de")
    house = runner.invoke(app, ["rules", "--explain", "german", "--set", "opening_min_points=25"])
    assert "at least **25 points**" in house.output
    bad = runner.invoke(app, ["rules", "--explain", "german", "--lang", "xx"])
    assert bad.exit_code == 2 and "error: no rules page in 'xx'" in bad.stderr


def missing_label(option: str) -> str:
    """The failure message for an option without a label."""
    return (
        f"{option} has no label: add {option!r}: (English, German) to `OPTION_LABELS` in "
        "src/rummykit/explain/terms.py (a short noun phrase, as players read it on the options page and in "
        "a table's house rules; the German one names the option in German refusals)"
    )


def test_every_option_has_a_label_and_words_for_none_in_both_languages() -> None:
    """Pages, the lobby and German refusals name an option by its label, and show ``None`` in words."""
    hints = get_type_hints(rk.Rules)
    for f in fields(rk.Rules):
        if f.name == "name":
            continue
        label = OPTION_LABELS.get(f.name)
        assert label is not None and all(label) and label[0] != label[1], missing_label(f.name)
        if type(None) in get_args(hints[f.name]):
            assert f.name in NONE_WORDS, (
                f"{f.name} may be None: say what None means (English, German) in `NONE_WORDS` in "
                "src/rummykit/explain/terms.py, used by `value_words` (('none', 'keine') only where that is "
                "what it means; ('no limit', 'unbegrenzt') for max_stock_rebuilds)"
            )
    stale = sorted(set(OPTION_LABELS) - {f.name for f in fields(rk.Rules)})
    assert not stale, f"src/rummykit/explain/terms.py `OPTION_LABELS` labels no option any more: {stale}"
    none = sorted(o for o in NONE_WORDS if type(None) not in get_args(hints.get(o, int)))
    assert not none, f"src/rummykit/explain/terms.py `NONE_WORDS` words options that are never None: {none}"


def test_a_match_of_one_hand_is_singular_and_unset_num_hands_is_one_per_player() -> None:
    """``num_hands=1`` reads "one hand" (not "1 hands"); an unset ``num_hands`` is one hand per player,
    not "none", in both languages."""
    one = rk.Rules.preset("german").replace(num_hands=1)
    en, de = explain(one, "en"), explain(one, "de")
    assert "A match has one hand." in en and "1 hands" not in en
    assert "Eine Partie hat ein Spiel." in de and "1 Spiele" not in de
    assert "| hands in the match | 1 | one per player |" in en
    assert "| Spiele in der Partie | 1 | eines pro Spieler |" in de
    three = rk.Rules.preset("german").replace(num_hands=3)
    assert "A match has 3 hands" in explain(three, "en")
    assert "Eine Partie hat 3 Spiele" in explain(three, "de")
    assert NONE_WORDS["num_hands"] == ("one per player", "eines pro Spieler")


def _alternatives(rules: rk.Rules, option: str) -> list[object]:
    """A few values of ``option`` other than the one ``rules`` has (choices, booleans, range ends)."""
    hint = get_type_hints(rk.Rules)[option]
    kind = next(str(f.type) for f in fields(rules) if f.name == option)
    choices: list[object] = list(get_args(hint)) if get_origin(hint) is Literal else []
    if kind == "bool":
        choices = [True, False]
    elif option in OPTION_RANGES:
        low, high = OPTION_RANGES[option]
        choices = [(low, high)] if kind.startswith("tuple") else [low, high]
    return [v for v in choices if v != getattr(rules, option)]


@pytest.mark.parametrize("preset", ["german", "viennese"])
def test_every_house_rule_a_table_can_set_is_named_on_its_page(preset: str) -> None:
    base = rk.Rules.preset(preset)
    tried = 0
    for option in base.to_dict():
        if option == "name":
            continue
        for value in _alternatives(base, option)[:1]:
            try:
                house = base.replace(**{option: value})
            except rk.RulesError:
                continue  # a combination the engine refuses is no table's rules
            tried += 1
            page = explain(house, "en")
            table = page.split("## House rules at this table", 1)[1].split("\n## ", 1)[0]

            assert option in OPTION_LABELS, missing_label(option)
            assert f"| {option_label(option, Lang('en'))} |" in table, option
    # Options that cannot matter under the preset are refused; most of the others must have been tried.
    applicable = [o for o in base.to_dict() if o != "name" and base.not_applicable(o) is None]
    assert tried > len(applicable) // 2


def test_every_choice_of_every_option_is_worded_in_both_languages() -> None:
    """A value shown to players (the lobby's house-rule menus, the house-rules table of a page) is words,
    never the option's raw value: gin's ``start_mode`` once read ``gin_first_upcard`` in the lobby."""
    from rummykit.explain.terms import value_words

    hints = get_type_hints(rk.Rules)
    for f in fields(rk.Rules):
        for value in get_args(hints[f.name]):
            if not isinstance(value, str):
                continue
            en, de = (value_words(f.name, value, Lang(lang)) for lang in ("en", "de"))
            assert "`" not in en + de and "_" not in en + de and en != de, (f.name, value, en, de)
    assert value_words("layoff_after_knock", "none", Lang("de")) == "kein Anlegen"
    assert value_words("knock_undercut_rule", "none", Lang("en")) == "no penalty"


def _glossary(page: str) -> dict[str, str]:
    """The glossary table's rows of a page: term → meaning."""
    rows = page.split("## Words you will meet", 1)[1].split("\n\n")[1].splitlines()[2:]
    return {row.split(" | ")[0].strip("| "): row.split(" | ")[2].strip("| ") for row in rows}


def test_each_game_words_its_glossary_as_it_plays() -> None:
    """A word means what it means in the game at hand: no opening minimum to reach in Basic Rummy,
    whose winner collects (and whose going out at once is called rummy); melds that stay in hand in
    Rommé ohne Auslegen; Scala 40's "in mano"."""
    basic = _glossary(explain(rk.Rules.preset("basic"), "en"))
    assert basic["opening"] == "your first melds of a hand; any meld will do"
    assert basic["minus points"] == "the value of the cards left in the losers' hands; the winner scores it"
    assert basic["rummy"].endswith("the winner collects double") and "Hand-Rommé" not in basic
    assert "open (your first melds)" not in explain(rk.Rules.preset("basic"), "en")
    scala = _glossary(explain(rk.Rules.preset("scala40"), "en"))
    assert scala["in mano"].endswith("the others' minus points count double")
    assert "must reach the opening minimum" in scala["opening"]
    roa = _glossary(explain(rk.Rules.preset("romme_ohne_auslegen"), "en"))
    assert "melds stay in hand" in roa["meld"]
    # A game without laying out has no "auslegen" among its words (gin's knocker lays melds down).
    for preset in ("romme_ohne_auslegen", "viennese"):
        assert "| meld | Figur |" in explain(rk.Rules.preset(preset), "en")
    assert "| meld | Figur, auslegen |" in explain(rk.Rules.preset("german"), "en")
    german = _glossary(explain(rk.Rules.preset("german"), "en"))
    assert german["meld"] == "a set or a run; to meld is to put melds on the table"
    # A game whose multiplier is 1 has nothing to explain under the name.
    single = rk.Rules.preset("german").replace(hand_romme_multiplier=1)
    assert "Hand-Rommé" not in _glossary(explain(single, "en"))


def test_the_page_gives_rummy_chs_hand_sizes_and_the_packets_of_each() -> None:
    """RULES.md §3.4: by_player_count in the German game deals 13 with 2–4 and 11 with 5–6 players,
    in packets 3, 3, 3 and 4 (the last cut to 2 for eleven cards)."""
    rules = rk.Rules.preset("german").replace(hand_size_rule="by_player_count")
    english, german = explain(rules, "en"), explain(rules, "de")
    assert (
        "packets of 3, 3, 3 and 4 cards (3, 3, 3 and 2 with 11 cards): "
        "13 cards each with 2–4 players, 11 with 5–6" in english
    )
    assert "je 13 Karten bei 2–4 Spielern, 11 bei 5–6" in german
    # The sizes are those of the players dealt in: where the dealer sits out at five, five seated
    # players are four dealt, and get four players' cards.
    sits_out = rk.Rules.preset("basic").replace(dealer_sits_out_at_table_of=5)
    assert rk.Round.new(sits_out, 5, seed=1).view(0).hand_sizes == (0, 7, 7, 7, 7)
    assert "10 cards each with 2 players, 7 with 3–5, 6 with 6" in explain(sits_out, "en")


def test_a_knock_game_page_names_no_single_hand_size_where_it_varies() -> None:
    """viennese(hand_size_rule=by_player_count) deals 13 heads-up and 11 at five: the knock line speaks
    of "your cards", and the deadwood example is a hand of the heads-up size."""
    rules = rk.Rules.preset("viennese").replace(hand_size_rule="by_player_count")
    english, german = explain(rules, "en"), explain(rules, "de")
    assert "the deadwood of your cards must be" in english and "your 10 cards" not in english
    assert "die Restpunkte der eigenen Karten" in german and "der 10 Karten" not in german
    assert "the deadwood of your 10 cards must be" in explain(rk.Rules.preset("viennese"), "en")
    example = next(line for line in english.splitlines() if line.startswith("Example: "))
    assert len(example.split(" is arranged as ")[0].split()) - 1 == 13


def test_the_options_page_names_every_option_and_offers_only_what_the_engine_takes() -> None:
    """RULES.md §6's options for players: each with its meaning, the values ``--set`` accepts and
    every preset's value; a choice or switch value the page offers is one the engine accepts."""
    from rummykit.explain.options_page import accepted, options_markdown
    from rummykit.rules import OPTION_TYPES, Rules

    page = options_markdown(Lang("en"))
    options = [f.name for f in fields(Rules) if f.name != "name"]
    for option in options:
        assert option_label(option, Lang("en")) != f"`{option}`", missing_label(option)
        assert option_label(option, Lang("de")) != f"`{option}`", missing_label(option)
        assert f"| `{option}` | {option_label(option, Lang('en'))} |" in page
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        for option in options:
            values = accepted(option, (rules,))
            if values is None or rules.not_applicable(option) is not None:
                continue
            for value in values:
                rules.replace(**{option: value})  # raises where the page would promise too much
            for value in set(OPTION_TYPES[option].choices) - {str(v) for v in values}:
                with pytest.raises(rk.RulesError):
                    rules.replace(**{option: value})


def test_rules_options_lists_one_table_s_options_and_values() -> None:
    result = runner.invoke(app, ["rules", "--options", "viennese", "--set", "knock_threshold=7"])
    assert result.exit_code == 0, result.output
    assert "| option | meaning | values | viennese(knock_threshold=7) |" in result.output
    assert "| `knock_threshold` | knock limit (points) | 0–30, or `none` | 7 |" in result.output
    start = next(line for line in result.output.splitlines() if line.startswith("| `start_mode`"))
    assert "`dealer_extra_card`" in start and "gin_first_upcard" not in start
    german = runner.invoke(app, ["rules", "--options", "scala40", "--lang", "de"])
    assert german.exit_code == 0 and "# Regeloptionen" in german.output
    assert "| `all_eliminated_tiebreak` | wenn alle ausgeschieden sind |" in german.output


def test_the_page_writer_takes_help_and_options_for_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m rummykit.explain --help`` prints its usage; an option is never taken for the
    folder to write into (it wrote 17 pages into a folder named ``--help``)."""
    from rummykit.explain import main

    monkeypatch.chdir(tmp_path)
    assert main(["--help"]) == 0 and "usage: python -m rummykit.explain FOLDER" in capsys.readouterr().out
    assert main(["--out"]) == 2 and main([]) == 2
    assert not list(tmp_path.iterdir())
    assert main(["pages"]) == 0 and len(list((tmp_path / "pages").iterdir())) == len(rendered_pages())


def test_rules_options_on_a_narrow_terminal_lists_every_option_name_whole() -> None:
    """At 80 columns the table cut 23 option names (``dealer_sits_out_a…``), the very text a player
    types: a terminal under 100 columns gets one item per option; piped, the Markdown keeps its table."""
    import io

    from rich.console import Console
    from rich.markdown import Markdown

    from rummykit.explain import options_markdown
    from rummykit.explain.language import Lang

    rules = rk.Rules.preset("german")
    page = options_markdown(Lang("de"), [("german", rules)], narrow=True)
    assert "- `dealer_sits_out_at_table_of` — Bedeutung: Geber setzt aus bei Tischgröße;" in page
    assert "| option" not in page.lower()
    shown = io.StringIO()
    Console(file=shown, width=80, force_terminal=True, color_system=None).print(Markdown(page))
    names = ["dealer_sits_out_at_table_of", "may_discard_taken_discard"]
    names.append("robbed_joker_counts_toward_hand")
    for name in names:
        assert f"{name} — " in shown.getvalue()  # whole, where the table showed "dealer_sits_out_a…"


@pytest.mark.parametrize("rotation", get_args(rk.rules.DealRotation))
@pytest.mark.parametrize("preset", ["german", "german_dskv", "basic", "viennese"])
def test_the_length_of_a_match_says_who_deals_as_the_deal_rotation_has_it(rotation: str, preset: str) -> None:
    """A club player's audit: with ``deal_rotation = winner_deals`` the page still said that everyone
    deals once ("jeder gibt einmal"), which only a deal passed round the table makes true."""
    rules = rk.Rules.preset(preset).replace(deal_rotation=rotation, match_end="fixed_hands", num_hands=None)
    pages = {lang: explain(rules, lang) for lang in LANGUAGES}
    passed_round = rotation != "winner_deals"
    assert ("everyone deals once" in pages["en"]) == passed_round
    assert ("jeder gibt einmal" in pages["de"]) == passed_round
    if not passed_round:
        assert "the winner of a hand deals the next, so not everyone deals" in pages["en"]
        assert "wer ein Spiel gewinnt, gibt das nächste; so gibt nicht unbedingt jeder" in pages["de"]
    # A match of a number of hands set (not one per player) says nothing of who deals them.
    fixed = rules.replace(num_hands=5)
    assert "deals once" not in explain(fixed, "en") and "gibt einmal" not in explain(fixed, "de")


@pytest.mark.parametrize(
    ("option", "value", "en", "de", "gone"),
    [
        (
            "buyback_limit",
            0,
            "There is no **buy-back**",
            "Es gibt keinen **Rückkauf**",
            ("0 times per rubber", "keinmal"),
        ),
        (
            "knock_money",
            0,
            "There is no **knock money**",
            "Es gibt kein **Klopfgeld**",
            ("gets 0 chips", "0 Chips von jedem"),
        ),
        ("pot_ante", 0, "Nobody pays an ante", "Niemand zahlt einen Einsatz", ("pays 0 chips", "0 Chips in")),
        (
            "buyback_cost",
            0,
            "buy back free of charge",
            "kostenlos zurückkaufen",
            ("pay 0 chips", "für 0 Chips"),
        ),
    ],
)
def test_a_rubber_without_ante_knock_money_or_buy_back_says_so(
    option: str, value: int, en: str, de: str, gone: tuple[str, str]
) -> None:
    """RULES.md §4.8 (the rubber of Rommé ohne Auslegen and Viennese Rummy): a house rule that switches
    a chip rule off is said as such; the page read "you may pay 5 chips (0 times per rubber at most)"
    for a rubber without buy-backs, and "gets 0 chips" as knock money."""
    rules = rk.Rules.preset("romme_ohne_auslegen").replace(**{option: value})
    english, german = explain(rules, "en"), explain(rules, "de")
    assert en in english and de in german
    assert gone[0] not in english and gone[1] not in german


def test_a_per_hand_ante_is_paid_by_those_still_in_and_a_split_pot_s_odd_chip_is_placed() -> None:
    """RULES.md §4.8: players out of the rubber pay nothing further, so an ante before every hand is
    paid by those still in (the page said "Everybody"); and the page says where a shared pot's odd chip
    goes (Match._end's decision)."""
    rules = rk.Rules.preset("viennese").replace(ante_frequency="per_hand")
    english, german = explain(rules, "en"), explain(rules, "de")
    assert "Everybody still in pays 5 chips into the pot before every hand (a player who is out" in english
    assert "Wer noch dabei ist, zahlt vor jedem Spiel 5 Chips in den Pott (wer raus ist" in german
    assert "starting from the dealer's left" in english and "vom Platz links vom Geber an" in german


def test_a_rubber_without_any_chips_has_no_pot_to_win() -> None:
    """No ante and no buy-back price: nothing is ever paid in, so the last player wins the rubber,
    not a pot."""
    rules = rk.Rules.preset("romme_ohne_auslegen").replace(pot_ante=0, buyback_limit=0)
    english, german = explain(rules, "en"), explain(rules, "de")
    assert "The last player left wins;" in english and "takes the pot" not in english
    assert "Wer übrig bleibt, gewinnt;" in german and "bekommt den Pott" not in german


def test_a_house_rules_page_does_not_open_with_the_named_games_figures() -> None:
    """A Rommé ohne Auslegen table knocking below 5 (or dealing 10 cards) read "13 cards … knock below
    10" at the top of its page, above its own figures: the preset's line names figures, so a house rule
    that changes one of them leaves the line out; other house rules keep it."""
    line = "German Rummy without laying out: 13 cards, melds stay in your hand, knock below 10."
    roa = rk.Rules.preset("romme_ohne_auslegen")
    assert line in explain(roa, "en")
    for change in ({"knock_threshold": 5}, {"hand_size": 10}, {"knock_comparison": "le"}):
        page = explain(roa.replace(**change), "en")
        assert line not in page and "knock below 10" not in page, change
    assert "13 Karten, die Figuren bleiben" not in explain(roa.replace(knock_threshold=5), "de")
    assert line in explain(roa.replace(pot_ante=3), "en")
    assert "open with 40" not in explain(rk.Rules.preset("scala40").replace(opening_min_points=51), "en")


@pytest.mark.parametrize("game", ["romme_ohne_auslegen", "viennese"])
def test_a_knock_games_match_of_fixed_hands_is_won_on_bad_points(game: str) -> None:
    """A knock game writes its deadwood down as bad points (Restpunkte): its match of a fixed number of
    hands is won by the fewest bad points, not "the fewest minus points" of the melding games."""
    rules = rk.Rules.preset(game).replace(match_end="fixed_hands")
    english, german = explain(rules, "en"), explain(rules, "de")
    assert "The fewest bad points in total win" in english and "minus points" not in english
    assert "Die wenigsten Restpunkte gewinnen" in german and "Minuspunkte" not in german
    melding = explain(rk.Rules.preset("german").replace(match_end="fixed_hands"), "en")
    assert "The fewest minus points in total win" in melding
