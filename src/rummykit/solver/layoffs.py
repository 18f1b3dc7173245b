"""Lay-offs (Anlegen): where hand cards fit on table melds, and the longest chain of them.

Both run on the active solver backend (:mod:`.backend`); the pure-Python searches are in
:mod:`.layoff_search`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver import backend as _backend
from rummykit.solver.layoff_search import Layoff


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
    return _backend.current.layoff_targets(tuple(hand), table_melds, rules)


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
    return _backend.current.layoff_chain(tuple(hand), table_melds, rules)


__all__ = ["Layoff", "layoff_chain", "layoff_targets"]
