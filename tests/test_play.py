"""``rummykit play``: full rounds against bots driven by scripted input (typer's CliRunner)."""

from __future__ import annotations

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
from rummykit.cli.play import parse_input, resolve_bots
from rummykit.errors import NotationError
from rummykit.testing import arrange_deck

runner = CliRunner()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RUMMYKIT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return tmp_path


def play(*args: str, lines: list[str], draw: bool = False) -> tuple[int, str]:
    """Run ``rummykit play``; the last seat deals first unless ``draw`` lets the players draw for it."""
    players = args[args.index("--players") + 1] if "--players" in args else "3"
    dealer = [] if draw else ["--dealer", players]
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
    assert "German Rummy (Rommé), changed rules · round 1 of 1 · dealer Bot 3" in out
    assert "▶  You            13  –" in out
    assert "Stock 70  Discard 6♣  No melds on the table" in out
    assert " 3♣  4♣  7♣ 10♦  Q♦  K♦  A♥  8♥  9♥  A♠  4♠  J♠  Q♠" in out
    assert "Your turn: draw (d) or take (t) the discard" in out
    # help lists the legal moves, a nonsense move is one line, hint names the solver's move.
    assert "Legal moves:\n  draw  ·  take\n" in out
    assert "> ✗ not a move: not a card: 'ZZ' (cards: QS, 10H, JK; or a position)\n" in out
    assert "> hint: draw  (6C fits nothing in your hand)" in out
    # Discarding before drawing is refused with the broken rule; the game goes on.
    assert "> ✗ illegal: " in out
    assert "You draw from the stock" in out and "You discard" in out
    assert "Bot 2 draws from the stock" in out or "Bot 2 takes" in out
    # The round reaches its score table and the match its winner.
    assert "Round 1 over: " in out
    assert "player   cards left" in out or "player  cards left" in out
    assert "Match over: " in out
    # The game was saved as a record that replays to the finished match.
    games = saved_games(data_dir)
    assert len(games) == 1 and f"Game saved to {games[0]}" in out.replace("\n", "")
    match = rk.Record.load(games[0]).replay()
    assert match.is_over and match.rounds[0].is_over


def test_viennese_showdown_shows_arrangements_chips_and_pot(data_dir: Path) -> None:
    code, out = play(
        "--rules", "viennese", "--players", "3", "--seed", "5", "--bots", "greedy", lines=["auto"] * 60,
    )  # fmt: skip
    assert code == 0
    assert "Viennese Rummy (Wiener Rummy) · round 1 · dealer Bot 3 · pot 15" in out
    assert "bad pts  chips" in out
    assert "Your hand (10 cards, by suit) · deadwood 43" in out
    assert "Round 1 over: Bot 2 called Rummy" in out
    assert "[6♣ 6♦ 6♥] [3♦ 3♥ 3♠] [3♠ 4♠ 5♠ 6♠] = 0" in out
    assert "melds | deadwood" in out and "Pot: 15 chips" in out
    assert "Press Enter for the next round" in out


def test_end_of_input_stops_cleanly_and_saves(data_dir: Path) -> None:
    code, out = play("--seed", "1", "--bots", "random", lines=[])
    assert code == 0
    assert "Game stopped (end of input); game saved to" in out
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
    assert notice == "'search' bots are not available here; playing against 'greedy:medium' bots"
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
        "No buy-back offer: You already bought back once, as often as buyback_limit allows"
    ]
