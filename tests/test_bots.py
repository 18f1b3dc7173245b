"""Bots: legality over many states, greedy strength against random, search reading only the view."""

from __future__ import annotations

import random

import pytest

import rummykit as rk
from rummykit.actions import BuyBack, Decline
from rummykit.bots import Budget, GreedyBot, MatchView, SearchBot, make_bot, match_action
from rummykit.bots.greedy import Situation, buyback_pays, policy_action, should_take
from rummykit.bots.search import fast_should_take, outcome, pick, play_to_end
from rummykit.determinize import sample_round

PRESETS = ("german", "viennese")
TINY = Budget(determinizations=2, horizon=2, candidates=2)
HAND = Budget(determinizations=3, horizon=0, candidates=2, playout="hand")


def _random_states(preset: str, count: int, seed: int) -> list[rk.Round]:
    """Rounds part-way through random play (a mix of draw, play and discard phases)."""
    rules = rk.Rules.preset(preset)
    rng = random.Random(seed)
    states = []
    for i in range(count):
        rnd = rk.Round.new(rules, players=2 + i % 2, seed=seed * 1000 + i)
        for _ in range(rng.randrange(0, 60)):
            if rnd.is_over:
                break
            rnd.apply(rng.choice(rnd.legal_actions()))
        if not rnd.is_over:
            states.append(rnd)
    return states


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_and_search_return_legal_actions(preset: str) -> None:
    bots = [GreedyBot(), SearchBot(budget=TINY), make_bot("random")]
    for rnd in _random_states(preset, 40, 3):
        legal = rnd.legal_actions()
        for bot in bots:
            assert bot.choose(rnd.view(rnd.to_move), legal, random.Random(1)) in legal


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_beats_random_by_a_wide_margin(preset: str) -> None:
    rules = rk.Rules.preset(preset)
    score = 0.0
    games = 0
    for deal in range(6):
        for greedy_seat in (0, 1):
            rnd = rk.Round.new(rules, players=2, seed=deal)
            bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: make_bot("random")}
            rng = random.Random(deal)
            while not rnd.is_over:
                seat = rnd.to_move
                rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rng))
            assert rnd.result is not None
            mine, theirs = rnd.result.points[greedy_seat], rnd.result.points[1 - greedy_seat]
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            games += 1
    assert score / games >= 0.9


def test_make_bot_knows_greedy_and_search_levels() -> None:
    assert make_bot("greedy").name == "greedy"
    assert make_bot("search").name == "search"
    assert (
        make_bot("search", "hard").budget.determinizations
        > make_bot("search", "easy").budget.determinizations
    )
    assert make_bot("search:easy").name == "search:easy"


@pytest.mark.parametrize("preset", PRESETS)
def test_search_needs_only_the_view(preset: str) -> None:
    """The bot gets a view and nothing else; the real round is never reachable from it."""
    rnd = _random_states(preset, 5, 11)[0]
    view = rnd.view(rnd.to_move)
    legal = rnd.legal_actions()
    real_hands = [tuple(h) for h in rnd.hands]
    bot = SearchBot(budget=TINY)
    a1 = bot.choose(view, legal, random.Random(4))
    a2 = SearchBot(budget=TINY).choose(view, legal, random.Random(4))
    assert a1 == a2 and a1 in legal  # deterministic for a seeded rng
    assert [tuple(h) for h in rnd.hands] == real_hands  # the real round was not touched
    world = sample_round(view, random.Random(0))
    assert tuple(sorted(world.hands[view.seat])) == tuple(sorted(view.hand))


def test_search_prefers_knocking_and_rummy() -> None:
    rules = rk.Rules.preset("viennese")
    for rnd in _random_states("viennese", 60, 5):
        legal = rnd.legal_actions()
        calls = [a for a in legal if isinstance(a, (rk.actions.CallRummy, rk.actions.Knock))]
        if calls and rnd.knocker is None:
            choice = SearchBot(budget=TINY).choose(rnd.view(rnd.to_move), legal, random.Random(0))
            assert type(choice) in (rk.actions.CallRummy, rk.actions.Knock)
    assert rules.is_knock_game


def test_policy_builds_legal_actions_in_playouts() -> None:
    """Without a legal list the greedy policy builds actions the engine accepts."""
    accepted = tried = 0
    for preset in PRESETS:
        for rnd in _random_states(preset, 30, 8):
            action = policy_action(Situation.from_round(rnd), quick=True)
            tried += 1
            accepted += rnd.is_legal(action)
    assert accepted == tried


def test_buyback_decision_reads_match_view() -> None:
    rules = rk.Rules.preset("viennese")
    m = rk.Match.new(rules, players=3, seed=1, position=rk.match.MatchPosition(totals=(90, 40, 30), pot=15))
    mv = MatchView.of(m, 0)
    assert mv.buyback_target == 40 and buyback_pays(mv)
    close = MatchView.of(
        rk.Match.new(rules, players=3, seed=1, position=rk.match.MatchPosition(totals=(90, 88, 30))), 0
    )
    assert close.buyback_target == 88 and not buyback_pays(close)
    assert GreedyBot().choose_match(mv, [BuyBack(), Decline()], random.Random(0)) == BuyBack()


def test_match_action_plays_a_whole_viennese_match() -> None:
    m = rk.Match.new(rk.Rules.preset("viennese"), players=2, seed=3)
    bots = [GreedyBot(), make_bot("random")]
    rng = random.Random(0)
    while not m.is_over:
        m.apply(match_action(bots[m.to_move], m, rng))
    assert m.winners


def test_fast_should_take_decides_as_greedy() -> None:
    """The play-outs' one-call draw decision (knock games) is greedy's own decision."""
    checked = 0
    for rnd in _random_states("viennese", 60, 21):
        s = Situation.from_round(rnd)
        if s.phase is rk.views.Phase.DRAW:
            checked += 1
            assert fast_should_take(s) == should_take(s)
    assert checked >= 10


@pytest.mark.parametrize("preset", PRESETS)
def test_playouts_reach_the_end_of_the_hand(preset: str) -> None:
    for rnd in _random_states(preset, 6, 13):
        world = sample_round(rnd.view(rnd.to_move), random.Random(2))
        play_to_end(world)
        assert world.is_over and world.result is not None
        seat = rnd.to_move
        margin = outcome(world, seat)
        if world.result.scored:
            points = world.result.points
            assert margin == points[seat] - max(points[s] for s in world.active if s != seat)
        else:
            assert margin == 0.0


def test_pick_keeps_greedy_unless_clearly_beaten() -> None:
    greedy = [0.0, 10.0, -5.0, 3.0]
    assert pick([greedy, [1.0, 9.0, -4.0, 2.0]], 1.0) == 0  # mixed: not clearly better
    assert pick([greedy, [5.0, 15.0, 0.0, 9.0]], 1.0) == 1  # better in every sample
    assert pick([greedy, [5.0, 15.0, 0.0, 9.0], [9.0, 19.0, 4.0, 12.0]], 1.0) == 2
    assert pick([greedy, [5.0, 15.0, 0.0, float("-inf")]], 1.0) == 0  # an illegal play-out


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_search_is_deterministic_and_reads_only_the_view(preset: str) -> None:
    """``hand`` play-outs: same view and seed, same choices; the real round is never touched."""
    for rnd in _random_states(preset, 8, 17):
        view = rnd.view(rnd.to_move)
        legal = rnd.legal_actions()
        before = [tuple(h) for h in rnd.hands], list(rnd.stock), len(rnd.history)
        bot = SearchBot(budget=HAND)
        first = bot.choose(view, legal, random.Random(9))
        again = SearchBot(budget=HAND).choose(view, legal, random.Random(9))
        assert first == again and first in legal
        assert ([tuple(h) for h in rnd.hands], list(rnd.stock), len(rnd.history)) == before


def test_search_levels_are_iteration_budgets() -> None:
    for level in ("easy", "medium", "hard"):
        budget = make_bot("search", level).budget
        assert budget.time_limit is None and budget.playout == "race"


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_playout_search_returns_legal_actions(preset: str) -> None:
    bot = SearchBot(budget=HAND)
    for rnd in _random_states(preset, 12, 23):
        legal = rnd.legal_actions()
        assert bot.choose(rnd.view(rnd.to_move), legal, random.Random(5)) in legal
    assert bot.playouts > 0
