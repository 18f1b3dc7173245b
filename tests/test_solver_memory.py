"""The solver's caches follow the work done and stay bounded however many rule sets a process meets:
only the few most recently used meld-option sets keep per-hand results (both backends), a compiled
result cache starts small, grows with use up to its size and is freed by ``clear_caches``, and the
pure-Python result dicts share one budget."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rummykit import Rules, solver
from rummykit.cards import Card, build_deck, parse_cards
from rummykit.solver import backend, tables

VIENNESE = Rules.preset("viennese")
HAND = parse_cards("7H 8H 9H QS QD QC 2C 2D 2S AS")  # the ace is the only deadwood
ELEVEN = parse_cards("7H 8H 9H QS QD QC 2C 2D 2S AS KD")


def house_rules(value: int) -> Rules:
    """One of many tables' house rules: each value is its own set of meld options."""
    return VIENNESE.replace(deadwood_ace=value)


def dealt(count: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = list(build_deck(VIENNESE.num_decks, VIENNESE.jokers_total))
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(tuple(deck[:size]))
    return hands


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    solver.clear_caches()
    yield
    solver.clear_caches()


def touch(value: int) -> None:
    rules = house_rules(value)
    assert solver.min_deadwood(HAND, rules) == value
    assert solver.best_discards(ELEVEN, rules)[0] == min(value, 10)  # the dearer of AS and KD goes
    solver.max_opening_value(ELEVEN, rules, True)


def python_entries() -> list[int]:
    """Result entries per set of the pure-Python backend, least recently used first."""
    return [t.result_entries() for t in tables._BY_OPTIONS.values()]


def python_tables() -> list[int]:
    return [len(t.runs) + len(t.sets) + len(t.segments) for t in tables._BY_OPTIONS.values()]


def test_python_backend_keeps_results_for_the_hot_few_only() -> None:
    hot = tables.HOT_MELD_OPTION_SETS
    with backend.use("python"):
        for value in range(tables.MAX_MELD_OPTION_SETS):
            touch(value)
        entries = python_entries()
        assert len(entries) == tables.MAX_MELD_OPTION_SETS
        assert all(entries[-hot:]) and not any(entries[:-hot])
        assert all(python_tables()[-hot:]) and not any(python_tables()[:-hot])
        # Using a cooled set again makes it hot, pushing out the least recently used of the hot.
        first = house_rules(0)
        assert solver.min_deadwood(HAND, first) == 0
        entries = python_entries()
        assert sum(1 for n in entries if n) == hot
        assert entries[-1] == 1 and list(tables._BY_OPTIONS)[-1] == first.melds
        # Switching among the hot few cools nobody.
        for value in (29, 30, 31, 0, 29):
            touch(value)
        assert sum(1 for n in python_entries() if n) == hot


def test_python_result_budget_empties_the_least_recently_used_other_sets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "RESULT_BUDGET", 3000)
    monkeypatch.setattr(tables, "_BUDGET_STEP", 8)
    monkeypatch.setattr("rummykit.solver.python_backend._BUDGET_STEP", 8)
    hands = dealt(1200, 10, seed=3)
    distinct = len({tuple(sorted(h)) for h in hands})
    with backend.use("python"):
        for value in (1, 2, 3):  # all three hot: only the budget empties anything
            rules = house_rules(value)
            for hand in hands:
                solver.min_deadwood(hand, rules)
        entries = python_entries()
        assert sum(entries) <= 3000 + 8
        assert entries == [0, distinct, distinct]  # the least recently used gave way, not the set in use
        assert solver.min_deadwood(HAND, house_rules(1)) == 1  # and is answered right again


def test_a_single_set_is_not_limited_by_the_budget() -> None:
    """The budget is three full result dicts: one set alone never passes it."""
    assert tables.RESULT_BUDGET >= 3 * tables._MAX_CACHE


native_only = pytest.mark.skipif(backend.native is None, reason="the compiled solver is not built")


@native_only
def test_compiled_result_caches_start_small_grow_with_use_and_are_freed() -> None:
    from rummykit.solver.native import compiled_solver

    found = compiled_solver(VIENNESE)
    assert found.cache_slots() == (0, 0, 0)  # nothing before the first result
    found.min_deadwood(HAND)
    assert found.cache_slots() == (1024, 0, 0)
    sizes = []
    expected = [solver.min_deadwood(h, VIENNESE) for h in dealt(6000, 10, seed=5)]
    for hand, value in zip(dealt(6000, 10, seed=5), expected, strict=True):
        assert found.min_deadwood(hand) == value
        sizes.append(found.cache_slots()[0])
    assert sizes == sorted(sizes)  # it only grows, by doubling
    assert set(sizes) <= {1024, 2048, 4096, 8192}
    assert sizes[-1] == 8192 == max(sizes)  # up to its bound, never beyond
    assert sizes[400] == 1024  # a few hundred results fit the first size
    # Growing keeps what the cache held: the last hands are still answered from it.
    hands = dealt(6000, 10, seed=5)
    for hand, value in zip(hands[-50:], expected[-50:], strict=True):
        assert found.min_deadwood(hand) == value
    found.best_discards(ELEVEN)
    found.max_opening_value(ELEVEN, True)
    assert found.cache_slots() == (8192, 1024, 1024)
    found.clear_caches()
    assert found.cache_slots() == (0, 0, 0)  # released, not just emptied
    assert found.min_deadwood(hands[0]) == expected[0]
    assert found.cache_slots() == (1024, 0, 0)


@native_only
def test_compiled_backend_keeps_results_for_the_hot_few_only() -> None:
    hot = tables.HOT_MELD_OPTION_SETS
    with backend.use("native") as chosen:
        for value in range(tables.MAX_MELD_OPTION_SETS):
            touch(value)
        kept = list(chosen._by_options.values())  # type: ignore[attr-defined]
        assert len(kept) == tables.MAX_MELD_OPTION_SETS
        slots = [sum(found.cache_slots()) for found in kept]
        assert all(slots[-hot:]) and not any(slots[:-hot])
        assert all(found.melds == {} for found in kept[:-hot])
        # A cooled set is answered right and becomes hot again; the set it pushes out is cooled.
        assert solver.min_deadwood(HAND, house_rules(0)) == 0
        assert sum(found.cache_slots()[0] > 0 for found in chosen._by_options.values()) == hot  # type: ignore[attr-defined]
        by_options = chosen._by_options  # type: ignore[attr-defined]
        assert by_options[house_rules(0).melds].cache_slots()[0] == 1024
        assert by_options[house_rules(32 - hot).melds].cache_slots() == (0, 0, 0)  # pushed out by 0


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_order_is_that_of_use_not_of_first_sight(name: str) -> None:
    """Rule objects seen before are found by id: switching back to one must still count as use, or
    a cold set would fill its caches again without cooling another."""
    hot = tables.HOT_MELD_OPTION_SETS
    rules = [house_rules(v) for v in range(hot + 2)]
    with backend.use(name) as chosen:
        for _ in range(3):
            for r in rules:
                solver.min_deadwood(HAND, r)
                solver.best_discards(ELEVEN, r)
        if name == "python":
            assert sum(1 for n in python_entries() if n) == hot
        else:
            kept = chosen._by_options.values()  # type: ignore[attr-defined]
            assert sum(1 for found in kept if any(found.cache_slots())) == hot


def answers(hand: tuple[Card, ...], rules: Rules) -> tuple[object, ...]:
    return (
        solver.min_deadwood(hand[:10], rules),
        solver.best_discards(hand, rules),
        solver.max_opening_value(hand, rules, True),
        solver.best_arrangement(hand, rules),
    )


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_answers_do_not_depend_on_cooling(name: str) -> None:
    """Many sets used in turn (each cooling another) answer as each set used alone."""
    hands = dealt(40, 11, seed=9)
    values = range(2 * tables.HOT_MELD_OPTION_SETS)
    with backend.use(name):
        alone = {}
        for value in values:
            solver.clear_caches()
            rules = house_rules(value)
            alone[value] = [answers(h, rules) for h in hands]
        solver.clear_caches()
        for _ in range(2):
            for i, h in enumerate(hands):
                for value in values:
                    assert answers(h, house_rules(value)) == alone[value][i]
