"""Meld solver throughput: rummykit against OpenSpiel and RLCard, and rummykit on its own presets.

Run: ``python benchmarks/solver.py [--quick]``. Everything runs in this one process on fixed, seeded
hand sets. Figures are hands per second of CPU time of this process (``time.process_time``, so other
load on the machine distorts them less), the median of several repeats; ratios compare medians taken
in the same run. Every rummykit figure is printed per solver backend (``native``: the compiled
kernels, ``python``: the pure-Python twin), and the ratios use the active one. Three rummykit
figures are printed where it matters:

* ``cold``: every solver cache is emptied before each repeat (meld tables and per-hand results), so
  every hand is solved from scratch apart from the tables built during that repeat;
* ``tables``: per-hand results are emptied, the per-rule-set meld tables stay warm;
* ``cached``: the same hands again without emptying anything (a hot loop over repeated hands).

OpenSpiel (``pyspiel``) and RLCard are compared on single-deck gin hands when installed
(``pip install open-spiel rlcard``, the ``bench`` extra); a missing library is skipped. OpenSpiel's
11-card value is its own heuristic (best melds by value, then drop the highest deadwood card) and
not the exact best discard; the number of hands where it differs from the exact value is printed.
RLCard's 11-card figure is its judge's single pass (``get_meld_clusters`` of the 11 cards once, then
per cluster the deadwood less its dearest card, as ``judge.get_going_out_cards`` does).
This script never fails on timing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from rummykit import solver
from rummykit.cards import JOKER, Card, build_deck
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver import backend
from rummykit.testing import GIN_LIKE_RULES

GIN = GIN_LIKE_RULES
VIENNESE = Rules.preset("viennese")
ROA = Rules.preset("romme_ohne_auslegen")
GERMAN = Rules.preset("german")

Hand = tuple[Card, ...]


def deal(rules: Rules, size: int, count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    deck = list(build_deck(rules.num_decks, rules.jokers_total))
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(tuple(deck[:size]))
    return hands


def rate(
    fn: Callable[[Any], object], items: Sequence[Any], repeats: int, before: Callable[[], None]
) -> float:
    """Median hands/s of ``repeats`` timed passes over ``items``; ``before`` runs untimed first."""
    rates = []
    for _ in range(repeats):
        before()
        start = time.process_time()
        for item in items:
            fn(item)
        rates.append(len(items) / (time.process_time() - start))
    return statistics.median(rates)


def nothing() -> None:
    pass


def alternating(
    label: str,
    ours: tuple[Callable[[Any], object], Sequence[Any]],
    theirs: tuple[Callable[[Any], object], Sequence[Any]],
    passes: int,
) -> None:
    """rummykit cold (the active backend, every cache emptied before each pass) and the peer, pass by
    pass in turn, so both see the same load; prints the medians and their ratio."""
    mine: list[float] = []
    peer: list[float] = []
    for _ in range(passes):
        mine.append(rate(ours[0], ours[1], 1, clear_all))
        peer.append(rate(theirs[0], theirs[1], 1, nothing))
    a, b = statistics.median(mine), statistics.median(peer)
    print(f"  {label}, {passes} passes in turn: rummykit cold {a:,.0f}, peer {b:,.0f} hands/s = {a / b:.2f}x")


def clear_all() -> None:
    solver.clear_caches()


def clear_results() -> None:
    solver.clear_caches(meld_tables=False)


def line(label: str, value: float) -> None:
    print(f"  {label:<46} {value:>11,.0f} hands/s")


def ratio(label: str, value: float, base: float) -> None:
    print(f"    {label:<44} {value / base:>11.2f}x")


def rummykit_lines(
    title: str, fn: Callable[[Hand], object], hands: list[Hand], repeats: int
) -> dict[str, float]:
    """Figures of every backend (printed); returns the active backend's."""
    print(title)
    active = backend.current.name
    found: dict[str, dict[str, float]] = {}
    for name in sorted(backend.available(), reverse=True):
        with backend.use(name):
            # One untimed pass builds the meld tables for the "tables" figure.
            clear_all()
            for h in hands:
                fn(h)
            found[name] = {
                "cold": rate(fn, hands, repeats, clear_all),
                "tables": rate(fn, hands, repeats, clear_results),
                "cached": rate(fn, hands, repeats, nothing),
            }
        line(f"rummykit {name} cold (all caches emptied)", found[name]["cold"])
        line(f"rummykit {name} meld tables warm, results emptied", found[name]["tables"])
        line(f"rummykit {name} cached (same hands again)", found[name]["cached"])
    if len(found) == 2:
        ratio("native cold / python cold", found["native"]["cold"], found["python"]["cold"])
    return found[active]


def openspiel_text(card: Card) -> str:
    text = str(card)
    rank = "T" if text[:-1] == "10" else text[:-1]
    return rank + "scdh"["SCDH".index(text[-1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    args = parser.parse_args()
    n = 4_000 if args.quick else 20_000
    repeats = 3 if args.quick else 5

    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pyspiel = None
        print("OpenSpiel (pyspiel) not installed: skipped")
    try:
        from rlcard.games.gin_rummy.utils import melding as rl_melding  # type: ignore[import-untyped,unused-ignore]
        from rlcard.games.gin_rummy.utils import utils as rl_utils  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        rl_melding = rl_utils = None
        print("RLCard not installed: skipped")

    os_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10) if pyspiel else None

    def os_ints(hand: Hand) -> Any:
        assert os_utils is not None
        return os_utils.card_strings_to_card_ints([openspiel_text(c) for c in hand])

    def rl_cards(hand: Hand) -> list[Any]:
        return [rl_utils.card_from_text(openspiel_text(c).upper()) for c in hand]

    def rl_deadwood(hand: list[Any]) -> int:
        clusters = rl_melding.get_best_meld_clusters(hand=hand)
        if not clusters:
            return sum(rl_utils.get_deadwood_value(c) for c in hand)
        return int(rl_utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0]))

    def rl_best_discard(hand: list[Any]) -> int:
        """RLCard's judge, one pass: the meld clusters of the 11 cards, then per cluster its deadwood
        less the dearest deadwood card (``judge._get_going_out_cards``); no cluster: drop the dearest."""
        values = [rl_utils.get_deadwood_value(c) for c in hand]
        best = sum(values) - max(values)
        for cluster in rl_melding.get_meld_clusters(hand=hand):
            melded = {card for pile in cluster for card in pile}
            dead = [v for c, v in zip(hand, values, strict=True) if c not in melded]
            best = min(best, sum(dead) - max(dead, default=0))
        return best

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"rummykit solver benchmark: {n:,} hands per set, median of {repeats} repeats; load average {load}")
    print(f"{backend.describe()}\n")

    # Gin, 10 cards: min_deadwood --------------------------------------------------------------
    gin10 = deal(GIN, 10, n, seed=10)
    r = rummykit_lines(
        "gin, 10 cards, min_deadwood (single deck, ace low, no jokers)",
        lambda h: solver.min_deadwood(h, GIN),
        gin10,
        repeats,
    )
    if os_utils is not None:
        ints = [os_ints(h) for h in gin10]
        os_rate = rate(os_utils.min_deadwood, ints, repeats, nothing)
        line("OpenSpiel GinRummyUtils.min_deadwood", os_rate)
        ratio("rummykit cold / OpenSpiel", r["cold"], os_rate)
        ours10 = (lambda h: solver.min_deadwood(h, GIN), gin10)
        alternating("vs OpenSpiel", ours10, (os_utils.min_deadwood, ints), 2 * repeats + 1)
        diff = sum(
            solver.min_deadwood(h, GIN) != os_utils.min_deadwood(i) for h, i in zip(gin10, ints, strict=True)
        )
        print(f"  mismatches with OpenSpiel: {diff} of {len(gin10):,}")
    if rl_melding is not None:
        rl_hands = [rl_cards(h) for h in gin10[: n // 4]]
        rl_rate = rate(rl_deadwood, rl_hands, repeats, nothing)
        line("RLCard get_best_meld_clusters + deadwood", rl_rate)
        ratio("rummykit cold / RLCard", r["cold"], rl_rate)
        ratio("rummykit tables warm / RLCard", r["tables"], rl_rate)
        diff = sum(
            solver.min_deadwood(h, GIN) != rl_deadwood(c) for h, c in zip(gin10, rl_hands, strict=False)
        )
        print(f"  mismatches with RLCard: {diff} of {len(rl_hands):,}")
    print()

    # Gin, 11 cards: best discard --------------------------------------------------------------
    gin11 = deal(GIN, 11, n, seed=11)
    r = rummykit_lines(
        "gin, 11 cards, best_discards (exact best 10 of 11)",
        lambda h: solver.best_discards(h, GIN),
        gin11,
        repeats,
    )
    if os_utils is not None:
        ints = [os_ints(h) for h in gin11]
        os_rate = rate(os_utils.min_deadwood, ints, repeats, nothing)
        line("OpenSpiel min_deadwood (11-card heuristic)", os_rate)
        ratio("rummykit cold / OpenSpiel", r["cold"], os_rate)
        ours11 = (lambda h: solver.best_discards(h, GIN), gin11)
        alternating("vs OpenSpiel", ours11, (os_utils.min_deadwood, ints), 2 * repeats + 1)
        diff = [
            (solver.best_discards(h, GIN)[0], os_utils.min_deadwood(i))
            for h, i in zip(gin11, ints, strict=True)
        ]
        wrong = [(a, b) for a, b in diff if a != b]
        print(
            f"  OpenSpiel differs from the exact value on {len(wrong)} of {len(gin11):,} hands"
            + (f" (always higher: {all(b > a for a, b in wrong)})" if wrong else "")
        )
    if rl_melding is not None:
        rl_hands = [rl_cards(h) for h in gin11[: n // 10]]
        rl_rate = rate(rl_best_discard, rl_hands, max(1, repeats - 2), nothing)
        line("RLCard judge single pass (11-card clusters)", rl_rate)
        ratio("rummykit cold / RLCard", r["cold"], rl_rate)
        pairs = zip(gin11, rl_hands, strict=False)
        diff = sum(solver.best_discards(h, GIN)[0] != rl_best_discard(c) for h, c in pairs)
        print(f"  mismatches with RLCard: {diff} of {len(rl_hands):,}")
    print()

    # Viennese and Rommé ohne Auslegen (two decks, jokers) ------------------------------------
    v10 = deal(VIENNESE, 10, n, seed=20)
    v11 = deal(VIENNESE, 11, n, seed=21)

    def viennese_deadwood(h: Hand) -> int:
        return solver.min_deadwood(h, VIENNESE)

    def viennese_discards(h: Hand) -> object:
        return solver.best_discards(h, VIENNESE)

    rummykit_lines("viennese, 10 cards, min_deadwood", viennese_deadwood, v10, repeats)
    rummykit_lines("viennese, 11 cards, min_deadwood", viennese_deadwood, v11, repeats)
    rummykit_lines("viennese, 11 cards, best_discards", viennese_discards, v11, repeats)
    print()
    roa13 = deal(ROA, 13, n // 2, seed=30)
    roa14 = deal(ROA, 14, n // 2, seed=31)
    rummykit_lines(
        "romme_ohne_auslegen, 13 cards, min_deadwood", lambda h: solver.min_deadwood(h, ROA), roa13, repeats
    )
    rummykit_lines(
        "romme_ohne_auslegen, 14 cards, best_discards", lambda h: solver.best_discards(h, ROA), roa14, repeats
    )
    print()
    german14 = deal(GERMAN, 14, n // 4, seed=40)
    print("german, 14 cards, best_opening (keep one card to discard)")

    def german_opening(h: Hand) -> object:
        return solver.best_opening(h, GERMAN)

    for name in sorted(backend.available(), reverse=True):
        with backend.use(name):
            line(f"rummykit {name} cold", rate(german_opening, german14, repeats, clear_all))
            line(f"rummykit {name} meld tables warm", rate(german_opening, german14, repeats, clear_results))
    opened = sum(solver.best_opening(h, GERMAN) is not None for h in german14)
    print(f"  hands that can open with 40: {opened} of {len(german14):,}")
    rummykit_lines(
        "german, 14 cards, best_arrangement", lambda h: solver.best_arrangement(h, GERMAN), german14, repeats
    )
    # Lay-offs: a 10-card hand onto a table of melds laid from other cards of the deck.
    layoff_cases = [german_table(h, seed) for seed, h in enumerate(german14)]

    def german_chain(case: tuple[Hand, list[Meld]]) -> object:
        return solver.layoff_chain(case[0], case[1], GERMAN)

    title = "german, 10 cards, layoff_chain (table of up to 6 melds)"
    rummykit_lines(title, german_chain, layoff_cases, repeats)  # type: ignore[arg-type]
    laid = sum(len(german_chain(c)) for c in layoff_cases) / len(layoff_cases)
    print(f"  cards laid off per hand: {laid:.2f}")


def german_table(hand: Hand, seed: int) -> tuple[Hand, list[Meld]]:
    """The first 10 cards of ``hand`` and up to six German melds formed from cards it does not hold."""
    rng = random.Random(seed)
    pool = list(build_deck(GERMAN.num_decks, GERMAN.jokers_total))
    for c in hand:
        pool.remove(c)
    rng.shuffle(pool)
    table: list[Meld] = []
    for _ in range(6):
        options = [m for m in solver.all_melds(pool[:16], GERMAN) if len(m) - m.count(JOKER) >= 2]
        if not options:
            break
        chosen = rng.choice(options)
        table.append(Meld.from_cards(chosen, GERMAN))
        for c in chosen:
            pool.remove(c)
    return hand[:10], table


if __name__ == "__main__":
    main()
