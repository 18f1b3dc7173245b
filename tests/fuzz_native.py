"""Fuzz the compiled solver's entry points with atheris, differentially against the pure-Python twin.

Run: ``make fuzz`` (or ``python tests/fuzz_native.py -max_total_time=600``). Each input picks a rule
set and a list of card codes (valid or not: out of range, three copies, many jokers) and calls every
kernel on both backends (openings with a required card, arrangements, lay-offs onto table melds
formed from fuzzed cards); any difference in answers or in the kind of error, and any crash, stops
the fuzzer with the input. The compiled entry points are also called directly with raw arguments
the public functions never pass (a required card outside the hand or out of range, any minimum).
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from rummykit import solver
    from rummykit.bots import race
    from rummykit.errors import IllegalMeldError
    from rummykit.melds import Meld
    from rummykit.rules import PRESET_NAMES, Rules
    from rummykit.solver import backend
    from rummykit.testing import GIN_LIKE_RULES

VIENNESE = Rules.preset("viennese")
VARIANTS = [
    *(Rules.preset(name) for name in PRESET_NAMES),
    GIN_LIKE_RULES,
    VIENNESE.replace(jokers_total=4, joker_limit="min_two_naturals", max_adjacent_jokers=None),
    VIENNESE.replace(joker_limit="max_one_joker_per_meld"),
    VIENNESE.replace(ace_low_in_runs=False, allow_ace_both_ends=False),
    VIENNESE.replace(set_distinct_suits=False, set_size_max=5),
    Rules.preset("german").replace(opening_scope="single_meld", joker_end_assignment="upward_default"),
    Rules.preset("german").replace(allow_ace_both_ends=True, max_adjacent_jokers=2),
]
KNOCK = [r for r in VARIANTS if r.is_knock_game]
assert backend.native is not None, backend.native_status
NATIVE = backend.native
PYTHON = backend.python


def outcome(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except (ValueError, IndexError, TypeError) as exc:
        return type(exc).__name__ if not isinstance(exc, IndexError) else "ValueError"


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    rules = VARIANTS[fdp.ConsumeIntInRange(0, len(VARIANTS) - 1)]
    size = fdp.ConsumeIntInRange(0, 18)
    cards = [fdp.ConsumeIntInRange(-2, 54) for _ in range(size)]
    valid = all(0 <= c <= 52 for c in cards) and all(cards.count(c) <= 2 for c in cards if c != 52)
    if not valid:
        # Both must refuse (the reference fails on codes outside 0-52 in its own ways).
        for kernel in ("min_deadwood", "best_discards", "best_arrangement"):
            try:
                getattr(NATIVE, kernel)(cards, rules)
            except ValueError:
                continue
            raise AssertionError(f"native accepted {cards} in {kernel}")
        try:
            NATIVE.layoff_chain(cards, [], rules)
        except ValueError:
            return
        raise AssertionError(f"native accepted {cards} in layoff_chain")
    assert NATIVE.min_deadwood(cards, rules) == PYTHON.min_deadwood(cards, rules), cards
    if cards:
        assert NATIVE.best_discards(cards, rules) == PYTHON.best_discards(cards, rules), cards
    for keep in (False, True):
        assert NATIVE.max_opening_value(cards, rules, keep) == PYTHON.max_opening_value(cards, rules, keep)
    assert NATIVE.best_arrangement(cards, rules) == PYTHON.best_arrangement(cards, rules), cards
    minimum = fdp.ConsumeIntInRange(0, 80)
    single = fdp.ConsumeBool()
    keep = fdp.ConsumeBool()
    must = cards[fdp.ConsumeIntInRange(0, len(cards) - 1)] if cards and fdp.ConsumeBool() else None
    expected = PYTHON.best_opening(cards, rules, must, keep, minimum, single)
    assert NATIVE.best_opening(cards, rules, must, keep, minimum, single) == expected, (cards, must)
    raw = NATIVE.solver(rules)
    odd_must, odd_minimum = fdp.ConsumeIntInRange(-3, 60), fdp.ConsumeIntInRange(-5, 200)
    outcome(raw.best_opening, cards, keep, odd_must, single, odd_minimum)
    table: list[Meld] = []
    pool = list(cards)
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        melds = solver.all_melds(pool[:10], rules)
        if not melds:
            break
        chosen = melds[fdp.ConsumeIntInRange(0, len(melds) - 1)]
        try:
            table.append(Meld.from_cards(chosen, rules))
        except IllegalMeldError:
            continue  # a set of one natural and jokers that its cards cannot express
        for c in chosen:
            pool.remove(c)
    assert NATIVE.layoff_targets(pool, table, rules) == PYTHON.layoff_targets(pool, table, rules), cards
    assert NATIVE.layoff_chain(pool, table, rules) == PYTHON.layoff_chain(pool, table, rules), cards
    assert NATIVE.all_melds(cards, rules) == PYTHON.all_melds(cards, rules), cards
    if not rules.is_knock_game and pool and fdp.ConsumeBool():
        # The melding race: the fuzzed rest of the hand, the table, draws from the unused faces.
        unused = [c for c in range(52) if c not in cards]
        picks = [fdp.ConsumeIntInRange(0, len(unused) - 1) for _ in range(fdp.ConsumeIntInRange(1, 7))]
        draws = list(dict.fromkeys(unused[i] for i in picks))
        opened = bool(table) and fdp.ConsumeBool()
        taken = fdp.ConsumeBool()
        args = (rules, pool, opened, table, draws[0], draws[1:], taken)
        with backend.use("python"):
            expected_race = race.race_after_draw(*args)
        with backend.use("native"):
            assert race.race_after_draw(*args) == expected_race, (pool, draws)
    if rules.is_knock_game and 1 <= len(cards) <= 12 and fdp.ConsumeBool():
        knock = KNOCK[0] if rules not in KNOCK else rules
        pool = [c for c in range(53) if c not in cards]
        stock = [pool[fdp.ConsumeIntInRange(0, len(pool) - 1)] for _ in range(fdp.ConsumeIntInRange(0, 6))]
        stock = list(dict.fromkeys(stock))
        expected = [[race.knock_race(knock, cards, stock)]]
        found = NATIVE.knock_races(knock, [cards], [stock], len(stock), race.KNOCK_POINTS_PER_TURN)
        assert found == expected, (cards, stock)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
