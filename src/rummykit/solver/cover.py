"""Exact cover searches over candidate melds (the pure-Python backend's core).

An exact cover search decides card by card (lowest code first) whether the card stays unmelded or
opens one of the melds whose lowest natural card it is, memoised on the remaining multiset.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.cards import JOKER_CODE, Card
from rummykit.errors import IllegalMeldError
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver.candidates import _candidates, _index
from rummykit.solver.encoding import _BITS, _GUARD, _JOKER_SHIFT, _KEPT, _STATE_J, _UNIT, _masks
from rummykit.solver.tables import _Cand, _Shape, _Tables


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
    # Not reached in play: a set needs two naturals (rummykit.melds.SET_MIN_NATURALS), so a shape's
    # cards read back as the shape. Kept for a shape its cards would read otherwise.
    return Meld(shape.kind, tuple(Card(c) for c in shape.cards), shape.start, shape.suit, shape.rank)


def _remove(key: int, melds: Iterable[_Cand]) -> int:
    for cand in melds:
        key -= cand.naturals + (cand.jokers << _JOKER_SHIFT)
    return key


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
