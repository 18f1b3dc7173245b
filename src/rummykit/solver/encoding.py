"""The hand encodings every solver backend shares (an interface: a compiled backend reads the same layout).

Card codes are those of :mod:`rummykit.cards`: ``suit * 13 + rank - 1`` for the 52 natural faces
(clubs, diamonds, hearts, spades; ace = rank 1) and ``JOKER_CODE`` = 52 for every joker. Two decks
hold at most two copies of a face; jokers are counted (the compiled kernels take at most 63 in a
hand; the rules allow 6).

* **Packed rank masks** (:func:`_masks`): 16 bits per suit, rank r on bit ``16 * suit + r - 1``
  (bit 13 of each block is left free for a high ace); one mask of the faces held at least once,
  one of the faces held twice, and the joker count. :func:`_hand_key` packs the three into one
  integer that identifies the multiset (the per-hand cache key).
* **Count fields** (the search state): three bits per card code, field ``c`` at bit ``3 * c``,
  holding that face's count (0–2), with the top bit of each field a guard for the fit test:
  ``((hand | _GUARD) - meld) & _GUARD == _GUARD`` iff the multiset ``meld`` fits in ``hand``;
  removing it is one subtraction. Jokers are counted above the natural fields (``_JOKER_SHIFT``).

The compiled backend (:mod:`rummykit.solver.native`) keeps the same multiset as two 64-bit masks
(faces held at least once, faces held twice, bit ``c`` for card code ``c``) and a joker count; both
describe exactly the multisets of at most two copies per face.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import JOKER_CODE, NUM_FACES, NUM_RANKS, NUM_SUITS, Card
from rummykit.errors import quoted
from rummykit.melds import HIGH_ACE, LOW_ACE

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
"""Entries of one pure-Python per-hand result dict (emptied when full); see ``tables.RESULT_BUDGET``
for the bound over all rule sets. The compiled caches have their own sizes (``ResultCache``)."""

_BLOCK: Final = 16
"""Bits per suit in a packed rank mask: rank r on bit r-1, bit 13 free for a high ace."""
_RANKS13: Final = (1 << NUM_RANKS) - 1
_PACKED: Final = {
    **{c: 1 << (_BLOCK * (c // NUM_RANKS) + c % NUM_RANKS) for c in range(NUM_FACES)},
    JOKER_CODE: 0,
}
"""Per card code its bit in a packed rank mask (a joker: none). A mapping, not a tuple, so that a
code that is no card's finds no entry, where a negative one would index a tuple from its end."""
_ACES: Final = sum(1 << (_BLOCK * s) for s in range(NUM_SUITS))
_ALL_POSITIONS: Final = ((1 << HIGH_ACE) - 1) << LOW_ACE
"""Run positions 1 … 14 as bits."""


def _masks(cards: Sequence[int]) -> tuple[int, int, int]:
    """Packed rank masks (16 bits per suit) of the faces held and of the faces held twice; jokers.

    Raises:
        ValueError: a face is held more than twice, or a code is no card's (as the compiled twin).
        TypeError: a card is not an integer code (as the compiled twin; a text is read with
            :func:`rummykit.cards.parse_cards`).
    """
    jokers = cards.count(JOKER_CODE)
    try:
        have = sum(map(_PACKED.__getitem__, cards))
    except KeyError as exc:
        code = exc.args[0]
        if not isinstance(code, int):
            raise TypeError(f"{type(code).__name__!r} object cannot be interpreted as an integer") from None
        raise ValueError(f"no card has code {quoted(code)}: codes run from 0 to 52") from None
    except TypeError:  # an unhashable card, such as a list
        bad = next(c for c in cards if not isinstance(c, int))
        raise TypeError(f"{type(bad).__name__!r} object cannot be interpreted as an integer") from None
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


def _decode(key: int) -> list[Card]:
    out: list[Card] = []
    for c in range(NUM_FACES):
        n = (key >> (_BITS * c)) & 7
        if n:
            out.extend([Card(c)] * n)
    out.extend([Card(JOKER_CODE)] * (key >> _JOKER_SHIFT))
    return out
