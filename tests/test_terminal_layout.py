"""The terminal game read at 80 × 24, in German and English: the points of a layout audit.

Each test names the screen it guards: a showdown row's total, the gin defender's passes, the header,
the resume command, the seat draw before the bots' first moves, and the replay's view label.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Pass
from rummykit.bots import make_bot
from rummykit.bots.base import match_action
from rummykit.cli import app, screen
from rummykit.cli.action_text import describe
from rummykit.cli.play import Player, PlaySession, seat_draw_lines
from rummykit.views import Phase

runner = CliRunner()


def printed(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


# 1. A showdown row keeps its total on its last line ------------------------------------------------
def _viennese_showdown(players: int, seed: int) -> tuple[rk.Match, rk.Round]:
    match = rk.Match.new(rk.Rules.preset("viennese"), players, seed=seed)
    bot, rng, rnd = make_bot("random"), random.Random(seed), match.round
    while not rnd.is_over:
        match.apply(match_action(bot, match, rng))
    return match, rnd


@pytest.mark.parametrize(("players", "seed", "lang"), [(2, 5, "de"), (6, 18, "en"), (6, 38, "de")])
def test_a_showdown_row_never_leaves_its_total_alone_on_a_line(players: int, seed: int, lang: str) -> None:
    """Three melds with jokers and a deadwood card are wider than the column: the row wrapped and
    left ``= 3`` alone under it. The cards wrap between words now; the last card, ``=`` and the total
    stay together (with the bar before the deadwood), and no line is wider than 80."""
    match, rnd = _viennese_showdown(players, seed)
    you = "Du" if lang == "de" else "You"
    names = [you, *(f"Bot {i + 2}" for i in range(players - 1))]
    lines = printed(screen.result_table(rnd.view(0), names, screen.match_scoreboard(match), lang=lang))
    assert all(cell_len(line) <= 80 for line in lines)
    assert not [line for line in lines if line.strip().startswith("=")], "\n".join(lines)
    wrapped = [line for line in lines if line.strip().startswith("| ")]
    assert wrapped and all(" = " in line for line in wrapped), "\n".join(lines)
    result = rnd.view(0).result
    assert result is not None and result.arrangements is not None
    for seat, arrangement in enumerate(result.arrangements):  # each seat's total is on the screen
        assert arrangement is not None
        assert any(line.endswith(f"= {arrangement.deadwood}") or f"= {arrangement.deadwood} " in line
                   for line in lines), names[seat]  # fmt: skip


def test_a_total_kept_cell_wraps_between_cards_and_keeps_its_styles() -> None:
    shown = screen.arrangement_text([], [rk.Card.parse(c) for c in ("AC", "3D", "8D", "10D", "QD")], 24)
    lines = printed(screen.TotalKept(shown), width=12)
    assert lines == ["A♣ 3♦ 8♦ 10♦", "Q♦ = 24"]
    assert printed(screen.TotalKept(shown), width=40) == ["A♣ 3♦ 8♦ 10♦ Q♦ = 24"]


# 2. The gin defender's two passes ------------------------------------------------------------------
def test_the_gin_defenders_two_passes_each_say_what_they_end() -> None:
    """The defender passes once to end the lay-offs, lays its own melds, and passes again: both
    passes read "done laying off or melding" (``fertig mit dem Anlegen oder Auslegen``), the first
    before the melds it said were done. Now the first ends the lay-offs, the second the melds."""
    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    match.apply("pass")
    match.apply("pass")
    bot, rng = make_bot("greedy"), random.Random(3)
    said: list[tuple[str, str, str]] = []
    while not match.is_over:
        view = match.round.view(match.to_move)
        action = bot.choose(view, match.legal_actions(), rng)
        if isinstance(action, Pass) and view.phase is Phase.LAYOFF:
            said.append(
                (
                    describe(action, "Bot 2", view).plain,
                    describe(action, "Bot 2", view, lang="de").plain,
                    describe(action, "Du", view, lang="de").plain,
                )
            )
        match.apply(action)
    first = "Bot 2 is done laying off", "Bot 2: ist mit dem Anlegen fertig", "Du bist mit dem Anlegen fertig"
    second = (
        "Bot 2 is done laying melds",
        "Bot 2: ist mit dem Auslegen fertig",
        "Du bist mit dem Auslegen fertig",
    )
    assert said == [first, second]
    you = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1).round.view(0)
    assert describe(Pass(), "You", you).plain == "You pass on the upcard"  # other phases as before


# 3. The header fits in 78 columns ------------------------------------------------------------------
def _header_boards() -> list[screen.Board]:
    boards = []
    for rules in (
        rk.Rules.preset("viennese"),
        rk.Rules.parse("viennese(knock_money=2)"),
        rk.Rules.preset("gin"),
        rk.Rules.parse("gin(match_end=single_hand)"),
        rk.Rules.preset("german"),
        rk.Rules.parse("german(num_hands=12)"),
        rk.Rules.preset("german_dskv"),
    ):
        for players in range(rules.min_players, min(rules.max_players, 6) + 1):
            match = rk.Match.new(rules, players, seed=1)
            base = screen.match_scoreboard(match)
            for lang, you in (("de", "Du"), ("en", "You")):
                for names in (
                    (you, *(f"Bot {i + 2}" for i in range(players - 1))),
                    tuple(f"Spielerin mit langem Namen {i}" for i in range(players)),
                ):
                    for round_number, pot in ((1, 15), (12, 150), (100, 1500)):
                        score = screen.Scoreboard(
                            totals=tuple(-555 for _ in range(players)),
                            chips=base.chips,
                            pot=pot if base.pot is not None else None,
                            round_number=round_number,
                            rounds_planned=base.rounds_planned,
                            dealt_again=base.dealt_again,
                        )
                        for subtitle in ("", "Wiedergabe" if lang == "de" else "replay"):
                            view = match.round.view(0)
                            boards.append(screen.Board(view, names, score, lang=lang, subtitle=subtitle))
    return boards


def test_every_header_fits_in_78_columns_and_stays_one_line() -> None:
    """A Viennese table in German with changed rules (``knock_money=2``) had a header of 79 columns
    (``… · Geber Bot 2 · Pott 15``), 80 with a pot of 150 and more past that, and then wrapped. A
    crowded header now leaves out the title's name in the other language and shortens a long name."""
    widest = 0
    for board in _header_boards():
        lines = printed(screen.render_board(board))
        header = lines[0]
        assert cell_len(header) <= 78, header
        widest = max(widest, cell_len(header))
        assert lines[1].split()[0] in ("Spieler", "player"), (header, lines[1])  # nothing wrapped
    assert widest == 78 == screen.HEADER_WIDTH
    german = next(
        b for b in _header_boards() if b.lang == "de" and b.view.rules.changes() and b.score.pot == 15
    )
    shown = printed(screen.render_board(german))[0]
    assert shown == "Wiener Rommé, geänderte Regeln · Spiel 1 · Geber Bot 2 · Pott 15"
    assert screen.header_text(german).startswith("Wiener Rommé (Wiener Rummy), geänderte Regeln")


# 4. The resume command on a line of its own --------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_resume_command_is_printed_whole_on_a_line_of_its_own(data_dir: Path, lang: str) -> None:
    """The stop message named the save in a sentence the console wrapped, with ``--resume FILE``
    after it: the command could not be copied. It is one unbroken line now, even where the path
    is longer than the terminal; and in German a match (``Partie``) is interrupted, not a hand."""
    folder = data_dir / "ein-ziemlich-langer-ordner-fuer-gespeicherte-partien" / "noch-ein-ordner"
    result = runner.invoke(
        app,
        ["play", "--fast", "--dealer", "3", "--seed", "3", "--bots", "random", "--lang", lang,
         "--save-dir", str(folder)],
        input="d\nx 1\nquit\n",
    )  # fmt: skip
    (path,) = sorted(folder.glob("*.json"))
    command = f"rummykit play --resume {path}"
    assert len(command) > 80
    lines = result.output.splitlines()
    assert command in lines, result.output
    said = lines[lines.index(command) - 1]
    if lang == "de":
        assert said.endswith("Partie unterbrochen (auf Wunsch); Partie gespeichert, weiter mit:")
        assert "Spiel unterbrochen" not in result.output
    else:
        assert said.endswith("Game stopped (quit); game saved, to continue it:")


# 5. The seat draw before the bots' first moves -----------------------------------------------------
SIX = rk.Rules.preset("german")


def _draw_session(lang: str, prompts: list[str], screens: list[str], out: io.StringIO) -> PlaySession:
    """Six players, the person at seat 1 deals (seed 0): five bots move before the person does."""
    from rummykit.cli.play import fit_lines

    match = rk.Match.new(SIX, 6, seed=0)
    assert match.seat_draw is not None and match.seat_draw.dealer == 0
    you = "Du" if lang == "de" else "You"
    seats = [Player(you), *(Player(f"Bot {i + 2}", make_bot("greedy"), "greedy") for i in range(5))]
    draw = fit_lines(seat_draw_lines(match, [p.name for p in seats], lang), 78)
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        screens.append(out.getvalue())
        if len(prompts) > 2:
            raise EOFError
        return ""

    return PlaySession(match, seats, console, read, notices=draw, draw=draw, lang=lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_terminal_shows_the_seat_draw_until_enter_before_the_bots_move(lang: str) -> None:
    """The bots' first moves pushed the draw out of the log (and the board cut its line of six
    players at 80 columns) before the person read it. On a terminal the draw now has a screen of its
    own, every line whole, and the bots move after Enter."""
    prompts: list[str] = []
    screens: list[str] = []
    out = io.StringIO()
    _draw_session(lang, prompts, screens, out).run()
    first = "Bot 2 fängt an: Enter startet" if lang == "de" else "Bot 2 moves first: press Enter to start"
    assert prompts[0].startswith(first)
    before_enter = screens[0]  # what the terminal shows at the first prompt
    deals = "Du ziehst B♥ und gibst zuerst" if lang == "de" else "You draw J♥ and deal first"
    assert deals in before_enter and "…" not in before_enter
    assert ("vom Stoß" if lang == "de" else "from the stock") not in before_enter  # no bot moved yet
    assert "Bot 2" in screens[1].split(first)[-1]  # after Enter the bots move
    assert max(cell_len(line) for line in before_enter.splitlines()) <= 80


def test_a_piped_game_prints_the_seat_draw_whole_and_waits_for_nothing(data_dir: Path) -> None:
    result = runner.invoke(
        app, ["play", "--fast", "--players", "6", "--seed", "0", "--bots", "greedy"], input="quit\n"
    )
    assert result.exit_code == 0
    assert "You draw J♥ and deal first" in result.output and "Game stopped (quit)" in result.output
    assert "press Enter to start" not in result.output


def test_the_draw_of_six_players_is_broken_after_a_comma() -> None:
    from rummykit.cli.play import fit_lines

    lines = fit_lines(["a1, b2, c3; d4 and e5"], 8)
    assert lines == ["a1, b2,", "  c3;", "  d4 and e5"]


# 6. The replay's view label ------------------------------------------------------------------------
def test_the_replays_all_hands_view_says_hands_in_both_languages(tmp_path: Path, data_dir: Path) -> None:
    """The German label read "alle Blätter"; the German texts call a player's cards "Hand"."""
    match = rk.Match.new(rk.Rules.parse("german(match_end=single_hand)"), 3, seed=2)
    rng, bot = random.Random(2), make_bot("greedy")
    for _ in range(6):
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
    data = rk.Record.from_match(match).to_dict()
    data["meta"] = {"names": ["Anna", "Ben", "Cleo"]}
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    german = runner.invoke(app, ["replay", str(path), "--all", "--lang", "de"], input="q\n").output
    english = runner.invoke(app, ["replay", str(path), "--all", "--lang", "en"], input="q\n").output
    assert "Sicht: alle Hände" in german and "Blätter" not in german
    assert "view: all hands" in english
