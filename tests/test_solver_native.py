"""Differential tests: every compiled kernel against its pure-Python twin, on every preset and the rule
variants of the solver tests, with hands of any size drawn from the rule set's own deck."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import solver
from rummykit.bots import race
from rummykit.cards import JOKER_CODE, Card, build_deck, parse_cards
from rummykit.errors import IllegalMeldError
from rummykit.melds import Meld
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.solver import backend
from rummykit.testing import GIN_LIKE_RULES

REQUIRED = os.environ.get("RUMMYKIT_REQUIRE_NATIVE") == "1"
"""Set by ``make asan`` and by ``make test NATIVE_REQUIRED=1`` (CI): a missing extension fails instead
of skipping the differential tests."""
pytestmark = pytest.mark.skipif(
    backend.native is None and not REQUIRED, reason="the compiled solver is not built"
)

VIENNESE = Rules.preset("viennese")
VARIANTS = [
    *(Rules.preset(name) for name in PRESET_NAMES),
    GIN_LIKE_RULES,
    VIENNESE.replace(jokers_total=4, joker_limit="min_two_naturals", max_adjacent_jokers=None),
    VIENNESE.replace(joker_limit="at_least_one_natural"),
    VIENNESE.replace(joker_limit="at_least_one_natural", max_adjacent_jokers=1),
    VIENNESE.replace(joker_limit="max_one_joker_per_meld"),
    VIENNESE.replace(ace_low_in_runs=False, allow_ace_both_ends=False),
    VIENNESE.replace(ace_high_in_runs=False),
    VIENNESE.replace(set_size_max=3),
    VIENNESE.replace(set_size_min=4),
    VIENNESE.replace(set_distinct_suits=False, set_size_max=5),
    VIENNESE.replace(deadwood_ace=11, deadwood_joker=0),
    Rules.preset("german").replace(allow_ace_both_ends=True, max_adjacent_jokers=2),
    Rules.preset("german").replace(opening_scope="single_meld", joker_end_assignment="upward_default"),
    Rules.preset("german").replace(joker_limit="at_least_one_natural", ace_high_in_runs=False),
]
KNOCK_VARIANTS = [r for r in VARIANTS if r.is_knock_game]
MELD_VARIANTS = [r for r in VARIANTS if not r.is_knock_game] + [
    Rules.preset("german").replace(going_out_requires_discard=True, layoff_on_opening_turn=False),
]


def test_native_is_built() -> None:
    assert backend.native is not None, backend.native_status


@st.composite
def dealt(draw: st.DrawFn, min_size: int = 0, max_size: int = 15) -> tuple[Rules, list[int]]:
    """A rule set and a hand dealt from its deck (two decks and jokers where the rules have them)."""
    rules = draw(st.sampled_from(VARIANTS))
    deck = list(build_deck(rules.num_decks, rules.jokers_total))
    size = draw(st.integers(min_size, min(max_size, len(deck))))
    order = draw(st.permutations(range(len(deck))))
    return rules, [deck[i] for i in order[:size]]


def both(fn_name: str, *args: object) -> tuple[object, object]:
    """The answer of the public function ``fn_name`` on the python and on the native backend."""
    fn = getattr(solver, fn_name)
    with backend.use("python"):
        expected = fn(*args)
    with backend.use("native"):
        found = fn(*args)
    return expected, found


DIFF = settings(max_examples=300, deadline=None)


@DIFF
@given(case=dealt())
def test_min_deadwood(case: tuple[Rules, list[int]]) -> None:
    rules, hand = case
    expected, found = both("min_deadwood", hand, rules)
    assert found == expected


@DIFF
@given(case=dealt(min_size=1))
def test_best_discards(case: tuple[Rules, list[int]]) -> None:
    rules, hand = case
    expected, found = both("best_discards", hand, rules)
    assert found == expected


@DIFF
@given(case=dealt(), keep_one=st.booleans())
def test_max_opening_value(case: tuple[Rules, list[int]], keep_one: bool) -> None:
    rules, hand = case
    expected, found = both("max_opening_value", hand, rules, keep_one)
    assert found == expected


@settings(max_examples=150, deadline=None)
@given(case=dealt(min_size=1), keep_one=st.booleans(), pick=st.integers(0, 14))
def test_best_opening(case: tuple[Rules, list[int]], keep_one: bool, pick: int) -> None:
    """The compiled opening value decides early when no opening exists; the melds are the same."""
    rules, hand = case
    must = hand[pick % len(hand)] if pick % 3 == 0 else None
    expected, found = both("best_opening", hand, rules, must, keep_one)
    assert found == expected


@DIFF
@given(case=dealt())
def test_best_arrangement(case: tuple[Rules, list[int]]) -> None:
    """Same melds (joker positions included), same leftover cards in the same order."""
    rules, hand = case
    expected, found = both("best_arrangement", hand, rules)
    assert found == expected


@DIFF
@given(case=dealt())
def test_all_melds(case: tuple[Rules, list[int]]) -> None:
    """Every meld layout, in the twin's order (runs by suit and start, then sets by rank)."""
    rules, hand = case
    expected, found = both("all_melds", hand, rules)
    assert found == expected
    if hand:
        expected, found = both("melds_containing", hand, hand[0], rules)
        assert found == expected


@st.composite
def table_and_hand(
    draw: st.DrawFn, variants: Sequence[Rules] = VARIANTS
) -> tuple[Rules, list[Meld], list[int]]:
    """A rule set, table melds formed from its deck (up to six) and a hand of the cards left."""
    rules = draw(st.sampled_from(variants))
    deck = list(build_deck(rules.num_decks, rules.jokers_total))
    order = draw(st.permutations(range(len(deck))))
    cards = [deck[i] for i in order]
    table: list[Meld] = []
    for _ in range(draw(st.integers(0, 6))):
        options = solver.all_melds(cards[:12], rules)
        if not options:
            break
        chosen = options[draw(st.integers(0, len(options) - 1))]
        try:
            table.append(Meld.from_cards(chosen, rules))
        except IllegalMeldError:
            continue  # a set of one natural and jokers that its cards cannot express
        for c in chosen:
            cards.remove(c)
    return rules, table, cards[: draw(st.integers(0, 14))]


@DIFF
@given(case=table_and_hand())
def test_layoffs(case: tuple[Rules, list[Meld], list[int]]) -> None:
    """Lay-off targets and the largest chain (its order and run ends too) match the twin."""
    rules, table, hand = case
    expected, found = both("layoff_targets", hand, table, rules)
    assert found == expected
    expected, found = both("layoff_chain", hand, table, rules)
    assert found == expected


@settings(max_examples=100, deadline=None)
@given(
    case=table_and_hand(MELD_VARIANTS), opened=st.booleans(), taken=st.booleans(), horizon=st.integers(0, 10)
)
def test_meld_races(
    case: tuple[Rules, list[Meld], list[int]], opened: bool, taken: bool, horizon: int
) -> None:
    """The compiled melding race gives the Python play-out's turns exactly, with and without a first
    draw (taken from the pile or not), opened or not, on every melding rule set."""
    rules, table, hand = case
    deck = list(build_deck(rules.num_decks, rules.jokers_total))
    for c in [*hand, *(c for m in table for c in m.cards)]:
        deck.remove(c)
    random.Random(horizon).shuffle(deck)
    first, draws = deck[0], deck[1 : horizon + 1]
    opened = opened and bool(table)
    seat = race.MeldHand(tuple(hand), opened, tuple(table))
    found: dict[str, tuple[float, float]] = {}
    for name in ("python", "native"):
        with backend.use(name):
            after_draw = race.race_after_draw(rules, hand, opened, table, first, draws, taken)
            found[name] = (after_draw, race.meld_race(rules, seat, draws))
    assert found["native"] == found["python"]


def race_deal(rules: Rules, rng: random.Random, hands: int) -> tuple[list[list[Card]], list[Card]]:
    """``hands`` hands dealt from a shuffled deck, and the cards left."""
    deck = list(build_deck(rules.num_decks, rules.jokers_total))
    rng.shuffle(deck)
    size = rules.hand_size
    return [deck[i * size : (i + 1) * size] for i in range(hands)], deck[hands * size :]


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(KNOCK_VARIANTS),
    seed=st.integers(0, 10**6),
    horizon=st.integers(0, 10),
    hands=st.integers(1, 4),
)
def test_knock_races(rules: Rules, seed: int, horizon: int, hands: int) -> None:
    """The compiled race play-out gives the Python play-out's turns exactly (on two threads too)."""
    rng = random.Random(seed)
    own, unseen = race_deal(rules, rng, hands)
    stocks = [rng.sample(unseen, horizon + 1) for _ in range(20)]
    expected = [[race.knock_race(rules, hand, stock[:horizon]) for hand in own] for stock in stocks]
    assert backend.native is not None
    found = backend.native.knock_races(rules, own, stocks, horizon, race.KNOCK_POINTS_PER_TURN)
    assert found == expected
    drawn = [race.race_after_draw(rules, own[0], False, (), s[0], s[1:], taken=False) for s in stocks]
    with backend.use("native"):
        assert race.knock_draw_races(rules, own[0], stocks) == drawn


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(KNOCK_VARIANTS),
    seed=st.integers(0, 10**6),
    horizon=st.integers(0, 10),
    gone=st.integers(0, 12),
)
def test_draw_aware_knock_races(rules: Rules, seed: int, horizon: int, gone: int) -> None:
    """The draw-aware race play-out (given the live cards) is the Python play-out's too, on two threads."""
    rng = random.Random(seed)
    own, unseen = race_deal(rules, rng, 3)
    live = unseen[gone:]  # some unseen cards are known elsewhere: not live
    stocks = [rng.sample(live, min(len(live), horizon + 1)) for _ in range(20)]
    expected = [[race.knock_race(rules, hand, stock[:horizon], live) for hand in own] for stock in stocks]
    assert backend.native is not None
    per_turn = race.KNOCK_POINTS_PER_TURN
    found = backend.native.knock_races(
        rules, own, stocks, horizon, per_turn, live, race.OUT_MARGIN, race.OUT_WEIGHT
    )
    assert found == expected
    drawn = [race.knock_race(rules, own[0], stock, live) - 1.0 for stock in stocks]
    with backend.use("native"):
        assert race.knock_draw_races(rules, own[0], stocks, live) == drawn


def test_same_errors() -> None:
    """Bad hands get the reference's errors on either backend."""
    for name in ("python", "native"):
        with backend.use(name):
            with pytest.raises(ValueError, match="at most two copies"):
                solver.min_deadwood(parse_cards("7H 7H 7H"), VIENNESE)
            with pytest.raises(ValueError, match="at least one card"):
                solver.best_discards([], VIENNESE)
    native = backend.native
    assert native is not None
    with pytest.raises(ValueError):
        native.min_deadwood([JOKER_CODE + 1], VIENNESE)
    with pytest.raises(ValueError):
        native.min_deadwood([-1], VIENNESE)
    with pytest.raises(TypeError):
        native.min_deadwood(["7H"], VIENNESE)  # type: ignore[list-item]


def test_any_iterable() -> None:
    """Generators and tuples of cards give the same answers as lists."""
    hand: Sequence[int] = parse_cards("7H 8H 9H QS QD QC 2C 2D 2S 3H")
    with backend.use("native"):
        assert solver.min_deadwood(iter(hand), VIENNESE) == solver.min_deadwood(list(hand), VIENNESE) == 3
        from_generator = solver.max_opening_value((c for c in hand), VIENNESE, True)
        assert from_generator == solver.max_opening_value(tuple(hand), VIENNESE, True) > 0
