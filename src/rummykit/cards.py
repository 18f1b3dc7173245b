"""Cards, card notation, decks and hands.

Notation (RULES.md §0.1): a natural card is its rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` followed by its
suit ``C D H S`` (clubs, diamonds, hearts, spades): ``AH``, ``10D``, ``QC``. A joker is ``JK``.
On input ``T`` is accepted for ten and the German ``B`` (Bube) and ``D`` (Dame) for jack and queen
(``BH`` is the jack of hearts, ``DH`` the queen; ``D`` after a rank is diamonds, so ``DD`` is the
queen of diamonds and ``DB``, read suit first, the jack), suits may also be written ``♣ ♦ ♥ ♠``, a
suit may come first (``♠K``) and everything is case-insensitive.

Inside the engine a card is a small int (``suit * 13 + rank - 1`` for naturals, 52 for the joker);
:class:`Card` is that int with a readable face. Two-deck games hold two copies of each face; the
rules never distinguish copies, so a hand is a multiset of faces (:class:`Hand`).

>>> parse_cards("AH 10D qc ♠K JK TD")
(Card.parse('AH'), Card.parse('10D'), Card.parse('QC'), Card.parse('KS'), Card.parse('JK'), Card.parse('10D'))
>>> str(Card.parse("td"))
'10D'
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import compress
from typing import Final

from rummykit.errors import NotationError, quoted

SUITS: Final = "CDHS"
"""Suit letters in code order: clubs 0, diamonds 1, hearts 2, spades 3. Suits have no rank in play."""
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank texts; rank numbers run from 1 (ace) to 13 (king)."""
RANKS_DE: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K")
"""Rank letters of German packs: B (Bube), D (Dame), K (König), A (Ass). Shown in German; parsed
everywhere (``BH`` is the jack of hearts), but the notation the engine writes uses :data:`RANKS`."""
NUM_SUITS: Final = 4
NUM_RANKS: Final = 13
NUM_FACES: Final = NUM_SUITS * NUM_RANKS
"""Distinct natural faces in one French pack."""
JOKER_CODE: Final = NUM_FACES
NUM_CODES: Final = NUM_FACES + 1
"""Size of a count array indexed by card code (naturals and the joker)."""

_RANK_BY_TEXT: Final = {text: number for number, text in enumerate(RANKS, start=1)} | {
    "T": 10,
    "B": 11,
    "D": 12,
}
_SUIT_BY_TEXT: Final = {letter: i for i, letter in enumerate(SUITS)} | {
    symbol: i for i, symbol in enumerate(SUIT_SYMBOLS)
}



def not_a_card(text: str) -> NotationError:
    """The error for a text that is not one card (quoted, with how to write one)."""
    return NotationError(
        f"not a card: {quoted(text)} (write rank then suit, e.g. AH, 10D, TD, QC, KS, or JK for a joker)"
    )

class Card(int):
    """One card face: a natural (rank and suit) or the joker.

    ``Card`` is an ``int`` (its code) so that the engine can index arrays with it; ``str()`` gives the
    notation and ``repr()`` a constructor expression. Instances are shared: ``Card(7) is Card(7)``.

    >>> c = Card.parse("QH")
    >>> c.rank, c.suit, c.is_joker, str(c)
    (12, 2, False, 'QH')
    >>> Card.parse("JK").is_joker
    True
    """

    __slots__ = ()
    _cache: list[Card]

    def __new__(cls, code: int) -> Card:
        """The card with ``code`` (an int from 0 to 52; :meth:`parse` reads notation such as ``AH``).

        Raises:
            TypeError: ``code`` is not an integer (a text, ``None``, a float or a bool).
            NotationError: no card has that code.
        """
        try:
            if code >= 0 and code.__class__ is not bool:
                return cls._cache[code]
        except IndexError:
            pass
        except TypeError:  # not an integer: a text, None, a float
            raise _not_a_code(code) from None
        if isinstance(code, bool):
            raise _not_a_code(code)
        raise NotationError(f"no card has code {quoted(code)}: codes run from 0 to {JOKER_CODE}")

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The natural card with ``rank`` (1 = ace … 13 = king) and ``suit`` (index into ``SUITS``)."""
        if not (1 <= rank <= NUM_RANKS and 0 <= suit < NUM_SUITS):
            raise NotationError(f"no card has rank {rank!r} and suit {suit!r}")
        return cls._cache[suit * NUM_RANKS + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``AH``, ``10D``, ``TD``, ``qc``, ``K♠``, ``♠K`` or ``JK``; the German rank
        letters too (``BH`` Bube, ``D♠`` Dame).

        Raises:
            NotationError: the text is not a card; the message quotes it.
        """
        if not isinstance(text, str):
            raise TypeError(
                f"Card.parse takes text such as 'AH' or 'JK', not {type(text).__name__}"
                + (" (Card(code) makes the card with a code)" if isinstance(text, int) else "")
            )
        t = text.strip().upper()
        if t in ("JK", "JOKER", "🃏"):
            return JOKER
        if len(t) >= 2:
            for rank_text, suit_text in ((t[:-1], t[-1]), (t[1:], t[0])):
                rank = _RANK_BY_TEXT.get(rank_text)
                suit = _SUIT_BY_TEXT.get(suit_text)
                if rank is not None and suit is not None:
                    return cls._cache[suit * NUM_RANKS + rank - 1]
        raise not_a_card(text)

    @property
    def is_joker(self) -> bool:
        return self == JOKER_CODE

    @property
    def rank(self) -> int:
        """1 (ace) … 13 (king); 0 for the joker."""
        return 0 if self == JOKER_CODE else self % NUM_RANKS + 1

    @property
    def suit(self) -> int:
        """Index into ``SUITS``; -1 for the joker."""
        return -1 if self == JOKER_CODE else self // NUM_RANKS

    def __str__(self) -> str:
        if self == JOKER_CODE:
            return "JK"
        return RANKS[self % NUM_RANKS] + SUITS[self // NUM_RANKS]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def symbol(self) -> str:
        """The card with a suit symbol, for display: ``Q♥``, ``10♣``, ``JK``."""
        if self == JOKER_CODE:
            return "JK"
        return RANKS[self % NUM_RANKS] + SUIT_SYMBOLS[self // NUM_RANKS]


def _not_a_code(code: object) -> TypeError:
    """The error of :class:`Card` for a ``code`` that is not an integer."""
    hint = f"; Card.parse({quoted(code)}) reads notation" if isinstance(code, str) else ""
    return TypeError(
        f"Card takes a card code (an int from 0 to {JOKER_CODE}), not {type(code).__name__}{hint}"
    )


Card._cache = [int.__new__(Card, code) for code in range(NUM_CODES)]
JOKER: Final = Card._cache[JOKER_CODE]
ALL_FACES: Final = tuple(Card._cache[:NUM_FACES])
"""Every natural face once, in code order (clubs A…K, diamonds, hearts, spades)."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated cards, keeping their order.

    >>> [str(c) for c in parse_cards("10H, JH QH")]
    ['10H', 'JH', 'QH']

    Raises:
        NotationError: one of the tokens is not a card.
        TypeError: ``text`` is not a text (cards or codes are not parsed: ``tuple(map(Card, codes))``).
    """
    if not isinstance(text, str):
        raise TypeError(f'parse_cards takes text such as "AH 10D JK", not {type(text).__name__}')
    return tuple(Card.parse(token) for token in text.replace(",", " ").split())


def format_cards(cards: Iterable[int]) -> str:
    """The notation of several cards separated by spaces (the inverse of :func:`parse_cards`)."""
    return " ".join(str(Card(c)) for c in cards)


def sort_key_by_suit(card: int) -> tuple[int, int]:
    """Sort key grouping by suit, then rank; jokers last."""
    return (NUM_SUITS, 0) if card == JOKER_CODE else (card // NUM_RANKS, card % NUM_RANKS)


def sort_key_by_rank(card: int) -> tuple[int, int]:
    """Sort key grouping by rank, then suit; jokers last."""
    return (NUM_RANKS, 0) if card == JOKER_CODE else (card % NUM_RANKS, card // NUM_RANKS)


def build_deck(num_decks: int, jokers_total: int) -> tuple[Card, ...]:
    """The unshuffled deck: ``num_decks`` copies of every natural face, then the jokers (RULES.md §2.1).

    >>> len(build_deck(2, 6)), len(build_deck(2, 2)), len(build_deck(1, 0))
    (110, 106, 52)
    """
    return ALL_FACES * num_decks + (JOKER,) * jokers_total


class Hand:
    """A multiset of cards, stored as counts per card code.

    Two decks hold two copies of a face, so the same card may be present twice. Iteration yields
    each card as often as it is held, in code order.

    >>> h = Hand(parse_cards("7H 7H JK"))
    >>> h.count(Card.parse("7H")), len(h), str(h)
    (2, 3, '7H 7H JK')
    """

    __slots__ = ("_cards", "_counts", "_size")

    def __init__(self, cards: Iterable[int] = ()) -> None:
        self._counts = [0] * NUM_CODES
        self._size = 0
        self._cards: tuple[Card, ...] | None = None
        for c in cards:
            self._counts[c] += 1
            self._size += 1

    def copy(self) -> Hand:
        new = Hand.__new__(Hand)
        new._counts = self._counts[:]
        new._size = self._size
        new._cards = self._cards
        return new

    @property
    def counts(self) -> tuple[int, ...]:
        """Counts indexed by card code (length ``NUM_CODES``)."""
        return tuple(self._counts)

    def count(self, card: int) -> int:
        return self._counts[card]

    def add(self, card: int) -> None:
        self._counts[card] += 1
        self._size += 1
        self._cards = None

    def remove(self, card: int) -> None:
        """Remove one copy of ``card``; a missing card raises :class:`KeyError`."""
        if self._counts[card] == 0:
            raise KeyError(card)
        self._counts[card] -= 1
        self._size -= 1
        self._cards = None

    def plus(self, card: int) -> Hand:
        """A copy with one more copy of ``card``."""
        # copy() and add() written out: the engine calls this on every draw.
        counts = self._counts[:]
        counts[card] += 1
        after = Hand.__new__(Hand)
        after._counts = counts
        after._size = self._size + 1
        cards = self._cards
        if cards is not None and 0 <= card < NUM_CODES:  # keep the card order without a rescan
            i = bisect_right(cards, card)
            after._cards = (*cards[:i], Card._cache[card], *cards[i:])
        else:
            after._cards = None
        return after

    def minus(self, card: int) -> Hand:
        """A copy less one copy of ``card``; :class:`KeyError` if it is not held."""
        # copy() and remove() written out: the engine calls this on every discard.
        counts = self._counts[:]
        if counts[card] == 0:
            raise KeyError(card)
        counts[card] -= 1
        after = Hand.__new__(Hand)
        after._counts = counts
        after._size = self._size - 1
        held = self._cards
        if held is not None:  # keep the card order without a rescan
            i = held.index(card)
            after._cards = held[:i] + held[i + 1 :]
        else:
            after._cards = None
        return after

    def remove_all(self, cards: Iterable[int]) -> None:
        """Remove one copy of each card of ``cards``; a missing card raises :class:`KeyError` (the
        cards before it are then already removed, so check :meth:`contains_all` first)."""
        for c in cards:
            self.remove(c)

    def without(self, cards: Iterable[int]) -> Hand:
        """A copy less one copy of each card of ``cards``; :class:`KeyError` if one is not held."""
        if not isinstance(cards, (tuple, list)):
            cards = tuple(cards)  # read twice below
        after = self.copy()
        after.remove_all(cards)
        held = self._cards
        if held is not None:  # keep the card order without a rescan
            rest = list(held)
            faces = Card._cache
            for c in cards:
                rest.remove(faces[c])
            after._cards = tuple(rest)
        return after

    def contains_all(self, cards: Iterable[int]) -> bool:
        """Whether the hand holds every card of ``cards`` counted with multiplicity."""
        left = self._counts[:]
        for c in cards:
            if left[c] == 0:
                return False
            left[c] -= 1
        return True

    def common(self, other: Hand) -> Hand:
        """The cards both hands hold, each as often as the hand holding it fewer times."""
        theirs = other._counts
        common = Hand()
        counts = common._counts
        for c in self.cards():  # each copy, kept while the other hand holds more
            if counts[c] < theirs[c]:
                counts[c] += 1
                common._size += 1
        return common

    def cards(self) -> tuple[Card, ...]:
        """The cards in code order, each as often as it is held (kept until the hand changes)."""
        cards = self._cards
        if cards is None:
            counts = self._counts
            held = list(compress(Card._cache, counts))
            if len(held) < self._size:  # a face held twice or more (two decks)
                for c in held[:]:
                    if counts[c] > 1:
                        held += [c] * (counts[c] - 1)
                held.sort()
            cards = self._cards = tuple(held)
        return cards

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return self._size

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_CODES and self._counts[card] > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self._counts == other._counts

    # A hand changes as cards come and go, so it has no hash (like ``list``); ``counts`` is the
    # hashable snapshot.
    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"Hand(parse_cards({str(self)!r}))"
