"""Turn logic of the melding games: German Rummy (Rommé mit Auslegen), Scala 40, Basic Rummy.

A turn (RULES.md §3.6) is DRAW (``draw`` or ``take``), then PLAY: any number of ``open`` (first
melds, together worth ``opening_min_points``), ``meld``, ``layoff`` (anlegen) and ``swap`` (Joker
tauschen), ended by ``discard``. A player who holds no cards has gone out; the hand ends at once.

Decisions made here beyond RULES.md:

* A card taken from the discard pile that must be melded (``discard_pickup_requires_meld``, or an
  unopened player under ``opened_or_opening_with_it``) may be taken only when a legal way to lay it
  this turn exists, and every later action of the turn must keep such a way open. This is the
  engine's "no dead ends" guarantee: every offered action leaves a legal action to follow
  (:mod:`rummykit.testing` checks it).
* The card taken from the discard pile may not be discarded in the same turn (D15,
  ``may_discard_taken_discard = false``) without exception: a play that would leave it as the only
  card in hand is refused, so the player keeps another card to discard (with two decks a lone copy
  of its face counts as the taken card; copies are not told apart, except where the taken card had
  to be laid: the play that lays it put that very card on the table). Before, the bar was lifted
  there, and a player could take a card, lay everything else and go out by discarding it.
* When every card left in a hand is barred from the discard otherwise (the taken discard held only
  with other copies of its face, a playable card under ``discard_playable_card_allowed = false``, a
  joker under ``joker_discard_allowed = only_when_closing``), those bars are lifted in that order
  until a card can be discarded, so the turn can always end. The bar on a playable card stands while
  the player may lay one off and keep a card: the turn then goes on with lay-offs down to a discard
  the bars allow (the closing card at the latest), as RULES.md §5.2 asks.
* ``hand_romme_requires_opening_min = false`` waives the opening minimum when the opening leaves at
  most one card (which the player must then discard, going out).
* A joker exchange whose natural card is the taken discard lays that card on the table (into the
  meld the joker leaves), which settles ``discard_pickup_requires_meld`` (RULES.md §3.6: the card
  must be on the table; §5.2: it must go into a meld) also when the freed joker stays in hand.

Legal-action enumeration (``Round.legal_actions``): in the draw phase ``draw`` and ``take``; in the
play phase for an unopened player the best-value opening and every single meld that is an opening on
its own (all restricted to melds using the taken discard while it must be laid), and under the
Hand-Rommé waiver the openings below the minimum that go out; for an opened player
every distinct single meld, every lay-off (run ends named when a card fits at both), every joker
exchange with each new meld that can take the freed joker; then every distinct discard. Compound
openings other than the best one are accepted by ``check``/``apply`` but not enumerated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rummykit import permissions, scoring, solver
from rummykit.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldAction,
    MeldCards,
    Open,
    Swap,
    TakeDiscard,
)
from rummykit.cards import JOKER, JOKER_CODE, NUM_CODES, NUM_RANKS, Card, Hand
from rummykit.errors import (
    CardNotInHandError,
    DiscardError,
    DrawError,
    IllegalActionError,
    IllegalMeldError,
    JokerExchangeError,
    LayOffError,
    MeldError,
    OpeningError,
    WrongTurnError,
    taken_discard_error,
)
from rummykit.family import Plan, draw_phase_plan, is_legal, plan_draw
from rummykit.melds import End, Meld, position_value, rank_value
from rummykit.rules import Rules
from rummykit.solver import Layoff
from rummykit.state import RoundState
from rummykit.views import Phase, TableMeld, Termination

_VALUE_BOUND: Final = tuple(
    11 if code == JOKER_CODE or code % NUM_RANKS == 0 else min(code % NUM_RANKS + 1, 10)
    for code in range(NUM_CODES)
)
"""The most a card can add to a meld's opening value (RULES.md §2.2): an ace or a joker 11, a court
card 10, a pip card its pips. A meld's value is at most the sum over its cards."""
# Enum members as module constants: ``Phase.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and the turn flow reads them on every action.
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_PLAY: Final = Phase.PLAY


_ALL_CARDS: Final = tuple(Card(code) for code in range(NUM_CODES))
_DISCARDS: Final = tuple(Discard(card) for card in _ALL_CARDS)
"""One (immutable) discard action per card code, shared by every legal-action list (as are
``draw`` and ``take``)."""
_DRAW: Final = Draw()
_TAKE: Final = TakeDiscard()


def _meld(cards: MeldCards, rules: Rules, action: Action) -> Meld:
    try:
        return Meld.from_cards(cards, rules)
    except IllegalMeldError as exc:
        raise MeldError(f"{action}: {exc}", exc.rule) from None


def _hand_after(rnd: RoundState, seat: int, cards: Sequence[int], action: Action) -> Hand:
    hand = rnd.hands[seat]
    if not hand.contains_all(cards):
        missing = Hand(cards)
        for c in hand:
            if missing.count(c):
                missing.remove(c)
        raise CardNotInHandError(f"{action}: you do not hold {missing}", "card_not_in_hand")
    return hand.without(cards)


def _card_value_in(meld: Meld, card: Card) -> int:
    """Opening value that ``card`` contributes to ``meld`` (for ``opening_counts_taken_discard``)."""
    if meld.is_set:
        return rank_value(meld.rank)
    i = meld.cards.index(card)
    return position_value(meld.start + i)


def _opening_value(melds: Sequence[Meld], rules: Rules, taken: Card | None) -> int:
    """What an opening of ``melds`` counts toward ``opening_min_points``: their values summed, or
    under ``opening_scope = single_meld`` the best one's.

    ``taken``: the discard taken this turn where the opening lays a card equal to it. Under
    ``opening_counts_taken_discard = false`` its value is left out. Decision: a laid card equal to
    the taken one is the taken one (the table saw it taken and sees such a card laid; a twin kept in
    the hand does not make the laid one count), and where two equal cards are laid (two decks),
    nobody can tell which was taken, so it is left out of the meld where that leaves the opening
    worth most (an ace counts 11 in a set and 1 at the bottom of a run): the order in which the
    melds are written changes nothing. (It was left out of the first meld holding it: ``open AH AS
    AD | AH 2H 3H 4H`` after taking ``AH`` counted 32, the same melds the other way round 42.)"""
    values = [m.value for m in melds]
    total: Callable[[list[int]], int] = max if rules.opening_scope == "single_meld" else sum
    if taken is None or rules.opening_counts_taken_discard:
        return total(values) if values else 0
    worths = []
    for i, m in enumerate(melds):
        if taken in m.cards:
            without = values.copy()
            without[i] -= _card_value_in(m, taken)
            worths.append(total(without))
    return max(worths) if worths else (total(values) if values else 0)


_OpeningCheck = Callable[[Sequence[Meld]], bool]
"""Whether an opening of these melds (built by the solver from the mover's hand) is legal."""


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


def _table_facts(rnd: RoundState) -> _Table:
    """What :class:`_TableFacts` knows of the table of ``rnd`` under its rules."""
    rules = rnd.rules
    facts = _FACTS.get(id(rules))
    if facts is None or facts._rules is not rules:
        if len(_FACTS) >= 8:
            del _FACTS[next(iter(_FACTS))]  # the rule set met longest ago
        facts = _FACTS[id(rules)] = _TableFacts(rules)
    return facts.table(rnd.melds)


def _layoff_targets(cards: Sequence[Card], rnd: RoundState) -> list[Layoff]:
    """:func:`solver.layoff_targets` of the hand ``cards`` on the table of ``rnd``, read from what
    fits each meld (a card fits a meld or not whatever else is held): by card, then meld, then
    ``low`` before ``high``."""
    fits = _table_facts(rnd)[1]
    held = set(cards).intersection(fits)
    if not held:
        return []
    return [(card, i, end) for card in sorted(held) for i, end in fits[card]]


_LAYOFF_ACTIONS: dict[tuple[Card, int, End | None], LayOff] = {}
_MELD_ACTIONS: dict[MeldCards, MeldAction] = {}


def _layoff_action(card: Card, target: int, end: End | None) -> LayOff:
    """The (immutable) lay-off action, shared by the legal-action lists that offer it."""
    action = _LAYOFF_ACTIONS.get((card, target, end))
    if action is None:
        if len(_LAYOFF_ACTIONS) >= 1 << 12:
            _LAYOFF_ACTIONS.clear()
        action = _LAYOFF_ACTIONS[(card, target, end)] = LayOff(card, target, end)
    return action


def _meld_action(cards: MeldCards) -> MeldAction:
    """The (immutable) action laying one meld, shared by the legal-action lists that offer it."""
    action = _MELD_ACTIONS.get(cards)
    if action is None:
        if len(_MELD_ACTIONS) >= 1 << 14:
            _MELD_ACTIONS.clear()
        action = _MELD_ACTIONS[cards] = MeldAction((cards,))
    return action


_SWAP_ACTIONS: dict[tuple[tuple[Card, ...], int, MeldCards | None], Swap] = {}


def _swap_action(cards: tuple[Card, ...], target: int, meld: MeldCards | None) -> Swap:
    """The (immutable) joker exchange of ``cards`` into table meld ``target``, the freed joker laid
    in ``meld`` (or kept in hand for ``None``), shared by the legal-action lists that offer it."""
    key = (cards, target, meld)
    action = _SWAP_ACTIONS.get(key)
    if action is None:
        if len(_SWAP_ACTIONS) >= 1 << 12:
            _SWAP_ACTIONS.clear()
        action = _SWAP_ACTIONS[key] = Swap(cards, target, () if meld is None else (meld,))
    return action


def _plain(cards: Sequence[int]) -> bool:
    """At least two naturals: the cards read back as the meld they were built as."""
    return len(cards) - cards.count(JOKER_CODE) >= 2


def _keep_one(rules: Rules) -> bool:
    return rules.going_out_requires_discard


def _require_card_left(hand: Hand, rules: Rules, action: Action, error: type[IllegalActionError]) -> None:
    """``going_out_requires_discard``: a player must keep a card to end the turn with a discard."""
    if _keep_one(rules) and len(hand) == 0:
        raise error(
            f"{action}: you must keep a card to discard (going_out_requires_discard)",
            "going_out_requires_discard",
        )


def barred_taken(rnd: RoundState) -> Card | None:
    """The card taken from the discard pile this turn while it may not be discarded
    (``may_discard_taken_discard`` off) and need not be laid: a play must not leave it as the only
    card in hand, since the turn could then end neither by a discard nor by going out."""
    if rnd.rules.may_discard_taken_discard or rnd.must_lay is not None:
        return None
    return rnd.taken_discard


def _require_discardable_left(
    rnd: RoundState, hand: Hand, action: Action, error: type[IllegalActionError]
) -> None:
    """D15 without exception: a play may not leave only the card taken from the discard pile this
    turn (with two decks a lone copy of its face counts as that card: copies are not told apart).

    Not where the taken discard has to be laid (``discard_pickup_requires_meld``, Scala 40): until
    it is laid the turn cannot end with a discard, and the play that lays it puts that very card on
    the table, so a copy left in hand is the player's own. Refusing that play would leave a player
    who took the card with no legal way to lay it (a dead end)."""
    card = barred_taken(rnd)
    if card is not None and len(hand) == 1 and card in hand:
        raise error(
            f"{action}: it would leave only {card}, the card you took from the discard pile, which you "
            "may not discard this turn; keep another card to discard (may_discard_taken_discard is off)",
            "may_discard_taken_discard",
        )


def _leaves_only(cards: Sequence[Card], melds: Sequence[Meld], card: Card) -> bool:
    """Whether laying ``melds`` from ``cards`` leaves ``card`` alone in hand."""
    laid = [c for m in melds for c in m.cards]
    return len(cards) - len(laid) == 1 and card in Hand(cards).without(laid)


def may_lay_off(rnd: RoundState, seat: int) -> bool:
    """Whether ``seat`` may lay off now (:func:`rummykit.permissions.may_lay_off`)."""
    return permissions.may_lay_off(rnd.rules, rnd.opened_turn[seat], rnd.turn)


_EXCHANGE_REASONS: Final = {
    "joker_exchange": "jokers cannot be exchanged in this game (joker_exchange is off)",
    "joker_exchange_requires_opened": "only a player who has opened may exchange a joker",
    "joker_exchange_on_opening_turn": (
        "no joker exchange in the turn of the opening (joker_exchange_on_opening_turn is off)"
    ),
}
"""Why :func:`rummykit.permissions.exchange_bar` refuses, by rule id."""


def _exchange_problem(rnd: RoundState, seat: int) -> tuple[str, str] | None:
    """The rule id and reason that forbid ``seat`` a joker exchange now, or ``None``."""
    rule = permissions.exchange_bar(rnd.rules, rnd.opened_turn[seat], rnd.turn)
    return None if rule is None else (rule, _EXCHANGE_REASONS[rule])


def _must_lay_taken(rnd: RoundState, seat: int) -> bool:
    rules = rnd.rules
    return rules.discard_pickup_requires_meld or (
        rules.discard_pickup_requires_opened == "opened_or_opening_with_it" and not rnd.has_opened(seat)
    )


def _take_effect(rnd: RoundState, seat: int, card: Card, must_lay: bool) -> Plan:
    """``seat`` takes the top discard ``card`` into the hand (to be laid this turn if ``must_lay``)."""

    def effect() -> None:
        if rnd.count_take():
            return
        rnd.discard_pile.pop()
        rnd.hands[seat] = rnd.hands[seat].plus(card)
        rnd.taken_discard = card
        rnd.must_lay = card if must_lay else None
        rnd.phase = _PHASE_PLAY

    return effect


def _can_place(
    rnd: RoundState, card: Card, hand: Hand, table: Sequence[Meld], opened: bool, layoff_ok: bool
) -> bool:
    """Whether ``card`` (held in ``hand``) can still be laid on the table this turn."""
    rules = rnd.rules
    if card not in hand:
        return False  # it left the hand without being laid: nothing can lay it any more
    cards = list(hand)
    limit = len(cards) - 1 if _keep_one(rules) else len(cards)
    if opened:
        spare = len(cards) > (1 if _keep_one(rules) else 0)
        if layoff_ok and spare and any(m.can_lay_off(card, rules) for m in table):
            return True
        return any(len(m) <= limit for m in solver.melds_containing(cards, card, rules))
    if not rules.opening_counts_taken_discard:
        return _opening_without_its_value(cards, card, rules, limit) is not None
    best = solver.best_opening(cards, rules, must_include=card, keep_one=_keep_one(rules))
    if best is None:
        return False
    minimum = rules.opening_min_points or 0
    return _opening_value(best, rules, None) >= minimum


def _opening_without_its_value(
    cards: Sequence[Card], card: Card, rules: Rules, limit: int
) -> tuple[Meld, ...] | None:
    """An opening of ``cards`` (at most ``limit`` of them laid) that lays the taken discard ``card``
    and reaches ``opening_min_points`` without counting it (``opening_counts_taken_discard =
    false``), the meld with the card first; ``None`` when there is none. The highest-valued opening
    with the card need not be the one worth most without it (an ace counts 11 in a set, 1 at the
    bottom of a run; a second joker may take the taken one's place), so every meld with the card is
    tried, with the most the rest of the hand adds (the whole opening counts, or for ``opening_scope
    = single_meld`` the one meld that must reach the minimum)."""
    minimum = rules.opening_min_points or 0
    keep = _keep_one(rules)
    for with_card in solver.melds_containing(cards, card, rules):
        if len(with_card) > limit:
            continue
        try:
            meld = Meld.from_cards(with_card, rules)
        except IllegalMeldError:
            continue
        own = meld.value - _card_value_in(meld, card)
        rest = list(cards)
        for c in with_card:
            rest.remove(c)
        if own >= minimum:
            return (meld,)
        if rules.opening_scope != "single_meld":
            others = solver.best_opening(rest, rules, keep_one=keep, minimum=0)
            if others is not None and own + sum(m.value for m in others) >= minimum:
                return (meld, *others)
            continue
        for other in solver.all_melds(rest, rules):
            if len(with_card) + len(other) <= limit:
                second = Meld.from_cards(other, rules)
                if second.value >= minimum:
                    return (meld, second)
    return None


class MeldingFamily:
    """Turn logic for the melding games."""

    after_draw_phase: Final = Phase.PLAY

    # Planning (legality in one place) ------------------------------------------------------------
    def plan(self, rnd: RoundState, action: Action) -> Plan:
        drawing = draw_phase_plan(rnd, action, self._plan_take, self.after_draw_phase)
        if drawing is not None:
            return drawing
        if isinstance(action, Open):
            return self._plan_open(rnd, action)
        if isinstance(action, MeldAction):
            return self._plan_meld(rnd, action)
        if isinstance(action, LayOff):
            return self._plan_layoff(rnd, action)
        if isinstance(action, Swap):
            return self._plan_swap(rnd, action)
        if isinstance(action, Discard):
            return self._plan_discard(rnd, action)
        raise WrongTurnError(f"{action}: not an action of {rnd.rules.name}", "not_in_this_game")

    def _plan_take(self, rnd: RoundState) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if not rnd.discard_pile:
            raise DrawError("take: the discard pile is empty", "empty_discard_pile")
        card = rnd.discard_pile[-1]
        opened = rnd.has_opened(seat)
        if rules.discard_pickup_requires_opened == "opened_before" and not opened:
            raise DrawError(
                f"take: only a player who has opened may take the discard {card} "
                "(discard_pickup_requires_opened is opened_before)",
                "discard_pickup_requires_opened",
            )
        must_lay = _must_lay_taken(rnd, seat)
        if must_lay:
            hand = rnd.hands[seat].copy()
            hand.add(card)
            table = [tm.meld for tm in rnd.melds]
            if not _can_place(rnd, card, hand, table, opened, opened and may_lay_off(rnd, seat)):
                rule = (
                    "discard_pickup_requires_meld"
                    if rules.discard_pickup_requires_meld
                    else ("discard_pickup_requires_opened")
                )
                minimum = rules.opening_min_points or 0
                how = "no meld or lay-off for it" if opened else f"no opening worth {minimum} points with it"
                if not opened and not rules.opening_counts_taken_discard:
                    how = f"no opening worth {minimum} points without counting it"
                raise DrawError(f"take: {card} must be laid this turn ({rule}), and you have {how}", rule)
        return _take_effect(rnd, seat, card, must_lay)

    def _check_pending(
        self, rnd: RoundState, seat: int, action: Action, hand: Hand, table: Sequence[Meld], placed: bool
    ) -> None:
        """The taken discard that must be laid must stay placeable after this action."""
        card = rnd.must_lay
        if card is None or placed:
            return
        # A joker exchange never opens: before the opening its joker stays in hand (the rules refuse
        # an exchange before the opening whose joker would be melded at once).
        opened = True if isinstance(action, (Open, MeldAction)) else rnd.has_opened(seat)
        if not _can_place(rnd, card, hand, table, opened, may_lay_off(rnd, seat)):
            raise MeldError(
                f"{action}: afterwards the taken discard {card} could no longer be laid this turn "
                "(discard_pickup_requires_meld)",
                "discard_pickup_requires_meld",
            )

    def _plan_open(self, rnd: RoundState, action: Open) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if rnd.has_opened(seat):
            raise OpeningError(f"{action}: you have already opened; lay further melds with 'meld'", "opened")
        melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after(rnd, seat, action.cards, action)
        _require_card_left(hand, rules, action, OpeningError)
        pending = rnd.must_lay
        placed = pending is not None and pending in action.cards
        _require_discardable_left(rnd, hand, action, OpeningError)
        if pending is not None and not placed:
            raise OpeningError(
                f"{action}: the taken discard {pending} must be part of the opening",
                "discard_pickup_requires_meld",
            )
        taken = (
            rnd.taken_discard if rnd.taken_discard is not None and rnd.taken_discard in action.cards else None
        )
        value = _opening_value(melds, rules, taken)
        minimum = rules.opening_min_points or 0
        waived = not rules.hand_romme_requires_opening_min and len(hand) <= 1 and _hand_romme_now(rnd, seat)
        if value < minimum and not waived:
            scope = " in one meld" if rules.opening_scope == "single_meld" else ""
            raise OpeningError(
                f"cannot open with {value} points{scope}: opening_min_points is {minimum}",
                "opening_min_points",
            )

        def effect() -> None:
            rnd.melds.extend(TableMeld(m, seat) for m in melds)
            rnd.opened_turn[seat] = rnd.turn
            self._placed(rnd, seat, hand, placed)

        return effect

    def _plan_meld(self, rnd: RoundState, action: MeldAction) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if not rnd.has_opened(seat):
            raise MeldError(f"{action}: your first melds must be an opening ('open …')", "opening_min_points")
        melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after(rnd, seat, action.cards, action)
        _require_card_left(hand, rules, action, MeldError)
        pending = rnd.must_lay
        placed = pending is not None and pending in action.cards
        _require_discardable_left(rnd, hand, action, MeldError)
        table = [tm.meld for tm in rnd.melds] + melds
        self._check_pending(rnd, seat, action, hand, table, placed)

        def effect() -> None:
            rnd.melds.extend(TableMeld(m, seat) for m in melds)
            self._placed(rnd, seat, hand, placed)

        return effect

    def _layoff_permission(self, rnd: RoundState, seat: int, action: Action) -> None:
        rule = permissions.layoff_bar(rnd.rules, rnd.opened_turn[seat], rnd.turn)
        if rule == "layoff_requires_opened":
            raise LayOffError(f"{action}: only a player who has opened may lay off", "layoff_requires_opened")
        if rule == "layoff_on_opening_turn":
            raise LayOffError(
                f"{action}: you opened this turn, so lay-offs wait for your next turn "
                "(layoff_on_opening_turn is off)",
                "layoff_on_opening_turn",
            )

    def _plan_layoff(self, rnd: RoundState, action: LayOff) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        self._layoff_permission(rnd, seat, action)
        target = rnd.table_meld(action.target)
        hand = _hand_after(rnd, seat, (action.card,), action)
        _require_card_left(hand, rules, action, LayOffError)
        try:
            new = target.with_layoff(action.card, rules, action.end)
        except IllegalMeldError as exc:
            raise LayOffError(f"{action}: {exc}", exc.rule) from None
        placed = rnd.must_lay is not None and action.card == rnd.must_lay
        _require_discardable_left(rnd, hand, action, LayOffError)
        table = [tm.meld for tm in rnd.melds]
        table[action.target - 1] = new
        self._check_pending(rnd, seat, action, hand, table, placed)
        owner = rnd.melds[action.target - 1].owner

        def effect() -> None:
            rnd.melds[action.target - 1] = TableMeld(new, owner)
            self._placed(rnd, seat, hand, placed)

        return effect

    def _plan_swap(self, rnd: RoundState, action: Swap) -> Plan:
        """A joker exchange (Joker tauschen, RULES.md §3.11): the natural card(s) go into table meld
        ``target``, the freed jokers to the hand or, in the same action, into new melds or lay-offs
        (``exchanged_joker_destination``)."""
        rules = rnd.rules
        seat = rnd.to_move
        self._check_exchange_allowed(rnd, seat, action)
        target = rnd.table_meld(action.target)
        hand = _hand_after(rnd, seat, action.cards, action)
        meld, freed = self._exchanged_meld(target, action, rules)
        for _ in range(freed):
            hand.add(JOKER)
        self._check_destination(rules, action)
        hand, table, new_melds = self._lay_freed_jokers(rnd, hand, meld, freed, action)
        _require_card_left(hand, rules, action, JokerExchangeError)
        pending = rnd.must_lay
        laid = [*action.cards, *(c for m in action.melds for c in m), *(lo.card for lo in action.layoffs)]
        placed = pending is not None and pending in laid
        _require_discardable_left(rnd, hand, action, JokerExchangeError)
        self._check_pending(rnd, seat, action, hand, table, placed)
        owners = [tm.owner for tm in rnd.melds] + [seat] * new_melds

        kept_jokers = freed if rules.exchanged_joker_destination == "hand" else 0

        def effect() -> None:
            for _ in range(kept_jokers):
                rnd.known_cards[seat] = rnd.known_cards[seat].plus(JOKER)
            rnd.melds = [TableMeld(m, o) for m, o in zip(table, owners, strict=True)]
            self._placed(rnd, seat, hand, placed)

        return effect

    def _check_exchange_allowed(self, rnd: RoundState, seat: int, action: Swap) -> None:
        """The permission (:mod:`rummykit.permissions`) and natural cards to give."""
        problem = _exchange_problem(rnd, seat)
        if problem is not None:
            rule, reason = problem
            raise JokerExchangeError(f"{action}: {reason}", rule)
        if not action.cards or any(c == JOKER_CODE for c in action.cards):
            raise JokerExchangeError(
                f"{action}: give the natural card(s) that replace a joker", "joker_exchange"
            )

    def _exchanged_meld(self, target: Meld, action: Swap, rules: Rules) -> tuple[Meld, int]:
        """The target meld after the exchange and the number of jokers freed: each card replaces a
        joker or, once a joker is out, may extend the meld; at least one joker must come free, and
        under ``set_joker_exchange = complete_four_only`` a set must become four naturals."""
        meld = target
        freed = 0
        for card in action.cards:
            try:
                meld = meld.with_exchange(card)
                freed += 1
            except IllegalMeldError:
                try:
                    meld = meld.with_layoff(card, rules)
                except IllegalMeldError:
                    raise JokerExchangeError(
                        f"{action}: {card} neither replaces a joker of meld {action.target} ({target}) "
                        "nor fits on it",
                        "joker_exchange",
                    ) from None
        if freed == 0:
            raise JokerExchangeError(
                f"{action}: no joker of meld {action.target} ({target}) stands for "
                + " or ".join(str(c) for c in action.cards),
                "joker_exchange",
            )
        if (
            meld.is_set
            and rules.set_joker_exchange == "complete_four_only"
            and (meld.jokers or len(meld.cards) < 4)
        ):
            raise JokerExchangeError(
                f"{action}: a joker may leave a set only when the set becomes four natural cards "
                "(set_joker_exchange is complete_four_only)",
                "set_joker_exchange",
            )
        return meld, freed

    def _check_destination(self, rules: Rules, action: Swap) -> None:
        """Where ``exchanged_joker_destination`` lets the freed joker go in the same action."""
        destination = rules.exchanged_joker_destination
        if destination == "hand" and (action.melds or action.layoffs):
            raise JokerExchangeError(
                f"{action}: the freed joker goes to your hand (exchanged_joker_destination is hand); "
                "lay it with a separate action",
                "exchanged_joker_destination",
            )
        if destination == "new_meld_same_turn" and action.layoffs:
            raise JokerExchangeError(
                f"{action}: the freed joker must go into a new meld (exchanged_joker_destination)",
                "exchanged_joker_destination",
            )

    def _lay_freed_jokers(
        self, rnd: RoundState, hand: Hand, meld: Meld, freed: int, action: Swap
    ) -> tuple[Hand, list[Meld], int]:
        """Lay the action's new melds and lay-offs (which take the freed jokers): the hand left,
        the table after them and the number of new melds. Unless the jokers may stay in hand, every
        freed joker must be laid."""
        rules = rnd.rules
        new_melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after_hand(hand, [c for m in action.melds for c in m], action)
        table = [tm.meld for tm in rnd.melds]
        table[action.target - 1] = meld
        table += new_melds
        laid_jokers = sum(m.jokers for m in new_melds)
        for layoff in action.layoffs:
            if not 1 <= layoff.target <= len(table):
                raise JokerExchangeError(f"{action}: there is no meld {layoff.target}", "no_such_meld")
            hand = _hand_after_hand(hand, (layoff.card,), action)
            try:
                table[layoff.target - 1] = table[layoff.target - 1].with_layoff(
                    layoff.card, rules, layoff.end
                )
            except IllegalMeldError as exc:
                raise JokerExchangeError(f"{action}: {exc}", exc.rule) from None
            laid_jokers += layoff.card == JOKER_CODE
        destination = rules.exchanged_joker_destination
        if destination == "any_meld_same_turn" and laid_jokers < freed:
            raise JokerExchangeError(
                f"{action}: the freed joker must be laid at once "
                f"(exchanged_joker_destination is {destination}); add 'then meld … JK' or "
                "'then layoff JK on N'",
                "exchanged_joker_destination",
            )
        if destination != "hand" and laid_jokers < freed:
            raise JokerExchangeError(
                f"{action}: the freed joker must be laid at once "
                f"(exchanged_joker_destination is {destination}); add 'then meld … JK'",
                "exchanged_joker_destination",
            )
        return hand, table, len(new_melds)

    def discardable(self, rnd: RoundState, seat: int) -> list[Card]:
        """Distinct cards ``seat`` may discard now, bars lifted in order when nothing is left."""
        rules = rnd.rules
        hand = rnd.hands[seat]
        distinct = list(dict.fromkeys(hand.cards()))  # in code order
        closing = len(hand) == 1
        taken = rnd.taken_discard if not rules.may_discard_taken_discard else None
        jokers_barred = rules.joker_discard_allowed == "only_when_closing" and not closing
        playable_barred = not rules.discard_playable_card_allowed and not closing
        if not jokers_barred and not playable_barred:
            # Only the taken discard can be barred; it is lifted when nothing else is left.
            if taken is None or len(distinct) == 1 or taken not in distinct:
                return distinct
            distinct.remove(taken)
            return distinct
        table = [tm.meld for tm in rnd.melds]

        def allowed(card: Card, taken_bar: bool, playable_bar: bool, joker_bar: bool) -> bool:
            if taken_bar and card == taken:
                return False
            if joker_bar and card == JOKER_CODE:
                return False
            return not (playable_bar and any(m.can_lay_off(card, rules) for m in table))

        cards = [c for c in distinct if allowed(c, True, playable_barred, jokers_barred)]
        if cards:
            return cards
        if playable_barred and self._lay_off_first(rnd, seat, table):
            return []  # the bars stand: a lay-off now leads to a discard they allow
        for bars in ((True, False, jokers_barred), (True, False, False), (False, False, False)):
            cards = [c for c in distinct if allowed(c, *bars)]
            if cards:
                return cards
        return []

    @staticmethod
    def _lay_off_first(rnd: RoundState, seat: int, table: Sequence[Meld]) -> bool:
        """Whether ``seat``, every card of whose hand is barred from the discard, may lay one off now
        and keep a card, so the bar on discarding a playable card need not lift (RULES.md §5.2): the
        turn goes on with the lay-off and ends with a discard the bars allow, down to the closing
        card, which no bar but the taken discard's holds. A lay-off that would leave only the taken
        discard does not count (:func:`_require_discardable_left`)."""
        hand = rnd.hands[seat]
        if len(hand) < 2 or not may_lay_off(rnd, seat):
            return False
        taken = barred_taken(rnd)
        for card in dict.fromkeys(hand.cards()):
            if not any(m.can_lay_off(card, rnd.rules) for m in table):
                continue
            rest = hand.minus(card)
            if not (len(rest) == 1 and taken is not None and taken in rest):
                return True
        return False

    def _plan_discard(self, rnd: RoundState, action: Discard) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        card = action.card
        hand = _hand_after(rnd, seat, (card,), action)
        if rnd.must_lay is not None:
            raise DiscardError(
                f"{action}: first lay the taken discard {rnd.must_lay} (discard_pickup_requires_meld)",
                "discard_pickup_requires_meld",
            )
        if card not in self.discardable(rnd, seat):
            if card == rnd.taken_discard and not rules.may_discard_taken_discard:
                raise taken_discard_error(action, card, rnd.hands[seat].count(card))
            if card == JOKER_CODE:
                raise DiscardError(
                    f"{action}: a joker may be discarded only as the closing card "
                    "(joker_discard_allowed is only_when_closing)",
                    "joker_discard_allowed",
                )
            if not may_lay_off(rnd, seat):
                # RULES.md §5.2 bars a card that could be laid off on a table meld, whoever may lay it
                # off now: in the turn of the opening (no lay-offs yet) the card stays in hand for the
                # next turn. Where every card is barred the bars lift (discardable), so no turn is stuck.
                raise DiscardError(
                    f"{action}: {card} fits a meld on the table, so it may not be discarded; "
                    "lay it off from your next turn (discard_playable_card_allowed is off)",
                    "discard_playable_card_allowed",
                )
            raise DiscardError(
                f"{action}: {card} could be laid off on the table, so it may not be discarded "
                "(discard_playable_card_allowed is off)",
                "discard_playable_card_allowed",
            )
        return self._discard_effect(rnd, seat, card, hand)

    def plan_offered(self, rnd: RoundState, action: Action) -> Plan:
        """The effect of ``action`` taken from the current :meth:`legal_actions` list (the caller
        guarantees that; :meth:`rummykit.round.Round.apply` does). A discard, whose checks are the
        costliest (:meth:`discardable`), a draw and a take are not checked again; every other kind
        is planned as usual."""
        if isinstance(action, Discard) and rnd.phase is _PHASE_PLAY:
            seat = rnd.to_move
            return self._discard_effect(rnd, seat, action.card, rnd.hands[seat].minus(action.card))
        if isinstance(action, Draw) and rnd.phase is _PHASE_DRAW:
            return plan_draw(rnd, self.after_draw_phase)
        if isinstance(action, TakeDiscard) and rnd.phase is _PHASE_DRAW:
            seat = rnd.to_move
            return _take_effect(rnd, seat, rnd.discard_pile[-1], _must_lay_taken(rnd, seat))
        return self.plan(rnd, action)

    def _discard_effect(self, rnd: RoundState, seat: int, card: Card, hand: Hand) -> Plan:
        """The discard of ``card`` by ``seat``, leaving ``hand``: it goes on the pile (face down when
        it goes out under ``final_discard_face_down``), then the hand ends or the next seat moves."""
        rules = rnd.rules
        going_out = len(hand) == 0

        def effect() -> None:
            rnd.hands[seat] = hand
            if going_out and rules.final_discard_face_down:
                rnd.face_down = card
            else:
                rnd.discard_pile.append(card)
            if going_out:
                self._go_out(rnd, seat)
            else:
                rnd.begin_turn(rnd.next_seat(seat))

        return effect

    def _placed(self, rnd: RoundState, seat: int, hand: Hand, placed_taken: bool) -> None:
        """After cards went to the table: keep the rest of the hand, settle the taken discard's
        obligation, and go out when nothing is left."""
        rnd.hands[seat] = hand
        if rnd.placed_turn[seat] is None:
            rnd.placed_turn[seat] = rnd.turn
        if placed_taken:
            rnd.must_lay = None
        if len(hand) == 0:
            self._go_out(rnd, seat)

    def _go_out(self, rnd: RoundState, winner: int) -> None:
        """End the hand scored by :func:`rummykit.scoring.going_out`: a Hand-Rommé (Basic's "rummy",
        RULES.md §3.12 and §5.3) when the winner put the whole hand on the table in this one turn,
        no card of it laid, laid off or exchanged for a joker before. Where lay-offs and exchanges
        wait for the opening, that is opening and going out in the same turn; in Basic Rummy, where
        anyone may lay off, going out by lay-offs alone counts, and an earlier lay-off spoils it."""
        hand_romme = rnd.placed_turn[winner] == rnd.turn
        score = scoring.going_out(rnd.rules, rnd.hands, winner, hand_romme)
        rnd.finish(Termination.WENT_OUT, winner, score.penalties, score.gains, score.multiplier)

    # Enumeration --------------------------------------------------------------------------------
    def legal_actions(self, rnd: RoundState) -> list[Action]:
        """The offered actions (module docstring), built legal by construction where the conditions
        are cheap to state (see :meth:`_sure_legal`); joker exchanges, Hand-Rommé openings and every
        action while a taken discard must still be laid are checked by :meth:`plan` instead."""
        if rnd.phase is _PHASE_DRAW:
            return self._draw_phase_actions(rnd)
        rules = rnd.rules
        seat = rnd.to_move
        hand = rnd.hands[seat]
        cards = hand.cards()
        pending = rnd.must_lay
        keep_one = rules.going_out_requires_discard  # _keep_one
        barred = barred_taken(rnd)
        all_melds = solver.all_melds(cards, rules)
        sure = self._sure_legal(rnd, len(cards))
        # Candidates in the offered order, each with whether it is legal by construction.
        candidates: list[tuple[Action, bool]] = []
        if rnd.opened_turn[seat] is None:
            best = solver.best_opening(cards, rules, must_include=pending, keep_one=keep_one)
            bests = [best]
            if best is not None and barred is not None and _leaves_only(cards, best, barred):
                # Only the taken discard would be left (D15): the best openings keeping another
                # card, and laying the taken one too.
                others = list(Hand(cards).without((barred,)))
                bests.append(solver.best_opening(others, rules, keep_one=True))
                bests.append(solver.best_opening(cards, rules, must_include=barred, keep_one=keep_one))
            taken = rnd.taken_discard
            if taken is not None and not rules.opening_counts_taken_discard:
                # The best opening may be short of the minimum once the taken card does not count:
                # the best laying it without its value, and (where it need not be laid) the best
                # leaving it and its equals in the hand.
                limit = len(cards) - 1 if keep_one else len(cards)
                bests.append(_opening_without_its_value(cards, taken, rules, limit))
                if pending is None:
                    others = [c for c in cards if c != taken]
                    bests.append(solver.best_opening(others, rules, keep_one=keep_one))
            for melds in bests:
                if melds is None:
                    continue
                legal = sure is not None and sure(melds)
                candidates.append((Open(tuple(m.cards for m in melds)), legal))
            minimum = rules.opening_min_points or 0
            for m in all_melds:
                if pending is not None and pending not in m:
                    continue
                if sum(map(_VALUE_BOUND.__getitem__, m)) < minimum:
                    continue  # it cannot open on its own
                try:
                    meld = Meld.from_cards(m, rules)
                except IllegalMeldError:
                    continue  # a guard: the solver's melds read back as they were found
                if meld.value >= minimum:
                    legal = sure is not None and sure((meld,))
                    candidates.append((Open((m,)), legal))
            if not rules.hand_romme_requires_opening_min and minimum and _hand_romme_now(rnd, seat):
                candidates += [(a, False) for a in _hand_romme_openings(rnd, list(cards))]
        else:
            spare = len(cards) - 1 if keep_one else len(cards)
            if barred is not None and len(cards) > 1:
                spare = min(spare, len(cards) - 2)  # a meld leaving one card is left to plan()
            # A meld of one natural and jokers may read as another meld (or none): left to plan().
            candidates += [
                (_meld_action(m), sure is not None and len(m) <= spare and _plain(m)) for m in all_melds
            ]
        if may_lay_off(rnd, seat):
            # A lay-off that may leave the barred taken discard alone is left to plan().
            lone = barred is not None and len(cards) == 2
            layoff_sure = sure is not None and (len(cards) > 1 or not keep_one) and not lone
            targets = _layoff_targets(cards, rnd)
            for k, (card, index, end) in enumerate(targets):
                # A run end is named only when the card fits at both ends of that meld.
                both_ends = end is not None and (
                    (k > 0 and targets[k - 1][:2] == (card, index))
                    or (k + 1 < len(targets) and targets[k + 1][:2] == (card, index))
                )
                candidates.append((_layoff_action(card, index + 1, end if both_ends else None), layoff_sure))
        if _exchange_problem(rnd, seat) is None:
            candidates += self._swap_candidates(rnd, seat, cards, sure is not None, barred)
        seen: set[Action] = set()
        result: list[Action] = []
        for a, legal in candidates:
            if type(a) is Open or type(a) is Swap:  # the only kinds that can be generated twice
                if a in seen:
                    continue
                seen.add(a)
            if legal or is_legal(self, rnd, a):
                result.append(a)
        if pending is None:
            result += map(_DISCARDS.__getitem__, self.discardable(rnd, seat))
        return result

    def _draw_phase_actions(self, rnd: RoundState) -> list[Action]:
        """``draw`` and ``take`` where legal. Without an obligation to lay the taken card the
        conditions of :func:`~rummykit.family.plan_draw` and :meth:`_plan_take` are stated here
        (a stock or a pile to turn over; a pile to take from, and an opening where the rules ask
        for one); with it :meth:`plan` decides."""
        found: list[Action] = []
        if rnd.stock or rnd.discard_pile:
            found.append(_DRAW)
        take = _TAKE
        if _must_lay_taken(rnd, rnd.to_move):
            if is_legal(self, rnd, take):
                found.append(take)
        elif rnd.discard_pile and (
            rnd.rules.discard_pickup_requires_opened != "opened_before" or rnd.has_opened(rnd.to_move)
        ):
            found.append(take)
        return found

    def _sure_legal(self, rnd: RoundState, size: int) -> _OpeningCheck | None:
        """With no taken discard left to lay (else ``None``: everything is checked by :meth:`plan`),
        the test that an opening of solver-built melds from the hand of ``size`` cards is legal:
        a card stays for the discard where one must, and the value after
        ``opening_counts_taken_discard`` reaches ``opening_min_points`` or the Hand-Rommé waiver
        applies (exactly the checks of :meth:`_plan_open`). Melds and lay-offs then need only the
        card kept for the discard (:meth:`_plan_meld`, :meth:`_plan_layoff`)."""
        if rnd.must_lay is not None:
            return None
        rules = rnd.rules
        minimum = rules.opening_min_points or 0
        keep = 1 if _keep_one(rules) else 0
        taken = rnd.taken_discard
        barred = barred_taken(rnd)
        hand = rnd.hands[rnd.to_move]

        def legal(melds: Sequence[Meld]) -> bool:
            left = size - sum(len(m.cards) for m in melds)
            if left < keep:
                return False
            if left == 1 and barred is not None and _leaves_only(hand.cards(), melds, barred):
                return False  # only the taken discard would be left (_require_discardable_left)
            laid_taken = taken if taken is not None and any(taken in m.cards for m in melds) else None
            if _opening_value(melds, rules, laid_taken) >= minimum:
                return True
            return not rules.hand_romme_requires_opening_min and left <= 1

        return legal

    def opening_check(self, rnd: RoundState) -> Callable[[Sequence[MeldCards]], bool] | None:
        """The test :meth:`plan` applies to an opening of melds laid from disjoint cards of the
        mover's hand, before the mover has opened: each meld is read as :meth:`_plan_open` reads it
        (:meth:`Meld.from_cards`; cards that form no meld fail), then :meth:`_sure_legal` (a card
        kept for the discard, the opening value, the Hand-Rommé waiver). ``None`` while a taken
        discard must still be laid: :meth:`plan` decides then.

        Only for that situation and for such melds (the caller guarantees it: the cards are
        neither checked against the hand nor against each other)."""
        seat = rnd.to_move
        if rnd.phase is not _PHASE_PLAY or rnd.opened_turn[seat] is not None:
            return None
        sure = self._sure_legal(rnd, len(rnd.hands[seat]))
        if sure is None:
            return None
        rules = rnd.rules
        read: dict[MeldCards, Meld | None] = {}

        def legal(melds: Sequence[MeldCards]) -> bool:
            built: list[Meld] = []
            for cards in melds:
                if cards in read:
                    meld = read[cards]
                else:
                    try:
                        meld = Meld.from_cards(cards, rules)
                    except IllegalMeldError:
                        meld = None
                    read[cards] = meld
                if meld is None:
                    return False
                built.append(meld)
            return sure(built)

        return legal

    def _swap_candidates(
        self, rnd: RoundState, seat: int, cards: Sequence[Card], checked: bool, barred: Card | None = None
    ) -> list[tuple[Action, bool]]:
        """Joker exchanges, each with whether it is legal by construction (else :meth:`plan`
        decides). ``checked``: no taken discard is left to lay (:meth:`_sure_legal`). A single
        natural that a joker of the meld stands for (:meth:`Meld.exchange_cards`, held) always
        replaces it and frees exactly that joker; it is then legal to keep the joker in hand
        (``exchanged_joker_destination = hand``) or to lay it at once in a new meld of the hand left
        that reads back as built (two naturals) while a card stays for the discard where one must.
        Sets under ``complete_four_only``, lay-offs of the freed joker and exchanges that leave one
        card while the taken discard is barred (``barred``, D15) are checked by :meth:`plan`."""
        rules = rnd.rules
        hand = rnd.hands[seat]
        keep = 1 if _keep_one(rules) else 0
        found: list[tuple[Action, bool]] = []
        held = set(cards)
        for i, meld, exchange in _table_facts(rnd)[2]:  # the melds holding a joker
            options: list[tuple[Card, ...]] = []
            complete_four = meld.is_set and rules.set_joker_exchange == "complete_four_only"
            if complete_four:
                missing = tuple(Card.of(meld.rank, s) for s in meld.missing_suits())
                if len(meld.naturals) + len(missing) == 4 and hand.contains_all(missing):
                    options.append(missing)
            else:
                options += [(c,) for c in exchange if c in held]
            sure = checked and not complete_four
            for swap_cards in options:
                freed = sum(1 for c in swap_cards if c in exchange)
                if rules.exchanged_joker_destination == "hand":
                    lone = barred is not None and len(cards) - len(swap_cards) + max(freed, 1) <= 1
                    found.append((_swap_action(swap_cards, i + 1, None), sure and not lone))
                    continue
                rest = list(hand.without(swap_cards))
                rest += [JOKER] * max(freed, 1)
                for m in solver.melds_containing(rest, JOKER, rules):
                    left = len(rest) - len(m)
                    legal = sure and _plain(m) and left >= keep and not (barred is not None and left == 1)
                    found.append((_swap_action(swap_cards, i + 1, m), legal))
                if rules.exchanged_joker_destination == "any_meld_same_turn":
                    for j, other in enumerate(rnd.melds):
                        for end in other.meld.layoff_ends(JOKER, rules) or (
                            (None,) if other.meld.can_lay_off(JOKER, rules) else ()
                        ):
                            found.append((Swap(swap_cards, i + 1, (), (LayOff(JOKER, j + 1, end),)), False))
        return found


def _hand_romme_now(rnd: RoundState, seat: int) -> bool:
    """Whether going out this turn would be a Hand-Rommé for ``seat``: no card of its hand was put on
    the table before this turn (:meth:`MeldingFamily._go_out`). Only then does the waiver of the
    opening minimum (``hand_romme_requires_opening_min = false``) apply."""
    return rnd.placed_turn[seat] in (None, rnd.turn)


def _hand_romme_openings(rnd: RoundState, cards: list[Card]) -> list[Action]:
    """Openings below ``opening_min_points`` that the Hand-Rommé waiver allows
    (``hand_romme_requires_opening_min = false``): all of the hand in melds, or all but one card
    (the discard that goes out), one opening per card kept back. An opening that reaches the minimum
    is an ordinary one and is not repeated here; one arrangement per kept card is offered."""
    rules = rnd.rules
    # Positive card values, so that zero deadwood means that every card is in a meld.
    sure = rules.replace(deadwood_ace=max(rules.deadwood_ace, 1), deadwood_joker=max(rules.deadwood_joker, 1))
    minimum = rules.opening_min_points or 0
    rests: list[tuple[list[Card], Card | None]] = []
    if not _keep_one(rules) and solver.min_deadwood(cards, sure) == 0:
        rests.append((cards, None))
    if len(cards) > 1:
        left, kept = solver.best_discards(cards, sure)
        if left == 0:
            rests += [(list(Hand(cards).without((k,))), k) for k in kept]
    found: list[Action] = []
    for rest, kept_card in rests:
        if kept_card is not None and kept_card == rnd.must_lay:
            continue  # the taken discard that must be laid cannot be the card kept back
        melds = solver.best_arrangement(rest, sure).melds
        taken = rnd.taken_discard if rnd.taken_discard in rest else None
        if melds and _opening_value(melds, rules, taken) < minimum:
            found.append(Open(tuple(m.cards for m in melds)))
    return found


def _hand_after_hand(hand: Hand, cards: Sequence[int], action: Action) -> Hand:
    if not hand.contains_all(cards):
        raise CardNotInHandError(
            f"{action}: you do not hold {' '.join(str(Card(c)) for c in cards)}", "card_not_in_hand"
        )
    return hand.without(cards)


MELDING_FAMILY: Final = MeldingFamily()
