"""The compiled backend: the C++ kernels of ``rummykit.solver._native`` behind the backend interface.

Importing this module raises :class:`ImportError` when the extension was not built (no compiler at
install time); :mod:`.backend` then runs the pure-Python twin. One compiled ``Solver`` exists per
set of meld options (:data:`~rummykit.solver.tables.MELD_OPTIONS`), built from exactly those
options, so a rule set's other fields cannot reach the kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import NUM_FACES
from rummykit.melds import joker_count_problem, position_bounds
from rummykit.rules import Rules
from rummykit.solver import _native  # type: ignore[attr-defined]
from rummykit.solver.encoding import _masks
from rummykit.solver.tables import meld_options

MAX_JOKERS: Final[int] = _native.MAX_JOKERS
"""The most jokers a hand given to the kernels may hold (far above any deck the rules allow)."""


def compiled_solver(rules: Rules) -> _native.Solver:
    """A compiled solver for the meld options of ``rules`` (a new one; :class:`NativeBackend` caches)."""
    lo, hi = position_bounds(rules)
    return _native.Solver(
        lo=lo,
        hi=hi,
        both_ends=rules.allow_ace_both_ends,
        max_adjacent_jokers=-1 if rules.max_adjacent_jokers is None else rules.max_adjacent_jokers,
        set_min=rules.set_size_min,
        set_max=rules.set_size_max,
        distinct=rules.set_distinct_suits,
        joker_ok=[n > 0 and joker_count_problem(n, k, rules) is None for n in range(16) for k in range(16)],
        deadwood_values=[rules.deadwood_value(c) for c in range(NUM_FACES + 1)],
    )


class NativeBackend:
    """The compiled kernels, one ``Solver`` (with its per-hand caches) per set of meld options."""

    name: Final = "native"

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Rules, _native.Solver]] = {}
        self._by_options: dict[tuple[object, ...], _native.Solver] = {}

    def solver(self, rules: Rules) -> _native.Solver:
        """The compiled solver for ``rules`` (shared by every rule set with the same meld options)."""
        entry = self._by_id.get(id(rules))
        if entry is not None and entry[0] is rules:
            return entry[1]
        options = meld_options(rules)
        found = self._by_options.get(options)
        if found is None:
            found = self._by_options[options] = compiled_solver(rules)
        if len(self._by_id) > 512:
            self._by_id.clear()
        self._by_id[id(rules)] = (rules, found)  # keeps ``rules`` alive, so its id is not reused
        return found

    def min_deadwood(self, cards: Sequence[int], rules: Rules) -> int:
        try:
            return int(self.solver(rules).min_deadwood(cards))
        except ValueError:
            _masks(cards)  # the reference's error for a face held three times
            raise

    def best_discards(self, cards: Sequence[int], rules: Rules) -> tuple[int, tuple[int, ...]]:
        try:
            found: tuple[int, tuple[int, ...]] = self.solver(rules).best_discards(cards)
        except ValueError:
            _masks(cards)
            raise
        return found

    def max_opening_value(self, cards: Sequence[int], rules: Rules, keep_one: bool) -> int:
        try:
            return int(self.solver(rules).max_opening_value(cards, keep_one))
        except ValueError:
            _masks(cards)
            raise

    def clear_caches(self, meld_tables: bool = True) -> None:
        for found in self._by_options.values():
            found.clear_caches()
        if meld_tables:
            self._by_id.clear()
            self._by_options.clear()
