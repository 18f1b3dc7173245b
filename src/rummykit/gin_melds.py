"""Gin melds and deadwood (RULES.md §5.4), exactly as OpenSpiel's ``gin_rummy`` counts them.

Gin has one 52-card pack and no jokers, so a hand is a bit mask over the card codes of
:mod:`rummykit.cards` and a meld is one of OpenSpiel's 185 melds (:data:`GIN_MELDS`, numbered by its
meld id): 65 sets (per rank the four 3-card sets ordered by the missing suit in OpenSpiel's suit order
``s c d h``, then the 4-card set) and 120 runs of 3, 4 and 5 cards, ace low only. A longer run is laid
as several of them.

Deadwood (:func:`deadwood`) of a hand is the total value of the cards outside the best meld group.
For a hand of eleven cards (just drawn) OpenSpiel does not try every discard: it takes the first meld
group of greatest melded value in its own enumeration order and then throws out the deadwood card of
the highest rank. That can leave more deadwood than the best discard would, so a knock that a
rule book allows can be refused. :func:`eleven_card_deadwood` computes both: ``openspiel`` (the
``gin`` preset, so that every OpenSpiel game plays move for move) and ``best_discard`` (the rule as
the books state it; option ``eleven_card_deadwood``).

>>> from rummykit.cards import parse_cards
>>> hand = mask_of(parse_cards("AS 2S 3S 7C 7D 7H 9H 10H JH 4D KC"))
>>> eleven_card_deadwood(hand, GIN_VALUES, "openspiel")
4
>>> [str(c) for c in knock_discards(hand, GIN_VALUES, 10)]
['KC', '4D']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.cards import NUM_FACES, NUM_RANKS, Card

ElevenCardDeadwood = Literal["openspiel", "best_discard"]
LayoffRunChain = Literal["two_per_end", "unlimited"]

OPENSPIEL_SUIT: Final = (1, 2, 3, 0)
"""OpenSpiel's suit index (``s c d h``) of each rummykit suit (``C D H S``)."""
_RK_SUIT: Final = (3, 0, 1, 2)
"""The rummykit suit of each OpenSpiel suit index."""


def openspiel_card(card: int) -> int:
    """OpenSpiel's card id (``suit * 13 + rank``, suits ``s c d h``, ace 0) of a rummykit card."""
    return OPENSPIEL_SUIT[card // NUM_RANKS] * NUM_RANKS + card % NUM_RANKS


def rummykit_card(card_id: int) -> Card:
    """The rummykit card of OpenSpiel's card id ``card_id`` (0–51)."""
    if not 0 <= card_id < NUM_FACES:
        raise ValueError(f"OpenSpiel card ids run from 0 to 51, not {card_id!r}")
    return Card(_RK_SUIT[card_id // NUM_RANKS] * NUM_RANKS + card_id % NUM_RANKS)


def gin_values(ace: int) -> tuple[int, ...]:
    """Deadwood value per card code: ace ``ace``, 2–9 pips, 10 and courts 10."""
    return tuple(ace if c % NUM_RANKS == 0 else min(10, c % NUM_RANKS + 1) for c in range(NUM_FACES))


GIN_VALUES: Final = gin_values(1)
"""Deadwood values of the ``gin`` preset (ace 1)."""


@dataclass(frozen=True, slots=True)
class GinMeld:
    """One of OpenSpiel's 185 melds: its id, its cards (runs low to high) and their bit mask."""

    id: int
    cards: tuple[Card, ...]
    mask: int
    is_run: bool
    order: tuple[int, int, int, int]
    """Where a run comes in OpenSpiel's enumeration of a hand's melds (sets depend on the hand)."""

    @property
    def rank(self) -> int:
        """The rank code (0 = ace) of the lowest card."""
        return min(c % NUM_RANKS for c in self.cards)


def _build_melds() -> tuple[GinMeld, ...]:
    melds: list[GinMeld] = []
    for rank in range(NUM_RANKS):
        for missing in range(5):  # 0-3: the OpenSpiel suit left out; 4: all four suits
            suits = [s for s in range(4) if s != missing]
            cards = tuple(sorted(Card(_RK_SUIT[s] * NUM_RANKS + rank) for s in suits))
            melds.append(GinMeld(rank * 5 + missing, cards, mask_of(cards), False, (0, 0, 0, 0)))
    base = 65
    for length in (3, 4, 5):
        for os_suit in range(4):
            for low in range(NUM_RANKS - length + 1):
                start = _RK_SUIT[os_suit] * NUM_RANKS + low
                cards = tuple(Card(start + i) for i in range(length))
                order = (2, 5 - length, os_suit, low)
                melds.append(GinMeld(len(melds), cards, mask_of(cards), True, order))
        base += 4 * (NUM_RANKS - length + 1)
    assert base == 185 and len(melds) == 185
    return tuple(melds)


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of ``cards`` (natural card codes; each card once)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask`` in code order."""
    out: list[Card] = []
    for suit in range(4):
        bits = mask >> (suit * NUM_RANKS) & _SUIT_MASK
        if bits:
            out += _CARDS_BY_PATTERN[suit][bits]
    return out


_SUIT_MASK: Final = (1 << NUM_RANKS) - 1


class _PatternTable(dict[int, tuple[Card, ...]]):
    """Per 13-bit rank pattern of one suit, its cards (filled on first use)."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, pattern: int) -> tuple[Card, ...]:
        cards = tuple(Card(self.suit * NUM_RANKS + r) for r in range(NUM_RANKS) if pattern >> r & 1)
        self[pattern] = cards
        return cards


_CARDS_BY_PATTERN: Final = tuple(_PatternTable(suit) for suit in range(4))


GIN_MELDS: Final = _build_melds()
"""OpenSpiel's melds by meld id (0–184)."""
MELD_BY_MASK: Final = {m.mask: m for m in GIN_MELDS}


class _RunTable(dict[int, tuple["GinMeld", ...]]):
    """Per 13-bit rank pattern of one suit, the runs it holds (filled on first use)."""

    def __init__(self, suit: int, runs: list[GinMeld]) -> None:
        super().__init__()
        self.shift = suit * NUM_RANKS
        self.runs = runs

    def __missing__(self, pattern: int) -> tuple[GinMeld, ...]:
        held = pattern << self.shift
        runs = tuple(m for m in self.runs if m.mask & held == m.mask)
        self[pattern] = runs
        return runs


_RUNS: Final = tuple(
    _RunTable(suit, [m for m in GIN_MELDS if m.is_run and m.cards[0] // NUM_RANKS == suit])
    for suit in range(4)
)


def _suits_held(meld: GinMeld) -> int:
    return sum(1 << (c // NUM_RANKS) for c in meld.cards)


_SET_MELDS: Final = tuple(
    tuple(
        tuple(m for m in GIN_MELDS[rank * 5 : rank * 5 + 5] if _suits_held(m) & held == _suits_held(m))
        for held in range(16)
    )
    for rank in range(NUM_RANKS)
)
"""Per rank and 4-bit pattern of the suits held (bit = rummykit suit), the sets it holds."""


def melds_in(mask: int) -> list[GinMeld]:
    """Every meld whose cards all lie in ``mask``, by meld id."""
    found: list[GinMeld] = []
    s0 = mask & _SUIT_MASK
    s1 = mask >> NUM_RANKS & _SUIT_MASK
    s2 = mask >> (2 * NUM_RANKS) & _SUIT_MASK
    s3 = mask >> (3 * NUM_RANKS) & _SUIT_MASK
    triple = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))  # ranks held in three or four suits
    while triple:
        low = triple & -triple
        triple ^= low
        rank = low.bit_length() - 1
        held = (s0 >> rank & 1) | (s1 >> rank & 1) << 1 | (s2 >> rank & 1) << 2 | (s3 >> rank & 1) << 3
        found += _SET_MELDS[rank][held]
    runs: list[GinMeld] = []
    for suit, bits in enumerate((s0, s1, s2, s3)):
        if bits & (bits >> 1) & (bits >> 2):  # three in a row somewhere
            runs += _RUNS[suit][bits]
    if runs:
        runs.sort(key=lambda m: m.id)
        found += runs
    return found


def total_value(mask: int, values: Sequence[int]) -> int:
    return sum(values[c] for c in cards_of(mask))


class _ValueTables:
    """What the searches read of one table of card values, worked out once per table: the value of
    every meld (by meld id), the highest card value, and per suit the total value of every 13-bit
    rank pattern (built on first use: 4 × 8,192 sums)."""

    __slots__ = ("_patterns", "highest", "meld_values", "values")

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = values
        self.meld_values = tuple(sum(values[c] for c in m.cards) for m in GIN_MELDS)
        self.highest = max(values)
        self._patterns: tuple[tuple[int, ...], ...] | None = None

    @property
    def patterns(self) -> tuple[tuple[int, ...], ...]:
        if self._patterns is None:
            suits = []
            for suit in range(4):
                row = [0] * (1 << NUM_RANKS)
                for pattern in range(1, 1 << NUM_RANKS):
                    low = pattern & -pattern
                    row[pattern] = row[pattern ^ low] + self.values[suit * NUM_RANKS + low.bit_length() - 1]
                suits.append(tuple(row))
            self._patterns = tuple(suits)
        return self._patterns


_VALUE_TABLES: dict[tuple[int, ...], _ValueTables] = {}
_last_tables: tuple[Sequence[int], _ValueTables] | None = None
"""The value tuple asked for last and its tables: the engine passes the same tuple on every call,
so an identity check spares hashing its 52 values (a tuple cannot change behind the check)."""


def _tables(values: Sequence[int]) -> _ValueTables:
    global _last_tables
    last = _last_tables
    if last is not None and last[0] is values:
        return last[1]
    key = tuple(values)
    tables = _VALUE_TABLES.get(key)
    if tables is None:
        tables = _VALUE_TABLES[key] = _ValueTables(key)
    if type(values) is tuple:
        _last_tables = (values, tables)
    return tables


def meld_values(values: Sequence[int]) -> tuple[int, ...]:
    """The value of every meld (by meld id) under the card values ``values``."""
    return _tables(values).meld_values


class _Search:
    """Best meld groups of the cards of one hand (memoised on the cards left)."""

    __slots__ = ("best", "meld_value", "melds")

    def __init__(self, mask: int, values: Sequence[int]) -> None:
        self.meld_value = meld_values(values)
        self.melds = melds_in(mask)
        self.best: dict[int, int] = {}

    def value(self, meld: GinMeld) -> int:
        return self.meld_value[meld.id]

    def best_value(self, mask: int, melds: list[GinMeld] | None = None) -> int:
        """The greatest total value of disjoint melds within ``mask`` (``melds``: those inside it)."""
        known = self.best.get(mask)
        if known is not None:
            return known
        if melds is None:
            melds = [m for m in self.melds if m.mask & mask == m.mask]
        if not melds:
            self.best[mask] = 0
            return 0
        union = 0
        for m in melds:
            union |= m.mask
        low = union & -union
        rest = [m for m in melds if not m.mask & low]
        result = self.best_value(mask ^ low, rest)
        values = self.meld_value
        for m in melds:
            if m.mask & low:
                inner = [x for x in rest if not x.mask & m.mask]
                result = max(result, values[m.id] + self.best_value(mask ^ m.mask, inner))
        self.best[mask] = result
        return result

    def best_groups(self, mask: int) -> Iterator[tuple[GinMeld, ...]]:
        """Every set of disjoint melds within ``mask`` of the greatest total value."""
        target = self.best_value(mask)
        melds = [m for m in self.melds if m.mask & mask == m.mask]
        if not target or not melds:
            yield ()
            return
        union = 0
        for m in melds:
            union |= m.mask
        low = union & -union
        if self.best_value(mask ^ low) == target:
            yield from self.best_groups(mask ^ low)
        for m in melds:
            if m.mask & low and self.value(m) + self.best_value(mask ^ m.mask) == target:
                for group in self.best_groups(mask ^ m.mask):
                    yield (m, *group)


def deadwood(mask: int, values: Sequence[int]) -> int:
    """The least deadwood of the cards of ``mask`` (every card must stay in the hand)."""
    return total_value(mask, values) - _Search(mask, values).best_value(mask)


def best_group(mask: int, values: Sequence[int]) -> tuple[GinMeld, ...]:
    """A meld group of least deadwood: OpenSpiel's first in its enumeration order."""
    search = _Search(mask, values)
    groups = list(search.best_groups(mask))
    return min(groups, key=lambda g: _openspiel_order(g, mask))


def _set_order(meld: GinMeld, mask: int) -> tuple[int, int, int, int]:
    """Where OpenSpiel's ``RankMelds`` lists the set ``meld`` among the melds of the hand ``mask``:
    for a rank held four times (suits a < b < c < d in its suit order) ``abcd, abd, acd`` in a
    first sweep over the ranks, then ``abc, bcd``; a rank held three times gives ``abc``."""
    rank = meld.cards[0] % NUM_RANKS
    held = sorted(OPENSPIEL_SUIT[s] for s in range(4) if mask >> (s * NUM_RANKS + rank) & 1)
    suits = sorted(OPENSPIEL_SUIT[c // NUM_RANKS] for c in meld.cards)
    if len(held) == 4:
        a, b, c, d = held
        position = {
            (a, b, c, d): (0, 0),
            (a, b, d): (0, 1),
            (a, c, d): (0, 2),
            (a, b, c): (1, 0),
            (b, c, d): (1, 1),
        }
        first, second = position[tuple(suits)]
        return (first, rank, second, 0)
    return (1, rank, 0, 0)


def _openspiel_order(group: tuple[GinMeld, ...], mask: int) -> list[tuple[int, int, int, int]]:
    """OpenSpiel's depth-first search meets the melds of a group first in the order of their places
    in its meld list, so among groups of equal value it keeps the one whose sorted places come
    first."""
    return sorted(m.order if m.is_run else _set_order(m, mask) for m in group)


def eleven_card_deadwood(mask: int, values: Sequence[int], rule: ElevenCardDeadwood) -> int:
    """Deadwood of a hand that holds one card more than a hand (a discard is still to come).

    ``best_discard``: the least deadwood over every discard. ``openspiel``: OpenSpiel's
    ``MinDeadwood``: the first greatest-value meld group (OpenSpiel's order), minus the deadwood card
    of the highest rank.

    Where every card is melded, ``openspiel`` too counts the least deadwood a discard leaves.
    OpenSpiel counts 0 there and offers a knock that no discard completes when the melds are all of
    three cards (its game is then left without a legal action). With ten-card hands this never
    happens (eleven melded cards hold a meld of four or more), so only other ``hand_size`` values
    differ from OpenSpiel, and only where OpenSpiel would stop.
    """
    if rule == "best_discard":
        return min(deadwood(mask & ~(1 << c), values) for c in cards_of(mask))
    search = _Search(mask, values)
    best = search.best_value(mask)
    total = total_value(mask, values)
    if best == total:  # every card melded: a discard must break a meld unless one has four or more
        return min(deadwood(mask & ~(1 << c), values) for c in cards_of(mask))
    drops: dict[int, int] = {}
    for group in search.best_groups(mask):
        used = 0
        for m in group:
            used |= m.mask
        rest = cards_of(mask & ~used)
        drop = values[max(rest, key=lambda c: (c % NUM_RANKS, openspiel_card(c)))] if rest else 0
        drops[drop] = drops.get(drop, 0) + 1
        if len(drops) > 1:
            break
    if len(drops) == 1:
        return total - best - next(iter(drops))
    group = best_group(mask, values)
    used = 0
    for m in group:
        used |= m.mask
    rest = cards_of(mask & ~used)
    drop = values[max(rest, key=lambda c: (c % NUM_RANKS, openspiel_card(c)))] if rest else 0
    return total - best - drop


def unmeldable_value(mask: int, values: Sequence[int]) -> int:
    """The value of the cards of ``mask`` that lie in no meld within ``mask`` at all: no other two
    cards of their rank and no two suit neighbours making a run of three. Every arrangement leaves
    them as deadwood, so this bounds the deadwood from below without a search."""
    s0 = mask & _SUIT_MASK
    s1 = mask >> NUM_RANKS & _SUIT_MASK
    s2 = mask >> (2 * NUM_RANKS) & _SUIT_MASK
    s3 = mask >> (3 * NUM_RANKS) & _SUIT_MASK
    triple = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    table = _tables(values).patterns
    total = 0
    for suit, bits in enumerate((s0, s1, s2, s3)):
        starts = bits & bits >> 1 & bits >> 2
        total += table[suit][bits & ~(triple | starts | starts << 1 | starts << 2)]
    return total


def eleven_card_knock(mask: int, values: Sequence[int], rule: ElevenCardDeadwood, limit: int) -> bool:
    """Whether :func:`eleven_card_deadwood` is at most ``limit`` (quick bounds first: the card that
    goes out is worth at least 0 and at most the highest card value, and the cards in no meld at all
    stay deadwood whatever the arrangement)."""
    if unmeldable_value(mask, values) - _tables(values).highest > limit:
        return False
    search = _Search(mask, values)
    rest = total_value(mask, values) - search.best_value(mask)
    if rest == 0:  # every card melded: see eleven_card_deadwood
        return eleven_card_deadwood(mask, values, rule) <= limit
    if rest <= limit:
        return True
    if rest - max(values[c] for c in cards_of(mask)) > limit:
        return False
    return eleven_card_deadwood(mask, values, rule) <= limit


def knock_discards(mask: int, values: Sequence[int], limit: int) -> list[Card]:
    """The discards after a knock that leave deadwood at most ``limit`` (OpenSpiel's ``LegalDiscards``)."""
    return [c for c in cards_of(mask) if deadwood(mask & ~(1 << c), values) <= limit]


def legal_melds(mask: int, values: Sequence[int], limit: int | None) -> list[GinMeld]:
    """The melds a player may lay from ``mask``: each belongs to some meld group that leaves at most
    ``limit`` deadwood (OpenSpiel's ``LegalMelds``); every meld when ``limit`` is ``None``."""
    search = _Search(mask, values)
    if limit is None:
        return search.melds
    total = total_value(mask, values)
    return [m for m in search.melds if total - search.value(m) - search.best_value(mask ^ m.mask) <= limit]


def layoff_cards(
    knocker_melds: Sequence[GinMeld], layoffs: Sequence[int], chain: LayoffRunChain
) -> set[Card]:
    """The cards that may still be laid off onto ``knocker_melds`` after ``layoffs`` (in order).

    A 3-card set takes its missing suit; a 4-card set takes nothing. A run takes the next card at
    either end and, after a lay-off there, the next one again. ``two_per_end`` is OpenSpiel's
    ``AllLayoffs``: it extends a run only by lay-offs next to the run as laid, so at most two cards
    go on at each end. ``unlimited`` extends runs as far as lay-offs chain (the rule books' rule).
    """
    targets: set[Card] = set()
    laid = set(layoffs)
    for meld in knocker_melds:
        if not meld.is_run:
            if len(meld.cards) == 3:
                rank = meld.cards[0] % NUM_RANKS
                suits = {c // NUM_RANKS for c in meld.cards}
                targets.update(Card(s * NUM_RANKS + rank) for s in range(4) if s not in suits)
            continue
        low, high = meld.cards[0], meld.cards[-1]
        if chain == "two_per_end":
            ends = _run_ends(low, high)
            if low - 1 in laid and low - 1 in ends:
                low = Card(low - 1)
            if high + 1 in laid and high + 1 in ends:
                high = Card(high + 1)
        else:
            while low % NUM_RANKS and low - 1 in laid:
                low = Card(low - 1)
            while high % NUM_RANKS != NUM_RANKS - 1 and high + 1 in laid:
                high = Card(high + 1)
        targets.update(_run_ends(low, high))
    return targets


def _run_ends(low: int, high: int) -> list[Card]:
    ends = []
    if low % NUM_RANKS:
        ends.append(Card(low - 1))
    if high % NUM_RANKS != NUM_RANKS - 1:
        ends.append(Card(high + 1))
    return ends
