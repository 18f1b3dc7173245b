"""The solver's public entry points; the search kernels run on the active backend (:mod:`.backend`).

Every entry point checks its arguments the same way whichever backend runs, as every public entry
point of rummykit does (``tests/test_entry_points.py``): ``cards`` is an iterable of card codes
(:class:`~rummykit.cards.Card` or ``int``, a :class:`~rummykit.cards.Hand` too; a text is not read,
:func:`~rummykit.cards.parse_cards` does that), ``rules`` a
:class:`~rummykit.rules.Rules` and a flag such as ``keep_one`` a ``bool``; otherwise
:class:`TypeError` naming the argument. A code that is no card's, or a face held three times, is a
:class:`~rummykit.errors.NotationError`, as for :class:`~rummykit.cards.Card`.

The bots call these functions in hot loops, so the checks on the way in are O(1) type tests; the
cards are checked one by one only when a backend has refused them (both kernels refuse every bad
code), and the refusal is then reported as above.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import index
from typing import NoReturn

from rummykit.cards import JOKER_CODE, Card, Hand
from rummykit.errors import NotationError, quoted
from rummykit.melds import Meld
from rummykit.rules import Rules, check_rules
from rummykit.solver import backend as _backend
from rummykit.solver.arrangement import Arrangement

_REFUSED = (TypeError, ValueError, OverflowError)
"""What the backends raise for cards they cannot read (OverflowError: the compiled kernels, for a
code beyond a C long)."""


def _sequence(cards: Iterable[int], where: str) -> Sequence[int]:
    """``cards`` (not a tuple or list: those go straight to the backends) as a tuple of its items.

    Raises:
        TypeError: ``cards`` is a text, or not iterable.
    """
    if isinstance(cards, Hand):
        return cards.cards()
    if isinstance(cards, (str, bytes, bytearray)):
        raise TypeError(
            f"{where}: cards must be card codes (Cards or ints), not {type(cards).__name__}; "
            f"parse_cards({quoted(cards)}) reads notation"
        )
    try:
        return tuple(cards)
    except TypeError:
        raise TypeError(
            f"{where}: cards must be an iterable of card codes (Cards or ints), not {type(cards).__name__}"
        ) from None


_SEQUENCES: frozenset[type] = frozenset((tuple, list))
"""Containers of cards that go to the backends as they are."""


def _checked(cards: Iterable[int], rules: Rules, where: str) -> Sequence[int]:
    """The slow path of the checks on the way in: ``cards`` as a sequence (:func:`_sequence`) and
    ``rules`` a :class:`Rules`.

    Raises:
        TypeError: ``cards`` is a text or not iterable, or ``rules`` no :class:`Rules`.
    """
    check_rules(rules)
    return cards if cards.__class__ in _SEQUENCES else _sequence(cards, where)  # type: ignore[return-value]


def _code(value: object, what: str) -> Card:
    """``value`` as a card: :class:`TypeError` for a non-integer (``what``: the argument and the
    function, for the message), :class:`NotationError` for a code that is no card's (the message of
    :class:`Card`)."""
    try:
        code = index(value)  # type: ignore[arg-type]
    except TypeError:
        hint = "; parse_cards reads notation" if isinstance(value, str) else ""
        if what.startswith("the cards"):  # the start of the compiled kernels' message, kept
            what = f"{type(value).__name__!r} object cannot be interpreted as an integer: {what}"
        raise TypeError(
            f"{what} (a Card, or an int from 0 to {JOKER_CODE}), not {quoted(value)}{hint}"
        ) from None
    if not 0 <= code <= JOKER_CODE:
        raise NotationError(f"no card has code {quoted(code)}: codes run from 0 to {JOKER_CODE}")
    return Card._cache[code]


def _refusal(cards: Iterable[int], where: str) -> Exception | None:
    """Why a backend refused ``cards``: a non-integer, a code that is no card's or a face held three
    times; ``None`` when the cards are fine (the backend's own error then stands)."""
    seen: Counter[int] = Counter()
    for value in cards:
        code = _code(value, f"the cards of {where} must be card codes")
        seen[code] += 1
        if seen[code] > 2 and code != JOKER_CODE:
            return NotationError(f"a hand may hold at most two copies of a face, not more of {code}")
    return None


def _refused(cards: Iterable[int], where: str) -> NoReturn:
    """Re-raise the backend's refusal of ``cards`` being handled, as :func:`_refusal` names it (called
    from the ``except`` clause, off the hot path; a refusal it cannot name stands as raised)."""
    refusal = _refusal(cards, where)
    if refusal is None:
        raise  # the exception the caller is handling
    raise refusal from None


def _flag(value: object, name: str, where: str) -> bool:
    """``value`` as a bool: a bool, NumPy's ``bool_``, or the integer 0 or 1 (as before the checks);
    :class:`TypeError` for anything else (a text such as ``"no"`` would be true)."""
    if value is True or value is False:
        return value
    numpy_bool = type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")
    if numpy_bool or (hasattr(value, "__index__") and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{where}: {name} must be True or False, not {quoted(value)}")


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
    kind = cards.__class__  # identity tests: the cheapest check on the bots' hot path
    if (kind is not tuple and kind is not list) or rules.__class__ is not Rules:
        cards = _checked(cards, rules, "min_deadwood")
    try:
        return _backend.current.min_deadwood(cards, rules)
    except _REFUSED:
        _refused(cards, "min_deadwood")


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
    kind = cards.__class__  # identity tests: the cheapest check on the bots' hot path
    if (kind is not tuple and kind is not list) or rules.__class__ is not Rules:
        cards = _checked(cards, rules, "best_discards")
    try:
        return _backend.current.best_discards(cards, rules)
    except _REFUSED:
        _refused(cards, "best_discards")


def best_arrangement(cards: Iterable[int], rules: Rules) -> Arrangement:
    """An arrangement of the hand into melds achieving :func:`min_deadwood`.

    Ties are broken deterministically: the result depends only on the multiset of cards. Melds are
    listed by their lowest natural card; runs hold jokers on the positions they occupy.

    >>> from rummykit.cards import parse_cards
    >>> a = best_arrangement(parse_cards("AH 2H 3H AS AD KC QC JC 5S 5D"), Rules.preset("viennese"))
    >>> print(a)
    [JC QC KC] [AD AH AS] | 5D 2H 3H 5S = 15
    """
    if type(cards) is tuple or type(cards) is list:
        cards = tuple(cards)
    else:
        cards = _sequence(cards, "best_arrangement")
    if type(rules) is not Rules:
        check_rules(rules)
    try:
        return _backend.current.best_arrangement(cards, rules)
    except _REFUSED:
        _refused(cards, "best_arrangement")


def all_melds(cards: Iterable[int], rules: Rules) -> list[tuple[Card, ...]]:
    """Every valid meld formable from the multiset ``cards``, each once, as cards in position order.

    Runs hold each joker on the position it occupies (``5H 6H JK`` and ``JK 5H 6H`` are different
    melds); sets list their naturals by suit, then their jokers. Runs come first (by suit, then
    start), then sets by rank.

    >>> from rummykit.cards import parse_cards
    >>> [" ".join(map(str, m)) for m in all_melds(parse_cards("5H 6H 7H 7S 7D"), Rules.preset("german"))]
    ['5H 6H 7H', '7D 7H 7S']
    """
    return _all_melds(cards, rules, "all_melds")


def _all_melds(cards: Iterable[int], rules: Rules, where: str) -> list[tuple[Card, ...]]:
    cards = tuple(cards) if type(cards) is tuple or type(cards) is list else _sequence(cards, where)
    if type(rules) is not Rules:
        check_rules(rules)
    for value in cards:  # checked first: the pure twin would read 7.0 as 7 (a hash lookup)
        if type(value) is not Card:
            _code(value, f"the cards of {where} must be card codes")
    try:
        return _backend.current.all_melds(cards, rules)
    except _REFUSED:
        _refused(cards, where)


def melds_containing(cards: Iterable[int], card: int, rules: Rules) -> list[tuple[Card, ...]]:
    """The melds of :func:`all_melds` that use ``card`` (e.g. a discard that must be melded).

    >>> from rummykit.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H 7S 7D 9C")
    >>> [" ".join(map(str, m)) for m in melds_containing(hand, Card.parse("7S"), Rules.preset("german"))]
    ['7D 7H 7S']
    """
    card = _code(card, "melds_containing: card must be a card code")
    return [m for m in _all_melds(cards, rules, "melds_containing") if card in m]


def max_opening_value(cards: Iterable[int], rules: Rules, keep_one: bool = False) -> int:
    """The highest total opening value (RULES.md §2.2) of disjoint melds from the hand.

    Values: 2–10 pips, J Q K 10, an ace 1 at the bottom of a run and 11 in a set or at the top, a
    joker the card it stands for (placed where it is worth most). With ``keep_one`` at least one card
    must stay outside the melds (a discard is needed). 0 when no meld can be formed.

    >>> from rummykit.cards import parse_cards
    >>> max_opening_value(parse_cards("JK 2S 3S KD KC KS 10D 10C 10H"), Rules.preset("german"))
    70
    """
    kind = cards.__class__  # identity tests: the cheapest check on the bots' hot path
    if (kind is not tuple and kind is not list) or rules.__class__ is not Rules:
        cards = _checked(cards, rules, "max_opening_value")
    if keep_one is not False and keep_one is not True:
        keep_one = _flag(keep_one, "keep_one", "max_opening_value")
    try:
        return _backend.current.max_opening_value(cards, rules, keep_one)
    except _REFUSED:
        _refused(cards, "max_opening_value")


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
    cards = tuple(cards) if type(cards) is tuple or type(cards) is list else _sequence(cards, "best_opening")
    if type(rules) is not Rules:
        check_rules(rules)
    keep_one = _flag(keep_one, "keep_one", "best_opening")
    if must_include is not None:
        must_include = _code(must_include, "best_opening: must_include must be a card code or None")
        if must_include not in cards:
            raise ValueError(f"{must_include} is not in the hand")
    if minimum is None:
        minimum = rules.opening_min_points or 0
    elif isinstance(minimum, bool) or not hasattr(minimum, "__index__"):
        raise TypeError(f"best_opening: minimum must be an int or None, not {quoted(minimum)}")
    else:
        minimum = index(minimum)  # NumPy's integers too
    single = rules.opening_scope == "single_meld"
    try:
        return _backend.current.best_opening(cards, rules, must_include, keep_one, minimum, single)
    except _REFUSED:
        _refused(cards, "best_opening")
