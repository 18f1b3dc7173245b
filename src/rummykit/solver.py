"""Meld search: minimum deadwood, best arrangement, best discards, best opening and lay-off targets.

Everything here is a pure function of a multiset of cards and a :class:`~rummykit.rules.Rules`; no
round state is read or kept. The rules in force decide which melds exist (RULES.md §2.3):
``joker_limit``, ``max_adjacent_jokers``, ``ace_low_in_runs``, ``ace_high_in_runs``,
``allow_ace_both_ends``, ``set_size_min``/``set_size_max`` and ``set_distinct_suits``.

How the search works (speed matters: bots and learning agents call these functions in hot loops):

* A hand is described by packed rank masks (16 bits per suit) of the faces held once and twice, and
  for the search by one integer with three bits per card code holding that face's count (two decks
  hold two copies of a face) and the jokers counted above the 52 natural faces. Removing a meld is
  one subtraction; whether a meld still fits is one guard-bit test.
* Every meld formable from the hand is enumerated from the masks: runs per segment of consecutive
  cards (no jokers) or per cluster of cards that jokers can bridge, sets per rank. These lists depend
  only on the segment, cluster or rank pattern and are cached per rule set, so they repeat across
  hands.
* An exact cover search then decides card by card (lowest code first) whether the card stays
  unmelded or opens one of the melds whose lowest natural card it is, memoised on the remaining
  multiset. Results are cached per hand; :func:`clear_caches` empties the caches.

>>> from rummykit.rules import Rules
>>> from rummykit.cards import parse_cards
>>> viennese = Rules.preset("viennese")
>>> min_deadwood(parse_cards("7H 8H 9H QS QD QC 2C 2D 2S 3H"), viennese)
3
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import JOKER_CODE, NUM_FACES, NUM_RANKS, NUM_SUITS, Card
from rummykit.errors import IllegalMeldError
from rummykit.melds import (
    HIGH_ACE,
    LOW_ACE,
    End,
    Meld,
    MeldKind,
    joker_count_problem,
    position_bounds,
    position_rank,
    position_value,
    rank_value,
)
from rummykit.rules import Rules

__all__ = [
    "Arrangement",
    "Layoff",
    "all_melds",
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

# Hand encoding -------------------------------------------------------------------------------------
_BITS: Final = 3
"""Bits per card code: a count of 0–2 copies, room for one more, and a guard bit for the fit test."""
_JOKER_SHIFT: Final = _BITS * NUM_FACES
"""Jokers are counted above the natural faces (no field limit)."""
_UNIT: Final = tuple(1 << (_BITS * c) for c in range(NUM_FACES + 1))
"""One copy of each card code in the hand encoding (index 52 = one joker)."""
_ONES: Final = sum(1 << (_BITS * c) for c in range(NUM_FACES))
_GUARD: Final = _ONES << 2
"""The top bit of every natural field: ``((hand | _GUARD) - meld) & _GUARD == _GUARD`` iff it fits."""
_NATURALS: Final = (1 << _JOKER_SHIFT) - 1
_STATE_J: Final = _JOKER_SHIFT + 8
"""Shift of the joker count inside a memo key (above the natural fields and the kept flag)."""
_KEPT: Final = 1 << _JOKER_SHIFT
_MAX_CACHE: Final = 1 << 17
"""Entries kept per result cache before it is emptied (cheap bound on memory)."""

Layoff = tuple[Card, int, End | None]
"""One lay-off: the card, the index of the table meld, and the run end (``None`` for a set)."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into disjoint melds and unmelded cards (deadwood, Schlechtpunkte)."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds]
        rest = " ".join(str(c) for c in self.deadwood_cards)
        return " ".join(parts) + (f" | {rest}" if rest else "") + f" = {self.deadwood}"


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


def _meld_options(rules: Rules) -> tuple[object, ...]:
    return (
        rules.ace_low_in_runs,
        rules.ace_high_in_runs,
        rules.allow_ace_both_ends,
        rules.max_adjacent_jokers,
        rules.set_size_min,
        rules.set_size_max,
        rules.set_distinct_suits,
        rules.joker_limit,
        rules.deadwood_ace,
        rules.deadwood_joker,
    )


_BY_ID: dict[int, tuple[Rules, _Tables]] = {}
_BY_OPTIONS: dict[tuple[object, ...], _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    entry = _BY_ID.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    options = _meld_options(rules)
    tables = _BY_OPTIONS.get(options)
    if tables is None:
        tables = _BY_OPTIONS[options] = _Tables(rules)
    if len(_BY_ID) > 512:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, tables)  # keeps ``rules`` alive, so its id is not reused
    return tables


def clear_caches(meld_tables: bool = True) -> None:
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


def _decode(key: int) -> list[Card]:
    out: list[Card] = []
    for c in range(NUM_FACES):
        n = (key >> (_BITS * c)) & 7
        if n:
            out.extend([Card(c)] * n)
    out.extend([Card(JOKER_CODE)] * (key >> _JOKER_SHIFT))
    return out


# Candidate melds ------------------------------------------------------------------------------------
def _longest_zero_run(mask: int, start: int, end: int) -> int:
    best = streak = 0
    for p in range(start, end + 1):
        if mask >> p & 1:
            streak = 0
        else:
            streak += 1
            if streak > best:
                best = streak
    return best


def _run_shapes(t: _Tables, suit: int, positions: int, ace_twice: bool, jokers: int) -> tuple[_Shape, ...]:
    """Every run shape of ``suit``: windows of positions filled by the naturals on ``positions``
    (bit p = a natural on run position p) or by at most ``jokers`` jokers."""
    key = (suit, positions, ace_twice, jokers)
    cached = t.run_shapes.get(key)
    if cached is not None:
        return cached
    shapes: list[_Shape] = []
    seen: set[tuple[int, ...]] = set()
    joker_ok = t.joker_ok
    for start in range(t.lo, t.hi - 1):
        for end in range(start + 2, t.hi + 1):
            length = end - start + 1
            window = ((1 << length) - 1) << start
            present = positions & window
            gaps = length - present.bit_count()
            if gaps > jokers:
                break  # a longer window only adds gaps
            if not present:
                continue
            if start == LOW_ACE and end == HIGH_ACE and not t.both_ends:
                continue
            spare = jokers - gaps  # naturals that may still be replaced by jokers
            subs = [present]
            if spare:
                bits = [1 << p for p in range(start, end + 1) if present >> p & 1]
                for drop in range(1, min(spare, len(bits) - 1) + 1):
                    subs.extend(present - sum(removed) for removed in itertools.combinations(bits, drop))
            for sub in subs:
                n = sub.bit_count()
                k = length - n
                if (
                    joker_ok[n][k]
                    and not (sub >> LOW_ACE & 1 and sub >> HIGH_ACE & 1 and not ace_twice)
                    and (t.max_adj is None or k == 0 or _longest_zero_run(sub, start, end) <= t.max_adj)
                ):
                    cards = tuple(
                        suit * NUM_RANKS + position_rank(p) - 1 if sub >> p & 1 else JOKER_CODE
                        for p in range(start, end + 1)
                    )
                    if cards not in seen:
                        seen.add(cards)
                        value = sum(position_value(p) for p in range(start, end + 1))
                        shapes.append(_Shape(cards, MeldKind.RUN, start, suit, 0, value))
    result = tuple(shapes)
    t.run_shapes[key] = result
    return result


def _set_shapes(t: _Tables, rank: int, counts: tuple[int, ...], jokers: int) -> tuple[_Shape, ...]:
    """Every set shape of ``rank``: ``counts`` copies per suit available, up to ``jokers`` jokers."""
    key = (rank, counts, jokers)
    cached = t.set_shapes.get(key)
    if cached is not None:
        return cached
    shapes: list[_Shape] = []
    per_suit = [range(min(n, 1) + 1) if t.distinct else range(n + 1) for n in counts]
    for combo in itertools.product(*per_suit):
        n = sum(combo)
        if n == 0:
            continue
        naturals = tuple(s * NUM_RANKS + rank - 1 for s in range(NUM_SUITS) for _ in range(combo[s]))
        for k in range(jokers + 1):
            size = n + k
            if size > t.set_max:
                break
            if size < t.set_min or not t.joker_ok[n][k]:
                continue
            cards = naturals + (JOKER_CODE,) * k
            shapes.append(_Shape(cards, MeldKind.SET, 0, -1, rank, rank_value(rank) * size))
    result = tuple(shapes)
    t.set_shapes[key] = result
    return result


def _cands(t: _Tables, shapes: tuple[_Shape, ...]) -> tuple[_Cand, ...]:
    """Shapes merged by multiset (naturals, joker count), keeping the best opening value."""
    by_multiset: dict[tuple[int, int], _Cand] = {}
    dv = t.dv
    for shape in shapes:
        naturals = 0
        gain = 0
        jokers = 0
        for c in shape.cards:
            if c == JOKER_CODE:
                jokers += 1
            else:
                naturals += _UNIT[c]
                gain += dv[c]
        gain += jokers * t.jv
        mkey = (naturals, jokers)
        old = by_multiset.get(mkey)
        if old is None:
            low = ((naturals & -naturals).bit_length() - 1) // _BITS
            fields = ((naturals | naturals >> 1) & _ONES) * 7
            by_multiset[mkey] = _Cand(naturals, jokers, gain, shape.value, shape, low, fields)
        elif shape.value > old.value:
            old.value = shape.value
            old.shape = shape
    return tuple(by_multiset.values())


def _suit_runs(t: _Tables, suit: int, ranks: int, dup: int, jokers: int) -> tuple[_Cand, ...]:
    positions = ranks << 1
    ace = ranks & 1
    if t.lo != LOW_ACE:
        positions &= ~(1 << LOW_ACE)
    if ace and t.hi == HIGH_ACE:
        positions |= 1 << HIGH_ACE
    ace_twice = bool(dup & 1)
    key = (suit, positions, ace_twice, jokers)
    cached = t.runs.get(key)
    if cached is None:
        # A run's window holds at most ``jokers`` positions without a natural, so its naturals come
        # from one cluster of positions whose gaps are at most ``jokers`` wide: build per cluster.
        found: list[_Cand] = []
        need = t.min_naturals_with_jokers
        cluster = 0
        prev = -HIGH_ACE
        bits = positions
        while True:
            low = bits & -bits
            p = low.bit_length() - 1
            if not bits or (p - prev - 1 > jokers and cluster):
                if cluster.bit_count() >= need:
                    twice = ace_twice and cluster >> LOW_ACE & 1 and cluster >> HIGH_ACE & 1
                    found.extend(_cluster_runs(t, suit, cluster, bool(twice), jokers))
                cluster = 0
                if not bits:
                    break
            cluster |= low
            prev = p
            bits ^= low
        cached = t.runs[key] = tuple(found)
    return cached


def _cluster_runs(t: _Tables, suit: int, positions: int, ace_twice: bool, jokers: int) -> tuple[_Cand, ...]:
    """The runs of one cluster of positions (see :func:`_suit_runs`), built for clubs and shifted."""
    key = (suit, positions, ace_twice, jokers)
    cached = t.clusters.get(key)
    if cached is None:
        # Runs look the same in every suit: build them for clubs once and shift them.
        base = t.clusters.get((0, positions, ace_twice, jokers))
        if base is None:
            base = t.clusters[(0, positions, ace_twice, jokers)] = _cands(
                t, _run_shapes(t, 0, positions, ace_twice, jokers)
            )
        cached = t.clusters[key] = tuple(_shift_suit(c, suit) for c in base) if suit else base
    return cached


def _segment_runs(t: _Tables, suit: int, positions: int, ace_twice: int) -> tuple[_Cand, ...]:
    """The runs without jokers inside one segment of consecutive run positions."""
    if positions != _ALL_POSITIONS:
        ace_twice = 0  # only the run A-2-…-K-A needs both copies of the ace
    key = (suit, positions, ace_twice)
    cached = t.segments.get(key)
    if cached is None:
        cached = t.segments[key] = _cands(t, _run_shapes(t, suit, positions, bool(ace_twice), 0))
    return cached


def _shift_suit(cand: _Cand, suit: int) -> _Cand:
    """The clubs run ``cand`` moved to ``suit``."""
    offset = suit * NUM_RANKS
    bits = _BITS * offset
    shape = cand.shape
    cards = tuple(c if c == JOKER_CODE else c + offset for c in shape.cards)
    return _Cand(
        cand.naturals << bits,
        cand.jokers,
        cand.deadwood_gain,
        cand.value,
        _Shape(cards, shape.kind, shape.start, suit, shape.rank, shape.value),
        cand.low + offset,
        cand.fields << bits,
    )


def _rank_sets(t: _Tables, rank: int, counts: tuple[int, ...], jokers: int) -> tuple[_Cand, ...]:
    key = (rank, counts, jokers)
    cached = t.sets.get(key)
    if cached is None:
        cached = t.sets[key] = _cands(t, _set_shapes(t, rank, counts, jokers))
    return cached


_BLOCK: Final = 16
"""Bits per suit in a packed rank mask: rank r on bit r-1, bit 13 free for a high ace."""
_RANKS13: Final = (1 << NUM_RANKS) - 1
_PACKED: Final = (*(1 << (_BLOCK * (c // NUM_RANKS) + c % NUM_RANKS) for c in range(NUM_FACES)), 0)
_ACES: Final = sum(1 << (_BLOCK * s) for s in range(NUM_SUITS))
_ALL_POSITIONS: Final = ((1 << HIGH_ACE) - 1) << LOW_ACE
"""Run positions 1 … 14 as bits."""


def _masks(cards: Sequence[int]) -> tuple[int, int, int]:
    """Packed rank masks (16 bits per suit) of the faces held and of the faces held twice; jokers.

    Raises:
        ValueError: a face is held more than twice.
    """
    jokers = cards.count(JOKER_CODE)
    have = sum(map(_PACKED.__getitem__, cards))
    if have.bit_count() == len(cards) - jokers:
        return have, 0, jokers  # no carry in the sum: no face is held twice
    have = dup = 0
    for c in cards:
        b = _PACKED[c]
        if have & b:
            if dup & b:
                raise ValueError(f"a hand may hold at most two copies of a face, not more of {Card(c)}")
            dup |= b
        else:
            have |= b
    return have, dup, jokers


def _hand_key(have: int, dup: int, jokers: int) -> int:
    """A cache key identifying the multiset described by :func:`_masks`."""
    return have | dup << 64 | jokers << 128


def _candidates(t: _Tables, have: int, dup: int, jokers: int) -> list[_Cand]:
    """Every candidate meld (as a multiset) formable from the hand described by the masks."""
    out: list[_Cand] = []
    a = have & _RANKS13
    b = have >> _BLOCK & _RANKS13
    c = have >> 2 * _BLOCK & _RANKS13
    d = have >> 3 * _BLOCK
    if jokers:
        if t.min_naturals_with_jokers == 1:
            ranks = a | b | c | d
            run_suits = [s for s in range(NUM_SUITS) if have >> (_BLOCK * s) & _RANKS13]
        else:
            ranks = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
            run_suits = [s for s in range(NUM_SUITS) if (have >> (_BLOCK * s) & _RANKS13).bit_count() >= 2]
        if not t.distinct:
            ranks |= (dup | dup >> _BLOCK | dup >> 2 * _BLOCK | dup >> 3 * _BLOCK) & _RANKS13
    else:
        # Without jokers a run lies inside one maximal segment of consecutive positions: look the
        # runs up per segment, a key that repeats far more often than a whole suit.
        run_suits = []
        p = have << 1
        if t.lo != LOW_ACE:
            p &= ~(_ACES << LOW_ACE)
        if t.hi == HIGH_ACE:
            p |= (have & _ACES) << HIGH_ACE
        if p & p >> 1 & p >> 2:
            while p:
                low = p & -p
                segment = p & ~(p + low)
                p ^= segment
                if segment.bit_count() >= 3:
                    suit = (low.bit_length() - 1) // _BLOCK
                    out.extend(_segment_runs(t, suit, segment >> (_BLOCK * suit), dup >> (_BLOCK * suit) & 1))
        three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
        if not t.distinct:
            ranks = a | b | c | d  # the generic enumeration filters by size
        elif t.set_min == 3:
            ranks = three
        else:
            ranks = three & a & b & c & d
        if not ranks and not out:
            return out
    for s in run_suits:
        shift = _BLOCK * s
        out.extend(_suit_runs(t, s, have >> shift & _RANKS13, dup >> shift & 1, jokers))
    while ranks:
        low = ranks & -ranks
        r = low.bit_length()
        counts = tuple(
            (1 + (dup >> (_BLOCK * s) & low != 0)) if have >> (_BLOCK * s) & low else 0
            for s in range(NUM_SUITS)
        )
        out.extend(_rank_sets(t, r, counts, jokers))
        ranks ^= low
    return out


def _index(cands: Sequence[_Cand]) -> tuple[dict[int, list[_Cand]], int, int]:
    """Candidates grouped by their lowest natural card code, the fields of every card some meld uses,
    and the fields of the cards that are the lowest natural of some meld (openers)."""
    by_low: dict[int, list[_Cand]] = {}
    useful = 0
    for cand in cands:
        lst = by_low.get(cand.low)
        if lst is None:
            by_low[cand.low] = [cand]
        else:
            lst.append(cand)
        useful |= cand.fields
    opener = 0
    for low in by_low:
        opener |= _UNIT[low] * 7
    return by_low, useful, opener


# Exact cover search ---------------------------------------------------------------------------------
# Both searches decide the lowest opener card of ``rest`` first. Cards below it that open no meld
# can no longer be melded (every meld holding them has a lower card, already decided), so they are
# dropped before memoising, which also makes equivalent states share one memo entry.
def _max_gain(
    rest: int, jokers: int, by_low: dict[int, list[_Cand]], opener: int, memo: dict[int, int]
) -> int:
    """Largest deadwood that disjoint melds can remove from ``rest`` (useful naturals) + jokers."""
    x = rest & opener
    if not x:
        return 0
    low = ((x & -x).bit_length() - 1) // _BITS
    unit = _UNIT[low]
    rest &= -unit
    key = rest | jokers << _STATE_J
    found = memo.get(key)
    if found is not None:
        return found
    r = rest - unit
    best = _max_gain(r, jokers, by_low, opener, memo) if r & opener else 0
    guarded = rest | _GUARD
    for cand in by_low[low]:
        if cand.jokers <= jokers and (guarded - cand.naturals) & _GUARD == _GUARD:
            r = rest - cand.naturals
            g = cand.deadwood_gain
            if r & opener:
                g += _max_gain(r, jokers - cand.jokers, by_low, opener, memo)
            if g > best:
                best = g
    memo[key] = best
    return best


def _max_value(
    rest: int,
    jokers: int,
    kept: bool,
    by_low: dict[int, list[_Cand]],
    opener: int,
    memo: dict[int, int],
) -> int:
    """Largest opening value of disjoint melds from ``rest`` + jokers; -1 if ``kept`` must become true
    (at least one card left outside the melds) and cannot."""
    x = rest & opener
    if not x:
        return 0 if kept or jokers or rest else -1
    low = ((x & -x).bit_length() - 1) // _BITS
    unit = _UNIT[low]
    if rest & (unit - 1):
        kept = True  # cards below the opener stay in hand
        rest &= -unit
    key = rest | jokers << _STATE_J | (_KEPT if kept else 0)
    found = memo.get(key)
    if found is not None:
        return found
    best = _max_value(rest - unit, jokers, True, by_low, opener, memo)
    guarded = rest | _GUARD
    for cand in by_low[low]:
        if cand.jokers <= jokers and (guarded - cand.naturals) & _GUARD == _GUARD:
            sub = _max_value(rest - cand.naturals, jokers - cand.jokers, kept, by_low, opener, memo)
            if sub >= 0 and cand.value + sub > best:
                best = cand.value + sub
    memo[key] = best
    return best


class _Search:
    """The candidate melds of one hand, ready for searches on that hand and its sub-hands."""

    __slots__ = ("by_low", "cards", "jokers", "key", "opener", "rest", "t", "total")

    def __init__(self, t: _Tables, cards: Sequence[int], masks: tuple[int, int, int] | None = None) -> None:
        self.t = t
        self.cards = cards
        have, dup, jokers = _masks(cards) if masks is None else masks
        key = sum(map(_UNIT.__getitem__, cards))
        self.key = key
        self.total = sum(map(t.dv.__getitem__, cards))
        self.jokers = jokers
        by_low, useful, opener = _index(_candidates(t, have, dup, jokers))
        self.by_low = by_low
        self.opener = opener
        self.rest = key & useful


def _deadwood_of_cards(t: _Tables, cards: Sequence[int], have: int, dup: int, jokers: int) -> int:
    total = sum(map(t.dv.__getitem__, cards))
    cands = _candidates(t, have, dup, jokers)
    if not cands:
        return total
    if len(cands) == 1 and not dup:
        return total - cands[0].deadwood_gain  # one meld, which cannot be formed twice
    by_low, useful, opener = _index(cands)
    rest = sum(map(_UNIT.__getitem__, cards)) & useful
    return total - _max_gain(rest, jokers, by_low, opener, {})


# Public entry points --------------------------------------------------------------------------------
def min_deadwood(cards: Iterable[int], rules: Rules) -> int:
    """Exact minimum deadwood of a hand (RULES.md §4.6).

    The minimum, over every collection of pairwise disjoint valid melds drawn from the hand, of the
    summed ``rules.deadwood_value`` of the cards left over. A joker inside a meld costs nothing; an
    unmatched joker costs ``deadwood_joker``. Any hand size works; two-deck duplicates and jokers
    are allowed (at most two copies of a face).

    >>> from rummykit.cards import parse_cards
    >>> viennese = Rules.preset("viennese")
    >>> min_deadwood(parse_cards("8S 8H 8D 8C KS KH KD KC JK 2C"), viennese)
    10
    >>> min_deadwood(parse_cards("JK 5S 6S 9D 9H 9C KH QH JH 4D"), viennese)
    4
    """
    t = _tables(rules)
    if type(cards) is not tuple and type(cards) is not list:
        cards = tuple(cards)
    have, dup, jokers = _masks(cards)
    key = have | dup << 64 | jokers << 128
    cache = t.deadwood_cache
    found = cache.get(key)
    if found is not None:
        return found
    result = _deadwood_of_cards(t, cards, have, dup, jokers)
    if len(cache) >= _MAX_CACHE:
        cache.clear()
    cache[key] = result
    return result


def best_discards(cards: Iterable[int], rules: Rules) -> tuple[int, tuple[Card, ...]]:
    """The minimum deadwood left after discarding one card, and every distinct discard achieving it.

    For a hand of n + 1 cards (after drawing): ``min over c of min_deadwood(hand - c)``. The discards
    are listed once per face, in card code order (clubs, diamonds, hearts, spades, then the joker).

    >>> from rummykit.cards import parse_cards
    >>> d, discards = best_discards(parse_cards("2H 3H 4H 5H 9S 9D 9C QC QD QH 7S"), Rules.preset("viennese"))
    >>> d, [str(c) for c in discards]
    (0, ['7S'])

    Raises:
        ValueError: the hand is empty.
    """
    t = _tables(rules)
    if type(cards) is not tuple and type(cards) is not list:
        cards = tuple(cards)
    if not cards:
        raise ValueError("best_discards needs at least one card")
    masks = _masks(cards)
    key = _hand_key(*masks)
    cache = t.discard_cache
    found = cache.get(key)
    if found is None:
        found = _best_discards_of(_Search(t, cards, masks))
        if len(cache) >= _MAX_CACHE:
            cache.clear()
        cache[key] = found
    return found[0], tuple(map(Card, found[1]))


def _best_discards_of(search: _Search) -> tuple[int, tuple[int, ...]]:
    """Best discards by bounds: removing a card lowers the deadwood by at most its value, and by
    exactly its value when the card is unmelded in an optimal arrangement of the whole hand."""
    t = search.t
    dv = t.dv
    key = search.key
    rest, jokers, by_low = search.rest, search.jokers, search.by_low
    if not by_low:
        # No meld at all: discard the most valuable card.
        values = {c: dv[c] for c in search.cards}
        top = max(values.values())
        return search.total - top, tuple(sorted(c for c, v in values.items() if v == top))
    memo: dict[int, int] = {}
    d = search.total - _max_gain(rest, jokers, by_low, search.opener, memo)
    left = _remove(key, _arrangement_path(search, rest, jokers, memo))
    exact: dict[int, int] = {}
    melded: list[int] = []
    for c in set(search.cards):
        if left >> (_BITS * c) & 7:
            exact[c] = d - dv[c]
        else:
            melded.append(c)
    best = min(exact.values(), default=1 << 30)  # every card melded: no exact value yet
    melded.sort(key=dv.__getitem__, reverse=True)
    for c in melded:
        if d - dv[c] > best:
            break  # sorted by value: no later card can reach ``best`` either
        if c == JOKER_CODE:
            gain = _max_gain(rest, jokers - 1, by_low, search.opener, memo)
        else:
            gain = _max_gain(rest - _UNIT[c], jokers, by_low, search.opener, memo)
        value = search.total - dv[c] - gain
        exact[c] = value
        if value < best:
            best = value
    return best, tuple(sorted(c for c, v in exact.items() if v == best))


def _arrangement_path(search: _Search, rest: int, jokers: int, memo: dict[int, int]) -> list[_Cand]:
    """The melds of an optimal cover (deterministic: melds before leaving a card, in list order)."""
    chosen: list[_Cand] = []
    by_low = search.by_low
    while rest:
        low = ((rest & -rest).bit_length() - 1) // _BITS
        cands = by_low.get(low)
        if cands is None:
            rest -= _UNIT[low]
            continue
        target = _max_gain(rest, jokers, by_low, search.opener, memo)
        guarded = rest | _GUARD
        for cand in cands:
            m = cand.naturals
            if cand.jokers <= jokers and (guarded - m) & _GUARD == _GUARD:
                sub = _max_gain(rest - m, jokers - cand.jokers, by_low, search.opener, memo)
                if cand.deadwood_gain + sub == target:
                    chosen.append(cand)
                    rest -= m
                    jokers -= cand.jokers
                    break
        else:
            rest -= _UNIT[low]
    return chosen


def _to_meld(shape: _Shape, rules: Rules) -> Meld:
    """A :class:`Meld` of the shape, read by :meth:`Meld.from_cards` where it reads it the same way."""
    try:
        meld = Meld.from_cards(shape.cards, rules)
    except IllegalMeldError:
        meld = None
    if meld is not None and meld.kind is shape.kind and meld.value == shape.value:
        return meld
    # Only reachable for a set of one natural plus jokers, which the written order reads as a run.
    return Meld(shape.kind, tuple(Card(c) for c in shape.cards), shape.start, shape.suit, shape.rank)


def _remove(key: int, melds: Iterable[_Cand]) -> int:
    for cand in melds:
        key -= cand.naturals + (cand.jokers << _JOKER_SHIFT)
    return key


def best_arrangement(cards: Iterable[int], rules: Rules) -> Arrangement:
    """An arrangement of the hand into melds achieving :func:`min_deadwood`.

    Ties are broken deterministically: the result depends only on the multiset of cards. Melds are
    listed by their lowest natural card; runs hold jokers on the positions they occupy.

    >>> from rummykit.cards import parse_cards
    >>> a = best_arrangement(parse_cards("AH 2H 3H AS AD KC QC JC 5S 5D"), Rules.preset("viennese"))
    >>> print(a)
    [JC QC KC] [AD AH AS] | 5D 2H 3H 5S = 15
    """
    t = _tables(rules)
    cards = tuple(cards)
    search = _Search(t, cards)
    key = search.key
    chosen = _arrangement_path(search, search.rest, search.jokers, {})
    left = _decode(_remove(key, chosen))
    melds = tuple(_to_meld(c.shape, rules) for c in chosen)
    return Arrangement(melds, tuple(left), sum(t.dv[c] for c in left))


def max_opening_value(cards: Iterable[int], rules: Rules, keep_one: bool = False) -> int:
    """The highest total opening value (RULES.md §2.2) of disjoint melds from the hand.

    Values: 2–10 pips, J Q K 10, an ace 1 at the bottom of a run and 11 in a set or at the top, a
    joker the card it stands for (placed where it is worth most). With ``keep_one`` at least one card
    must stay outside the melds (a discard is needed). 0 when no meld can be formed.

    >>> from rummykit.cards import parse_cards
    >>> max_opening_value(parse_cards("JK 2S 3S KD KC KS 10D 10C 10H"), Rules.preset("german"))
    70
    """
    t = _tables(rules)
    cards = tuple(cards)
    masks = _masks(cards)
    ckey = (_hand_key(*masks), keep_one)
    found = t.opening_cache.get(ckey)
    if found is not None:
        return found
    search = _Search(t, cards, masks)
    kept = not keep_one or search.rest != search.key & _NATURALS
    result = max(0, _max_value(search.rest, search.jokers, kept, search.by_low, search.opener, {}))
    if len(t.opening_cache) >= _MAX_CACHE:
        t.opening_cache.clear()
    t.opening_cache[ckey] = result
    return result


def _value_path(search: _Search, rest: int, jokers: int, kept: bool, memo: dict[int, int]) -> list[_Cand]:
    chosen: list[_Cand] = []
    by_low = search.by_low
    while rest:
        low = ((rest & -rest).bit_length() - 1) // _BITS
        cands = by_low.get(low)
        if cands is None:
            rest -= _UNIT[low]
            kept = True
            continue
        target = _max_value(rest, jokers, kept, by_low, search.opener, memo)
        guarded = rest | _GUARD
        for cand in cands:
            m = cand.naturals
            if cand.jokers <= jokers and (guarded - m) & _GUARD == _GUARD:
                sub = _max_value(rest - m, jokers - cand.jokers, kept, by_low, search.opener, memo)
                if sub >= 0 and cand.value + sub == target:
                    chosen.append(cand)
                    rest -= m
                    jokers -= cand.jokers
                    break
        else:
            rest -= _UNIT[low]
            kept = True
    return chosen


def _covers(cand: _Cand, card: int) -> bool:
    if card == JOKER_CODE:
        return cand.jokers > 0
    return bool(cand.naturals >> (_BITS * card) & 7)


def best_opening(
    cards: Iterable[int], rules: Rules, must_include: int | None = None, keep_one: bool = True
) -> tuple[Meld, ...] | None:
    """The disjoint melds with the highest opening value (Erstmeldung), or ``None`` if they fall short.

    The requirement is ``rules.opening_min_points`` (RULES.md §3.7) over all melds laid together, or
    for ``opening_scope = single_meld`` by one meld alone (the others are still laid). With
    ``must_include`` (e.g. a card just taken from the discard pile) that card must be in one of the
    melds. With ``keep_one`` a card must stay in hand for the discard. Without an opening minimum
    (knock games) any meld qualifies. ``None`` when no collection qualifies.

    >>> from rummykit.cards import parse_cards
    >>> german = Rules.preset("german")
    >>> [str(m) for m in best_opening(parse_cards("10H JH KH QH 2C 9D"), german)]
    ['10H JH QH KH']
    >>> best_opening(parse_cards("KS KD KH 2C 3C 4C 9D"), german) is None
    True
    """
    t = _tables(rules)
    cards = tuple(cards)
    search = _Search(t, cards)
    key = search.key
    if must_include is not None and must_include not in cards:
        raise ValueError(f"{Card(must_include)} is not in the hand")
    minimum = rules.opening_min_points or 0
    single = rules.opening_scope == "single_meld"
    memo: dict[int, int] = {}
    all_cands = [c for lst in search.by_low.values() for c in lst]
    all_cands.sort(key=lambda c: (-c.value, c.shape.cards))
    kept0 = not keep_one or search.rest != key & _NATURALS
    best_total = -1
    best: list[_Cand] = []
    if must_include is None and not single:
        total = _max_value(search.rest, search.jokers, kept0, search.by_low, search.opener, memo)
        if total > 0:
            best_total = total
            best = _value_path(search, search.rest, search.jokers, kept0, memo)
    else:
        # Fix one meld (the one holding the required card, or the one meeting the minimum alone),
        # then complete with the best melds of the remaining cards.
        for anchor in all_cands:
            if single and anchor.value < minimum:
                continue
            if not _fits(search.rest, search.jokers, anchor):
                continue
            rest = search.rest - anchor.naturals
            jokers = search.jokers - anchor.jokers
            need = must_include is not None and not _covers(anchor, must_include)
            if need:
                assert must_include is not None
                tail = _best_with_card(search, rest, jokers, kept0, must_include, memo)
                if tail is None:
                    continue
                sub_total, sub_melds = tail
            else:
                sub_total = _max_value(rest, jokers, kept0, search.by_low, search.opener, memo)
                if sub_total < 0:
                    continue
                sub_melds = []
            total = anchor.value + sub_total
            if total > best_total:
                if not need:
                    sub_melds = _value_path(search, rest, jokers, kept0, memo)
                best_total = total
                best = [anchor, *sub_melds]
    if best_total <= 0 or best_total < minimum:
        return None
    return tuple(_to_meld(c.shape, rules) for c in best)


def _fits(rest: int, jokers: int, cand: _Cand) -> bool:
    return cand.jokers <= jokers and ((rest | _GUARD) - cand.naturals) & _GUARD == _GUARD


def _best_with_card(
    search: _Search, rest: int, jokers: int, kept: bool, card: int, memo: dict[int, int]
) -> tuple[int, list[_Cand]] | None:
    best: tuple[int, list[_Cand]] | None = None
    for lst in search.by_low.values():
        for cand in lst:
            if _covers(cand, card) and _fits(rest, jokers, cand):
                r2, j2 = rest - cand.naturals, jokers - cand.jokers
                sub = _max_value(r2, j2, kept, search.by_low, search.opener, memo)
                if sub >= 0 and (best is None or cand.value + sub > best[0]):
                    best = (cand.value + sub, [cand, *_value_path(search, r2, j2, kept, memo)])
    return best


def all_melds(cards: Iterable[int], rules: Rules) -> list[tuple[Card, ...]]:
    """Every valid meld formable from the multiset ``cards``, each once, as cards in position order.

    Runs hold each joker on the position it occupies (``5H 6H JK`` and ``JK 5H 6H`` are different
    melds); sets list their naturals by suit, then their jokers. Runs come first (by suit, then
    start), then sets by rank.

    >>> from rummykit.cards import parse_cards
    >>> [" ".join(map(str, m)) for m in all_melds(parse_cards("5H 6H 7H 7S 7D"), Rules.preset("german"))]
    ['5H 6H 7H', '7D 7H 7S']
    """
    t = _tables(rules)
    packed, packed_dup, jokers = _masks(tuple(cards))
    have = [packed >> (_BLOCK * s) & _RANKS13 for s in range(NUM_SUITS)]
    dup = [packed_dup >> (_BLOCK * s) & _RANKS13 for s in range(NUM_SUITS)]
    out: list[tuple[Card, ...]] = []
    seen: set[tuple[int, ...]] = set()
    shapes: list[_Shape] = []
    for s in range(NUM_SUITS):
        if have[s]:
            positions = have[s] << 1
            if t.lo != LOW_ACE:
                positions &= ~(1 << LOW_ACE)
            if have[s] & 1 and t.hi == HIGH_ACE:
                positions |= 1 << HIGH_ACE
            shapes.extend(_run_shapes(t, s, positions, bool(dup[s] & 1), jokers))
    for r in range(1, NUM_RANKS + 1):
        bit = 1 << (r - 1)
        counts = tuple((1 + (dup[s] & bit != 0)) if have[s] & bit else 0 for s in range(NUM_SUITS))
        if any(counts):
            shapes.extend(_set_shapes(t, r, counts, jokers))
    for shape in shapes:
        if shape.cards not in seen:
            seen.add(shape.cards)
            out.append(tuple(Card(c) for c in shape.cards))
    return out


def melds_containing(cards: Iterable[int], card: int, rules: Rules) -> list[tuple[Card, ...]]:
    """The melds of :func:`all_melds` that use ``card`` (e.g. a discard that must be melded).

    >>> from rummykit.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H 7S 7D 9C")
    >>> [" ".join(map(str, m)) for m in melds_containing(hand, Card.parse("7S"), Rules.preset("german"))]
    ['7D 7H 7S']
    """
    return [m for m in all_melds(cards, rules) if card in m]


# Lay-offs (Anlegen) ---------------------------------------------------------------------------------
def layoff_targets(hand: Iterable[int], table_melds: Sequence[Meld], rules: Rules) -> list[Layoff]:
    """Where each card of the hand can be laid off right now (RULES.md §2.5).

    One entry per distinct card, table meld and run end (``None`` for a set), in card code order,
    then meld order, then ``low`` before ``high``.

    >>> from rummykit.cards import parse_cards
    >>> german = Rules.preset("german")
    >>> table = [Meld.parse("2H 3H 4H", german), Meld.parse("KH KD KC", german)]
    >>> [(str(c), i, e) for c, i, e in layoff_targets(parse_cards("AH 5H KS 9C"), table, german)]
    [('AH', 0, 'low'), ('5H', 0, 'high'), ('KS', 1, None)]
    """
    out: list[Layoff] = []
    for card in sorted(set(hand)):
        c = Card(card)
        for i, meld in enumerate(table_melds):
            if meld.is_set:
                if meld.can_lay_off(c, rules):
                    out.append((c, i, None))
            else:
                out.extend((c, i, end) for end in meld.layoff_ends(c, rules))
    return out


def layoff_chain(hand: Iterable[int], table_melds: Sequence[Meld], rules: Rules) -> tuple[Layoff, ...]:
    """A largest legal sequence of lay-offs from the hand, chains included.

    Cards that only fit after another lay-off count too: after ``5H`` goes on ``2H 3H 4H`` the ``6H``
    fits. Each step is legal when it is made, in the order returned. Among sequences laying off the
    most cards the one removing the most ``card_points`` is chosen, ties broken deterministically.

    >>> from rummykit.cards import parse_cards
    >>> german = Rules.preset("german")
    >>> table = [Meld.parse("2H 3H 4H", german)]
    >>> [(str(c), i, e) for c, i, e in layoff_chain(parse_cards("6H 5H 9C"), table, german)]
    [('5H', 0, 'high'), ('6H', 0, 'high')]
    """
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    melds = list(table_melds)
    # Cards that could ever go on meld i (a superset): jokers, and naturals of its suit or rank.
    relevant = [
        frozenset(
            c
            for c in counts
            if c == JOKER_CODE or (Card(c).suit == m.suit if m.is_run else Card(c).rank == m.rank)
        )
        for m in melds
    ]
    # Cards that matter from meld i on: the memo key ignores every other card.
    later: list[frozenset[int]] = [frozenset()] * (len(melds) + 1)
    for i in range(len(melds) - 1, -1, -1):
        later[i] = later[i + 1] | relevant[i]
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, int, tuple[Layoff, ...]]] = {}
    options: dict[tuple[int, tuple[int, ...]], list[tuple[Layoff, ...]]] = {}
    order = {i: sorted(r) for i, r in enumerate(later)}

    def search(i: int, cnt: dict[int, int]) -> tuple[int, int, tuple[Layoff, ...]]:
        if i == len(melds):
            return (0, 0, ())
        mkey = (i, tuple(cnt[c] for c in order[i]))
        found = memo.get(mkey)
        if found is not None:
            return found
        best = search(i + 1, cnt)
        own = tuple(cnt[c] for c in sorted(relevant[i]))
        if any(own):
            okey = (i, own)
            extensions = options.get(okey)
            if extensions is None:
                mine = {c: cnt[c] for c in relevant[i] if cnt[c]}
                extensions = options[okey] = _meld_extensions(melds[i], i, mine, rules)
            for steps in extensions:
                for c, _, _ in steps:
                    cnt[c] -= 1
                n, pts, rest = search(i + 1, cnt)
                for c, _, _ in steps:
                    cnt[c] += 1
                points = pts + sum(rules.card_points(c) for c, _, _ in steps)
                if (len(steps) + n, points) > best[:2]:
                    best = (len(steps) + n, points, (*steps, *rest))
        memo[mkey] = best
        return best

    return search(0, counts)[2]


def _meld_extensions(meld: Meld, index: int, cnt: dict[int, int], rules: Rules) -> list[tuple[Layoff, ...]]:
    """Every non-empty legal sequence of lay-offs onto one meld using cards of ``cnt``."""
    out: list[tuple[Layoff, ...]] = []
    seen: set[tuple[int, ...]] = set()

    def grow(m: Meld, steps: tuple[Layoff, ...], used: dict[int, int]) -> None:
        for card in sorted(cnt):
            if cnt[card] - used.get(card, 0) <= 0:
                continue
            c = Card(card)
            ends: tuple[End | None, ...] = (None,) if m.is_set else m.layoff_ends(c, rules)
            for end in ends:
                if m.is_set and not m.can_lay_off(c, rules):
                    continue
                nxt = m.with_layoff(c, rules, end)
                step: Layoff = (c, index, end)
                used[card] = used.get(card, 0) + 1
                sig = tuple(nxt.cards)
                if sig not in seen:
                    seen.add(sig)
                    out.append((*steps, step))
                    grow(nxt, (*steps, step), used)
                used[card] -= 1

    grow(meld, (), {})
    return out
