"""Gin's end-of-game bonuses (``box_bonus``, ``game_bonus``, ``shutout_doubles``): a gin game to a
target score pays them once its winner is decided, so they change the margin, never the winner; they
are added to ``Match.gains`` and kept in ``Match.bonuses``. Elsewhere the options are refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rummykit as rk
from rummykit.bots import GreedyBot
from rummykit.envs.game import TokenGame, most_game_bonus, worst_hand_points, worst_match_points
from rummykit.explain import explain
from rummykit.i18n import localize_error
from rummykit.testing import arrange_deck
from rummykit.web.houserules import house_rules
from rummykit.web.protocol import match_json

GIN = rk.Rules.preset("gin")
TARGET = 30

KNOCKER_GIN = (
    ["AH 2H 3H 5C 5D 5S 9C 10C JC QC", "2C 3C 4C 6D 7D 8D 6H 7H 9S KS"],
    ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC QC", "pass"),
    ("meld 2C 3C 4C", "meld 6D 7D 8D", "pass"),
)
"""Seat 0 takes the upcard and goes gin; seat 1 keeps 6H 7H 9S KS: 32 + the gin bonus 25 = 57."""

DEFENDER_UNDERCUTS = (
    ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 5H"],
    ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"),
    ("layoff 5H", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H", "pass"),
)
"""Seat 0 knocks with 4 (4D); seat 1 lays off and keeps nothing: an undercut, 4 + 25 = 29 to seat 1."""


def rules(**options: Any) -> rk.Rules:
    return GIN.replace(match_end="target_score", target_score=TARGET, **options)


def last_hand(
    gains: tuple[int, int] = (0, 0),
    hands_won: tuple[int, int] | None = None,
    deal: tuple[list[str], tuple[str, ...], tuple[str, ...]] = KNOCKER_GIN,
    **options: Any,
) -> rk.Match:
    """A gin game started from ``gains`` (plus points) and ``hands_won``, whose arranged first hand
    takes a seat past the target."""
    hands, knocker, defender = deal
    table = rules(**options)
    deck = arrange_deck(table, 2, hands, dealer=1, upcard="KD")
    position = rk.MatchPosition(totals=(0, 0), gains=gains, hands_won=hands_won)
    match = rk.Match.new(table, 2, seed=1, dealer=1, deck=deck, position=position)
    for move in (*knocker, *defender):
        assert not match.is_over and match.bonuses == [0, 0]
        match.apply(move)
    assert match.is_over
    return match


def test_without_bonuses_the_game_ends_as_before() -> None:
    match = last_hand()
    assert match.rounds[0].result is not None and match.rounds[0].result.points == (57, -57)
    assert match.gains == [57, 0] and match.bonuses == [0, 0] and match.winners == (0,)
    assert match.hands_won == [1, 0] and match.scores == (57, -57)


def test_the_box_bonus_pays_every_player_for_each_hand_won() -> None:
    match = last_hand(gains=(20, 15), hands_won=(2, 1), box_bonus=25)
    assert match.hands_won == [3, 1]
    assert match.bonuses == [75, 25]
    assert match.gains == [20 + 57 + 75, 15 + 25] and match.scores == (152, 40 - 57)
    assert match.winners == (0,)


def test_the_game_bonus_goes_to_the_winner_only() -> None:
    match = last_hand(gains=(20, 15), hands_won=(2, 1), game_bonus=100)
    assert match.bonuses == [100, 0] and match.gains == [177, 15] and match.winners == (0,)


def test_the_bonuses_never_change_the_winner() -> None:
    """Seat 1 won five small hands, seat 0 one big one that reached the target: with the box bonus
    seat 1 ends with more points, but seat 0 won the game."""
    match = last_hand(gains=(0, 25), hands_won=(0, 5), box_bonus=25)
    assert match.gains == [57 + 25, 25 + 125] and match.gains[1] > match.gains[0]
    assert match.winners == (0,) and match.winner == 0


def test_a_shutout_doubles_the_winners_total_with_its_bonuses() -> None:
    match = last_hand(box_bonus=25, game_bonus=100, shutout_doubles=True)
    assert match.gains == [2 * (57 + 25 + 100), 0] and match.bonuses == [364 - 57, 0]
    assert last_hand(shutout_doubles=True).gains == [114, 0]


def test_no_shutout_when_the_loser_won_a_hand() -> None:
    match = last_hand(gains=(20, 15), hands_won=(2, 1), game_bonus=100, shutout_doubles=True)
    assert match.bonuses == [100, 0] and match.gains == [177, 15]


def test_an_undercut_is_a_hand_won_by_the_defender() -> None:
    match = last_hand(
        gains=(0, 10), hands_won=(0, 1), deal=DEFENDER_UNDERCUTS, box_bonus=25, shutout_doubles=True
    )
    assert match.rounds[0].result is not None and match.rounds[0].result.points == (-29, 29)
    assert match.winners == (1,) and match.hands_won == [0, 2]
    assert match.gains == [0, 2 * (39 + 50)] and match.bonuses == [0, 39 + 100]


def test_the_bonuses_are_itemised_as_score_sheets_list_them() -> None:
    """Box bonus per hand won, the game bonus and what the shutout's doubling added, per seat; their
    sum is the seat's bonus. Zeros while the game runs."""
    match = last_hand(gains=(20, 15), hands_won=(2, 1), box_bonus=25, game_bonus=100)
    assert match.bonus_parts() == (rk.BonusParts(3, 75, 100, 0), rk.BonusParts(1, 25, 0, 0))
    shutout = last_hand(gains=(20, 0), hands_won=(2, 0), box_bonus=25, game_bonus=100, shutout_doubles=True)
    assert shutout.bonus_parts() == (rk.BonusParts(3, 75, 100, 20 + 57 + 75 + 100), rk.BonusParts(0, 0, 0, 0))
    assert [sum((p.box, p.game, p.shutout)) for p in shutout.bonus_parts()] == shutout.bonuses
    running = rk.Match.new(rules(box_bonus=25), 2, seed=3)
    assert running.bonus_parts() == (rk.BonusParts(0, 0, 0, 0),) * 2


def test_match_json_sends_the_bonuses() -> None:
    match = last_hand(gains=(20, 15), hands_won=(2, 1), box_bonus=25)
    sent = match_json(match)
    assert sent["bonuses"] == [75, 25] and sent["gains"] == [152, 40]
    assert sent["bonus_parts"] == [
        {"hands_won": 3, "box": 75, "game": 0, "shutout": 0},
        {"hands_won": 1, "box": 25, "game": 0, "shutout": 0},
    ]
    fresh = rk.Match.new(rules(box_bonus=25), 2, seed=3)
    assert match_json(fresh)["bonuses"] == [0, 0]


def test_a_position_with_plus_points_must_say_the_hands_won() -> None:
    with pytest.raises(rk.RulesError, match="seat 0 has plus points but won no hand") as refused:
        rk.Match.new(rules(box_bonus=25), 2, seed=1, position=rk.MatchPosition((0, 0), gains=(20, 0)))
    assert "hat Pluspunkte, aber kein Spiel gewonnen" in localize_error(refused.value, "de")
    position = rk.MatchPosition((0, 0), gains=(20, 0), hands_won=(1, 0))
    assert rk.Match.new(rules(box_bonus=25), 2, seed=1, position=position).hands_won == [1, 0]
    assert position.to_dict()["hands_won"] == [1, 0]
    rk.Match.new(rules(), 2, seed=1, position=rk.MatchPosition((0, 0), gains=(20, 0)))  # no bonus: no need


@pytest.mark.parametrize("seed", range(4))
def test_bot_games_pay_the_bonuses_by_the_hands_won(seed: int) -> None:
    """Whole games between greedy bots: the winner is the seat with the most points before the
    bonuses, and each seat's bonus follows the hands it won."""
    table = rules(box_bonus=25, game_bonus=100, shutout_doubles=True)
    match = rk.Match.new(table, 2, seed=seed)
    rng, bot = random.Random(seed), GreedyBot()
    while not match.is_over:
        match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
    won = [0, 0]
    points = [0, 0]
    for rnd in match.rounds:
        if rnd.result is not None and rnd.result.scored:
            for s in range(2):
                won[s] += rnd.result.points[s] > 0
                points[s] += rnd.result.gains[s]
    assert match.hands_won == won and max(points) >= TARGET
    assert match.winners == tuple(s for s in range(2) if points[s] == max(points))
    for s in range(2):
        bonus = 25 * won[s]
        if s in match.winners:
            bonus += 100
            if not won[1 - s]:
                bonus += points[s] + bonus
        assert match.bonuses[s] == bonus and match.gains[s] == points[s] + bonus


def test_the_options_are_refused_outside_a_gin_game_to_a_target_score() -> None:
    for option, value in (("box_bonus", 25), ("game_bonus", 100), ("shutout_doubles", True)):
        with pytest.raises(rk.RulesError, match=f"{option}: does not apply") as single:
            GIN.replace(**{option: value})
        assert single.value.option == option
        assert str(single.value).endswith("only match_end = target_score uses it")
        assert localize_error(single.value, "de").endswith("nur match_end = target_score nutzt sie")
        with pytest.raises(rk.RulesError) as basic:
            rk.Rules.preset("basic").replace(**{option: value})  # to a target score, but not gin
        assert str(basic.value).endswith("only gin (hand_scoring = gin_difference) uses it")
        assert localize_error(basic.value, "de").endswith("nur Gin (hand_scoring = gin_difference) nutzt sie")
        assert getattr(rules(**{option: value}), option) == value
    with pytest.raises(rk.RulesError, match="box_bonus: must be between 0 and 100"):
        rules(box_bonus=101)
    with pytest.raises(rk.RulesError, match="game_bonus: must be between 0 and 500"):
        rules(game_bonus=501)
    text = "gin(match_end=target_score, target_score=100, box_bonus=25, game_bonus=100, shutout_doubles=true)"
    parsed = rk.Rules.parse(text)
    assert (parsed.box_bonus, parsed.game_bonus, parsed.shutout_doubles) == (25, 100, True)
    assert rk.Rules.parse(str(parsed)) == parsed


def test_the_rules_page_says_the_bonuses_set_and_those_not_played() -> None:
    none = explain(rules(), "en")
    assert "Some rule books' bonuses are not played: none per hand won (box), none for the game" in none
    assert "Boni mancher Regelwerke gibt es nicht: keinen pro gewonnenem Spiel (Box)" in explain(
        rules(), "de"
    )
    box = explain(rules(box_bonus=25), "en")
    assert "When the match ends, everybody gets 25 points for each hand they won (box)." in box
    assert "they change the margin, never the winner" in box
    assert (
        "The rule books' other bonuses are not played: none for the game, no doubling for a shutout." in box
    )
    every = rules(box_bonus=25, game_bonus=100, shutout_doubles=True)
    english, german = explain(every, "en"), explain(every, "de")
    assert "the winner gets 100 points and the winner's total, bonuses included, is doubled" in english
    assert "bonuses are not played" not in english
    assert (
        "Am Ende der Partie: jeder bekommt 25 Punkte für jedes gewonnene Spiel (Box), der Sieger " in german
    )
    assert "bekommt 100 Punkte und der Stand des Siegers wird samt Boni verdoppelt" in german
    assert "Sie ändern den Abstand, nie den Sieger." in german and "Boni der Regelwerke" not in german


def test_the_lobby_offers_the_bonuses_once_gin_plays_to_a_target_score() -> None:
    gin = {c["option"]: c for c in house_rules()["gin"]}
    order = list(gin)
    at = order.index("target_score")
    assert order[at + 1 : at + 4] == ["box_bonus", "game_bonus", "shutout_doubles"]
    for option, kind, value in (
        ("box_bonus", "int", 0),
        ("game_bonus", "int", 0),
        ("shutout_doubles", "bool", False),
    ):
        control = gin[option]
        assert control["kind"] == kind and control["value"] == value
        assert {"option": "match_end", "value": "single_hand"} in control["unused_when"]
        assert {"option": "match_end", "value": "target_score"} not in control["unused_when"]
    assert (gin["box_bonus"]["min"], gin["box_bonus"]["max"]) == (0, 100)
    assert gin["game_bonus"]["max"] == 500
    assert gin["box_bonus"]["label"]["de"] == "Bonus je gewonnenem Spiel am Ende (Punkte)"
    for name in rk.PRESET_NAMES:
        if name != "gin":
            assert "box_bonus" not in [c["option"] for c in house_rules()[name]]


def test_the_margin_bound_makes_room_for_the_bonuses() -> None:
    """A seat's match reward never falls below the environments' bound: the others' bonuses raise
    their mean, and gin's minus points to a target score add up over the hands."""
    plain, every = rules(), rules(box_bonus=25, game_bonus=100, shutout_doubles=True)
    hand = -worst_hand_points(every)
    assert most_game_bonus(plain) == 0 and most_game_bonus(GIN) == 0
    assert most_game_bonus(every) == 2 * (25 * TARGET + 100) + TARGET - 1 + hand
    assert worst_match_points(every, 2) == -hand - 2 * (TARGET - 1)
    margin = TokenGame(every, 2, scope="match", reward="margin").default_illegal_reward
    assert margin == 3 * worst_match_points(every, 2) - TARGET - most_game_bonus(every) - 1
    shutout = last_hand(box_bonus=25, game_bonus=100, shutout_doubles=True)
    assert shutout.scores[1] - shutout.scores[0] > margin


def test_the_terminal_shows_the_points_won_and_the_bonuses_paid() -> None:
    """The terminal's score column of a game to a target score counts the points won (as the rules
    do), and the end of the match names the bonuses its totals include."""
    from rummykit.cli.screen import match_scoreboard, winners_text

    match = last_hand(gains=(20, 15), hands_won=(2, 1), box_bonus=25, game_bonus=100)
    board = match_scoreboard(match)
    assert board.totals == (20 + 57 + 75 + 100, 15 + 25) and board.total_label == "points won"
    assert board.bonuses == (175, 25)
    text = winners_text(match.winners, ["Ann", "Bob"], board).plain
    assert text == (
        "Match over: Ann wins the match (scores Ann 252, Bob 40); bonuses included: Ann 175, Bob 25"
    )
    german = winners_text(match.winners, ["Ann", "Bob"], board, "de").plain
    assert german.endswith("(Punkte: Ann 252, Bob 40); darin Boni: Ann 175, Bob 25")
    plain = match_scoreboard(last_hand())
    assert plain.bonuses is None and plain.totals == (57, 0)


def test_the_terminal_s_hand_result_gives_each_the_points_won() -> None:
    """After a hand of a game to a target score the terminal's hand column shows the points won, as
    the points-won column adds them: the loser 0, not the knocker's points with a minus; a single
    hand keeps the zero-sum points (OpenSpiel's returns)."""
    from rich.console import Console

    from rummykit.cli.screen import match_scoreboard, result_table

    def rows(match: rk.Match) -> list[list[str]]:
        console = Console(width=100, record=True, color_system=None)
        view = match.rounds[-1].view(0)
        console.print(result_table(view, ["Ann", "Bob"], match_scoreboard(match)))
        lines = console.export_text().splitlines()
        return [line.split() for line in lines if line.startswith(("Ann", "Bob")) and " scores " not in line]

    game = last_hand(gains=(20, 15), hands_won=(2, 1))
    assert [r[-2:] for r in rows(game)] == [["57", "77"], ["0", "15"]]
    deck = arrange_deck(GIN, 2, KNOCKER_GIN[0], dealer=1, upcard="KD")
    single = rk.Match.new(GIN, 2, seed=1, dealer=1, deck=deck)
    for move in (*KNOCKER_GIN[1], *KNOCKER_GIN[2]):
        single.apply(move)
    assert [r[-2:] for r in rows(single)] == [["57", "57"], ["-57", "-57"]]
