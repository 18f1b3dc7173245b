"""Candidate-meld tables per rule set, keyed by the declared meld options (:data:`MELD_OPTIONS`).

Everything the meld search derives from a rule set depends only on the options named in
:data:`MELD_OPTIONS`; two rule sets that agree on them share one :class:`_Tables` (and its per-hand
result caches). ``tests/test_solver_options.py`` varies every other option of every preset and
checks that no solver answer changes, so an option that starts to matter to the meld search cannot
be left out of the key unnoticed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Final, TypeVar

from rummykit.cards import JOKER_CODE, NUM_FACES
from rummykit.melds import MeldKind, joker_count_problem, position_bounds
from rummykit.rules import MeldRules, Rules
from rummykit.solver.encoding import _MAX_CACHE

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

MELD_OPTIONS: Final = tuple(f.name for f in fields(MeldRules))
"""The :class:`~rummykit.rules.Rules` fields that decide which melds exist, where a joker may be laid
off (``joker_end_assignment``) and what a card is worth to the meld search (RULES.md §2.3, §2.5,
§4.6): the fields of the sub-record ``rules.melds``. Nothing else of a rule set is read by the
cached searches."""


def meld_options(rules: Rules) -> MeldRules:
    """The meld options of ``rules`` (``rules.melds``): the cache key of the solver's tables."""
    return rules.melds


@dataclass(frozen=True, slots=True)
class _Shape:
    """One way of laying out a candidate meld: its cards in position order and how to read it."""

    cards: tuple[int, ...]
    kind: MeldKind
    start: int
    suit: int
    rank: int
    value: int


@dataclass(slots=True)
class _Cand:
    """A candidate meld as a multiset: natural cards (hand encoding) plus a joker count."""

    naturals: int
    jokers: int
    deadwood_gain: int
    """Deadwood removed when this meld is formed: its naturals' values plus 20 per joker (viennese)."""
    value: int
    """Best opening value over its shapes."""
    shape: _Shape
    """The shape with the best opening value (first one enumerated on a tie)."""
    low: int = 0
    """Code of its lowest natural card (the card that opens it in the search)."""
    fields: int = 0
    """All bits of the fields of its naturals (marks the cards that can be melded at all)."""


class _Tables:
    """Everything derived from the meld options and card values of one rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.options = meld_options(rules)
        self.lo, self.hi = position_bounds(rules)
        self.both_ends = rules.allow_ace_both_ends
        self.max_adj = rules.max_adjacent_jokers
        self.set_min = rules.set_size_min
        self.set_max = rules.set_size_max
        self.distinct = rules.set_distinct_suits
        self.joker_ok = [
            [n > 0 and joker_count_problem(n, k, rules) is None for k in range(16)] for n in range(16)
        ]
        # Fewest naturals in any meld when jokers are at hand (1 or 2 depending on joker_limit).
        self.min_naturals_with_jokers = min(
            (n for n in range(1, 4) for k in range(max(1, 3 - n), 14) if self.joker_ok[n][k]), default=3
        )
        self.dv = [rules.deadwood_value(c) for c in range(NUM_FACES + 1)]
        self.jv = self.dv[JOKER_CODE]
        self.runs: dict[tuple[int, int, bool, int], tuple[_Cand, ...]] = {}
        self.segments: dict[tuple[int, int, int], tuple[_Cand, ...]] = {}
        self.clusters: dict[tuple[int, int, bool, int], tuple[_Cand, ...]] = {}
        self.sets: dict[tuple[int, tuple[int, ...], int], tuple[_Cand, ...]] = {}
        self.run_shapes: dict[tuple[int, int, bool, int], tuple[_Shape, ...]] = {}
        self.set_shapes: dict[tuple[int, tuple[int, ...], int], tuple[_Shape, ...]] = {}
        self.deadwood_cache: dict[int, int] = {}
        self.discard_cache: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.opening_cache: dict[tuple[int, bool], int] = {}

    def result_entries(self) -> int:
        """Entries of the per-hand result caches."""
        return len(self.deadwood_cache) + len(self.discard_cache) + len(self.opening_cache)

    def clear_results(self) -> None:
        """Empty the per-hand result caches (the meld tables stay)."""
        self.deadwood_cache.clear()
        self.discard_cache.clear()
        self.opening_cache.clear()

    def cool(self) -> None:
        """Empty the result caches and the candidate-meld tables: the set left the hot few.

        The tables are built lazily per suit pattern and grow with the variety of hands seen
        (viennese: 1.4 MiB after 2,000 random hands, 6.5 MiB after 40,000), so a cold set keeps
        neither; it rebuilds them when used again (answers never go stale)."""
        self.clear_results()
        for table in (self.runs, self.segments, self.clusters, self.sets, self.run_shapes, self.set_shapes):
            table.clear()


MAX_MELD_OPTION_SETS: Final = 32
"""Distinct meld-option sets whose tables and result caches are kept, the least recently used
dropped first: a server whose tables each choose their own house rules cannot grow the solver's
memory without bound (answers never go stale, so a dropped set is only rebuilt)."""

HOT_MELD_OPTION_SETS: Final = 4
"""Of those, how many most recently used sets keep their per-hand result caches (both backends):
when a set falls out of these its result caches are emptied (in the compiled backend their memory
freed; the compiled solver's own search scratch, about 50 KiB, stays), in the pure-Python backend
its candidate-meld tables too (:meth:`_Tables.cool`). A process playing one or a few rule sets keeps
every cache hot; one that a stranger makes touch :data:`MAX_MELD_OPTION_SETS` sets holds full
caches for at most this many (compiled: 704 KiB of results each; pure Python: see
:data:`RESULT_BUDGET`)."""

RESULT_BUDGET: Final = 3 * _MAX_CACHE
"""Pure-Python backend: per-hand result entries kept over all meld-option sets together (about
200 bytes each with their keys and values, so about 75 MiB). Each of a set's three result dicts
holds at most ``_MAX_CACHE`` entries, so one set alone never passes the budget (a single rule set
runs as before); past it the least recently used other sets' results are emptied. Without it the
hot-set rule alone would allow 4 such sets, and before either rule 32 sets could hold 2.4 GiB."""

_BUDGET_STEP: Final = 1024
"""A result dict checks the budget when its size is a multiple of this (``_MAX_CACHE`` is one)."""

_BY_ID: dict[int, tuple[Rules, _Tables]] = {}
_BY_OPTIONS: dict[MeldRules, _Tables] = {}
_latest: tuple[Rules | None, _Tables | None] = (None, None)
"""The rule set of the last call and its tables, the most recently used entry of ``_BY_OPTIONS`` (its
order is that of use). One tuple, read once: bots call the solver from threads."""


_ORDER_LOCK: Final = threading.RLock()
"""Held while the order of use of the option sets changes (:func:`remember`)."""


def remember(
    by_options: dict[MeldRules, T], options: MeldRules, found: T, cool: Callable[[T], None] | None = None
) -> list[T]:
    """Make ``found`` the most recent entry of ``by_options`` (dicts keep insertion order: oldest
    first); call ``cool`` on the entry that this pushes out of the :data:`HOT_MELD_OPTION_SETS` most
    recent ones, if any; return what was dropped to stay within :data:`MAX_MELD_OPTION_SETS`.

    Call it on every change of the set in use (not only for a new one), so that the order is the
    order of use and a cooled set takes no result until it is the most recent again.

    Bots call the solver from threads: the order is changed under a lock (it changes only when the
    set in use does), so that two threads cannot interleave its reads and writes."""
    with _ORDER_LOCK:
        was_hot = options in list(by_options)[-HOT_MELD_OPTION_SETS:]
        by_options.pop(options, None)
        by_options[options] = found
        if cool is not None and not was_hot and len(by_options) > HOT_MELD_OPTION_SETS:
            cool(by_options[list(by_options)[-HOT_MELD_OPTION_SETS - 1]])
        dropped = []
        while len(by_options) > MAX_MELD_OPTION_SETS:
            dropped.append(by_options.pop(next(iter(by_options))))
        return dropped


def _tables(rules: Rules) -> _Tables:
    latest = _latest
    if rules is latest[0]:  # the common case: the same rule set as the last call
        return latest[1]  # type: ignore[return-value]
    entry = _BY_ID.get(id(rules))
    if entry is not None and entry[0] is rules:
        tables = entry[1]
    else:
        tables = _BY_OPTIONS.get(meld_options(rules)) or _Tables(rules)
        if len(_BY_ID) > 512:
            _BY_ID.clear()
        _BY_ID[id(rules)] = (rules, tables)  # keeps ``rules`` alive, so its id is not reused
    _use(rules, tables)
    return tables


def _use(rules: Rules, tables: _Tables) -> None:
    """Make ``tables`` (of ``rules``) the most recently used set, cooling the one it pushes out of the
    hot few."""
    global _latest
    if tables is not _latest[1]:
        dropped = remember(_BY_OPTIONS, tables.options, tables, _Tables.cool)
        if dropped:
            for key in [k for k, (_, t) in list(_BY_ID.items()) if any(t is d for d in dropped)]:
                _BY_ID.pop(key, None)
    _latest = (rules, tables)


def make_room(tables: _Tables, cache: dict[K, V]) -> None:
    """Called before a result is added to ``cache``, one of the result dicts of ``tables`` (the set in
    use), when ``len(cache)`` is a multiple of :data:`_BUDGET_STEP`: a full dict is emptied, and past
    :data:`RESULT_BUDGET` the least recently used other sets' results are."""
    if len(cache) >= _MAX_CACHE:
        cache.clear()
    kept = list(_BY_OPTIONS.values())  # a copy: other threads may change the dict meanwhile
    total = sum(t.result_entries() for t in kept)
    for older in kept:
        if total <= RESULT_BUDGET:
            break
        if older is not tables:
            total -= older.result_entries()
            older.clear_results()


def clear_tables(meld_tables: bool = True) -> None:
    """Forget cached results (for measurements; results never go stale).

    With ``meld_tables`` (the default) the per-rule-set tables of candidate melds per suit and rank
    are dropped too; otherwise only the per-hand results are.
    """
    global _latest
    if meld_tables:
        _BY_ID.clear()
        _BY_OPTIONS.clear()
        _latest = (None, None)
        return
    for tables in list(_BY_OPTIONS.values()):
        tables.clear_results()
