"""The terminal's status line of the seat to move (``rummykit.cli.prompts``), for the states a
whole game does not always pass through: the buy-back offer of a rubber and gin's phases."""

from __future__ import annotations

import random

import rummykit as rk
from rummykit.actions import BuyBack
from rummykit.bots import GreedyBot
from rummykit.cli.prompts import GIN_PROMPTS, is_quit, turn_prompt
from rummykit.views import Phase


def test_the_buy_back_offer_names_the_score_the_total_and_the_price() -> None:
    bot, rng = GreedyBot(), random.Random(2)
    for seed in range(20):
        match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=seed)
        while not match.is_over and BuyBack() not in match.legal_actions():
            match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
        if not match.is_over:
            break
    assert BuyBack() in match.legal_actions()
    seat = match.to_move
    score, total, cost = match.scores[seat], match.totals[seat], match.rules.buyback_cost
    english = turn_prompt(match, seat, None, "en").plain
    assert english == (
        f"Your score is {score} ({total} bad points): buy back for {cost} chips? buyback / decline"
    )
    german = turn_prompt(match, seat, "Ben", "de").plain
    assert german == (
        f"Stand von Ben ist {score} ({total} Schlechtpunkte): für {cost} Chips zurückkaufen? "
        "buyback / decline"
    )


def test_gin_prompts_follow_the_phase_in_both_languages() -> None:
    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    assert match.round.phase is Phase.FIRST_UPCARD
    first = turn_prompt(match, match.to_move, None, "en").plain
    assert first == "Your turn: take the upcard (t) or pass   help · hint · quit" and len(first) <= 80
    both_passed = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    both_passed.apply("pass")
    both_passed.apply("pass")
    assert turn_prompt(both_passed, both_passed.to_move, None, "en").plain == (
        "Your turn: both passed on the upcard: draw (d)   help · hint · quit"
    )
    german = turn_prompt(both_passed, both_passed.to_move, None, "de").plain
    assert "beide haben gepasst: ziehen (d)" in german
    match.apply("take")
    assert match.round.phase is Phase.DISCARD
    assert turn_prompt(match, match.to_move, None, "de").plain == (
        f"Dein Zug: {GIN_PROMPTS[Phase.DISCARD][1]}   hilfe · tipp · ende"
    )
    # With a name the line would pass 80 columns: the reminder of the commands goes.
    assert turn_prompt(match, match.to_move, "Ann", "de").plain == (
        f"Ann ist dran: {GIN_PROMPTS[Phase.DISCARD][1]}"
    )


def test_every_quit_word_stops_and_nothing_else_does() -> None:
    assert all(is_quit(word) for word in ("quit", " Q ", "exit", "ende", "beenden"))
    assert not any(is_quit(word) for word in ("", "help", "quite", "d"))


def test_every_gin_prompt_fits_an_80_column_line() -> None:
    """The line is "Your turn: <what>   help · hint · quit"; a longer one wrapped its keys onto a line
    of their own."""
    from rummykit.cli.prompts import GIN_OTHER_PHASES

    for en, de in [*GIN_PROMPTS.values(), GIN_OTHER_PHASES]:
        assert len(f"Your turn: {en}   help · hint · quit") <= 80, en
        assert len(f"Dein Zug: {de}   hilfe · tipp · ende") <= 80, de
