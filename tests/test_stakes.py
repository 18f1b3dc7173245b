"""Match stakes: the search weighs a hand's results by what they do to the match."""

from __future__ import annotations

import random
from collections.abc import Sequence

import rummykit as rk
from rummykit.actions import Action, Knock
from rummykit.bots import match_action
from rummykit.bots.base import MatchView
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.search import Budget
from rummykit.bots.stakes import MATCH_BONUS, Stakes, lead_equity
from rummykit.match import MatchPosition
from rummykit.testing import arrange_deck
from rummykit.views import PlayerView

VIENNESE = rk.Rules.preset("viennese")
GERMAN = rk.Rules.preset("german")


def _view(rules: rk.Rules, totals: tuple[int, ...], seat: int = 0, hands_dealt: int = 0) -> MatchView:
    position = MatchPosition(totals=totals, hands_dealt=hands_dealt)
    return MatchView.of(rk.Match.new(rules, len(totals), seed=1, dealer=0, position=position), seat)


def test_match_view_counts_the_hands_left_of_a_series() -> None:
    assert _view(GERMAN, (0, 0)).hands_left == 1  # heads-up: two hands, the first being played
    last = _view(GERMAN, (10, 40), hands_dealt=1)
    assert last.hands_left == 0 and last.scores == (-10, -40)
    assert _view(VIENNESE, (0, 0)).hands_left is None


def test_only_a_decisive_hand_has_stakes() -> None:
    assert Stakes.of(_view(GERMAN, (0, 0))) is None  # a hand still to come: play for points
    assert Stakes.of(_view(GERMAN, (10, 40), hands_dealt=1)) is not None
    assert Stakes.of(_view(rk.Rules.parse("german(match_end=single_hand)"), (0, 0))) is None
    rubber = Stakes.of(_view(VIENNESE, (20, 30, 40), seat=1))
    assert rubber is not None and rubber.others == (2, 0)  # turn order from the next seat


def test_the_last_hand_is_worth_the_match_not_its_points() -> None:
    stakes = Stakes.of(_view(GERMAN, (10, 40), hands_dealt=1))  # seat 0 leads by 30
    assert stakes is not None
    assert stakes.hand_term({0: -25.0, 1: 0.0}) == MATCH_BONUS  # loses the hand by 25: still first
    assert stakes.hand_term({0: -35.0, 1: 0.0}) == 0.0  # by 35: second
    assert stakes.hand_term({0: -30.0, 1: 0.0}) == MATCH_BONUS / 2  # level: the win is shared
    behind = Stakes.of(_view(GERMAN, (10, 40), seat=1, hands_dealt=1))
    assert behind is not None
    assert behind.hand_term({0: -20.0, 1: 0.0}) == 0.0  # going out is not enough
    assert behind.hand_term({0: -31.0, 1: 0.0}) == MATCH_BONUS


def test_a_rubber_showdown_is_worth_its_eliminations() -> None:
    stakes = Stakes.of(_view(VIENNESE, (95, 60)))
    assert stakes is not None
    assert stakes.showdown_term(4, [20]) == 0.0  # 99 and 80: the rubber goes on
    assert stakes.showdown_term(6, [20]) == -MATCH_BONUS  # 101: out, the opponent is not
    assert stakes.showdown_term(4, [41]) == MATCH_BONUS  # the opponent reaches 101
    assert stakes.showdown_term(8, [50]) == MATCH_BONUS  # both out: 103 against 110, lowest wins
    assert stakes.showdown_term(8, [43]) == MATCH_BONUS / 2  # 103 each


def test_a_rubber_race_is_home_only_by_a_knock_that_keeps_the_seat_in() -> None:
    assert VIENNESE.knock_threshold == 5 and VIENNESE.knock_comparison == "lt"
    far = Stakes.of(_view(VIENNESE, (90, 0)))
    assert far is not None and far.race_rules(VIENNESE) is VIENNESE
    near = Stakes.of(_view(VIENNESE, (98, 0)))
    assert near is not None and near.race_rules(VIENNESE).knock_threshold == 3  # 98 + 2 = 100 stays in
    le = VIENNESE.replace(knock_comparison="le", knock_threshold=4)
    assert near.race_rules(le).knock_threshold == 2
    at_edge = Stakes.of(_view(VIENNESE, (100, 0)))
    assert at_edge is not None and at_edge.race_rules(VIENNESE).knock_threshold == 0  # 0 < d < 1: Rummy only
    assert at_edge.race_rules(le).knock_threshold == 0  # d <= 0: Rummy only, under either comparison


KNOCKER = "2H 3H 4H 5C 5D 5S 9S 10S JS 2D"  # deadwood 2 once the dealer's 11th card is discarded


def _dealer_at(totals: tuple[int, int]) -> rk.Match:
    """A heads-up rubber whose dealer (seat 0) can knock with 2 left on its first turn."""
    deck = arrange_deck(VIENNESE, 2, [KNOCKER, "3C 7C JC 5D KD 2H 6H 10H 4S 8S"], extra="KC")
    return rk.Match.new(VIENNESE, 2, seed=1, dealer=0, deck=deck, position=MatchPosition(totals=totals))


def _hard() -> IsmctsBot:
    return IsmctsBot(budget=Budget(determinizations=60, horizon=6, candidates=4))


def test_the_search_does_not_knock_itself_out_of_the_rubber() -> None:
    # At 99 a knock with 2 left reaches 101 while the opponent, at 0, stays in: the rubber is lost.
    # Waiting keeps the Rummy (no bad points) the hand has many outs to.
    match = _dealer_at((99, 0))
    assert isinstance(match_action(_hard(), match, random.Random(0)), Knock) is False
    # The same hand for points, or when the opponent at 90 goes out with the knock too (lowest wins).
    assert isinstance(_hard().choose(match.round.view(0), match.legal_actions(), random.Random(0)), Knock)
    assert isinstance(match_action(_hard(), _dealer_at((99, 90)), random.Random(0)), Knock)


def test_the_match_is_shown_for_one_decision() -> None:
    bot = _hard()
    match = _dealer_at((99, 0))
    bot.follow_match(MatchView.of(match, 0))
    bot.choose(match.round.view(0), match.legal_actions(), random.Random(0))
    assert bot.stakes is not None
    bot.choose(match.round.view(0), match.legal_actions(), random.Random(0))
    assert bot.stakes is None  # a later decision without the match is played for points
    points = _hard()
    points.match_aware = False
    points.follow_match(MatchView.of(match, 0))
    points.choose(match.round.view(0), match.legal_actions(), random.Random(0))
    assert points.stakes is None


class _Recorder:
    name = "recorder"

    def __init__(self) -> None:
        self.shown: list[MatchView] = []

    def follow_match(self, mv: MatchView) -> None:
        self.shown.append(mv)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        assert self.shown and self.shown[-1].seat == view.seat
        return legal[0]


def test_match_action_shows_the_match_before_each_round_decision() -> None:
    match = rk.Match.new(GERMAN, 2, seed=4)
    bot = _Recorder()
    for _ in range(5):
        match.apply(match_action(bot, match, random.Random(0)))
    assert len(bot.shown) == 5 and all(mv.hands_left == 1 for mv in bot.shown)


def test_the_search_values_a_last_hand_play_out_by_the_series() -> None:
    bot = _hard()
    hand = {0: -25.0, 1: 0.0}  # seat 0 loses the hand by 25 points
    assert bot.utility(hand, 0) < 0  # for points: a lost hand
    bot.stakes = Stakes.of(_view(GERMAN, (10, 40), hands_dealt=1))  # but it leads the series by 30
    assert bot.utility(hand, 0) > 0
    bot.stakes = Stakes.of(_view(GERMAN, (40, 10), hands_dealt=1))  # behind by 30: lost twice over
    assert bot.utility(hand, 0) < 0


def test_a_lead_before_the_last_hand_is_worth_the_chance_it_gives() -> None:
    assert lead_equity(0) == 0.5 and lead_equity(1) == 0.5  # every lost hand costs 2 or more
    assert lead_equity(9) == 0.75 and lead_equity(40) == 0.95 and lead_equity(500) == 1.0
    assert all(lead_equity(x) + lead_equity(-x) == 1.0 for x in (3, 7, 25, 100))
    gains = [lead_equity(x + 10) - lead_equity(x) for x in (0, 20, 40, 80)]
    assert gains == sorted(gains, reverse=True)  # the first points of a lead are worth the most


def test_the_hand_before_the_last_is_weighed_by_the_lead_it_leaves() -> None:
    first = _view(GERMAN, (0, 0))
    assert Stakes.of(first) is None  # without lead_equity: played for points
    stakes = Stakes.of(first, lead_equity=True)
    assert stakes is not None and stakes.one_left and not stakes.last_hand
    assert stakes.hand_term({0: 0.0, 1: -9.0}) == MATCH_BONUS * 0.75
    assert stakes.hand_term({0: -9.0, 1: 0.0}) == MATCH_BONUS * 0.25
    three = _view(GERMAN, (0, 0, 0), hands_dealt=1)
    assert three.hands_left == 1 and Stakes.of(three, lead_equity=True) is None  # heads-up only
    last = Stakes.of(_view(GERMAN, (10, 40), hands_dealt=1), lead_equity=True)
    assert last is not None and last.last_hand and not last.one_left


def _tied_view(rules: str, totals: tuple[int, ...], hands_won: tuple[int, ...], seat: int = 0) -> MatchView:
    parsed = rk.Rules.parse(rules)
    position = MatchPosition(totals=totals, hands_dealt=len(totals) - 1, hands_won=hands_won)
    view = MatchView.of(rk.Match.new(parsed, len(totals), seed=1, dealer=0, position=position), seat)
    assert view.hands_left == 0 and view.hands_won == hands_won
    return view


def test_equal_finals_of_the_last_hand_are_broken_as_the_match_breaks_them() -> None:
    # Level at the end: shared under 'share', the seat with more hands won under most_hands_won (the
    # hand's winner counting one more), the better hand under best_last_hand.
    shared = Stakes.of(_tied_view("german", (10, 40), (1, 0)))
    assert shared is not None and shared.tiebreak == "share"
    assert shared.hand_term({0: -30.0, 1: 0.0}) == MATCH_BONUS / 2
    most = Stakes.of(_tied_view("german(match_tiebreak=most_hands_won)", (10, 40), (1, 0)))
    assert most is not None
    assert most.hand_term({0: -30.0, 1: 0.0}) == MATCH_BONUS / 2  # seat 1 goes out: one hand each
    assert most.hand_term({0: -5.0, 1: -35.0}) == MATCH_BONUS  # nobody out: seat 0's hand decides
    behind = Stakes.of(_tied_view("german(match_tiebreak=most_hands_won)", (10, 40), (0, 0)))
    assert behind is not None and behind.hand_term({0: -30.0, 1: 0.0}) == 0.0
    last = Stakes.of(_tied_view("german(match_tiebreak=best_last_hand)", (10, 40), (1, 0)))
    assert last is not None
    assert last.hand_term({0: -30.0, 1: 0.0}) == 0.0  # level, but seat 1 won this hand
    ahead = Stakes.of(_tied_view("german(match_tiebreak=best_last_hand)", (40, 10), (0, 0)))
    assert ahead is not None and ahead.hand_term({0: 0.0, 1: -30.0}) == MATCH_BONUS


def test_a_seat_sitting_the_last_hand_out_keeps_its_score_in_the_stakes() -> None:
    stakes = Stakes.of(_tied_view("german", (10, 40, 5), (0, 0, 0)))
    assert stakes is not None
    # Seat 2 is not dealt in (its score stands at -5): seat 0 at -35 beats seat 1, not seat 2.
    assert stakes.hand_term({0: -25.0, 1: 0.0}) == 0.0
    assert stakes.hand_term({0: 0.0, 1: -20.0}) == 0.0  # -10 against -5
    leader = Stakes.of(_tied_view("german", (10, 40, 5), (0, 0, 0), seat=2))
    assert leader is not None and leader.hand_term({0: -25.0, 1: 0.0}) == MATCH_BONUS
