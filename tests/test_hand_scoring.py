"""Hand scoring of the melding games (RULES.md §3.14): ``losers_penalty``, ``winner_collects`` and
``winner_gets_sum``, from one hand's score to the match's winners."""

from __future__ import annotations

import random

import pytest

import rummykit as rk
from rummykit import Rules, parse_cards
from rummykit.bots import make_bot
from rummykit.bots.base import match_action
from rummykit.errors import RulesError
from rummykit.scoring import going_out

LOSERS = [(), parse_cards("AS JK 7D KC"), parse_cards("5H")]  # 58 and 5 in the German game


@pytest.mark.parametrize(
    ("scoring", "penalties", "gains"),
    [
        ("losers_penalty", (0, 58, 5), (0, 0, 0)),
        ("winner_collects", (0, 0, 0), (63, 0, 0)),
        ("winner_gets_sum", (0, 58, 5), (63, 0, 0)),
    ],
)
def test_one_hand(scoring: str, penalties: tuple[int, ...], gains: tuple[int, ...]) -> None:
    """§3.14: under winner_gets_sum the winner *additionally* records the sum of all penalties."""
    rules = Rules.preset("german").replace(hand_scoring=scoring)
    score = going_out(rules, LOSERS, winner=0, hand_romme=False)
    assert (score.penalties, score.gains) == (penalties, gains)
    doubled = going_out(rules, LOSERS, winner=0, hand_romme=True)
    assert doubled.penalties == tuple(2 * p for p in penalties) and doubled.gains == tuple(
        2 * g for g in gains
    )


def test_winner_gets_sum_is_a_melding_rule() -> None:
    with pytest.raises(RulesError, match="does not score a knock game"):
        Rules.preset("viennese").replace(hand_scoring="winner_gets_sum")
    assert str(Rules.parse("german(hand_scoring=winner_gets_sum)")) == "german(hand_scoring=winner_gets_sum)"


def test_a_match_under_winner_gets_sum_is_won_on_plus_less_minus() -> None:
    rules = Rules.preset("german").replace(hand_scoring="winner_gets_sum", num_hands=4)
    m = rk.Match.new(rules, players=3, seed=5)
    bot = make_bot("greedy")
    rng = random.Random(5)
    scored = 0
    while not m.is_over:
        before = m.scores
        hand = m.round
        while not hand.is_over:
            m.apply(match_action(bot, m, rng))
        result = hand.result
        if result.scored:
            scored += 1
            assert result.gains[result.winner] == sum(result.penalties) > 0
            assert result.points == tuple(g - p for g, p in zip(result.gains, result.penalties, strict=True))
        assert m.scores == tuple(b + p for b, p in zip(before, result.points, strict=True))
    assert scored >= 1 and sum(m.scores) >= 0
    assert m.winners == tuple(s for s in range(3) if m.scores[s] == max(m.scores))
