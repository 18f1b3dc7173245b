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
    # A knock limit on a melding game makes it a knock game: the refusal says so (it named only the
    # scoring, which the player had not touched).
    with pytest.raises(RulesError, match=r"knock_threshold 5 makes this one .* knock_threshold=none"):
        Rules.preset("german").replace(knock_threshold=5)


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


def _basic_round(own: str, stock: str) -> rk.Round:
    from rummykit.testing import arrange_deck

    basic = Rules.preset("basic")
    other = "2H 3H 4H 2C 6C 10C 3D 7D JD 4S"
    deck = arrange_deck(basic, 2, [own, other], dealer=0, upcard="9S", stock=stock)
    return rk.Round.new(basic, 2, deck=deck, dealer=0, seed=1)


def test_basic_rummy_is_the_whole_hand_put_down_in_one_turn() -> None:
    """RULES.md §5.3: going out in one turn without earlier melds doubles the haul. In Basic anyone
    may lay off, so a hand laid off whole in one turn is a rummy (the engine counted only an opening
    and going out in one turn), and a hand that laid off a card before is not (the engine doubled it
    when the rest was melded in one turn)."""
    own = ("AH", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")
    rnd = _basic_round(" ".join(own), "8S 5C")
    laid_off = [f"layoff {c} on 1" for c in own]
    for move in ["draw", "open 2H 3H 4H", "discard 8S", "draw", *laid_off, "discard 5C"]:
        rnd.apply(move)
    assert rnd.result is not None and rnd.result.winner == 0
    assert rnd.result.multiplier == 2 and rnd.result.gains == (84, 0)

    rnd = _basic_round("AH 5H 6H 7H KS KD KC 9C 9D 9H", "8S 5C 2S 3S 4C")
    moves = ["draw", "open 2H 3H 4H", "discard 8S", "draw", "layoff AH on 1", "discard 5C", "draw"]
    moves += ["discard 2S", "draw", "open 5H 6H 7H | KS KD KC", "meld 9C 9D 9H", "discard 3S"]
    for move in moves:
        rnd.apply(move)
    assert rnd.result is not None and rnd.result.winner == 0
    assert rnd.result.multiplier == 1 and rnd.result.gains == (42, 0)


def test_the_opening_minimum_is_waived_only_for_a_hand_romme() -> None:
    """``hand_romme_requires_opening_min = false`` waives the minimum for an opening that goes out as
    a Hand-Rommé. Where a lay-off may come before the opening, a seat that laid off earlier goes out
    without a Hand-Rommé, so its opening below the minimum is refused (and not offered); it was
    accepted and scored single."""
    from rummykit.actions import Open
    from rummykit.errors import OpeningError
    from rummykit.testing import arrange_deck

    rules = Rules.preset("german").replace(
        layoff_requires_opened=False, hand_romme_requires_opening_min=False, hand_size=7
    )
    own, other = "2C 3C 4C KC 5S 6S 7S", "KH KS KD QH QS QD 8H"
    deck = arrange_deck(rules, 2, [own, other], dealer=0, upcard="9S", stock="2H 9D 3H 10D 4H 8C")
    def played(*moves: str) -> rk.Round:
        rnd = rk.Round.new(rules, 2, deck=deck, dealer=0, seed=1)
        for move in moves:
            rnd.apply(move)
        return rnd

    opened = ("draw", "open KH KS KD | QH QS QD", "discard 2H", "draw")
    rnd = played(*opened, "layoff KC on 1", "discard 9D", "draw", "discard 3H", "draw")
    assert not any(isinstance(a, Open) for a in rnd.legal_actions())
    with pytest.raises(OpeningError, match="cannot open with 27 points: opening_min_points is 40"):
        rnd.apply("open 2C 3C 4C | 5S 6S 7S")
    # The lay-off in the same turn as the opening: the whole hand goes down in one turn, a Hand-Rommé
    # below the minimum, doubled.
    rnd = played(*opened, "discard 9D", "draw", "discard 3H", "draw", "layoff KC on 1")
    assert any(isinstance(a, Open) for a in rnd.legal_actions())
    rnd.apply("open 2C 3C 4C | 5S 6S 7S")
    rnd.apply("discard 10D")
    assert rnd.result is not None and rnd.result.winner == 0 and rnd.result.multiplier == 2
