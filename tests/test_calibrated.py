"""The calibrated sampler (rummykit.bots.calibrated): the inference's determinizations resampled so
that a knock-game opponent is dealt hands as strong as it really holds, on arranged and seeded deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import rummykit as rk
from rummykit import solver
from rummykit.actions import Action
from rummykit.bots import IsmctsBot
from rummykit.bots.calibrated import (
    MAX_RATIO,
    MAX_TURN,
    RATIOS,
    SAMPLED_COUNTS,
    TRUE_COUNTS,
    CalibratedSampler,
    bucket,
    played,
    ratios,
)
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.inference import TableMemory, sample_hidden
from rummykit.cards import parse_cards
from rummykit.determinize import unseen_cards
from rummykit.testing import arrange_deck
from rummykit.views import Phase, PlayerView

VIENNESE = rk.Rules.preset("viennese")
# Seat 0 deals (11 cards, discards first); seat 1 holds a pair of sevens and no hearts near 8H.
DEALER = "7H 2C 4D 6S 9C JD KS QC 3S 5C"
OPPONENT = "7C 7S 2D 4S 6C 9D JS KD QD 3C"


def _cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _to_seat_0(rnd: rk.Round, memory: TableMemory, move: Callable[[PlayerView], Action | None]) -> PlayerView:
    """Play ``rnd`` by ``move`` (seat 0's views and actions through ``memory``, as a bot's are) until
    ``move`` returns ``None`` at a view of seat 0; that view."""
    while True:
        assert not rnd.is_over
        view = rnd.view(rnd.to_move)
        if view.seat == 0:
            memory.observe(view)
        action = move(view)
        if action is None:
            assert view.seat == 0
            return view
        if view.seat == 0:
            memory.acted(view, action)
        rnd.apply(action)


def _took_7h_passed_8h() -> tuple[PlayerView, TableMemory]:
    """Seat 1 took the dealer's 7H, discarded 2D, left 8H for a stock card and discarded 4S."""
    deck = arrange_deck(VIENNESE, 2, [DEALER, OPPONENT], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=3)
    script = iter(["discard 7H", "take", "discard 2D", "draw", "discard 8H", "draw", "discard 4S"])
    memory = TableMemory()
    view = _to_seat_0(rnd, memory, lambda _: next((Action.parse(s) for s in script), None))
    return view, memory


def _late_view(seed: int, turn: int) -> tuple[PlayerView, TableMemory]:
    """Seat 0's draw decision of a seeded hand between two greedy bots, once seat 1 has played
    ``turn // 2`` turns (the hand is still running)."""
    rnd = rk.Round.new(VIENNESE, 2, seed=seed)
    bot = GreedyBot()
    rng = random.Random(seed)

    def greedy(view: PlayerView) -> Action | None:
        if view.seat == 0 and view.turn >= turn and view.phase is Phase.DRAW:
            return None
        return bot.choose(view, rnd.legal_actions(), rng)

    memory = TableMemory()
    return _to_seat_0(rnd, memory, greedy), memory


def _deadwood(view: PlayerView, memory: TableMemory, sampler: object, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands, _ = sampler(view, rng, memory)  # type: ignore[operator]
        out.append(solver.min_deadwood(hands[1], VIENNESE))
    return out


def test_the_tables_were_counted_and_the_ratios_follow_them() -> None:
    """Every turns-played row was counted on many decisions; a bucket the truth holds more often
    than ``sample_hidden`` deals it weighs more than 1, and no ratio exceeds the cap."""
    assert len(TRUE_COUNTS) == len(SAMPLED_COUNTS) == MAX_TURN + 1
    assert all(sum(row) > 1000 for row in TRUE_COUNTS)
    assert max(max(row) for row in RATIOS) == MAX_RATIO
    assert RATIOS[8][bucket(12)] > 1.0 > RATIOS[8][bucket(50)]
    flat = ratios([[10, 10, 10]], [[10, 10, 10]])
    assert flat == ((1.0, 1.0, 1.0),)
    skewed = ratios([[0, 100, 0]], [[100, 1, 100]])
    assert skewed[0][1] == MAX_RATIO and skewed[0][0] < 0.1


def test_late_in_a_hand_the_opponent_is_dealt_stronger_hands() -> None:
    """Seat 1 has played eight turns: ``sample_hidden`` deals it far more deadwood than the table
    says greedy holds then; the calibrated sampler's hands move towards the table."""
    view, memory = _late_view(seed=11, turn=16)
    assert played(view) == 8
    base = _deadwood(view, memory, sample_hidden, 400, 1)
    calibrated = _deadwood(view, memory, CalibratedSampler(), 400, 1)
    row = TRUE_COUNTS[8]
    true_near = sum(row[: bucket(14) + 1]) / sum(row)
    near = [sum(d < 15 for d in ds) / len(ds) for ds in (base, calibrated)]
    assert near[0] < near[1]
    assert abs(near[1] - true_near) < abs(near[0] - true_near)
    assert sum(calibrated) / len(calibrated) < sum(base) / len(base) - 5


def test_the_calibrated_hands_keep_the_view_and_the_evidence() -> None:
    """Seat 1 took 7H and passed 8H: every dealt hand holds the 7H, no card the viewer has seen (its
    own hand, the pile) is ever dealt, the stock is the rest of the unseen cards, and the sevens stay
    more likely than in uniform hands."""
    view, memory = _took_7h_passed_8h()
    sampler = CalibratedSampler()
    rng, uniform_rng = random.Random(4), random.Random(4)
    unseen = Counter(int(c) for c in unseen_cards(view))
    sevens = _cards("7C 7D 7S")
    held = uniform = 0
    for _ in range(400):
        hands, stock = sampler(view, rng, memory)
        hand = hands[1]
        assert len(hand) == view.hand_sizes[1] and _cards("7H")[0] in hand
        rest = Counter(hand)
        rest.subtract(_cards("7H"))
        assert Counter(stock) + rest == unseen
        held += sum(1 for c in hand if c in sevens)
        uniform += sum(1 for c in sample_hidden(view, uniform_rng, None, False)[0][1] if c in sevens)
    assert held > 1.3 * uniform


def test_the_sampler_is_deterministic_with_a_seed_and_deals_anew_per_decision() -> None:
    view, memory = _took_7h_passed_8h()

    def deals(seed: int) -> list[list[int]]:
        sampler = CalibratedSampler(pool=100)
        rng = random.Random(seed)
        return [sorted(sampler(view, rng, memory)[0][1]) for _ in range(30)]

    assert deals(7) == deals(7)
    assert deals(7) != deals(8)
    sampler = CalibratedSampler(pool=50)
    sampler(view, random.Random(0), memory)
    pool = sampler._dealt
    sampler(view, random.Random(1), memory)
    assert sampler._dealt is pool  # the same decision: the same pool
    later, later_memory = _late_view(seed=11, turn=16)
    sampler(later, random.Random(0), later_memory)
    assert sampler._dealt is not pool


def test_melding_games_are_dealt_by_the_base_sampler() -> None:
    german = rk.Rules.preset("german")
    rnd = rk.Round.new(german, 2, seed=5)
    view = rnd.view(rnd.to_move)
    a = CalibratedSampler()(view, random.Random(3), None)
    b = sample_hidden(view, random.Random(3), None)
    assert a == b


def test_the_search_plays_legal_moves_on_calibrated_duels() -> None:
    """Hard with duel play-outs on the calibrated sampler's determinizations plays a hand through."""
    rnd = rk.Round.new(VIENNESE, 2, seed=21)
    search = IsmctsBot("easy")
    search.knock_duels = True
    search.sampler = CalibratedSampler(pool=60)
    greedy = GreedyBot()
    rngs = [random.Random(0), random.Random(1)]
    moves = 0
    while not rnd.is_over and moves < 40:
        seat = rnd.to_move
        bot = search if seat == 0 else greedy
        legal = rnd.legal_actions()
        action = bot.choose(rnd.view(seat), legal, rngs[seat])
        assert action in legal
        rnd.apply(action)
        moves += 1
    assert search.searches > 0
