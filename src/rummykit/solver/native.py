"""The compiled backend: the C++ kernels of ``rummykit.solver._native`` behind the backend interface.

Importing this module raises :class:`ImportError` when the extension was not built (no compiler at
install time); :mod:`.backend` then runs the pure-Python twin. One compiled ``Solver`` exists per
set of meld options (:data:`~rummykit.solver.tables.MELD_OPTIONS`), built from exactly those
options, so a rule set's other fields cannot reach the kernels.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Final

from rummykit.cards import NUM_FACES, Card
from rummykit.melds import Meld, MeldKind, joker_count_problem, position_bounds
from rummykit.rules import MeldRules, Rules
from rummykit.solver import _native  # type: ignore[attr-defined]
from rummykit.solver.arrangement import Arrangement
from rummykit.solver.cover import _to_meld
from rummykit.solver.layoff_search import Layoff, python_layoff_chain, python_layoff_targets
from rummykit.solver.tables import _Shape, meld_options, remember

_native.set_cards(tuple(Card(c) for c in range(NUM_FACES + 1)))
MAX_JOKERS: Final[int] = _native.MAX_JOKERS
"""The most jokers a hand given to the kernels may hold (far above any deck the rules allow)."""


RACE_THREADS: Final = min(2, os.cpu_count() or 1)
"""Threads a batch of race play-outs is spread over."""


Layout = tuple[bool, tuple[int, ...], int, int, int, int]
"""A meld as the kernels return it: (is a run, card codes in order, start, suit, rank, value)."""


def compiled_solver(rules: Rules) -> Any:
    """A compiled solver for the meld options of ``rules`` (a new one; :class:`NativeBackend` caches).

    Its ``melds`` dictionary keeps the :class:`Meld` of every layout the kernels returned.
    """
    lo, hi = position_bounds(rules)
    found = _native.Solver(
        lo=lo,
        hi=hi,
        both_ends=rules.allow_ace_both_ends,
        max_adjacent_jokers=-1 if rules.max_adjacent_jokers is None else rules.max_adjacent_jokers,
        set_min=rules.set_size_min,
        set_max=rules.set_size_max,
        distinct=rules.set_distinct_suits,
        joker_ok=[n > 0 and joker_count_problem(n, k, rules) is None for n in range(16) for k in range(16)],
        deadwood_values=[rules.deadwood_value(c) for c in range(NUM_FACES + 1)],
        joker_upward=rules.joker_end_assignment == "upward_default",
    )
    found.melds = {}
    return found


def _melds(found: Any, rules: Rules, layouts: tuple[Layout, ...]) -> tuple[Meld, ...]:
    """The :class:`Meld` of each layout (read as the Python twin reads it; kept per compiled solver)."""
    cache: dict[Layout, Meld] = found.melds
    out = []
    for layout in layouts:
        meld = cache.get(layout)
        if meld is None:
            run, cards, start, suit, rank, value = layout
            kind = MeldKind.RUN if run else MeldKind.SET
            if len(cache) >= 1 << 16:
                cache.clear()
            meld = cache[layout] = _to_meld(_Shape(cards, kind, start, suit, rank, value), rules)
        out.append(meld)
    return tuple(out)


_POINTS: dict[int, tuple[Rules, list[int]]] = {}


def _points(rules: Rules) -> list[int]:
    """``card_points`` of every card code under ``rules`` (kept per rule set)."""
    entry = _POINTS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_POINTS) > 512:
            _POINTS.clear()
        entry = _POINTS[id(rules)] = (rules, [rules.card_points(c) for c in range(NUM_FACES + 1)])
    return entry[1]


def _cool(found: Any) -> None:
    """Free the per-hand results of a compiled solver that left the hot few (its ``melds`` too)."""
    found.clear_caches()
    found.melds.clear()


class NativeBackend:
    """The compiled kernels, one ``Solver`` (with its per-hand caches) per set of meld options.

    Memory: a solver's result caches grow with use up to 3 x 8,192 slots (704 KiB; see
    ``ResultCache`` in ``_native.cpp``) and only the :data:`~.tables.HOT_MELD_OPTION_SETS` most
    recently used solvers keep theirs (the others' are freed, :func:`_cool`), so however many rule
    sets a process meets its result caches stay within about 2.8 MiB, plus the batch threads' own
    (up to 8 x 352 KiB) while a knock_races or gin_duels batch runs.

    Cards may be any iterable of card codes; the kernels raise :class:`ValueError` for a face held
    three times (with the reference's message) or a code outside 0–52, :class:`TypeError` for a
    non-integer.
    """

    name: Final = "native"

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Rules, Any]] = {}
        self._by_options: dict[MeldRules, Any] = {}
        self._last: tuple[Rules | None, Any] = (None, None)
        """The rule set of the last call and its solver: one tuple, read once, so that a thread
        cannot pair another thread's rule set with the solver before it. Each kernel unpacks it
        inline rather than calling :meth:`solver`: on a cached hand the call would cost about 5 %
        of the kernel (measured: 341–350 against 356–367 ns per 10-card gin ``min_deadwood``)."""

    def solver(self, rules: Rules) -> Any:
        """The compiled solver for ``rules`` (shared by every rule set with the same meld options)."""
        last = self._last
        if rules is last[0]:
            return last[1]
        entry = self._by_id.get(id(rules))
        if entry is not None and entry[0] is rules:
            found = entry[1]
            if found is not last[1]:  # a change of the set in use: keep the order of use
                remember(self._by_options, meld_options(rules), found, _cool)
        else:
            options = meld_options(rules)
            found = self._by_options.get(options)
            if found is None:
                found = compiled_solver(rules)
            dropped = remember(self._by_options, options, found, _cool)
            if dropped:
                kept = list(self._by_id.items())  # a copy: other threads may change the dict meanwhile
                self._by_id = {k: e for k, e in kept if all(e[1] is not d for d in dropped)}
            if len(self._by_id) > 512:
                self._by_id.clear()
            self._by_id[id(rules)] = (rules, found)  # keeps ``rules`` alive, so its id is not reused
        self._last = (rules, found)
        return found

    def min_deadwood(self, cards: Iterable[int], rules: Rules) -> int:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        return found.min_deadwood(cards)  # type: ignore[no-any-return]

    def best_discards(self, cards: Iterable[int], rules: Rules) -> tuple[int, tuple[Card, ...]]:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        return found.best_discards(cards)  # type: ignore[no-any-return]

    def max_opening_value(self, cards: Iterable[int], rules: Rules, keep_one: bool) -> int:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        return found.max_opening_value(cards, keep_one)  # type: ignore[no-any-return]

    def best_opening(
        self,
        cards: Sequence[int],
        rules: Rules,
        must_include: int | None,
        keep_one: bool,
        minimum: int,
        single: bool,
    ) -> tuple[Meld, ...] | None:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        if found.max_opening_value(cards, keep_one) < max(minimum, 1):
            return None  # no collection reaches the minimum, the constrained ones neither
        must = -1 if must_include is None else must_include
        layouts = found.best_opening(cards, keep_one, must, single, minimum)
        return None if layouts is None else _melds(found, rules, layouts)

    def best_arrangement(self, cards: Sequence[int], rules: Rules) -> Arrangement:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        layouts, left, deadwood = found.best_arrangement(cards)
        return Arrangement(_melds(found, rules, layouts), left, deadwood)

    def all_melds(self, cards: Sequence[int], rules: Rules) -> list[tuple[Card, ...]]:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        return found.all_melds(cards)  # type: ignore[no-any-return]

    def layoff_targets(self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules) -> list[Layoff]:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        try:
            return found.layoff_targets(hand, table_melds)  # type: ignore[no-any-return]
        except ValueError:  # a face held three times: lay-offs accept any multiset, the kernels not
            return python_layoff_targets(hand, table_melds, rules)

    def layoff_chain(
        self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules
    ) -> tuple[Layoff, ...]:
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        try:
            return found.layoff_chain(hand, table_melds, _points(rules))  # type: ignore[no-any-return]
        except ValueError:  # a face held three times: lay-offs accept any multiset, the kernels not
            return python_layoff_chain(hand, table_melds, rules)

    def meld_race(
        self,
        rules: Rules,
        seat: tuple[Sequence[int], bool, Sequence[Meld]],
        first: int | None,
        barred: int | None,
        draws: Sequence[int],
        race: tuple[int, bool, bool, bool, float, float],
    ) -> float | None:
        """The melding-game race of ``seat`` (cards, opened, table) in compiled code."""
        last_rules, found = self._last
        if rules is not last_rules:
            found = self.solver(rules)
        cards, opened, table = seat
        minimum, single, keep_one, layoff_on_opening_turn, per_turn, closed = race
        return found.meld_race(  # type: ignore[no-any-return]
            cards,
            opened,
            table,
            draws,
            -1 if first is None else first,
            -1 if barred is None else barred,
            minimum,
            single,
            keep_one,
            layoff_on_opening_turn,
            _points(rules),
            per_turn,
            closed,
        )

    def knock_races(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        stocks: Sequence[Sequence[int]],
        draws: int,
        points_per_turn: float,
        live: Collection[int] | None = None,
        out_margin: int = 0,
        out_weight: float = 0.0,
    ) -> list[list[float]] | None:
        """The knock-game race play-outs in compiled code, released from the GIL and spread over up to
        :data:`RACE_THREADS` threads (results do not depend on the split)."""
        threads = RACE_THREADS if len(stocks) >= 16 else 1
        return self.solver(rules).knock_races(  # type: ignore[no-any-return]
            hands,
            stocks,
            draws,
            threshold=rules.knock_threshold or 0,
            less_than=rules.knock_comparison == "lt",
            points_per_turn=points_per_turn,
            threads=threads,
            draw_aware=live is not None,
            live=[] if live is None else list(live),
            out_margin=out_margin,
            out_weight=out_weight,
        )

    def gin_duels(
        self,
        rules: Rules,
        hands: Sequence[tuple[Sequence[int], int | None]],
        opponents: Sequence[Sequence[int]],
        stocks: Sequence[Sequence[int]],
        turns: int,
        drawn: float,
        barred_taken: bool,
    ) -> list[list[float]] | None:
        """The gin duel play-outs in compiled code, released from the GIL and spread over up to
        :data:`RACE_THREADS` threads (results do not depend on the split)."""
        threads = RACE_THREADS if len(stocks) >= 16 else 1
        return self.solver(rules).gin_duels(  # type: ignore[no-any-return]
            [hand for hand, _ in hands],
            [-1 if up is None else up for _, up in hands],
            opponents,
            stocks,
            threshold=rules.knock_threshold or 0,
            less_than=rules.knock_comparison == "lt",
            barred_taken=barred_taken,
            turns=turns,
            drawn=drawn,
            threads=threads,
        )

    def clear_caches(self, meld_tables: bool = True) -> None:
        for found in list(self._by_options.values()):
            found.clear_caches()
        if meld_tables:
            self._by_id.clear()
            self._by_options.clear()
            self._last = (None, None)
