"""Candidate melds of a hand, enumerated from its packed rank masks (see :mod:`.encoding`).

Every meld formable from the hand is enumerated from the masks: runs per segment of consecutive
cards (no jokers) or per cluster of cards that jokers can bridge, sets per rank. These lists depend
only on the segment, cluster or rank pattern and are cached per rule set, so they repeat across
hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rummykit.cards import JOKER_CODE, NUM_RANKS, NUM_SUITS, Card
from rummykit.melds import (
    HIGH_ACE,
    LOW_ACE,
    SET_MIN_NATURALS,
    MeldKind,
    position_rank,
    position_value,
    rank_value,
)
from rummykit.rules import Rules
from rummykit.solver.encoding import (
    _ACES,
    _ALL_POSITIONS,
    _BITS,
    _BLOCK,
    _ONES,
    _RANKS13,
    _UNIT,
    _masks,
)
from rummykit.solver.tables import _Cand, _Shape, _Tables, _tables


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
        if n < SET_MIN_NATURALS:
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


def _candidates(t: _Tables, have: int, dup: int, jokers: int) -> list[_Cand]:
    """Every candidate meld (as a multiset) formable from the hand described by the masks."""
    out: list[_Cand] = []
    a = have & _RANKS13
    b = have >> _BLOCK & _RANKS13
    c = have >> 2 * _BLOCK & _RANKS13
    d = have >> 3 * _BLOCK
    if jokers:
        ranks = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)  # SET_MIN_NATURALS
        if t.min_naturals_with_jokers == 1:
            run_suits = [s for s in range(NUM_SUITS) if have >> (_BLOCK * s) & _RANKS13]
        else:
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

def python_all_melds(cards: Sequence[int], rules: Rules) -> list[tuple[Card, ...]]:
    """:func:`rummykit.solver.all_melds` in pure Python (the reference twin)."""
    t = _tables(rules)
    packed, packed_dup, jokers = _masks(cards)
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
