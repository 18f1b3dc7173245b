"""What the legal actions of the melding games read of the table, worked out once per meld and per
table (:class:`_TableFacts`: the lay-off targets of each card and the melds holding a joker), and
the immutable action objects they offer, each made once and shared by every legal-action list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.actions import Discard, Draw, LayOff, MeldAction, MeldCards, Swap, TakeDiscard
from rummykit.cards import JOKER_CODE, NUM_CODES, Card
from rummykit.errors import IllegalMeldError
from rummykit.melds import End, Meld
from rummykit.rules import Rules
from rummykit.solver import Layoff
from rummykit.state import RoundState
from rummykit.views import TableMeld

_ALL_CARDS: Final = tuple(Card(code) for code in range(NUM_CODES))
DISCARD_ACTIONS: Final = tuple(Discard(card) for card in _ALL_CARDS)
"""One (immutable) discard action per card code, shared by every legal-action list (as are
``draw`` and ``take``)."""
DRAW_ACTION: Final = Draw()
TAKE_ACTION: Final = TakeDiscard()


_MeldFacts = tuple[Meld, tuple[tuple[Card, End | None], ...], tuple[Card, ...] | None]
"""A meld, its lay-off targets in :func:`solver.layoff_targets` order and the natural cards that
can replace one of its jokers (``None`` without a joker)."""


class _TableFacts:
    """What the legal actions need to know of table melds under one rule set, worked out once per
    meld and per table: melds are immutable, and a table is asked again on every turn of every
    opened player until a meld is laid or changed.

    Per table (by the ids of its :class:`TableMeld` objects, which the entry keeps, so the ids are
    not reused while kept): every card that can be laid off with its ``(meld index, end)`` targets
    as :func:`solver.layoff_targets` gives them, and the melds holding a joker with the natural
    cards that can replace one (:meth:`Meld.exchange_cards`).
    """

    __slots__ = ("_melds", "_rules", "_tables")

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self._melds: dict[int, _MeldFacts] = {}
        self._tables: dict[tuple[int, ...], _Table] = {}

    def table(self, table: Sequence[TableMeld]) -> _Table:
        key = tuple(map(id, table))
        found = self._tables.get(key)
        if found is None:
            targets: dict[Card, list[tuple[int, End | None]]] = {}
            jokers: list[tuple[int, Meld, tuple[Card, ...]]] = []
            known = self._melds
            for i, tm in enumerate(table):
                meld = tm.meld
                entry = known.get(id(meld))  # the entry holds the meld, so its id is not reused
                if entry is None or entry[0] is not meld:
                    entry = self._learn(meld)
                for card, end in entry[1]:
                    where = targets.get(card)
                    if where is None:
                        where = targets[card] = []
                    where.append((i, end))
                if entry[2] is not None:
                    jokers.append((i, meld, entry[2]))
            if len(self._tables) >= 1 << 10:
                self._tables.clear()
            found = self._tables[key] = (tuple(table), targets, tuple(jokers))
        return found

    def _learn(self, meld: Meld) -> _MeldFacts:
        """The lay-off targets of ``meld`` (card and end, ``None`` for a set) and, when it holds a
        joker, the natural cards that can replace one."""
        fits = tuple((card, end) for card, _, end in solver.layoff_targets(_ALL_CARDS, (meld,), self._rules))
        exchange = meld.exchange_cards() if JOKER_CODE in meld.cards else None
        if len(self._melds) >= 1 << 12:
            self._melds.clear()
        facts = self._melds[id(meld)] = (meld, fits, exchange)
        return facts


_Table = tuple[
    tuple[TableMeld, ...],
    dict[Card, list[tuple[int, End | None]]],
    tuple[tuple[int, Meld, tuple[Card, ...]], ...],
]
"""A table as :class:`_TableFacts` knows it: its melds, lay-off targets by card, joker melds."""
_FACTS: dict[int, _TableFacts] = {}


def table_facts(rnd: RoundState) -> _Table:
    """What :class:`_TableFacts` knows of the table of ``rnd`` under its rules."""
    rules = rnd.rules
    facts = _FACTS.get(id(rules))
    if facts is None or facts._rules is not rules:
        if len(_FACTS) >= 8:
            del _FACTS[next(iter(_FACTS))]  # the rule set met longest ago
        facts = _FACTS[id(rules)] = _TableFacts(rules)
    return facts.table(rnd.melds)


def table_layoff_targets(cards: Sequence[Card], rnd: RoundState) -> list[Layoff]:
    """:func:`solver.layoff_targets` of the hand ``cards`` on the table of ``rnd``, read from what
    fits each meld (a card fits a meld or not whatever else is held): by card, then meld, then
    ``low`` before ``high``."""
    fits = table_facts(rnd)[1]
    held = set(cards).intersection(fits)
    if not held:
        return []
    return [(card, i, end) for card in sorted(held) for i, end in fits[card]]


_LAYOFF_ACTIONS: dict[tuple[Card, int, End | None], LayOff] = {}
_MELD_ACTIONS: dict[MeldCards, MeldAction] = {}


def layoff_action(card: Card, target: int, end: End | None) -> LayOff:
    """The (immutable) lay-off action, shared by the legal-action lists that offer it."""
    action = _LAYOFF_ACTIONS.get((card, target, end))
    if action is None:
        if len(_LAYOFF_ACTIONS) >= 1 << 12:
            _LAYOFF_ACTIONS.clear()
        action = _LAYOFF_ACTIONS[(card, target, end)] = LayOff(card, target, end)
    return action


def meld_action(cards: MeldCards) -> MeldAction:
    """The (immutable) action laying one meld, shared by the legal-action lists that offer it."""
    action = _MELD_ACTIONS.get(cards)
    if action is None:
        if len(_MELD_ACTIONS) >= 1 << 14:
            _MELD_ACTIONS.clear()
        action = _MELD_ACTIONS[cards] = MeldAction((cards,))
    return action


_SWAP_ACTIONS: dict[tuple[tuple[Card, ...], int, MeldCards | None], Swap] = {}


def swap_action(cards: tuple[Card, ...], target: int, meld: MeldCards | None) -> Swap:
    """The (immutable) joker exchange of ``cards`` into table meld ``target``, the freed joker laid
    in ``meld`` (or kept in hand for ``None``), shared by the legal-action lists that offer it."""
    key = (cards, target, meld)
    action = _SWAP_ACTIONS.get(key)
    if action is None:
        if len(_SWAP_ACTIONS) >= 1 << 12:
            _SWAP_ACTIONS.clear()
        action = _SWAP_ACTIONS[key] = Swap(cards, target, () if meld is None else (meld,))
    return action


def jokers_freed(action: Swap, melds: Sequence[Meld], rules: Rules) -> int | None:
    """How many jokers the joker exchange ``action`` frees from its target among the table ``melds``
    (meld 1 first), read as the engine applies it: each card in turn replaces a joker that stands for
    it or else is laid off (under ``set_joker_exchange = complete_four_only`` two naturals free one
    joker of a set of three: one takes its place, the other completes the four). ``None`` when the
    exchange does not read on this table."""
    if not 1 <= action.target <= len(melds):
        return None
    meld, freed = melds[action.target - 1], 0
    for card in action.cards:
        try:
            meld, freed = meld.with_exchange(card), freed + 1
        except IllegalMeldError:
            try:
                meld = meld.with_layoff(card, rules)
            except IllegalMeldError:
                return None
    return freed or None

