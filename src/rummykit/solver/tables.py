"""Candidate-meld tables per rule set, keyed by the declared meld options (:data:`MELD_OPTIONS`).

Everything the meld search derives from a rule set depends only on the options named in
:data:`MELD_OPTIONS`; two rule sets that agree on them share one :class:`_Tables` (and its per-hand
result caches). ``tests/test_solver_options.py`` varies every other option of every preset and
checks that no solver answer changes, so an option that starts to matter to the meld search cannot
be left out of the key unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final, TypeVar

from rummykit.cards import JOKER_CODE, NUM_FACES
from rummykit.melds import MeldKind, joker_count_problem, position_bounds
from rummykit.rules import MeldRules, Rules

T = TypeVar("T")

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


MAX_MELD_OPTION_SETS: Final = 32
"""Distinct meld-option sets whose tables and result caches are kept, the least recently used
dropped first: a server whose tables each choose their own house rules cannot grow the solver's
memory without bound (answers never go stale, so a dropped set is only rebuilt)."""

_BY_ID: dict[int, tuple[Rules, _Tables]] = {}
_BY_OPTIONS: dict[MeldRules, _Tables] = {}


def remember(by_options: dict[MeldRules, T], options: MeldRules, found: T) -> list[T]:
    """Keep ``found`` as the most recent entry of ``by_options``; return what was dropped to stay
    within :data:`MAX_MELD_OPTION_SETS` (the oldest entries; dicts keep insertion order)."""
    by_options.pop(options, None)
    by_options[options] = found
    dropped = []
    while len(by_options) > MAX_MELD_OPTION_SETS:
        dropped.append(by_options.pop(next(iter(by_options))))
    return dropped


def _tables(rules: Rules) -> _Tables:
    entry = _BY_ID.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    options = meld_options(rules)
    tables = _BY_OPTIONS.get(options)
    if tables is None:
        tables = _Tables(rules)
    dropped = remember(_BY_OPTIONS, options, tables)
    if dropped:
        for key in [k for k, (_, t) in _BY_ID.items() if any(t is d for d in dropped)]:
            del _BY_ID[key]
    if len(_BY_ID) > 512:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, tables)  # keeps ``rules`` alive, so its id is not reused
    return tables


def clear_tables(meld_tables: bool = True) -> None:
    """Forget cached results (for measurements; results never go stale).

    With ``meld_tables`` (the default) the per-rule-set tables of candidate melds per suit and rank
    are dropped too; otherwise only the per-hand results are.
    """
    if meld_tables:
        _BY_ID.clear()
        _BY_OPTIONS.clear()
        return
    for tables in _BY_OPTIONS.values():
        tables.deadwood_cache.clear()
        tables.discard_cache.clear()
        tables.opening_cache.clear()
