"""Meld search: minimum deadwood, best arrangement, best discards, best opening and lay-off targets.

Everything here is a pure function of a multiset of cards and a :class:`~rummykit.rules.Rules`; no
round state is read or kept. The rules in force decide which melds exist (RULES.md §2.3):
``joker_limit``, ``max_adjacent_jokers``, ``ace_low_in_runs``, ``ace_high_in_runs``,
``allow_ace_both_ends``, ``set_size_min``/``set_size_max`` and ``set_distinct_suits``
(:data:`~rummykit.solver.tables.MELD_OPTIONS`). Deadwood is counted in ``rules.deadwood_value`` in
every game, the melding games too (ace 11, joker 20), whose hands left are scored by
``rules.penalty_value`` instead (Basic Rummy: ace 1, joker 15).

The package (speed matters: bots and learning agents call these functions in hot loops):

* :mod:`.encoding`: the bit layouts of a hand, shared by every backend;
* :mod:`.tables` and :mod:`.candidates`: candidate melds per rule set, cached by pattern;
* :mod:`.cover`: the exact cover searches (pure Python); :mod:`.layoff_search`: lay-off search;
* :mod:`.backend`: the seam. ``min_deadwood``, ``best_discards``, ``max_opening_value``,
  ``best_opening``, ``best_arrangement``, ``all_melds``, ``layoff_targets`` and ``layoff_chain`` run on
  the active backend: the compiled C++ kernels (:mod:`.native`) when built, else the pure-Python
  twin (:mod:`.python_backend`), which ``RUMMYKIT_PURE=1`` selects explicitly. Both give identical
  answers; results are cached per hand and :func:`clear_caches` empties the caches.

>>> from rummykit.rules import Rules
>>> from rummykit.cards import parse_cards
>>> viennese = Rules.preset("viennese")
>>> min_deadwood(parse_cards("7H 8H 9H QS QD QC 2C 2D 2S 3H"), viennese)
3
"""

from __future__ import annotations

from rummykit.solver import backend
from rummykit.solver.api import (
    all_melds,
    best_arrangement,
    best_discards,
    best_opening,
    max_opening_value,
    melds_containing,
    min_deadwood,
)
from rummykit.solver.arrangement import Arrangement
from rummykit.solver.layoffs import Layoff, layoff_chain, layoff_targets


def clear_caches(meld_tables: bool = True) -> None:
    """Forget cached results of every backend (for measurements; results never go stale).

    With ``meld_tables`` (the default) the per-rule-set tables of candidate melds per suit and rank
    are dropped too; otherwise only the per-hand results are.
    """
    for b in backend.available().values():
        b.clear_caches(meld_tables)


__all__ = [
    "Arrangement",
    "Layoff",
    "all_melds",
    "backend",
    "best_arrangement",
    "best_discards",
    "best_opening",
    "clear_caches",
    "layoff_chain",
    "layoff_targets",
    "max_opening_value",
    "melds_containing",
    "min_deadwood",
]
