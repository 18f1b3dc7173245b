"""The solver's public entry points; the search kernels run on the active backend (:mod:`.backend`)."""

from __future__ import annotations

from collections.abc import Iterable

from rummykit.cards import Card
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver import backend as _backend
from rummykit.solver.arrangement import Arrangement


def min_deadwood(cards: Iterable[int], rules: Rules) -> int:
    """Exact minimum deadwood of a hand (RULES.md §4.6).

    The minimum, over every collection of pairwise disjoint valid melds drawn from the hand, of the
    summed ``rules.deadwood_value`` of the cards left over. A joker inside a meld costs nothing; an
    unmatched joker costs ``deadwood_joker``. Any hand a game can deal works; two-deck duplicates
    and jokers are allowed (at most two copies of a face, at most 63 jokers in the compiled kernels;
    the rules allow 6). The search is exponential in the hand: far beyond a real hand (15 cards and
    a draw), 35 or 40 cards take seconds.

    >>> from rummykit.cards import parse_cards
    >>> viennese = Rules.preset("viennese")
    >>> min_deadwood(parse_cards("8S 8H 8D 8C KS KH KD KC JK 2C"), viennese)
    10
    >>> min_deadwood(parse_cards("JK 5S 6S 9D 9H 9C KH QH JH 4D"), viennese)
    4
    """
    return _backend.current.min_deadwood(cards, rules)


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
    return _backend.current.best_discards(cards, rules)


def best_arrangement(cards: Iterable[int], rules: Rules) -> Arrangement:
    """An arrangement of the hand into melds achieving :func:`min_deadwood`.

    Ties are broken deterministically: the result depends only on the multiset of cards. Melds are
    listed by their lowest natural card; runs hold jokers on the positions they occupy.

    >>> from rummykit.cards import parse_cards
    >>> a = best_arrangement(parse_cards("AH 2H 3H AS AD KC QC JC 5S 5D"), Rules.preset("viennese"))
    >>> print(a)
    [JC QC KC] [AD AH AS] | 5D 2H 3H 5S = 15
    """
    return _backend.current.best_arrangement(tuple(cards), rules)


def all_melds(cards: Iterable[int], rules: Rules) -> list[tuple[Card, ...]]:
    """Every valid meld formable from the multiset ``cards``, each once, as cards in position order.

    Runs hold each joker on the position it occupies (``5H 6H JK`` and ``JK 5H 6H`` are different
    melds); sets list their naturals by suit, then their jokers. Runs come first (by suit, then
    start), then sets by rank.

    >>> from rummykit.cards import parse_cards
    >>> [" ".join(map(str, m)) for m in all_melds(parse_cards("5H 6H 7H 7S 7D"), Rules.preset("german"))]
    ['5H 6H 7H', '7D 7H 7S']
    """
    return _backend.current.all_melds(tuple(cards), rules)


def melds_containing(cards: Iterable[int], card: int, rules: Rules) -> list[tuple[Card, ...]]:
    """The melds of :func:`all_melds` that use ``card`` (e.g. a discard that must be melded).

    >>> from rummykit.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H 7S 7D 9C")
    >>> [" ".join(map(str, m)) for m in melds_containing(hand, Card.parse("7S"), Rules.preset("german"))]
    ['7D 7H 7S']
    """
    return [m for m in all_melds(cards, rules) if card in m]


def max_opening_value(cards: Iterable[int], rules: Rules, keep_one: bool = False) -> int:
    """The highest total opening value (RULES.md §2.2) of disjoint melds from the hand.

    Values: 2–10 pips, J Q K 10, an ace 1 at the bottom of a run and 11 in a set or at the top, a
    joker the card it stands for (placed where it is worth most). With ``keep_one`` at least one card
    must stay outside the melds (a discard is needed). 0 when no meld can be formed.

    >>> from rummykit.cards import parse_cards
    >>> max_opening_value(parse_cards("JK 2S 3S KD KC KS 10D 10C 10H"), Rules.preset("german"))
    70
    """
    return _backend.current.max_opening_value(cards, rules, keep_one)


def best_opening(
    cards: Iterable[int],
    rules: Rules,
    must_include: int | None = None,
    keep_one: bool = True,
    minimum: int | None = None,
) -> tuple[Meld, ...] | None:
    """The disjoint melds with the highest opening value (Erstmeldung), or ``None`` if they fall short.

    The requirement is ``rules.opening_min_points`` (RULES.md §3.7) over all melds laid together, or
    for ``opening_scope = single_meld`` by one meld alone (the others are still laid). With
    ``must_include`` (e.g. a card just taken from the discard pile) that card must be in one of the
    melds. With ``keep_one`` a card must stay in hand for the discard. Without an opening minimum
    (knock games) any meld qualifies; ``minimum`` replaces the rules' own (0: the most valuable
    melds, whatever they are worth). ``None`` when no collection qualifies.

    >>> from rummykit.cards import parse_cards
    >>> german = Rules.preset("german")
    >>> [str(m) for m in best_opening(parse_cards("10H JH KH QH 2C 9D"), german)]
    ['10H JH QH KH']
    >>> best_opening(parse_cards("KS KD KH 2C 3C 4C 9D"), german) is None
    True
    """
    cards = tuple(cards)
    if must_include is not None and must_include not in cards:
        raise ValueError(f"{Card(must_include)} is not in the hand")
    if minimum is None:
        minimum = rules.opening_min_points or 0
    single = rules.opening_scope == "single_meld"
    return _backend.current.best_opening(cards, rules, must_include, keep_one, minimum, single)
