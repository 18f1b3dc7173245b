"""``rummykit play`` in German (``--lang de`` or a German locale): every prompt, help, move, error and
status line, the table and the score sheet, at 80×24 (issue #19, item 6)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rummykit as rk
from rummykit.bots import make_bot
from rummykit.cli import app, screen
from rummykit.cli.play import Player, PlaySession

runner = CliRunner()
ENGLISH_UI = (
    "Your turn", "Legal moves", "illegal", "not a move", "draws from", "discards", "Hand 1 over",
    "Match over", "Game saved", "Stock ", "Discard ", "player", "cards left", "hint:",
    "short forms", "Press Enter", "Your hand", "dealer", "hand 1", "round 1", "bots:", "no moves", "melds |",
    "deadwood", "Pot:", "the match",
)  # fmt: skip
"""Words of the English screens that must not appear in a German game."""


def play(*args: str, lines: list[str]) -> str:
    players = args[args.index("--players") + 1] if "--players" in args else "3"
    result = runner.invoke(
        app, ["play", "--fast", "--dealer", players, *args], input="".join(f"{line}\n" for line in lines)
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


def assert_german(out: str) -> None:
    found = [w for w in ENGLISH_UI if w in out]
    assert not found, f"English on a German screen: {found}"


def test_a_whole_german_hand_at_80_by_24(data_dir: Path) -> None:
    script = ["hilfe", "discard ZZ", "tipp", "abwerfen 1", "Z" * 5000, "discard " + "Q" * 150, "protokoll"]
    out = play(
        "--lang", "de", "--rules", "german", "--players", "3", "--seed", "3", "--bots", "greedy",
        "--set", "match_end=single_hand", lines=script + ["auto"] * 400,
    )  # fmt: skip
    assert_german(out)
    assert "Rommé, geänderte Regeln · Spiel 1 von 1 · Geber Bot 3" in out
    assert "Spieler     Karten  ausgelegt  Punkte" in out
    assert "Stoß 70  Ablage 6♣  Keine Figuren auf dem Tisch" in out
    assert "2 Bots: Gierig · Startwert 3" in out
    assert "Deine Hand (13 Karten, nach Farbe)" in out
    assert "Dein Zug: ziehen (d) oder von der Ablage nehmen (t)   hilfe · tipp · ende" in out
    # The moves as a player types them, with the German verbs (the notation's English ones work too).
    # The prompt's German verbs work ("abwerfen 1" above was refused only for not drawing first).
    assert (
        "> Erlaubte Züge (so eintippen wie hier; draw, layoff … gehen auch):\n"
        "  ziehen  ·  nehmen\nKurzformen: d/z ziehen · t/n von der Ablage nehmen"
    ) in out
    unknown = "> ✗ kein Zug: Keine Karte: 'ZZ' (Karten: DS, 10H, JK; oder ihre Stelle)"
    assert unknown in out
    assert "> Tipp: vom Stoß ziehen  (6♣ passt zu nichts auf deiner Hand)" in out
    flat = " ".join(out.split())
    assert (
        "✗ nicht erlaubt: Kreuz-3 abwerfen: Zuerst vom Stoß ziehen oder von der Ablage nehmen "
        "[zuerst ziehen]" in flat
    )
    # Item 9: a 5,000-character line is refused without being echoed back.
    assert "✗ kein Zug: Diese Zeile ist 5000 Zeichen lang; ein Zug hat höchstens 200" in out
    assert "Z" * 20 not in out and "Q" * 60 not in out.replace("\n", "")
    # The person at the keyboard is spoken to; the bots are named.
    # Only the drawer reads the log at this terminal: it names the drawn card ("Du ziehst Karo-Ass").
    assert re.search(r"Du ziehst \w+-\w+ vom Stoß", out) and re.search(r"Du wirfst \w+-\w+ ab", out)
    assert "Du: " not in out and re.search(r"Bot \d: (zieht|nimmt)", out)
    assert "Spiel 1 vorbei: " in out and "Spieler  Karten übrig" in out
    assert "Partie beendet: " in out and "Partie gespeichert in:\n" in out
    # Every line fits 80 columns but the saved file's path, on a line of its own and never broken.
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith(str(data_dir)))
    # Scores signed as in English and in the browser (item 9): minus points are negative.
    assert re.search(r"\(Punkte: Du -\d+, Bot 2 -?\d+, Bot 3 -?\d+\)", flat)


def test_a_german_viennese_hand_shows_the_showdown_in_german(data_dir: Path) -> None:
    out = play("--lang", "de", "--rules", "viennese", "--players", "3", "--seed", "24", "--bots", "greedy",
               lines=["auto"] * 60)  # fmt: skip
    assert_german(out)
    assert "Wiener Rommé (Wiener Rummy) · Spiel 1 · Geber Bot 3 · Pott 15" in out
    assert "Deine Hand (10 Karten, nach Farbe) · Restpunkte 58" in out
    assert "Spiel 1 vorbei: Bot 2 hat Rummy gerufen" in out
    assert "Figuren | Restpunkte" in out and "Pott: 15 Chips" in out
    assert "Enter für das nächste Spiel (oder „ende“)" in out
    assert "Bot 2: ruft Rummy und legt eine Karte verdeckt ab" in out  # the face-down card stays hidden


def test_the_locale_chooses_the_language(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    out = play("--players", "2", "--seed", "4", "--bots", "random", lines=["ende"])
    assert "1 Bot: Zufall · Startwert 4" in out and "Partie unterbrochen (auf Wunsch)" in out
    assert "Dein Zug:" in out
    english = play("--lang", "en", "--players", "2", "--seed", "4", "--bots", "random", lines=["quit"])
    assert "1 bot: Random · seed 4" in english and "Your turn:" in english
    monkeypatch.setenv("LC_ALL", "C")  # LC_ALL wins over LANG; C is English
    assert "Your turn:" in play("--players", "2", "--seed", "4", "--bots", "random", lines=["quit"])


def test_an_unknown_language_is_refused(data_dir: Path) -> None:
    result = runner.invoke(app, ["play", "--lang", "fr", "--no-save"])
    assert result.exit_code == 2 and "--lang: no language 'fr'; languages: en, de" in result.output


def test_german_errors_from_the_command_line(data_dir: Path) -> None:
    result = runner.invoke(app, ["play", "--lang", "de", "--set", "opening_min_points=abc", "--no-save"])
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "„Mindestwert beim Auslegen (Punkte)“ (opening_min_points): eine ganze Zahl, nicht 'abc'" in flat


def test_the_german_board_fits_80_by_24() -> None:
    """A busy table (six melds, a full log) as the session draws it, in German, fits the screen."""
    import random

    match = rk.Match.new(rk.Rules.preset("german"), 3, seed=3, dealer=2)
    greedy, rng = make_bot("greedy"), random.Random(0)
    console = Console(width=80, height=24, record=True, file=io.StringIO())
    seats = [Player("Du"), Player("Bot 2", greedy, "greedy"), Player("Bot 3", greedy, "greedy")]
    session = PlaySession(match, seats, console, lambda prompt: "", lang="de")
    first = match.round
    while match.round is first and len(first.table) < 6 and not first.is_over:
        session.apply(
            match.to_move, greedy.choose(match.round.view(match.to_move), match.legal_actions(), rng)
        )
    console.export_text()  # only the board below
    session.show(0, session.status(0))
    text = console.export_text()
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
    assert "Figuren auf dem Tisch" in text and "Deine Hand (" in text
    assert_german(text)


def test_german_counts_and_the_buyback_note() -> None:
    assert screen.count(1, "card", "de") == "1 Karte" and screen.count(0, "bot", "de") == "0 Bots"
    position = rk.MatchPosition(totals=(95, 30, 60), pot=15, buybacks=(1, 0, 0))
    m = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=1, dealer=0, position=position)
    players = [Player("Du")] + [Player(f"Bot {i}", make_bot("random"), "random") for i in (2, 3)]
    session = PlaySession(m, players, Console(file=io.StringIO()), lambda prompt: "", lang="de")
    assert session.no_offer_notes() == [
        "Kein Rückkaufangebot: Du hast dich schon einmal zurückgekauft, so oft wie erlaubt"
    ]


def test_german_hot_seat_hand_over(data_dir: Path) -> None:
    out = play("--lang", "de", "--players", "2", "--humans", "2", "--names", "Anna,Ben", "--seed", "2",
               lines=["", "d", "x 1", "", "ende"])  # fmt: skip
    assert "Weiter an Anna: die anderen schauen weg." in out
    assert "Anna, Enter zeigt deine Hand" in out and "Anna ist dran:" in out
    assert "Weiter an Ben" in out
    assert_german(out)


def test_the_draw_for_the_first_dealer_in_german(data_dir: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "--fast", "--lang", "de", "--players", "3", "--seed", "3", "--bots", "random", "--no-save"],
        input="ende\n",
    )
    assert "Du ziehst 2♦, Bot 2 zieht 8♣, Bot 3 zieht 8♦; Gleichstand: noch einmal" in result.output
    assert "Bot 3 zieht 5♦, Bot 2 zieht A♥ und gibt zuerst" in result.output


def test_the_rules_page_follows_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = runner.invoke(app, ["rules", "viennese", "--explain"]).output
    assert german.startswith("# Wiener Rommé (Wiener Rummy)")
    english = runner.invoke(app, ["rules", "viennese", "--explain", "--lang", "en"]).output
    assert english.startswith("# Viennese Rummy (Wiener Rummy)")


def test_the_hands_end_speaks_to_du() -> None:
    from types import SimpleNamespace

    from rummykit.views import Termination

    for termination, verb in ((Termination.RUMMY, "Rummy gerufen"), (Termination.KNOCK, "geklopft")):
        result = SimpleNamespace(termination=termination, winner=0, multiplier=1)
        assert screen.termination_text(result, ["Du", "Bot 2"], "de") == f"Du hast {verb}"  # type: ignore[arg-type]
        assert screen.termination_text(result, ["Anna", "Bot 2"], "de") == f"Anna hat {verb}"  # type: ignore[arg-type]


def test_undo_in_german_names_the_moves_in_words(data_dir: Path) -> None:
    out = play("--seed", "3", "--bots", "random", "--practice", "--lang", "de", "--players", "2",
               lines=["d", "x 1", "zurück", "zurück", "zurück"])  # fmt: skip
    assert "zurückgenommen: Kreuz-4 abwerfen; von der Ablage nehmen; Kreuz-2 abwerfen" in out  # bots too
    assert "zurückgenommen: vom Stoß ziehen" in out
    assert "✗ nichts zurückzunehmen" in out
    assert_german(out)


def test_a_gin_hand_in_german_prompts_and_hints_by_gins_own_moves(data_dir: Path) -> None:
    """Gin has no Rummy call and a first upcard to take or pass: the German prompts say so, the hint
    weighs the upcard (take it or pass, never a blind pass), and the title is the game's name."""
    out = play(
        "--lang", "de", "--rules", "gin", "--players", "2", "--seed", "3", "--bots", "greedy",
        lines=["tipp", "auto", "tipp", "auto", "tipp", "auto", "auto", "auto", "ende"],
    )  # fmt: skip
    assert_german(out)
    assert "Gin-Rommé (Gin Rummy) · Spiel 1 von 1 · Geber Bot 2" in out
    flat = " ".join(out.split())
    assert "Dein Zug: die offene Karte nehmen (t) oder passen hilfe" in flat  # "passen" is typed as is
    assert "> Tipp: bei der offenen Karte passen (K♣ senkt deine Restpunkte nicht (54))" in flat
    assert "Dein Zug: abwerfen (x N)" in flat  # no knock offered where none is legal
    assert "Rummy (r N)" not in out
    # The size of the discard pile is counted in cards, not "im Stapel" (a word for the stock).
    assert re.search(r"Stoß \d+  Ablage \S+ \(3 Karten\)", out) and "im Stapel" not in out
    # A hint that keeps no meld lists the deadwood alone (no empty meld part before a bar).
    assert re.search(r"> Tipp: [^(]+ abwerfen \(du behältst \d+ Restpunkte: [2-9JQKA]", flat)
    assert "Partie unterbrochen (auf Wunsch)" in flat


def test_german_cards_carry_german_letters_and_both_are_typed(data_dir: Path) -> None:
    """A German game shows its cards as German packs print them (B Bube, D Dame, K König, A Ass),
    in the hand, on the table and in every message; ``--letters en`` shows J and Q. Either is read
    when typed."""
    args = ("--lang", "de", "--rules", "german", "--players", "2", "--seed", "3", "--bots", "greedy")
    args = (*args, "--no-save")
    script = ["d", "x DC", "x BD", "x JD", "ende"]
    german = play(*args, lines=script)
    faces = set(re.findall(r"(?<![\w])([JQBD])[♣♦♥♠]", german))
    assert faces and faces <= {"B", "D"}, faces
    international = play(*args, "--letters", "en", lines=script)
    faces = set(re.findall(r"(?<![\w])([JQBD])[♣♦♥♠]", international))
    assert faces and faces <= {"J", "Q"}, faces
    assert german.replace("B", "J").count("✗") == international.count("✗")  # the same moves read alike
    refused = runner.invoke(app, ["play", "--lang", "de", "--letters", "fr"])
    assert refused.exit_code == 2 and "--letters: keine Kartenbuchstaben 'fr'" in refused.output


def resume(path: Path, lines: list[str]) -> str:
    """``rummykit play --resume PATH --lang de``."""
    args = ["play", "--fast", "--resume", str(path), "--lang", "de"]
    result = runner.invoke(app, args, input="".join(f"{line}\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


def test_a_game_begun_in_english_goes_on_in_german_with_du(data_dir: Path) -> None:
    """The default name ``You`` a save keeps is the game's, not one a person typed: resumed with
    ``--lang de`` it is ``Du`` (and ``Deine Hand``), and the save still says that nobody typed it. A
    name typed with ``--names`` stays as it is."""
    play("--seed", "3", "--lang", "en", lines=["auto", "quit"])
    (path,) = sorted((data_dir / "games").glob("*.json"))
    out = resume(path, lines=["auto", "quit"])
    assert "Deine Hand" in out and "You" not in out
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    assert meta["names"] == ["Du", "Bot 2", "Bot 3"] and meta["typed"] == [False, False, False]
    path.unlink()
    play("--seed", "3", "--lang", "en", "--names", "Anna", lines=["auto", "quit"])
    (path,) = sorted((data_dir / "games").glob("*.json"))
    out = resume(path, lines=["quit"])
    assert "Hand von Anna" in out
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    assert meta["names"][0] == "Anna" and meta["typed"] == [True, False, False]


def test_a_dskv_match_ends_with_its_score_sheet(data_dir: Path) -> None:
    """A tournament keeps a sheet: at the end of the match the terminal shows, per hand, who dealt,
    who went out, the points with a Hand-Rommé's ×2, and the running totals, then the winner."""
    out = play("--lang", "de", "--rules", "german_dskv", "--players", "3", "--seed", "3", "--bots", "greedy",
               lines=["auto", ""] * 300)  # fmt: skip
    assert_german(out)
    sheet = out[out.index("Spiel  Geber  Ende") :]
    rows = [line.split() for line in sheet.splitlines()[1:4]]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    dealers = [" ".join(row[1:3]) if row[1] == "Bot" else row[1] for row in rows]
    assert dealers == ["Bot 3", "Du", "Bot 2"]  # clockwise from the first dealer: everybody deals once
    assert "×2" in rows[0]  # the first hand was a Hand-Rommé
    totals = re.search(r"\(Punkte: Du (-?\d+), Bot 2 (-?\d+), Bot 3 (-?\d+)\)", " ".join(out.split()))
    assert totals is not None and rows[2][-3:] == list(totals.groups())
    assert sheet.splitlines()[4].startswith("Partie beendet: ")
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith(str(data_dir)))


def test_a_dskv_sheet_of_four_is_shown_at_80_columns(data_dir: Path) -> None:
    """Four players' points and totals fit 80 columns once the sheet narrows (short headers, a long
    name cut with ``…``); the match's own line still names everybody in full."""
    out = play("--lang", "de", "--rules", "german_dskv", "--players", "4", "--seed", "3", "--bots", "greedy",
               "--names", "Maximiliane Mustermann", lines=["auto", ""] * 400)  # fmt: skip
    assert_german(out)
    sheet = out[out.index("Nr. ") :].splitlines()
    assert sheet[0].split() == ["Nr.", "Gb.", "Ende", "Maximi…", "Bot", "2", "Bot", "3", "Bot", "4", "×",
                                "Maximi…", "Bot", "2", "Bot", "3", "Bot", "4"]  # fmt: skip
    assert [line.split()[0] for line in sheet[1:5]] == ["1", "2", "3", "4"]
    assert all(len(line) <= 80 for line in sheet[:5])
    assert sheet[5].startswith("Partie beendet: ") and "Maximiliane Mustermann" in " ".join(out.split())


def _two_joker_exchange() -> tuple[rk.Match, PlaySession]:
    """A German hand where Du (the dealer) is to exchange 5♥ 7♥ for both jokers of Bot 2's run."""
    from rummykit.arrange import arrange_deck

    rules = rk.Rules.preset("german")
    dealer = "QC QD QS 10H 10D 10S 5H 7H 8D 9D 2C 6C 4H"
    forehand = "JK 6H JK 8H KS KD KC 3C 7C JC 4D QD 2S"
    deck = arrange_deck(rules, 2, [dealer, forehand], dealer=0, upcard="7S", stock="8S JH 4S 9C")
    match = rk.Match.new(rules, 2, deck=deck, dealer=0)
    seats = [Player("Du"), Player("Bot 2", make_bot("random"), "random")]
    console = Console(file=io.StringIO())
    session = PlaySession(match, seats, console, lambda prompt: "", practice=True, lang="de")
    for action in (
        "draw", "open JK 6H JK 8H | KS KD KC", "discard 8S",
        "draw", "open QC QD QS | 10H 10D 10S", "discard JH",
        "draw", "discard 4S",
        "draw",
    ):  # fmt: skip
        session.apply(match.to_move, rk.Action.parse(action))
    return match, session


def test_a_joker_exchange_s_hint_and_undo_count_the_jokers() -> None:
    """The German hint and undo said "5♥ 7♥ gegen Joker von Figur 1 tauschen": not how many. Both
    jokers of the run go; the words say so, as the log's do."""
    from rummykit.cli.hints import Hint

    match, session = _two_joker_exchange()
    swap = rk.Action.parse("swap 5H 7H on 1 then meld 8D 9D JK JK")
    view = match.round.view(0)
    hint = Hint((swap, rk.Action.parse("discard 2C")), "")
    table = [tm.meld for tm in view.melds]
    assert hint.text("de", table=table, rules=view.rules) == (
        "5♥ 7♥ gegen zwei Joker von Figur 1 tauschen und 8♦ 9♦ JK JK auslegen → Kreuz-2 abwerfen"
    )
    session.apply(0, swap)
    assert session.meta(0, "undo") is None
    assert session.log[-1].plain == (
        "zurückgenommen: 5♥ 7♥ gegen zwei Joker von Figur 1 tauschen und 8♦ 9♦ JK JK auslegen"
    )
    assert str(session.match.round.melds[0].meld) == "JK(=5H) 6H JK(=7H) 8H"  # the exchange taken back
