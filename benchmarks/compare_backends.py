"""Compare the compiled solver with its pure-Python twin on many random hands (default 100,000).

Run: ``python benchmarks/compare_backends.py [--hands N] [--seed S]``. Hands are dealt from the deck
of every preset and of the rule variants of the solver tests, of every size from 1 to 15 cards; for
each hand ``min_deadwood``, ``best_discards``, ``max_opening_value`` (with and without keeping a
card), ``best_opening`` (free, and with a card of the hand required), ``best_arrangement``,
``all_melds`` and, onto table melds formed from the rest of the deck, ``layoff_targets`` and
``layoff_chain`` are computed on both backends with cold caches per block. Prints the mismatches
(the first few in full) and exits with status 1 if there is any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from rummykit import solver
from rummykit.cards import Card, build_deck, format_cards
from rummykit.errors import IllegalMeldError
from rummykit.melds import Meld
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.solver import backend
from rummykit.testing import GIN_LIKE_RULES

VIENNESE = Rules.preset("viennese")
VARIANTS = [
    *(Rules.preset(name) for name in PRESET_NAMES),
    GIN_LIKE_RULES,
    VIENNESE.replace(joker_limit="min_two_naturals", max_adjacent_jokers=None),
    VIENNESE.replace(joker_limit="at_least_one_natural", max_adjacent_jokers=1),
    VIENNESE.replace(joker_limit="max_one_joker_per_meld"),
    VIENNESE.replace(ace_low_in_runs=False, allow_ace_both_ends=False),
    VIENNESE.replace(set_size_min=4),
    VIENNESE.replace(set_distinct_suits=False, set_size_max=5),
    Rules.preset("german").replace(allow_ace_both_ends=True, max_adjacent_jokers=2),
    Rules.preset("german").replace(opening_scope="single_meld", joker_end_assignment="upward_default"),
]


def table_for(rng: random.Random, hand: list[Card], deck: list[Card], rules: Rules) -> list[Meld]:
    """Up to five table melds formed from cards of the deck that the hand does not hold."""
    pool = list(deck)
    for c in hand:
        pool.remove(c)
    rng.shuffle(pool)
    table = []
    for _ in range(rng.randint(0, 5)):
        options = solver.all_melds(pool[:12], rules)
        if not options:
            break
        chosen = rng.choice(options)
        try:
            table.append(Meld.from_cards(chosen, rules))
        except IllegalMeldError:
            continue  # a set of one natural and jokers that its cards cannot express
        for c in chosen:
            pool.remove(c)
    return table


def answers(hand: list[Card], table: list[Meld], rules: Rules) -> tuple[object, ...]:
    return (
        solver.min_deadwood(hand, rules),
        solver.best_discards(hand, rules),
        solver.max_opening_value(hand, rules, keep_one=True),
        solver.max_opening_value(hand, rules, keep_one=False),
        solver.best_opening(hand, rules),
        solver.best_opening(hand, rules, must_include=hand[-1], keep_one=False),
        solver.best_arrangement(hand, rules),
        solver.all_melds(hand, rules),
        solver.layoff_targets(hand, table, rules),
        solver.layoff_chain(hand, table, rules),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if backend.native is None:
        print("the compiled solver is not built: nothing to compare")
        return 1
    rng = random.Random(args.seed)
    per_rules = max(1, -(-args.hands // len(VARIANTS)))  # at least --hands in total
    mismatches = 0
    start = time.process_time()
    for rules in VARIANTS:
        deck = list(build_deck(rules.num_decks, rules.jokers_total))
        hands = [rng.sample(deck, rng.randint(1, 15)) for _ in range(per_rules)]
        tables = [table_for(rng, hand, deck, rules) for hand in hands]
        results = {}
        for name in ("python", "native"):
            with backend.use(name):
                solver.clear_caches()
                pairs = zip(hands, tables, strict=True)
                results[name] = [answers(hand, table, rules) for hand, table in pairs]
        bad = [i for i, (a, b) in enumerate(zip(results["python"], results["native"], strict=True)) if a != b]
        mismatches += len(bad)
        print(f"{rules.name:<22} {len(hands):>7,} hands  mismatches: {len(bad)}")
        for i in bad[:3]:
            print(f"   {format_cards(hands[i])}: python {results['python'][i]} native {results['native'][i]}")
    total = per_rules * len(VARIANTS)
    print(f"{total:,} hands, {mismatches} mismatches ({time.process_time() - start:.0f} s CPU)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
