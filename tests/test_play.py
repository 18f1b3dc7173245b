"""``rummykit play``: full rounds against bots driven by scripted input (typer's CliRunner)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard, Draw, LayOff, MeldAction, Open, TakeDiscard
from rummykit.bots import UnknownBotError
from rummykit.cards import parse_cards
from rummykit.cli import app, screen
from rummykit.cli.hints import hint
from rummykit.cli.parsing import short_error
from rummykit.cli.play import CLEAR_ALL, MAX_LINE, Player, PlaySession, parse_input, resolve_bots
from rummykit.cli.saves import latest_unfinished, load_saved
from rummykit.errors import NotationError
from rummykit.testing import arrange_deck

runner = CliRunner()


def play(*args: str, lines: list[str], draw: bool = False) -> tuple[int, str]:
    """Run ``rummykit play``; the last seat deals first unless ``draw`` lets the players draw for it."""
    players = args[args.index("--players") + 1] if "--players" in args else "3"
    dealer = [] if draw or "--resume" in args else ["--dealer", players]  # a resumed game has its dealer
    result = runner.invoke(
        app, ["play", "--fast", *dealer, *args], input="".join(f"{line}\n" for line in lines)
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def saved_games(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "games").glob("*.json"))


def test_full_round_with_help_illegal_move_and_hint(data_dir: Path) -> None:
    script = ["help", "discard ZZ", "hint", "x 1", *["auto"] * 400]
    code, out = play(
        "--rules", "german", "--players", "3", "--seed", "3", "--bots", "greedy",
        "--set", "match_end=single_hand", lines=script,
    )  # fmt: skip
    assert code == 0
    # The first screen: header, players with card counts, piles, the hand with positions.
    assert "German Rummy (Rommé), changed rules · hand 1 of 1 · dealer Bot 3" in out
    assert "▶  You            13  –" in out
    assert "Stock 70  Discard 6♣  No melds on the table" in out
    assert " 3♣  4♣  7♣ 10♦  Q♦  K♦  A♥  8♥  9♥  A♠  4♠  J♠  Q♠" in out
    assert "Your turn: draw (d) or take (t) the discard" in out
    # help lists the legal moves, a nonsense move is one line, hint names the solver's move.
    assert "Legal moves:\n  draw  ·  take\n" in out
    assert "> ✗ not a move: not a card: 'ZZ' (cards: QS, 10H, JK; or a position)\n" in out
    assert "> hint: draw  (6♣ fits nothing in your hand)" in out
    # Discarding before drawing is refused with the broken rule; the game goes on.
    assert "> ✗ not allowed: discard 3♣: first draw from the stock or take the discard" in out
    assert re.search(r"You draw \S+ from the stock", out) and "You discard" in out  # the drawn card, named
    assert "Bot 2 draws from the stock" in out or "Bot 2 takes" in out
    # The round reaches its score table and the match its winner.
    assert "Hand 1 over: " in out
    assert "player   cards left" in out or "player  cards left" in out
    assert "Match over: " in out
    # The game was saved as a record that replays to the finished match.
    games = saved_games(data_dir)
    assert len(games) == 1 and f"Game saved to:\n{games[0]}\n" in out  # the path on a line of its own
    match = rk.Record.load(games[0]).replay()
    assert match.is_over and match.rounds[0].is_over


def test_viennese_showdown_shows_arrangements_chips_and_pot(data_dir: Path) -> None:
    code, out = play(
        "--rules", "viennese", "--players", "3", "--seed", "24", "--bots", "greedy", lines=["auto"] * 60,
    )  # fmt: skip
    assert code == 0
    assert "Viennese Rummy (Wiener Rummy) · hand 1 · dealer Bot 3 · pot 15" in out
    assert "score  chips" in out  # signed as in the browser (issue #19)
    assert "Your hand (10 cards, by suit) · deadwood 58" in out
    # After the draw the hand's eleven cards show their deadwood, said to be before the discard.
    assert re.search(r"Your hand \(11 cards, by suit\) · deadwood \d+ before the discard", out)
    assert "Hand 1 over: Bot 2 called Rummy" in out
    assert "[J♣ J♦ J♥ J♠] [A♦ 2♦ 3♦] [2♥ JK(=3♥) 4♥] = 0" in out
    assert "melds | deadwood" in out and "Pot: 15 chips" in out
    assert "Press Enter for the next hand" in out


def test_end_of_input_stops_cleanly_and_saves(data_dir: Path) -> None:
    # One move first: a game in which nobody at the keyboard has moved is not saved (issue #19).
    code, out = play("--seed", "1", "--bots", "random", lines=["d"])
    assert code == 0
    assert "Game stopped (end of input); game saved, to continue it:\nrummykit play --resume " in out
    assert len(saved_games(data_dir)) == 1


def test_quit_and_no_save(data_dir: Path) -> None:
    code, out = play("--seed", "1", "--bots", "random", "--no-save", lines=["quit"])
    assert code == 0 and "Game stopped (quit)" in out
    assert not (data_dir / "games").exists()


def test_save_dir_option(tmp_path: Path, data_dir: Path) -> None:
    target = tmp_path / "elsewhere"
    play("--seed", "1", "--bots", "random", "--save-dir", str(target), lines=["d"])
    assert len(list(target.glob("*-german-seed1.json"))) == 1


def test_undo_in_practice_mode(data_dir: Path) -> None:
    code, out = play(
        "--seed", "3", "--bots", "random", "--practice", lines=["d", "x 1", "undo", "undo", "undo"]
    )
    assert code == 0
    assert "You discard 3♣" in out
    assert "undone: discard 3C; " in out  # the bots' replies are taken back too
    assert "undone: draw" in out
    assert "✗ nothing to undo" in out


def test_undo_needs_practice_mode(data_dir: Path) -> None:
    _, out = play("--seed", "3", "--bots", "random", lines=["undo"])
    assert "✗ undo is only available in practice games" in out


def test_sort_toggles_hand_order(data_dir: Path) -> None:
    _, out = play("--seed", "3", "--bots", "random", lines=["sort"])
    assert "Your hand (13 cards, by rank)" in out
    assert " A♥  A♠  3♣  4♣  4♠  7♣  8♥  9♥ 10♦  J♠  Q♦  Q♠  K♦" in out


def test_hot_seat_hides_the_previous_hand(data_dir: Path) -> None:
    code, out = play(
        "--players", "2", "--humans", "2", "--names", "Anna,Ben", "--seed", "4", lines=["", "d", "x 1", ""]
    )
    assert code == 0
    assert "Hand over to Anna: the other players look away." in out
    assert "Hand over to Ben: the other players look away." in out
    assert "Ben's hand" not in out.split("Hand over to Ben")[0]
    assert "Anna's hand" not in out.split("Hand over to Ben")[1]
    assert "Anna draws from the stock" in out  # the others read the log too: the drawn card unnamed


def test_hot_seat_quit_at_the_hand_over_stops_without_showing_the_hand(data_dir: Path) -> None:
    code, out = play(
        "--players", "2", "--humans", "2", "--names", "Anna,Ben", "--seed", "4",
        lines=["", "d", "x 1", "quit"],
    )  # fmt: skip
    assert code == 0
    assert "Ben, press Enter to see your hand (or type quit) > " in out
    assert "Ben's hand" not in out and "Game stopped (quit)" in out


def test_unknown_bot_names_the_available_bots(data_dir: Path) -> None:
    result = runner.invoke(app, ["play", "--bots", "nosuch"])
    assert result.exit_code == 2
    assert "error: unknown bot 'nosuch'; available bots: random" in result.stderr


def test_bad_player_count(data_dir: Path) -> None:
    result = runner.invoke(app, ["play", "--players", "9"])
    assert result.exit_code == 2 and "2 to 6 players, not 9" in result.stderr


def test_default_bots_degrade_explicitly() -> None:
    kinds, notice = resolve_bots(None, 2, ("random", "greedy"))
    assert kinds == ["greedy:medium", "greedy:medium"]
    assert notice == "'search' bots are not available here; playing against 'greedy' bots"
    assert resolve_bots(None, 1, ("random", "greedy", "search")) == (["search:medium"], None)
    assert resolve_bots("greedy:easy,random", 3, ("random", "greedy"))[0] == [
        "greedy:easy", "random:medium", "random:medium",
    ]  # fmt: skip
    with pytest.raises(UnknownBotError, match="available bots: random, greedy"):
        resolve_bots("search", 1, ("random", "greedy"))


def test_parse_input_short_forms() -> None:
    hand = parse_cards("3C 4C 5C QS JK")
    assert parse_input("d", hand, False) == Draw()
    assert parse_input("t", hand, False) == TakeDiscard()
    assert parse_input("x 4", hand, False) == Discard(parse_cards("QS")[0])
    assert parse_input("discard qs", hand, False) == Discard(parse_cards("QS")[0])
    assert parse_input("m 1 2 3", hand, False) == Open((parse_cards("3C 4C 5C"),))
    assert parse_input("m 1 2 3 | 5 4 4", hand, True) == MeldAction(
        (parse_cards("3C 4C 5C"), parse_cards("JK QS QS"))
    )
    assert parse_input("l 5 2 low", hand, True) == LayOff(parse_cards("JK")[0], 2, "low")
    assert parse_input("layoff 4 on 3", hand, True) == LayOff(parse_cards("QS")[0], 3)
    assert parse_input("help", hand, True) == "help"
    with pytest.raises(NotationError, match="no card at position 9: your hand has 5 cards"):
        parse_input("x 9", hand, True)


def test_parse_input_refuses_an_unknown_word_by_pointing_at_help() -> None:
    """A word that is neither a command, a short form nor an action's verb is not read as the
    engine's notation (whose error lists verbs of every game); the player is sent to ``help``."""
    hand = parse_cards("3C 4C 5C QS JK")
    with pytest.raises(NotationError, match=r"^unknown command 's'; 'help' lists your moves") as caught:
        parse_input("s 3", hand, False)
    german = short_error(caught.value, "de")
    assert german == "Unbekannter Befehl 's'; „hilfe“ zeigt deine Züge und die Kurzformen"
    with pytest.raises(NotationError, match=r"^'hint' takes nothing after it$") as caught:
        parse_input("hint please", hand, False)
    assert short_error(caught.value, "de") == "Nach 'hint' steht nichts weiter"
    assert parse_input("rules de", hand, False) == "rules de"
    assert parse_input("DRAW", hand, False) == Draw()


def test_hint_suggests_the_best_opening_then_discard() -> None:
    rules = rk.Rules.preset("german")
    hands = ["2D 3D 5H 7H 9H 4S 6S 8S 10S QS KS 2H 3S", "10H JH QH KH AS AD AC 2C 7D 9S 4C 6D 8S"]
    deck = arrange_deck(rules, 2, hands, dealer=0, stock="5C")
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=0, seed=1)
    rnd.apply("draw")
    suggestion = hint(rnd.view(1), rnd.legal_actions(), rnd)
    assert str(suggestion.actions[0]).startswith("open ")
    assert isinstance(suggestion.actions[-1], Discard)
    assert "opening worth" in suggestion.reason


def test_hint_line_speaks_the_players_language_and_shows_cards_as_dealt() -> None:
    """In German the steps are words (as in the German log), and every card in the line is shown as
    in the hand: with suit symbols, or in suit letters with ``--ascii``."""
    rules = rk.Rules.preset("german")
    hands = ["2D 3D 5H 7H 9H 4S 6S 8S 10S QS KS 2H 3S", "10H JH QH KH AS AD AC 2C 7D 9S 4C 6D 8S"]
    deck = arrange_deck(rules, 2, hands, dealer=0, stock="5C")
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=0, seed=1)
    rnd.apply("draw")
    rnd.apply("discard 9S")
    view = rnd.view(0)
    suggestion = hint(view, rnd.legal_actions(), rnd, "de")
    assert suggestion.actions == (TakeDiscard(),)
    german = suggestion.text("de", view.top_discard)
    assert german == "Pik-9 von der Ablage nehmen  (9S ergänzt eine Figur)"
    english = hint(view, rnd.legal_actions(), rnd, "en")
    assert english.text("en", view.top_discard) == "take  (9S completes a meld)"
    shown = screen.faces_in("discard QS  (keeps [JK(=9H) 10H JH] | 2C)")
    assert shown == "discard Q♠  (keeps [JK(=9♥) 10♥ J♥] | 2♣)"
    assert screen.faces_in("7♥ 8♥ 9♥ | Q♣ auslegen", ascii_only=True) == "7H 8H 9H | QC auslegen"
    assert screen.faces_in("AS and KD; As, Kd, 10Hz stay") == "A♠ and K♦; As, Kd, 10Hz stay"


def test_board_fits_80_by_24() -> None:
    m = rk.Match.new(rk.Rules.preset("german"), 3, seed=3, dealer=2)
    from rummykit.bots import make_bot

    bot = make_bot("greedy")
    import random

    rng = random.Random(0)
    while len(m.round.table) < 6 and not m.round.is_over:
        m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
    view = m.round.view(0)
    board = screen.Board(
        view=view,
        names=("You", "Bot 2", "Bot 3"),
        score=screen.match_scoreboard(m),
        hands={0: screen.sorted_hand(view.hand, "suit")},
        log=[f"Bot 2 move {i}" for i in range(10)],
        status="Your turn",
    )
    console = Console(width=80, height=24, record=True, force_terminal=True, color_system="truecolor")
    console.print(screen.render_board(board))
    text = console.export_text()
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 23  # one line left for the prompt
    assert all(len(line) <= 80 for line in lines)
    assert "Table melds" in text and "\n1 " in text
    html = console.export_html()
    assert "#800000" in html or "#ff0000" in html or "color: #" in html


# Issue #19: hot-seat privacy, resume, the rules at the prompt, wording ----------------------------
def scripted(lines: list[str]) -> Callable[[str], str]:
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


# Hot-seat privacy (item 7) -------------------------------------------------------------------------
def test_hand_over_clears_screen_and_scrollback() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)
    match = rk.Match.new(rk.Rules.preset("german"), 2, seed=4, dealer=1)
    session = PlaySession(
        match, [Player("Anna"), Player("Ben")], console, scripted(["", "d", "x 1", "", "quit"])
    )
    assert session.run() == 0
    text = out.getvalue()
    assert CLEAR_ALL == "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scroll-back
    before_ben, _, after = text.partition("Hand over to Ben")
    assert "Anna's hand" in before_ben
    # The last thing written before Ben's hand-over screen wipes the scroll-back that held Anna's hand.
    assert before_ben.rstrip().endswith(CLEAR_ALL)
    assert "Ben's hand" in after and "Anna's hand" not in after
    # Anna's cards as her last screen showed them never appear after the wipe.
    anna_rows = re.findall(r"Anna's hand \(\d+ cards, by suit\)\n[^\n]*\n([^\n]*)\n", before_ben)
    assert anna_rows and anna_rows[-1].strip()
    assert anna_rows[-1] not in after


def test_hand_over_on_a_pipe_writes_no_escape_codes(data_dir: Path) -> None:
    _, out = play(
        "--players", "2", "--humans", "2", "--names", "Anna,Ben", "--seed", "4", lines=["", "d", "x 1", ""]
    )
    assert "\x1b[3J" not in out
    assert "no bots · seed 4" in out and "0 bots" not in out


# Saving and resuming (item 8) ----------------------------------------------------------------------
def test_quitting_before_any_move_leaves_no_empty_file(data_dir: Path) -> None:
    # The empty German file: the game was written before the first move; quitting kept it.
    _, out = play("--seed", "1", "--bots", "random", lines=["quit"])
    assert "nothing saved, no move was made" in out
    assert saved_games(data_dir) == []
    # Viennese: the bots move first (the dealer starts); still nothing from the person, no file.
    _, out = play("--rules", "viennese", "--seed", "2", "--bots", "random", lines=["quit"])
    assert "Bot 3 discards" in out and saved_games(data_dir) == []


def test_resume_continues_the_saved_game(data_dir: Path) -> None:
    _, out = play("--seed", "3", "--bots", "random", lines=["d", "x 1", "quit"])
    (path,) = saved_games(data_dir)
    assert f"\nrummykit play --resume {path}\n" in out  # the whole command, to copy
    before = rk.Record.load(path)
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    assert meta["players"] == ["human", "random:medium", "random:medium"] and meta["practice"] is False
    assert meta["over"] is False

    code, out = play("--resume", str(path), lines=["d", "quit"])
    assert code == 0
    assert f"resumed {path.name}: hand 1 · seed 3" in out
    match = before.replay()
    hand = screen.sorted_hand(match.round.view(0).hand, "suit")
    assert " ".join(screen.card_face(c) for c in hand) in re.sub(r" +", " ", out)
    after = rk.Record.load(path)
    assert after.actions[: len(before.actions)] == before.actions
    assert len(after.actions) == len(before.actions) + 1  # the draw; the same file goes on
    assert saved_games(data_dir) == [path]
    play("--resume", str(path), "--no-save", lines=["x 1", "quit"])
    assert rk.Record.load(path).actions == after.actions  # --no-save leaves the file as it was


def test_most_recent_unfinished_game_is_offered(data_dir: Path) -> None:
    play("--seed", "3", "--bots", "random", lines=["d", "x 1", "quit"])
    (path,) = saved_games(data_dir)
    assert latest_unfinished(data_dir / "games") is not None
    _, out = play(lines=["", "quit"], draw=True)  # Enter accepts
    assert "Unfinished game: German Rummy (Rommé), hand 1, You against bots, saved " in out
    assert f"resumed {path.name}" in out
    # "n" starts a new game, dealt at random: a bot may end its first hand before the person moves
    # (the Enter then starts the next one), else the empty line is a typed nothing; either way "d" moves.
    _, out = play(lines=["n", "", "d", "quit"], draw=True)
    assert "Unfinished game" in out and "resumed" not in out and len(saved_games(data_dir)) == 2
    _, out = play("--new", "--seed", "9", "--bots", "random", lines=["quit"])
    assert "Unfinished game" not in out


def test_only_an_unfinished_game_of_the_kind_asked_for_is_offered(data_dir: Path) -> None:
    play("--seed", "3", "--bots", "random", lines=["d", "x 1", "quit"])  # German, three seats
    for asked in (("--rules", "viennese"), ("--players", "4"), ("--set", "opening_min_points=30")):
        _, out = play(*asked, lines=["quit"], draw=True)
        assert "Unfinished game" not in out, asked
    for fresh in (("--seed", "5"), ("--bots", "greedy"), ("--names", "Ada"), ("--dealer", "2")):
        _, out = play(*fresh, lines=["quit"])  # only a new game has a seed, bots, names or a dealer
        assert "Unfinished game" not in out, fresh
    _, out = play("--rules", "german", "--players", "3", lines=["", "quit"], draw=True)
    assert "Unfinished game: German Rummy (Rommé), hand 1" in out and "resumed " in out


def test_finished_games_are_not_offered_and_bad_files_are_refused(data_dir: Path, tmp_path: Path) -> None:
    play("--seed", "3", "--bots", "random", "--set", "match_end=single_hand", lines=["auto"] * 400)
    (path,) = saved_games(data_dir)
    assert load_saved(path).is_finished and latest_unfinished(path.parent) is None
    assert json.loads(path.read_text(encoding="utf-8"))["meta"]["over"] is True
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 2 and "is a finished game" in result.stderr

    record_only = tmp_path / "record.json"
    rk.Record.from_match(rk.Match.new(rk.Rules.preset("german"), 3, seed=1)).dump(record_only)
    result = runner.invoke(app, ["play", "--resume", str(record_only)])
    assert result.exit_code == 2 and "does not say who plays each seat" in result.stderr
    result = runner.invoke(app, ["play", "--resume", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot resume missing.json: cannot read" in result.stderr
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 2_000_001)
    result = runner.invoke(app, ["play", "--resume", str(huge)])
    assert result.exit_code == 2 and "a saved game is at most 2000000" in result.stderr


# Wording, long input, score signs (item 9) ---------------------------------------------------------
def test_counts_have_the_right_number() -> None:
    assert screen.count(1, "card") == "1 card" and screen.count(0, "bot") == "0 bots"
    m = rk.Match.new(rk.Rules.preset("german"), 2, seed=4)
    board = screen.Board(
        view=m.round.view(0),
        names=("You", "Bot 2"),
        score=screen.match_scoreboard(m),
        hands={0: rk.parse_cards("QS")},
    )
    console = Console(width=80, height=24, record=True, file=io.StringIO())
    console.print(screen.render_board(board))
    assert "Your hand (1 card, by suit)" in console.export_text()


def test_one_bot_is_one_bot(data_dir: Path) -> None:
    _, out = play("--players", "2", "--seed", "4", "--bots", "random", lines=["quit"])
    assert "1 bot: Random · seed 4" in out
    _, out = play("--players", "3", "--seed", "4", "--bots", "search:easy,greedy:hard", lines=["quit"])
    assert "2 bots: Greedy, Search (easy) · seed 4" in out  # a level is named where it changes the play


def test_a_long_input_line_is_not_echoed_back(data_dir: Path) -> None:
    _, out = play("--seed", "3", "--bots", "random", lines=["Z" * 5000, "discard " + "Q" * 150, "quit"])
    assert f"✗ not a move: that line is 5000 characters long; a move is at most {MAX_LINE}" in out
    assert "Z" * 20 not in out
    flat = out.replace("\n", "")  # the console wraps long messages
    # The engine quotes 40 characters of a bad card (rummykit.errors.quoted).
    assert "✗ not a move: not a card: 'QQQQ" in flat and "Q" * 40 + "'…" in flat and "Q" * 41 not in flat
    assert all(len(line) <= 200 for line in out.splitlines())


def test_the_english_terminal_says_hand_where_the_docs_and_the_web_do(data_dir: Path) -> None:
    """A club player's audit: the English terminal said "round 2 of 3", "Round 1 over" and "Press Enter
    for the next round" where the docs and the web page say "hand" (German: Spiel, Partie)."""
    first_hand = ["auto"] * 80 + ["", "quit"]
    _, out = play("--seed", "3", "--bots", "greedy", "--set", "num_hands=2", lines=first_hand)
    assert "hand 1 of 2" in out and "Hand 1 over: " in out and "hand 2 of 2" in out
    assert "Press Enter for the next hand (or type quit)" in out
    (path,) = saved_games(data_dir)
    _, resumed = play("--resume", str(path), lines=["auto"] * 80)
    assert f"resumed {path.name}: hand 2 · seed 3" in resumed
    assert "Hand 2 over: " in resumed and "Match over: " in resumed
    assert "round" not in out.lower() and "round" not in resumed.lower()


def test_scores_are_signed_as_in_the_browser(data_dir: Path) -> None:
    _, out = play(
        "--seed", "3", "--bots", "greedy", "--set", "match_end=single_hand", lines=["auto"] * 400
    )  # fmt: skip
    (path,) = saved_games(data_dir)
    match = rk.Record.load(path).replay()
    result = match.rounds[-1].result
    # The browser shows Match.scores and each hand's RoundResult.points: losers are negative.
    assert screen.match_scoreboard(match).totals == match.scores
    assert min(match.scores) < 0 and min(result.points) < 0
    rows = [line for line in out.splitlines() if line.startswith(("You", "Bot 2", "Bot 3"))][-3:]
    for seat, row in enumerate(rows):
        cells = row.split()
        assert cells[-2:] == [str(result.points[seat]), str(match.scores[seat])], row
    assert f"(scores You {match.scores[0]}, Bot 2 {match.scores[1]}" in out.replace("\n", " ")


# The rules at the prompt (item 2) ------------------------------------------------------------------
def test_rules_at_the_prompt_are_paged_for_80_by_24(data_dir: Path) -> None:
    _, out = play(
        "--seed", "3", "--bots", "random", "--set", "opening_min_points=30", lines=["rules", "", "q", "quit"]
    )  # fmt: skip
    first, _, rest = out.partition("-- rules · page 1 of ")
    assert "German Rummy (Rommé) — house rules" in first
    assert "opening minimum (points)  30          40" in first
    page_two = rest.split("--", 1)[1].split("-- rules · page 2 of ")[0]
    lines = page_two.strip("\n").split("\n")
    assert len(lines) == 23 and all(len(line) <= 80 for line in lines)
    assert "page 3 of" not in out  # 'q' went back to the game, which is shown again
    assert out.count("Your turn: draw (d) or take (t) the discard") == 2


def test_regeln_shows_the_rules_in_german(data_dir: Path) -> None:
    _, out = play("--rules", "viennese", "--seed", "2", "--bots", "random", lines=["regeln", "q", "quit"])
    assert "Wiener Rommé (Wiener Rummy)" in out and "-- Regeln · page 1 of " in out


def test_the_hands_last_moves_stay_visible_above_the_score_table() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)
    match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=24, dealer=2)
    from rummykit.bots import make_bot

    players = [
        Player("You"),
        Player("Bot 2", make_bot("greedy"), "greedy"),
        Player("Bot 3", make_bot("greedy")),
    ]
    PlaySession(match, players, console, scripted(["auto"] * 60 + ["quit"])).run()
    text = out.getvalue()
    before_result = text.split("Hand 1 over: ")[0]
    last_screen = before_result.split("\x1b[2J")[-1]  # what stays on screen once the table is shown
    assert "Bot 2 calls Rummy, laying " in last_screen


def test_names_from_a_save_file_cannot_send_terminal_escapes(data_dir: Path) -> None:
    play("--seed", "3", "--bots", "random", lines=["d", "quit"])
    (path,) = saved_games(data_dir)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["meta"]["names"][0] = "\x1b[2J\x1b]0;pwned\x07Eve"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_saved(path).names[0] == "[2J]0;pwnedEve"
    _, out = play("--resume", str(path), lines=["quit"])
    assert "\x1b" not in out and "[2J]0;pwnedEve" in out


def test_resume_refuses_the_options_of_a_new_game(data_dir: Path) -> None:
    """A resumed game is the saved one: --rules, --players, --bots and the like would be ignored, so
    they are refused, in one line naming them; the options of how it is shown (--fast …) stay."""
    play("--seed", "3", "--bots", "random", lines=["d", "quit"])
    (path,) = saved_games(data_dir)
    args = ["play", "--resume", str(path), "--fast", "--rules", "viennese", "--set", "knock_threshold=5"]
    result = runner.invoke(app, [*args, "--players", "99", "--bots", "nosuchbot", "--dealer", "42"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == (
        "error: --resume continues the saved game as it was saved; leave out --rules, --set, --players, "
        "--bots, --dealer"
    )
    code, out = play("--resume", str(path), "--ascii", lines=["quit"])
    assert code == 0 and "German Rummy" in out


def test_ascii_cards_keep_the_german_rank_letters(data_dir: Path) -> None:
    """``--ascii`` writes suit letters, and in German the court cards keep their German letters
    (``DC`` for the queen of clubs, as typed), in the hand, the discard, the seat draw and the listed
    moves alike (the notation reads both letters: ``abwerfen DC`` is ``discard QC``)."""
    _, out = play("--seed", "3", "--ascii", "--lang", "de", lines=["d", "hilfe", "quit"], draw=True)
    assert not set("♣♦♥♠") & set(out)
    hand = out.split("Deine Hand")[1].splitlines()[2].split()
    assert "DC" in hand and "BD" in hand and not {"QC", "JD"} & set(hand)
    assert "Du ziehst 2D, Bot 2 zieht 8C" in out
    assert "abwerfen AC 2C 4C 7C 9C 10C DC" in out


def test_a_long_name_on_the_command_line_is_kept_short_and_printable(data_dir: Path) -> None:
    """``--names`` gets what a resumed save gets: at most 40 printable characters, so the players
    table keeps its columns at 80 wide (a 108-character name pushed the cards and score out)."""
    long_name = "Annegret-" + "A" * 99
    _, out = play("--seed", "3", "--bots", "random", "--names", long_name + "\x1b[2J", lines=["d", "quit"])
    (path,) = saved_games(data_dir)
    assert load_saved(path).names[0] == long_name[:40]
    assert "\x1b[2J" not in out and long_name[:40] in out and long_name[:41] not in out
    assert "score" in out  # the players table still shows its last column


def test_a_save_is_never_half_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummykit.cli import saves

    path = tmp_path / "game.json"
    saves.write_save(path, "first\n")
    assert path.read_text() == "first\n"

    def broken_rename(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(saves.os, "replace", broken_rename)
    with pytest.raises(OSError, match="disk full"):
        saves.write_save(path, "second\n")
    assert path.read_text() == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGHUP"), reason="no SIGHUP on this platform")
def test_closing_the_terminal_saves_the_game(tmp_path: Path) -> None:
    import os
    import signal

    def read(prompt: str) -> str:
        if read.calls == 1:  # type: ignore[attr-defined]
            os.kill(os.getpid(), signal.SIGHUP)  # the terminal window is closed while waiting
        read.calls += 1  # type: ignore[attr-defined]
        return "d"

    read.calls = 0  # type: ignore[attr-defined]
    out = io.StringIO()
    console = Console(file=out, width=80, height=24)
    match = rk.Match.new(rk.Rules.preset("german"), 2, seed=3, dealer=1)
    from rummykit.bots import make_bot

    save = tmp_path / "game.json"
    session = PlaySession(
        match, [Player("You"), Player("Bot 2", make_bot("random"), "random")], console, read, save_path=save
    )
    before = signal.getsignal(signal.SIGHUP)
    assert session.run() == 0
    assert signal.getsignal(signal.SIGHUP) == before  # the handler is only installed while playing
    assert "Game stopped (terminal closed); game saved, to continue it:" in out.getvalue()
    assert load_saved(save).match.actions == match.actions == [rk.Action.parse("draw")]


def test_the_players_draw_for_the_first_dealer(data_dir: Path) -> None:
    code, out = play(
        "--rules", "german", "--players", "3", "--seed", "3", "--bots", "greedy",
        "--set", "match_end=single_hand", lines=["quit"], draw=True,
    )  # fmt: skip
    assert code == 0
    m = rk.Match.new(rk.Rules.parse("german(match_end=single_hand)"), 3, seed=3)
    assert m.seat_draw is not None
    lines = m.seat_draw.describe(["You", "Bot 2", "Bot 3"])
    assert lines[-1].endswith("deals first")
    flat = " ".join(out.split())
    for line in lines:
        assert line in flat


def test_the_german_draw_names_a_dealer_who_did_not_draw_last() -> None:
    """D21: two jokers are drawn again and both lose to the A♣ already shown, so the A♣'s player deals
    first; the German lines say so instead of crediting the last player to draw."""
    from rummykit.cli.play import seat_draw_lines

    match = rk.Match.new(rk.Rules.preset("german"), 4, seed=14)
    lines = seat_draw_lines(match, ["Du", "B", "C", "D"], "de")
    js, h7, ac = (screen.card_face(rk.Card.parse(t)) for t in ("JS", "7H", "AC"))
    assert lines[-1] == f"Du ziehst {js}, D zieht {h7}; C gibt zuerst mit {ac}"
    closed = rk.Match.new(rk.Rules.preset("german"), 3, seed=4)  # Cleo's J♦ is highest and comes last
    assert seat_draw_lines(closed, ["A", "B", "C"], "de")[-1].endswith("C zieht J♦ und gibt zuerst")


def test_a_person_in_the_buyback_window_is_told_why_there_is_no_offer() -> None:
    from io import StringIO

    from rich.console import Console

    from rummykit.bots import make_bot
    from rummykit.cli.play import Player, PlaySession

    position = rk.MatchPosition(totals=(95, 30, 60), pot=15, buybacks=(1, 0, 0))
    m = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=1, dealer=0, position=position)
    players = [Player("You")] + [Player(f"Bot {i}", make_bot("random"), "random") for i in (2, 3)]
    session = PlaySession(m, players, Console(file=StringIO()), lambda prompt: "")
    assert session.no_offer_notes() == [
        "No buy-back offer: You already bought back once, as often as the rules allow"
    ]


def test_knock_hint_names_the_knock_and_what_is_left() -> None:
    """The knock-game hint knocks once the deadwood allows it, shows the arrangement kept, and in
    German says it in words."""
    rules = rk.Rules.preset("viennese")
    hands = ["7H 8H 9H QS QD QC 2C 2D 2S 3H", "4C 5C 6C 9S 10S JS AD AH 6D 8D"]
    rnd = rk.Round.new(rules, 2, deck=arrange_deck(rules, 2, hands, dealer=0, stock="KS"), dealer=0, seed=1)
    view = rnd.view(0)
    english = hint(view, rnd.legal_actions(), rnd, "en").text("en")
    assert english == "knock KS  (deadwood 3 lets you knock: [2C 2D 2S] [QC QD QS] [7H 8H 9H] | 3H)"
    german = hint(view, rnd.legal_actions(), rnd, "de").text("de")
    assert german.startswith("klopfen und Pik-König abwerfen  (mit 3 Restpunkten darfst du klopfen: [2C")


def test_the_take_hint_of_a_knock_game_names_the_discard_that_follows() -> None:
    """Taking the discard is worth it in a knock game when the best discard after it leaves less
    deadwood: the hint says which card that discard is."""
    rules = rk.Rules.preset("viennese")
    hands = ["4C 5C 6C 9S 10S JS AD AH 6D 9H", "7H 8H QS QD QC 2C 2D 2S 3H KD"]
    rnd = rk.Round.new(rules, 2, deck=arrange_deck(rules, 2, hands, dealer=0, stock="KS"), dealer=0, seed=1)
    rnd.apply("discard 9H")
    view = rnd.view(1)
    assert hint(view, rnd.legal_actions(), rnd, "en").text("en") == (
        "take  (9H lowers your deadwood from 28 to 3, discarding KD)"
    )
    assert hint(view, rnd.legal_actions(), rnd, "de").text("de", taken=view.top_discard) == (
        "Herz-9 von der Ablage nehmen  (9H senkt deine Restpunkte von 28 auf 3, wenn du KD abwirfst)"
    )


def test_help_lists_the_short_forms_of_the_game_at_the_table() -> None:
    """German Rummy has no knock or Rummy call, Viennese no melds or lay-offs during play, gin knocks,
    melds after the knock, lays off single cards and passes."""
    from rummykit.cli.parsing import short_help

    german = short_help("en", rk.Rules.preset("german"))
    assert german.startswith("short forms: d draw · t take · m 1 2 3 meld/open cards 1 2 3")
    assert "l 4 2 lay card 4 off on meld 2" in german and "knock" not in german and "rummy" not in german
    viennese = short_help("en", rk.Rules.preset("viennese"))
    assert "x 5 discard card 5 · k 5 knock · r 5 rummy · sort" in viennese
    assert "m 1 2 3" not in viennese and "l 4 2" not in viennese
    gin = short_help("de", rk.Rules.preset("gin"))
    assert "k klopfen, k 5 klopfen und Karte 5 abwerfen" in gin and "l 4 Karte 4 anlegen" in gin
    assert "Rummy" not in gin and gin.endswith("regeln (rules en: Englisch) · ende")
    # Where jokers are exchanged the short forms show how.
    assert "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker" in german
    assert "swap" not in short_help("en", rk.Rules.preset("german").replace(joker_exchange=False))
    # "undo" takes a move back only in a practice game: elsewhere the help does not offer it.
    assert " · undo · " in german and " · zurück · " in gin
    assert " · undo" not in short_help("en", rk.Rules.preset("german"), practice=False)
    assert " · zurück" not in short_help("de", rk.Rules.preset("gin"), practice=False)


def test_the_move_list_says_other_openings_count_too() -> None:
    """The engine lists the best opening and the single melds that open alone; the help says that any
    other opening reaching the minimum is accepted as well (none is mentioned where nothing is needed)."""
    from rummykit.cli.parsing import legal_moves_lines

    rules = rk.Rules.preset("scala40")
    legal = [rk.Action.parse("open AC AH JK | 8C 8H 8S"), rk.Action.parse("discard 3C")]
    assert legal_moves_lines(legal, rules, "en") == [
        "  open AC AH JK | 8C 8H 8S",
        "  (and any other opening worth at least 40 points)",
        "  discard 3C",
    ]
    assert legal_moves_lines(legal, rules, "de")[1] == "  (und jedes andere Auslegen ab 40 Punkten)"
    basic = rk.Rules.preset("basic")
    assert len(legal_moves_lines(legal, basic, "en")) == 2


@pytest.mark.parametrize(
    ("preset", "en", "de"),
    [
        ("german", "open (m …, at least 40 points) or discard (x N)",
         "auslegen (m …, ab 40 Punkten), abwerfen (x N)"),
        # Basic Rummy: nothing to reach, and lay-offs need no opening.
        ("basic", "meld (m …), lay off (l …), then discard (x N)",
         "auslegen (m …), anlegen (l …), abwerfen (x N)"),
    ],
)  # fmt: skip
def test_the_prompt_names_an_opening_minimum_only_where_there_is_one(preset: str, en: str, de: str) -> None:
    from rummykit.cli.prompts import turn_prompt

    m = rk.Match.new(rk.Rules.preset(preset), 3, seed=2)
    m.apply("draw")
    assert turn_prompt(m, m.to_move, None, "en").plain == f"Your turn: {en}   help · hint · quit"
    assert turn_prompt(m, m.to_move, None, "de").plain == f"Dein Zug: {de}   hilfe · tipp · ende"
    # A long name would wrap the line on 80 columns: the reminder of the commands goes.
    assert turn_prompt(m, m.to_move, "Bernadette-Sophie", "de").plain == f"Bernadette-Sophie ist dran: {de}"


def test_the_prompt_offers_no_lay_off_in_the_turn_of_the_opening() -> None:
    """German Rummy: lay-offs wait for the turn after the opening (layoff_on_opening_turn = false)."""
    from rummykit.cli.prompts import turn_prompt
    from rummykit.testing import arrange_deck

    rules = rk.Rules.preset("german")
    hand = "10H JH QH KH AS AD AC 2C 5D 7S 9C 4H 6S"
    deck = arrange_deck(rules, 2, [hand, "2D 3D 4D 5C 6C 7C 8S 9S 10S JD QD KD 3S"], stock="8H", dealer=1)
    m = rk.Match.new(rules, 2, deck=deck, dealer=1)
    m.apply("draw")
    assert "open (m …, at least 40 points)" in turn_prompt(m, 0, None, "en").plain
    m.apply("open 10H JH QH KH | AS AD AC")
    prompt = turn_prompt(m, 0, None, "en").plain
    assert prompt == "Your turn: meld (m …), then discard (x N)   help · hint · quit"


def test_gin_plays_heads_up_without_players_given(data_dir: Path) -> None:
    """Without --players a table has three seats where the game allows it; gin is played by two, so
    ``rummykit play --rules gin`` seats two instead of refusing the default."""
    code, out = play(
        "--rules", "gin", "--bots", "greedy", "--seed", "2", "--no-save", lines=["quit"], draw=True
    )  # fmt: skip
    assert code == 0 and "error" not in out
    assert "Gin Rummy · hand 1 of 1" in out and "1 bot: Greedy · seed 2" in out
    code, out = play("--bots", "greedy", "--seed", "2", "--no-save", lines=["quit"], draw=True)
    assert code == 0 and "2 bots: Greedy · seed 2" in out


def test_the_log_words_gins_own_moves_by_phase() -> None:
    """Gin's pass, knock and single-card lay-off were written as notation (``Bot 2 pass``,
    ``Bot 2 layoff KS``); they read as words now, and a pass says what it means in its phase."""
    from rummykit.cli.action_text import describe
    from rummykit.views import Phase

    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    view = match.round.view(match.to_move)
    assert view.phase is Phase.FIRST_UPCARD
    assert describe(rk.Action.parse("pass"), "Bot 2", view).plain == "Bot 2 passes on the upcard"
    assert describe(rk.Action.parse("pass"), "You", view).plain == "You pass on the upcard"
    german = describe(rk.Action.parse("pass"), "Bot 2", view, lang="de").plain
    assert german == "Bot 2: passt bei der offenen Karte"
    assert describe(rk.Action.parse("knock"), "Bot 2", view).plain == "Bot 2 knocks"
    layoff = describe(rk.Action.parse("layoff KS"), "You", view, ascii_only=True).plain
    assert layoff == "You lay KS off on the knocker's melds"


def test_the_log_says_what_an_opening_counts_toward_the_minimum() -> None:
    """Every player checks an opponent's 40: the log gives an opening's points (the card taken this
    turn left out where it does not count), and no points for a meld after the opening or where the
    game has no minimum."""
    from rummykit.cli.action_text import describe

    view = rk.Round.new(rk.Rules.preset("scala40"), 2, seed=1).view(0)  # the words, not the hand
    opening = rk.Action.parse("open JC QC KC | JD QD KD")
    assert describe(opening, "Bot 2", view).plain.endswith("opens J♣ Q♣ K♣ | J♦ Q♦ K♦ (60 points)")
    assert describe(opening, "Bot 2", view, lang="de").plain.endswith("(60 Punkte)")
    meld = describe(rk.Action.parse("meld 2S 3S 4S"), "You", view).plain
    assert "points" not in meld
    basic = rk.Round.new(rk.Rules.preset("basic"), 2, seed=1).view(0)
    assert "points" not in describe(rk.Action.parse("open 2S 3S 4S"), "You", basic).plain


def test_a_gin_hands_end_says_gin_undercut_and_a_dead_hand() -> None:
    """The knocker is the result's winner even when undercut (scoring below zero): the line names the
    undercut and the star goes to the defender; a knock without deadwood is gin; a hand that reached
    the wall was not a stock that ran out."""
    from rummykit.views import RoundResult, Termination

    def result(termination: Termination, points: tuple[int, int], values: tuple[int, int]) -> RoundResult:
        winner = 1 if termination is Termination.KNOCK else None
        zero = (0, 0)
        return RoundResult(termination, winner, points, zero, zero, values)

    from rummykit.gin import undercut_by

    names, gin_rules = ["You", "Bot 2"], rk.Rules.preset("gin")
    undercut = result(Termination.KNOCK, (29, -29), (4, 9))
    assert screen.termination_text(undercut, names, rules=gin_rules) == "Bot 2 knocked; You undercut"
    assert undercut_by(undercut, gin_rules) == 0
    german = screen.termination_text(undercut, ["Du", "Bot 2"], "de", gin_rules)
    assert german == "Bot 2 hat geklopft; Du unterbietest"
    gin = result(Termination.KNOCK, (-35, 35), (10, 0))
    assert screen.termination_text(gin, names, rules=gin_rules) == "Bot 2 has gin"
    assert undercut_by(gin, gin_rules) is None
    viennese = rk.Rules.preset("viennese")
    assert screen.termination_text(undercut, names, rules=viennese) == "Bot 2 knocked"  # no undercut there
    wall = result(Termination.WALL, (0, 0), (0, 0))
    assert screen.termination_text(wall, names) == "the stock reached the wall: this hand is not scored"


def test_a_gin_hands_result_table_shows_the_laid_melds_and_the_deadwood() -> None:
    """As the Viennese showdown shows arrangements, a gin hand's result shows the melds each player
    laid (the knocker's with the cards laid off on them), then the deadwood and its value."""
    import random

    from rummykit.bots import GreedyBot

    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=8)
    bot, rng = GreedyBot(), random.Random(8)
    while not match.is_over:
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
    rnd = match.rounds[-1]
    view = rnd.view(0)
    assert view.result is not None and view.result.scored
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(screen.result_table(view, ["You", "Bot 2"], screen.Scoreboard(), ascii_only=True))
    text = console.export_text()
    for seat, name in enumerate(["You", "Bot 2"]):
        line = next(row for row in text.splitlines() if row.startswith(name))
        laid = [tm for tm in view.melds if tm.owner == seat]
        assert line.count("[") == len(laid), line
        assert f"= {view.result.hand_values[seat]}" in line


def test_the_hint_speaks_of_no_opening_where_nothing_is_needed() -> None:
    """Basic Rummy has no opening minimum: a hand without a meld is told so, not "worth 0 of 0"."""
    from rummykit.cli.hints import play_hint

    rules = rk.Rules.preset("basic")
    for seed in range(50):
        rnd = rk.Round.new(rules, 3, seed=seed)
        rnd.apply("draw")
        view = rnd.view(rnd.to_move)
        if rk.solver.best_opening(list(view.hand), rules) is None:
            break
    else:
        pytest.fail("no hand without a meld in 50 deals")
    hint = play_hint(view, rnd, "en")
    assert "no meld in your hand yet" in hint.reason and "0 of 0" not in hint.reason
    assert "noch keine Figur auf der Hand" in play_hint(view, rnd, "de").reason


@pytest.mark.parametrize(
    ("preset", "en", "de"),
    [
        ("german", "You went out (Hand-Rommé: penalties ×2)",
         "Du hast ausgemacht (Hand-Rommé: Minuspunkte ×2)"),
        ("scala40", "You went out (in mano: penalties ×2)", "Du hast ausgemacht („in mano“: Minuspunkte ×2)"),
        ("basic", "You went out (rummy: winnings ×2)", "Du hast ausgemacht (Rummy: Pluspunkte ×2)"),
    ],
)  # fmt: skip
def test_going_out_at_once_is_named_as_the_game_names_it(preset: str, en: str, de: str) -> None:
    """Hand-Rommé in German Rummy, "in mano" in Scala 40, "rummy" in Basic Rummy, where the winner's
    collection doubles (not the penalties: Basic's winner collects)."""
    from rummykit.cli import screen

    result = rk.RoundResult(
        termination=rk.Termination.WENT_OUT, winner=0, points=(0, 0), penalties=(0, 0), gains=(0, 0),
        hand_values=(0, 0), multiplier=2,
    )  # fmt: skip
    rules = rk.Rules.preset(preset)
    assert screen.termination_text(result, ["You", "Bot 2"], "en", rules) == en
    assert screen.termination_text(result, ["Du", "Bot 2"], "de", rules) == de


def _swap_position() -> rk.Match:
    """German Rummy, three players: seat 1 opened last turn with 6♠ 6♥ JK as meld 1 and now holds
    3♣ 6♣ 9♣ 8♦ 9♦ after drawing (RULES.md §3.10)."""
    rules = rk.Rules.preset("german")
    hands = [
        "2D 3D 4D 5D 6D 7D 8D 2S 3S 4S 5S 6S 7S",
        "6S 6H JK QH KH AH 10C JC QC 6C 8D 9D 2S",
        "8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H",
    ]
    deck = arrange_deck(rules, 3, hands, dealer=0, upcard="9H", stock="3C 4C 8C 9C QD KD")
    m = rk.Match.new(rules, 3, deck=deck, dealer=0)
    for action in ["draw", "open 6S 6H JK | QH KH AH | 10C JC QC", "discard 2S", "draw", "discard 8S"]:
        m.apply(action)
    for action in ["draw", "discard 2D", "draw"]:
        m.apply(action)
    return m


def test_the_help_shows_a_joker_exchange_the_rules_accept() -> None:
    """Under German rules the freed joker must be laid in the same turn, so a bare ``swap`` is always
    refused: the help shows the exchange with its ``then meld … JK``; where the joker goes to the hand
    (Scala 40) the short form is the whole move."""
    from rummykit.actions import Swap
    from rummykit.cli.parsing import short_help

    german = rk.Rules.preset("german")
    english = "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker and meld it at once with cards 5 6"
    assert english in short_help("en", german)
    assert (
        "tauschen 4 gegen 2 dann auslegen 5 6 JK Karte 4 gegen den Joker von Figur 2 tauschen und ihn "
        "gleich mit den Karten 5 und 6 auslegen"
    ) in short_help("de", german)
    assert "dann anlegen JK an 3" in short_help(
        "de", german.replace(exchanged_joker_destination="any_meld_same_turn")
    )
    scala = short_help("de", rk.Rules.preset("scala40"))
    assert "tauschen 4 gegen 2 Karte 4 gegen den Joker von Figur 2 tauschen (er kommt auf die Hand)" in scala
    assert "dann" not in scala
    # The help's example, typed with positions in a real position, is a move the engine accepts.
    m = _swap_position()
    hand = screen.sorted_hand(m.round.view(1).hand, "suit")
    assert [str(c) for c in hand] == ["3C", "6C", "9C", "8D", "9D"]
    action = parse_input("swap 2 on 1 then meld 4 5 JK", hand, opened=True)
    assert isinstance(action, Swap) and str(action) == "swap 6C on 1 then meld 8D 9D JK"
    m.apply(action)
    assert str(m.round.view(1).melds[0]) == "6S 6H 6C"


def test_a_bare_joker_exchange_in_german_rules_says_to_add_the_meld() -> None:
    from rich.text import Text

    players = [Player("Bot 1"), Player("Du"), Player("Bot 3")]
    session = PlaySession(_swap_position(), players, Console(file=io.StringIO()), scripted([]), lang="de")
    refusal = session.handle(1, "swap 2 on 1")
    assert isinstance(refusal, Text)
    assert "Der frei gewordene Joker muss sofort ausgelegt werden; hänge „then meld … JK“ an" in refusal.plain


def test_text_typed_at_the_next_round_prompt_is_not_taken_for_enter(data_dir: Path) -> None:
    """A move typed ahead at "Press Enter for the next hand" is said to be ignored, and the next
    round starts only on a bare Enter."""
    _, out = play("--rules", "viennese", "--seed", "24", "--bots", "greedy", lines=["auto"] * 60)
    assert "Hand 1 over: Bot 2 called Rummy" in out
    assert "'auto' ignored: only Enter goes on here (or type quit)" in out
    assert "hand 2" not in out
    _, out = play(
        "--rules", "viennese", "--seed", "24", "--bots", "greedy", lines=[*["auto"] * 8, "", "quit"]
    )
    assert "Unfinished game" not in out  # a seed asks for a new game
    assert "Press Enter for the next hand (or type quit) > Viennese Rummy (Wiener Rummy) · hand 2" in out


def test_text_typed_at_the_hand_over_is_not_taken_for_enter() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None)
    match = rk.Match.new(rk.Rules.preset("german"), 2, seed=4, dealer=1)
    answers, prompts = ["x 1", "", "quit"], []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    session = PlaySession(match, [Player("Anna"), Player("Ben")], console, read, lang="de")
    assert session.run() == 0
    text = out.getvalue()
    assert "„x 1“ ignoriert: hier geht es nur mit Enter weiter (oder „ende“)" in text
    # The typed move was not taken for Enter: the hand-over asks again, and nothing was played.
    assert prompts[:2] == ["Anna, Enter zeigt deine Hand (oder „ende“) > "] * 2
    assert not match.actions


def test_the_knockers_hand_is_shown_at_the_knock_as_the_showdown_counts_it() -> None:
    """RULES.md §4.5: the knocker shows the hand split into melds plus deadwood and announces it; the
    knock line shows that, and no other hand (the others' stay hidden until the showdown)."""
    import dataclasses
    import random

    from rummykit import solver
    from rummykit.bots import make_bot

    bot, rng = make_bot("greedy"), random.Random(5)
    for seed in range(40):
        m = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=seed)
        while not m.is_over and m.round.view(m.to_move).knocker is None:
            m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
        if not m.is_over and not m.round.is_over:
            break
    rnd = m.round
    seat = m.to_move
    view = rnd.view(seat)
    knocker = view.knocker
    assert knocker is not None and seat != knocker
    assert [i for i, hand in enumerate(view.revealed) if hand] == [knocker]
    shown = view.revealed[knocker]
    assert shown is not None
    best = solver.best_arrangement(list(shown), m.rules)
    names = tuple("Du" if i == seat else f"Bot {i + 1}" for i in range(3))
    board = screen.Board(
        view=view,
        names=names,
        score=screen.match_scoreboard(m),
        hands={seat: screen.sorted_hand(view.hand, "suit")},
        log=[f"Bot 2 zieht {i}" for i in range(10)],
        status="Dein Zug",
        lang="de",
    )
    line = screen.knock_line(board)
    assert line is not None
    assert line.plain.startswith(f"{names[knocker]} hat geklopft: [") and line.plain.endswith(
        f" = {best.deadwood}"
    )
    expected = screen.arrangement_text(best.melds, best.deadwood_cards, best.deadwood).plain
    assert line.plain == f"{names[knocker]} hat geklopft: {expected}"
    # Seen by the knocker, the line speaks to them.
    mine = screen.knock_line(dataclasses.replace(board, view=rnd.view(knocker), names=("Du",) * 3))
    assert mine is not None and mine.plain == f"Du hast geklopft: {expected}"
    assert 0 < best.deadwood < 5
    console = Console(width=80, height=24, record=True, force_terminal=True, color_system=None)
    console.print(screen.render_board(board))
    lines = console.export_text().rstrip("\n").split("\n")
    assert len(lines) <= 23 and all(len(row) <= 80 for row in lines)
    # The showdown counts the knocker's hand the same way.
    while not rnd.is_over:
        m.apply(bot.choose(rnd.view(m.to_move), m.legal_actions(), rng))
    result = rnd.view(seat).result
    assert result is not None and result.arrangements
    final = result.arrangements[knocker]
    assert final is not None and final.deadwood == best.deadwood


def test_a_rubbers_hand_result_says_who_got_the_knock_money(data_dir: Path) -> None:
    """RULES.md §4.8: after each hand the knocker or Rummy caller gets one chip from every other
    player in the hand; the result says so beside the chips column."""
    import random

    from rummykit.bots import make_bot

    _, out = play("--rules", "viennese", "--seed", "24", "--bots", "greedy", lines=["auto"] * 60)
    assert "Hand 1 over: Bot 2 called Rummy" in out
    assert "Knock money: Bot 2 gets 2 chips (1 from each other player)" in out
    _, out = play(
        "--rules", "viennese", "--seed", "24", "--bots", "greedy", "--lang", "de", lines=["auto"] * 60
    )  # fmt: skip
    assert "Klopfgeld: Bot 2 bekommt 2 Chips (1 von jedem anderen Spieler)" in out
    rules = rk.Rules.preset("viennese")
    m = rk.Match.new(rules, 2, seed=24)
    bot, rng = make_bot("greedy"), random.Random(0)
    rnd = m.round
    while not rnd.is_over:
        m.apply(bot.choose(rnd.view(m.to_move), m.legal_actions(), rng))
    view = rnd.view(0)
    assert view.result is not None and view.result.winner is not None
    winner, other = view.result.winner, 1 - view.result.winner
    names = ("Du", "Bot 2")
    text = screen.knock_money_text(view, names, screen.match_scoreboard(m), "de")
    verb = "bekommst" if winner == 0 else "bekommt"
    assert text == f"Klopfgeld: {names[winner]} {verb} 1 Chip (von {names[other]})"
    assert screen.knock_money_text(view, names, screen.Scoreboard(), "de") is None  # no rubber, no chips


def test_a_crowded_table_keeps_the_board_within_24_lines() -> None:
    """Six players of German Rummy with 19 melds on the table (seed 51, greedy bots): in two
    columns the board took 25 lines and the header scrolled off an 80×24 terminal; the melds now
    take three columns where every one fits, and the board stays within the screen."""
    import io
    import random

    from rich.console import Console
    from rich.text import Text

    from rummykit.bots import make_bot, match_action

    m = rk.Match.new(rk.Rules.preset("german"), 6, seed=51, dealer=0)
    bots = [make_bot("greedy") for _ in range(6)]
    rng = random.Random(51)
    while not (m.to_move == 0 and len(m.round.view(0).melds) >= 19):
        assert not m.round.is_over
        m.apply(match_action(bots[m.to_move], m, rng))
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, height=24, force_terminal=True, color_system=None)
    seats = [Player("You")] + [Player(f"Bot {i + 1}", bots[i], "greedy") for i in range(1, 6)]
    session = PlaySession(m, seats, console, lambda prompt: "", lang="en")
    session.log = [Text(f"Bot {i} discards 7♣") for i in range(2, 7)]
    session.show(0, session.status(0))
    screen_lines = buffer.getvalue().split(CLEAR_ALL)[-1].rstrip("\n").split("\n")
    assert len(screen_lines) + 1 <= 24  # and the prompt
    assert screen_lines[0].endswith("German Rummy (Rommé) · hand 4 of 6 · dealer Bot 4")
    assert any(line.startswith("1 ") and " 8 " in line and " 15 " in line for line in screen_lines)


def test_a_crowded_table_with_a_long_run_keeps_the_board_within_24_lines() -> None:
    """The same table with a run of nine on it, wider than a third of the screen: the melds still
    take three columns, the long run going on over a second line, and the board fits."""
    import io
    import random

    from rich.console import Console

    from rummykit.bots import make_bot, match_action
    from rummykit.views import TableMeld

    m = rk.Match.new(rk.Rules.preset("german"), 6, seed=51, dealer=0)
    bots = [make_bot("greedy") for _ in range(6)]
    rng = random.Random(51)
    while not (m.to_move == 0 and len(m.round.view(0).melds) >= 19):
        m.apply(match_action(bots[m.to_move], m, rng))
    long_run = rk.Meld.from_cards(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H"), m.rules)
    m.round.live_state().melds[4] = TableMeld(long_run, owner=1)  # for the screen only
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, height=24, force_terminal=True, color_system=None)
    seats = [Player("You")] + [Player(f"Bot {i + 1}", bots[i], "greedy") for i in range(1, 6)]
    session = PlaySession(m, seats, console, lambda prompt: "", lang="en")
    session.show(0, session.status(0))
    screen_lines = buffer.getvalue().split(CLEAR_ALL)[-1].rstrip("\n").split("\n")
    assert len(screen_lines) + 1 <= 24  # and the prompt
    assert screen_lines[0].endswith("German Rummy (Rommé) · hand 4 of 6 · dealer Bot 4")
    (at,) = [i for i, line in enumerate(screen_lines) if line.startswith("5 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ ")]
    assert screen_lines[at + 1].startswith("  9♥ 10♥ ") and screen_lines[at + 2].startswith("6 ")


def test_a_wide_meld_writes_its_jokers_bare_where_the_board_is_narrow() -> None:
    rules = rk.Rules.preset("german")
    run = rk.Meld.from_cards(parse_cards("8C 9C JK JC QC KC"), rules)
    assert screen.meld_text(run).plain == "8♣ 9♣ JK(=10♣) J♣ Q♣ K♣"
    assert screen.meld_text(run, width=screen.NARROW_MELD_WIDTH).plain == "8♣ 9♣ JK J♣ Q♣ K♣"
    short = rk.Meld.from_cards(parse_cards("QH QS JK"), rules)
    assert screen.meld_text(short, width=screen.NARROW_MELD_WIDTH).plain == "Q♥ Q♠ JK(=Q♣/Q♦)"


def test_a_bot_that_cannot_play_the_table_is_refused_before_the_game(data_dir: Path) -> None:
    """OpenSpiel's gin bot at a German table, a policy trained for two seats at three: the bot's own
    error came at its first turn, as a traceback from the middle of the game (or later, when a
    person moved first); ``check_table`` now refuses the table before the first move, in the
    terminal and in the arena."""
    pytest.importorskip("pyspiel")
    code, out = play("--bots", "openspiel-simple", "--seed", "1", lines=["quit"])
    assert code == 2 and "error: openspiel-simple plays OpenSpiel's gin of 2 players, not 3" in out
    assert "Traceback" not in out and not saved_games(data_dir)
    result = runner.invoke(app, ["arena", "--rules", "viennese", "--bots", "openspiel-simple,greedy"])
    assert result.exit_code == 2 and "error: openspiel-simple plays OpenSpiel's gin only" in result.output
    code, out = play("--rules", "gin", "--players", "2", "--bots", "openspiel-simple", lines=["quit"])
    assert code == 0 and "Gin Rummy" in out


def test_an_unfinished_save_that_no_longer_loads_is_named_not_dropped(data_dir: Path) -> None:
    """A save made under rules this version refuses (an older version's house table) is not offered,
    but the player is told which file and why, instead of a new game starting without a word."""
    play("--seed", "3", "--bots", "random", lines=["d", "x 1", "quit"])
    (path,) = saved_games(data_dir)
    data = json.loads(path.read_text())
    data["rules"] = "german(jokers_total=0, penalty_joker=50)"
    path.write_text(json.dumps(data))
    _, out = play(lines=["d", "quit"], draw=True)
    flat = " ".join(out.split())
    assert f"note: {path.name} cannot be resumed:" in flat and "penalty_joker" in flat
    assert "Unfinished game" not in out


class _Misbehaving:
    """A plug-in bot that does one thing wrong on its first move."""

    def __init__(self, how: str) -> None:
        self.how = how

    def choose(self, view: object, legal: list[rk.Action], rng: object) -> object:
        if self.how == "raises":
            raise RuntimeError("boom")
        if self.how == "none":
            return None
        return Discard(parse_cards("JK")[0])  # a card it does not hold


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("raises", "raised RuntimeError: boom"),
        ("none", "answered NoneType, not an action"),
        ("illegal", "chose discard JK: "),
    ],
)
def test_a_plug_in_bot_that_fails_stops_the_game_named_and_saved(data_dir: Path, how: str, said: str) -> None:
    """A plug-in bot that raises, answers nothing or chooses an illegal move gave a traceback (exit
    1) without naming the bot or the seat; now one line as the arena's, and the game is saved."""
    from rummykit.bots import _FACTORIES, register_bot

    register_bot("misbehaving", lambda level=None: _Misbehaving(how))
    try:
        code, out = play("--bots", "misbehaving", "--seed", "3", lines=["d", "x 1", "quit"])
    finally:
        del _FACTORIES["misbehaving"]
    assert code == 2, out
    assert "Traceback" not in out
    flat = " ".join(out.split())  # the console wraps the line
    assert f"error: the bot 'misbehaving:medium' at seat 2 (Bot 2) {said}" in flat, out
    assert "game saved, to continue it: rummykit play --resume" in flat and saved_games(data_dir)


def test_the_score_table_repeats_every_move_from_the_knock() -> None:
    """The screen is cleared for a hand's score table and its last three moves were repeated: at
    three players a knock is followed by four more moves, so the knock itself was not shown."""
    import random

    from rummykit.actions import Knock
    from rummykit.bots import make_bot
    from rummykit.bots.base import match_action
    from rummykit.cli.play import LAST_MOVES, moves_to_repeat

    bot, seen = make_bot("greedy"), set()
    for seed in range(4):
        match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=seed)
        rng, rnd = random.Random(seed), match.round
        while not rnd.is_over:
            match.apply(match_action(bot, match, rng))
        knocks = [i for i, e in enumerate(rnd.history) if isinstance(e.action, Knock)]
        expected = len(rnd.history) - knocks[-1] if knocks else LAST_MOVES
        assert moves_to_repeat(rnd) == expected
        seen.add(bool(knocks))
    assert seen == {True, False}  # a knock (5 moves from it) and a Rummy call (3) among the seeds


def test_the_save_says_which_moves_were_hinted_or_auto_s_and_keeps_it_on_resume(data_dir: Path) -> None:
    """``hint`` then a typed move: hinted; ``auto``: the solver's move, a stand-in's; the bots' seats
    are bots with their kind; an undo takes the marks of the moves it takes back."""
    play("--seed", "3", "--bots", "greedy", "--practice", lines=["hint", "d", "x 1", "d", "auto", "quit"])
    (path,) = saved_games(data_dir)
    record = rk.Record.load(path)
    assert record.seats is not None
    you, *bots = record.seats
    movers = [s for s, _ in _movers(record)]
    mine = [n for n, s in enumerate(movers, start=1) if s == 0]
    assert you == rk.RecordSeat.person(stand_in=[mine[3]], hinted=[mine[0]])
    assert [(b.kind, b.bot) for b in bots] == [("bot", "greedy:medium")] * 2
    # Resumed: the marks stay, an undo of the auto move takes its mark, a hinted move is marked.
    play("--resume", str(path), lines=["undo", "hint", "x 1", "quit"])
    after = rk.Record.load(path)
    assert after.seats is not None
    assert after.seats[0] == rk.RecordSeat.person(stand_in=[], hinted=[mine[0], mine[3]])


def _movers(record: rk.Record) -> list[tuple[int, str]]:
    match = record.start()
    out = []
    for action in record.actions:
        out.append((match.to_move, str(action)))
        match.apply(action)
    return out


def test_an_old_save_without_seats_resumes_with_its_marks_unknown(data_dir: Path) -> None:
    play("--seed", "3", "--bots", "greedy", lines=["d", "x 1", "quit"])
    (path,) = saved_games(data_dir)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["seats"]  # as rummykit wrote saves before records held seats
    path.write_text(json.dumps(data), encoding="utf-8")
    bot = rk.RecordSeat("bot", "greedy:medium")
    assert rk.Record.load(path).seats == (rk.RecordSeat("person"), bot, bot)
    play("--resume", str(path), lines=["d", "quit"])
    seats = rk.Record.load(path).seats
    assert seats is not None and seats[0] == rk.RecordSeat("person")  # unknown lists stay unknown
