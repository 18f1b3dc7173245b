"""A match to a limit of minus points (``match_end = penalty_limit``) shows the figures it ends on.

A club player's audit: with ``hand_scoring = winner_gets_sum`` the scores a screen showed
(-185, 1, 184) said nothing of the minus points (218, 127, 81) that ended the match at 200. The
terminal's players table and score table, and the match-over line, now show each seat's minus points
against the limit and what is left of it, and the board still fits 80 × 24.
"""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

import rummykit as rk
from rummykit.bots import make_bot
from rummykit.bots.base import match_action
from rummykit.cli import screen

WINNER_GETS_SUM = "german(hand_scoring=winner_gets_sum,match_end=penalty_limit,penalty_limit=200)"
NAMES = {"en": ("You", "Bot 2", "Bot 3"), "de": ("Du", "Bot 2", "Bot 3")}


def printed(renderable: object, width: int = 80, height: int = 24) -> list[str]:
    console = Console(width=width, height=height, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def played(rules: str, players: int = 3, seed: int = 0) -> tuple[rk.Match, rk.Round]:
    """The audited match: greedy bots to its end; the match and its last hand."""
    match = rk.Match.new(rk.Rules.parse(rules), players, seed=seed)
    bots, rngs = [make_bot("greedy") for _ in range(players)], [random.Random(s) for s in range(players)]
    while not match.is_over:
        match.apply(match_action(bots[match.to_move], match, rngs[match.to_move]))
    return match, match.rounds[-1]


def test_the_audited_match_ends_on_minus_points_no_score_shows() -> None:
    match, _ = played(WINNER_GETS_SUM)
    assert match.totals == (218, 127, 81) and match.scores == (-185, 1, 184)
    score = screen.match_scoreboard(match)
    assert score.minus == (218, 127, 81) and score.limit == 200
    assert score.totals == (-185, 1, 184)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_score_table_and_the_match_over_line_show_the_minus_points_and_the_limit(lang: str) -> None:
    match, last = played(WINNER_GETS_SUM)
    score = screen.match_scoreboard(match)
    lines = printed(screen.result_table(last.view(0), NAMES[lang], score, lang=lang))
    header = next(line for line in lines if line.split()[0] in ("player", "Spieler"))
    assert header.endswith(("minus of 200", "Minus von 200"))
    first, second, third = (next(line for line in lines if line.startswith(n)) for n in NAMES[lang])
    if lang == "en":
        assert first.endswith("-185   218 reached")
        assert second.endswith("1  127, 73 left") and third.endswith("184  81, 119 left")
    else:
        assert first.endswith("-185   218 erreicht")
        assert second.endswith("1   127, noch 73") and third.endswith("184   81, noch 119")
    over = " ".join(printed(screen.winners_text(match.winners, NAMES[lang], score, lang)))
    if lang == "en":
        said = "(scores You -185, Bot 2 1, Bot 3 184; minus points You 218, Bot 2 127, Bot 3 81, limit 200)"
    else:
        said = "(Punkte: Du -185, Bot 2 1, Bot 3 184; Minuspunkte: Du 218, Bot 2 127, Bot 3 81, Grenze 200)"
    assert over.startswith(("Match over: Bot 3 wins", "Partie beendet: Bot 3 gewinnt")) and said in over


@pytest.mark.parametrize("lang", ["en", "de"])
def test_where_the_scores_are_the_minus_points_the_match_over_line_names_only_the_limit(lang: str) -> None:
    match, _ = played("german(match_end=penalty_limit,penalty_limit=100)", seed=1)
    assert match.scores == tuple(-p for p in match.totals) and max(match.totals) >= 100
    score = screen.match_scoreboard(match)
    over = " ".join(printed(screen.winners_text(match.winners, NAMES[lang], score, lang)))
    assert over.endswith(("; limit 100 minus points)", "; Grenze: 100 Minuspunkte)")), over


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("players", [3, 6])
def test_the_board_with_the_minus_points_fits_80_by_24(lang: str, players: int) -> None:
    """Six players with names of 40 characters: a name is cut, never a score or the minus points."""
    rules = rk.Rules.parse("german(match_end=penalty_limit,penalty_limit=2000)")
    match = rk.Match.new(rules, players, seed=1)
    names = tuple(f"Wilhelmine-Charlotte von Hohenzollern {s + 1}" for s in range(players))
    score = dataclasses.replace(
        screen.match_scoreboard(match),
        minus=(1999, 1000, 20, 0, 2000, 1500)[:players],
        totals=(-1999, -1000, -20, 0, -2000, -1500)[:players],
    )
    view = match.round.view(0)
    board = screen.Board(
        view=view,
        names=names,
        score=score,
        hands={0: screen.sorted_hand(view.hand, "suit")},
        log=[f"Bot 2 move {i}" for i in range(10)],
        status="…",
        lang=lang,
    )
    lines = printed(screen.render_board(board))
    assert len(lines) <= 23 and all(cell_len(line) <= 80 for line in lines)
    table = lines[1 : players + 2]
    assert table[0].endswith(("minus of 2000", "Minus von 2000"))
    assert table[1].endswith(("-1999     1999, 1 left", "-1999     1999, noch 1"))
    assert table[2].endswith(("-1000  1000, 1000 left", "-1000  1000, noch 1000"))
    if players == 6:
        assert table[5].endswith(("-2000     2000 reached", "-2000    2000 erreicht"))
    assert "Wilhelmine-Charlotte von Hohe… " in table[1]
    # The score table after the hand: a long name is cut before the winner's mark, which stays.
    rnd = match.round
    bot, rng = make_bot("greedy"), random.Random(1)
    while not rnd.is_over:
        match.apply(match_action(bot, match, rng))
    result = printed(screen.result_table(rnd.view(0), names, score, lang=lang))
    assert all(cell_len(line) <= 80 for line in result)
    assert sum("★" in line for line in result) == 1
    assert any(line.endswith(("-1999     1999, 1 left", "-1999     1999, noch 1")) for line in result)


def test_other_match_ends_show_no_column_of_minus_points() -> None:
    for rules in ("german", "german(match_end=single_hand)", "viennese"):
        match = rk.Match.new(rk.Rules.parse(rules), 3, seed=0)
        score = screen.match_scoreboard(match)
        assert score.minus is None and score.limit is None
        view = match.round.view(0)
        board = screen.Board(view=view, names=NAMES["en"], score=score)
        assert "minus of" not in "\n".join(printed(screen.render_board(board)))
