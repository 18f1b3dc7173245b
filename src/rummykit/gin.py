"""Turn logic of Gin Rummy (RULES.md §5.4), move for move as OpenSpiel's ``gin_rummy`` plays it.

Two players, ten cards each, the upcard on the discard pile. Phases (:class:`~rummykit.views.Phase`)
and their actions:

* ``FIRST_UPCARD`` (``start_mode = gin_first_upcard``): the forehand (non-dealer) may ``take`` the
  upcard or ``pass``; after a pass the dealer may ``take`` or ``pass``; after two passes the forehand
  must ``draw`` from the stock (the upcard stays buried). Under ``start_mode = upcard`` the hand
  starts in the draw phase.
* ``DRAW``: ``take`` the top discard or ``draw`` from the stock. Taking is counted: the
  ``max_upcard_draws``-th take ends the hand dead (OpenSpiel's bound on endless play).
* ``DISCARD``: ``discard C`` (the card just taken too, ``may_discard_taken_discard``) or ``knock``
  when the deadwood of the eleven cards is at most the knock card (:mod:`rummykit.gin_melds`,
  option ``eleven_card_deadwood``). A player who takes the upcard and throws it back right after
  the opponent did the same ends the hand dead (``repeat_discard_draw``). When a discard leaves
  ``wall_stock_size`` cards in the stock the opponent's turn is the ``WALL``.
* ``WALL``: ``knock`` (the top discard joins the hand; legal when its eleven cards allow a knock)
  or ``pass``, which ends the hand dead (not scored).
* ``KNOCK`` (the knocker): ``discard C`` keeping deadwood at most the knock card, then ``meld …``
  one meld at a time (a meld of some arrangement that stays within the knock card), then ``pass``
  once the cards left total at most the knock card. Big gin (``big_gin_bonus`` set): a knocker whose
  eleven cards all lie in melds may lay them instead of discarding, ``meld …`` one at a time (each
  a meld of an arrangement of every card left), then ``pass`` with no card left.
* ``LAYOFF`` (the defender): unless the knocker has gin (or ``layoff_after_knock = none``),
  ``layoff C`` onto the knocker's melds (option ``layoff_run_chain``) and ``pass``; then own melds
  ``meld …`` one at a time and ``pass``, which ends the hand.

``knock C`` is a shortcut for people: knock, discard ``C``, lay the best arrangement and pass.

Score (``hand_scoring = gin_difference``): the cards each player did not lay count their value.
The knocker scores ``r = defender − knocker``, plus ``gin_bonus`` on a gin (``big_gin_bonus`` instead
on a big gin, which is a gin too: never undercut, no lay-offs); when ``r < 0`` (or
``r = 0`` with ``undercut_on_tie``) the defender undercut: ``r −= undercut_bonus``. Under
``oklahoma_spade_doubles`` a hand whose first upcard is a spade scores ``2r``. The defender scores
``−r``.
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from rummykit.actions import (
    Action,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    LayOffCard,
    MeldAction,
    Pass,
    TakeDiscard,
)
from rummykit.cards import SUITS, Card, Hand
from rummykit.errors import (
    CardNotInHandError,
    DiscardError,
    DrawError,
    IllegalMeldError,
    KnockError,
    LayOffError,
    MeldError,
    WrongTurnError,
)
from rummykit.family import Plan
from rummykit.gin_melds import (
    MELD_BY_MASK,
    GinMeld,
    best_group,
    deadwood,
    eleven_card_deadwood,
    eleven_card_knock,
    gin_values,
    knock_discards,
    layoff_cards,
    legal_melds,
    mask_of,
    melds_in,
    unmeldable_value,
)
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import GinInfo, Phase, RoundResult, TableMeld, Termination

_DISCARDS: Final = tuple(Discard(Card(c)) for c in range(52))
# Enum members as module constants: a class attribute lookup on every action costs more.
_PHASE_FIRST_UPCARD: Final = Phase.FIRST_UPCARD
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_DISCARD: Final = Phase.DISCARD
_PHASE_WALL: Final = Phase.WALL
_PHASE_KNOCK: Final = Phase.KNOCK
_PHASE_LAYOFF: Final = Phase.LAYOFF
_DRAW: Final = Draw()
_TAKE: Final = TakeDiscard()
_PASS: Final = Pass()
_KNOCK: Final = KnockDeclare()
"""The offered actions without a card, shared by every legal-action list (actions are immutable)."""
GIN_PHASES: Final = frozenset(
    {Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD, Phase.WALL, Phase.KNOCK, Phase.LAYOFF, Phase.OVER}
)


@lru_cache(maxsize=16)
def _values(ace: int) -> tuple[int, ...]:
    return gin_values(ace)


def values_of(rules: Rules) -> tuple[int, ...]:
    """Deadwood value per card code under ``rules`` (ace ``deadwood_ace``)."""
    return _values(rules.deadwood_ace)


@lru_cache(maxsize=16)
def _counting(ace: int) -> tuple[int, ...]:
    return tuple(max(value, 1) for value in _values(ace))


def counting_values(rules: Rules) -> tuple[int, ...]:
    """Card values in which every card counts, at least 1: a big gin lays every card, so an ace worth
    nothing (``deadwood_ace = 0``) must lie in a meld too. Searched with these values, deadwood 0
    means no card left over."""
    return _counting(rules.deadwood_ace)


def big_gin_hand(mask: int, rules: Rules) -> bool:
    """Big gin is played (``big_gin_bonus``) and every card of ``mask`` (a hand and one card more)
    lies in melds. A card in no meld at all is ruled out first, without a search."""
    if rules.big_gin_bonus is None:
        return False
    counting = counting_values(rules)
    return unmeldable_value(mask, counting) == 0 and deadwood(mask, counting) == 0


def knocked_gin(result: RoundResult, rules: Rules) -> bool:
    """The knocker of a gin hand went gin: no deadwood (RULES.md §5.4)."""
    return (
        rules.is_gin
        and result.termination is Termination.KNOCK
        and result.winner is not None
        and result.hand_values[result.winner] == 0
    )


def knocked_big_gin(result: RoundResult, rules: Rules) -> bool:
    """The knocker of a gin hand went big gin: all eleven cards laid in melds, none discarded."""
    return result.big_gin and knocked_gin(result, rules)


def big_gin_laid(rnd: RoundState) -> bool:
    """The knocker is laying a big gin: the melds laid and the cards in hand are one card more than a
    hand (no discard was made after the knock). Only in the knock phase and after it."""
    knocker = rnd.knocker
    if knocker is None or rnd.gin is None:
        return False
    laid = sum(len(cards) for cards in rnd.gin.knocker_melds)
    return laid > 0 and laid + len(rnd.hands[knocker]) > rnd.rules.hand_size


def undercut_by(result: RoundResult, rules: Rules) -> int | None:
    """The defender who undercut the knocker of a gin hand, else ``None``. The result's ``winner`` is
    the knocker in any case; undercut, the knocker scores below zero (RULES.md §5.4)."""
    if not rules.is_gin or result.termination is not Termination.KNOCK or result.winner is None:
        return None
    if result.points[result.winner] >= 0:
        return None
    return next(s for s, p in enumerate(result.points) if s != result.winner and p > 0)


SPADES: Final = SUITS.index("S")


def oklahoma_knock_card(upcard: int) -> int:
    """Oklahoma: the knock card is the first upcard's value, an ace meaning gin only (0)."""
    rank = upcard % 13 + 1
    return 0 if rank == 1 else min(10, rank)


def start_gin(rnd: RoundState) -> None:
    """Set up a dealt gin hand: the knock card (``oklahoma``), whether it scores double (a spade
    upcard under ``oklahoma_spade_doubles``) and the first-upcard phase."""
    rules = rnd.rules
    knock_card, doubled = rules.knock_card, False
    if rules.oklahoma and rnd.discard_pile:
        upcard = rnd.discard_pile[-1]
        knock_card = oklahoma_knock_card(upcard)
        doubled = rules.oklahoma_spade_doubles and upcard.suit == SPADES
    rnd.gin = GinInfo(knock_card=knock_card, doubled=doubled)
    if rules.start_mode == "gin_first_upcard":
        rnd.phase = Phase.FIRST_UPCARD


def _gin(rnd: RoundState) -> GinInfo:
    gin = rnd.gin
    if gin is None:  # a hand-built state: the first upcard is long gone
        gin = rnd.gin = GinInfo(knock_card=rnd.rules.knock_card)
    return gin


_GIN_FIELDS: Final = tuple(f.name for f in dataclasses.fields(GinInfo))
_GIN_VALUES: Final = operator.attrgetter(*_GIN_FIELDS)
_GIN_INDEX: Final = {name: i for i, name in enumerate(_GIN_FIELDS)}


def _update(rnd: RoundState, **changes: object) -> None:
    """Replace the round's :class:`GinInfo` with ``changes`` made (kept when nothing changes)."""
    gin = _gin(rnd)
    values = list(_GIN_VALUES(gin))
    changed = False
    for name, value in changes.items():
        i = _GIN_INDEX[name]
        if values[i] != value:
            values[i] = value
            changed = True
    if changed:
        rnd.gin = GinInfo(*values)


_new_object = object.__new__
(
    _SET_KNOCK_CARD, _SET_UPCARD_PASSES, _SET_UPCARD_DRAWS, _SET_PREV_UPCARD, _SET_REPEATED,
    _SET_KNOCKER_MELDS, _SET_LAYOFFS, _SET_LAYOFFS_DONE, _SET_DOUBLED,
) = (GinInfo.__dict__[name].__set__ for name in _GIN_FIELDS)


def _set_turn_facts(
    rnd: RoundState, gin: GinInfo, upcard_draws: int, prev_upcard: Card | None, repeated: bool
) -> None:
    """``_update(rnd, upcard_draws=…, prev_upcard=…, repeated=…)`` where ``gin`` is the round's
    :class:`GinInfo`, written out for the draws and discards of every turn: the same replacement
    (kept when nothing changes), without the generic field loop."""
    if gin.upcard_draws != upcard_draws or gin.prev_upcard != prev_upcard or gin.repeated != repeated:
        # GinInfo(knock_card, upcard_passes, upcard_draws, …): the same frozen object, its slots
        # filled through their descriptors (the dataclass __init__ costs about twice as much).
        new: GinInfo = _new_object(GinInfo)
        _SET_KNOCK_CARD(new, gin.knock_card)
        _SET_UPCARD_PASSES(new, gin.upcard_passes)
        _SET_UPCARD_DRAWS(new, upcard_draws)
        _SET_PREV_UPCARD(new, prev_upcard)
        _SET_REPEATED(new, repeated)
        _SET_KNOCKER_MELDS(new, gin.knocker_melds)
        _SET_LAYOFFS(new, gin.layoffs)
        _SET_LAYOFFS_DONE(new, gin.layoffs_done)
        _SET_DOUBLED(new, gin.doubled)
        rnd.gin = new


def _hand_to(rnd: RoundState, seat: int, phase: Phase) -> None:
    rnd.to_move = seat
    rnd.turn += 1
    rnd.phase = phase
    rnd.taken_discard = None
    rnd.must_lay = None


def _other(rnd: RoundState, seat: int) -> int:
    return rnd.next_seat(seat)


def _defender(rnd: RoundState) -> int:
    assert rnd.knocker is not None
    return _other(rnd, rnd.knocker)


def _single_meld(action: MeldAction) -> GinMeld:
    if len(action.melds) != 1:
        raise MeldError(f"{action}: in gin melds are laid one at a time", "one_meld_at_a_time")
    meld = MELD_BY_MASK.get(mask_of(action.melds[0]))
    if meld is None or len(set(action.melds[0])) != len(action.melds[0]):
        raise MeldError(
            f"{action}: not a gin meld (3 or 4 of a rank, or a run of 3 to 5 cards of a suit, ace low; "
            "lay a longer run as two melds)",
            "gin_meld",
        )
    return meld


def meld_action(meld: GinMeld) -> MeldAction:
    """The action that lays ``meld`` (cards in its written order)."""
    return MeldAction((meld.cards,))


class GinFamily:
    """Turn logic of gin (RULES.md §5.4)."""

    after_draw_phase: Final = Phase.DISCARD
    phases: Final = GIN_PHASES

    # Planning -----------------------------------------------------------------------------------
    def plan(self, rnd: RoundState, action: Action) -> Plan:
        phase = rnd.phase
        if phase is _PHASE_FIRST_UPCARD:
            return self._plan_first_upcard(rnd, action)
        if phase is _PHASE_DRAW:
            return self._plan_draw(rnd, action)
        if phase is _PHASE_DISCARD:
            return self._plan_discard_phase(rnd, action)
        if phase is _PHASE_WALL:
            return self._plan_wall(rnd, action)
        if phase is _PHASE_KNOCK:
            return self._plan_knock_phase(rnd, action)
        if phase is _PHASE_LAYOFF:
            return self._plan_layoff(rnd, action)
        raise WrongTurnError(f"{action}: the hand is over", "hand_over")

    def _plan_first_upcard(self, rnd: RoundState, action: Action) -> Plan:
        gin = _gin(rnd)
        seat = rnd.to_move
        both_passed = gin.upcard_passes >= 2
        if isinstance(action, Draw):
            if not both_passed:
                raise WrongTurnError(
                    "draw: first take the upcard or pass on it (the stock opens after both passed)",
                    "gin_first_upcard",
                )
            return self._plan_stock(rnd)
        if both_passed:
            raise WrongTurnError(
                f"{action}: both players passed on the upcard; draw from the stock", "draw_first"
            )
        if isinstance(action, TakeDiscard):
            return self._plan_take(rnd, counted=False)
        if isinstance(action, Pass):

            def effect() -> None:
                passes = gin.upcard_passes + 1
                _update(rnd, upcard_passes=passes)
                _hand_to(rnd, rnd.active_seats[0] if passes >= 2 else _other(rnd, seat), Phase.FIRST_UPCARD)

            return effect
        raise WrongTurnError(f"{action}: take the upcard or pass", "gin_first_upcard")

    def _plan_draw(self, rnd: RoundState, action: Action) -> Plan:
        if isinstance(action, Draw):
            return self._plan_stock(rnd)
        if isinstance(action, TakeDiscard):
            return self._plan_take(rnd, counted=True)
        raise WrongTurnError(f"{action}: first draw from the stock or take the discard", "draw_first")

    def _plan_stock(self, rnd: RoundState) -> Plan:
        seat = rnd.to_move
        if not rnd.stock:
            raise DrawError("draw: the stock is empty", "stock_exhaustion")

        def effect() -> Card:
            upcard = rnd.discard_pile[-1] if rnd.discard_pile else None
            gin = _gin(rnd)
            _set_turn_facts(rnd, gin, gin.upcard_draws, upcard, gin.repeated)
            card = rnd.stock.pop()
            rnd.hands[seat] = rnd.hands[seat].plus(card)
            rnd.phase = _PHASE_DISCARD
            return card

        return effect

    def _plan_take(self, rnd: RoundState, counted: bool) -> Plan:
        seat = rnd.to_move
        if not rnd.discard_pile:
            raise DrawError("take: the discard pile is empty", "empty_discard_pile")
        card = rnd.discard_pile[-1]
        gin = _gin(rnd)

        def effect() -> None:
            draws = gin.upcard_draws
            if counted:
                draws += 1
                if draws >= rnd.rules.max_upcard_draws:
                    # OpenSpiel's bound: this take is not made, the hand is dead.
                    _set_turn_facts(rnd, gin, draws, gin.prev_upcard, gin.repeated)
                    rnd.end_unscored(Termination.DRAWN)
                    return
            rnd.discard_pile.pop()
            rnd.hands[seat] = rnd.hands[seat].plus(card)
            rnd.taken_discard = card
            _set_turn_facts(rnd, gin, draws, card, gin.repeated)  # both changes in one replacement
            rnd.phase = _PHASE_DISCARD

        return effect

    def _check_discard(self, rnd: RoundState, card: Card, action: Action) -> Hand:
        hand = rnd.hands[rnd.to_move]
        if card not in hand:
            raise CardNotInHandError(f"{action}: you do not hold {card}", "card_not_in_hand")
        if card == rnd.taken_discard and not rnd.rules.may_discard_taken_discard:
            raise DiscardError(
                f"{action}: you may not discard the card you took from the discard pile "
                "(may_discard_taken_discard is off)",
                "may_discard_taken_discard",
            )
        return hand.without((card,))

    def _plan_discard_phase(self, rnd: RoundState, action: Action) -> Plan:
        if isinstance(action, Discard):
            return self._plan_discard(rnd, action)
        if isinstance(action, KnockDeclare):
            return self._plan_knock(rnd, action, at_wall=False)
        if isinstance(action, Knock):
            return self._plan_knock_shortcut(rnd, action, at_wall=False)
        raise WrongTurnError(f"{action}: discard a card or knock", "not_in_this_game")

    def plan_offered(self, rnd: RoundState, action: Action) -> Plan:
        """The effect of ``action`` taken from the current :meth:`legal_actions` list (the caller
        guarantees that; :meth:`rummykit.round.Round.apply` does): a discard after the draw, the
        most frequent action, is not checked again, a draw or take goes straight to its effect;
        every other kind is planned as usual."""
        phase = rnd.phase
        if type(action) is Discard and phase is _PHASE_DISCARD:
            seat = rnd.to_move
            card = action.card
            return self._discard_effect(rnd, seat, card, rnd.hands[seat].minus(card))
        if phase is _PHASE_DRAW:  # what _plan_draw decides for the offered draw and take
            if type(action) is Draw:
                return self._plan_stock(rnd)
            if type(action) is TakeDiscard:
                return self._plan_take(rnd, counted=True)
        return self.plan(rnd, action)

    def _plan_discard(self, rnd: RoundState, action: Discard) -> Plan:
        hand = self._check_discard(rnd, action.card, action)
        return self._discard_effect(rnd, rnd.to_move, action.card, hand)

    def _discard_effect(self, rnd: RoundState, seat: int, card: Card, hand: Hand) -> Plan:
        """The discard of ``card`` by ``seat``, leaving ``hand``: onto the pile, then the hand is
        dead (a repeated upcard drawn again, ``repeat_discard_draw``) or passes to the other seat."""
        rules = rnd.rules
        gin = _gin(rnd)

        def effect() -> None:
            rnd.hands[seat] = hand
            rnd.discard_pile.append(card)
            repeated = card == gin.prev_upcard
            if repeated and gin.repeated and rules.repeat_discard_draw:
                rnd.end_unscored(Termination.DRAWN)
                return
            _set_turn_facts(rnd, gin, gin.upcard_draws, gin.prev_upcard, repeated)
            wall = len(rnd.stock) <= rules.wall_stock_size
            _hand_to(rnd, _other(rnd, seat), _PHASE_WALL if wall else _PHASE_DRAW)

        return effect

    def _knock_hand(self, rnd: RoundState, action: Action, at_wall: bool) -> Hand:
        """The knocker's eleven cards, checked to allow a knock."""
        rules = rnd.rules
        hand = rnd.hands[rnd.to_move]
        if at_wall:
            if not rnd.discard_pile:
                raise KnockError(f"{action}: there is no discard to knock with", "empty_discard_pile")
            hand = hand.plus(rnd.discard_pile[-1])
        mask = mask_of(hand)
        taken = rnd.discard_pile[-1] if at_wall else rnd.taken_discard  # a knock at the wall takes it
        if self._may_knock(rnd, mask, taken):
            return hand
        # Why not, in the order _may_knock asks.
        limit = _gin(rnd).knock_card
        where = " with the top discard" if at_wall else ""
        left = eleven_card_deadwood(mask, values_of(rules), rules.eleven_card_deadwood)
        if left > limit:
            raise KnockError(
                f"cannot knock{where}: your best deadwood after a discard is {left}, the knock card "
                f"is {limit}",
                "knock_card",
            )
        raise KnockError(
            f"cannot knock{where}: only discarding {taken}, the card you took, keeps your deadwood "
            f"within the knock card {limit}",
            "may_discard_taken_discard",
        )

    def _plan_knock(self, rnd: RoundState, action: Action, at_wall: bool) -> Plan:
        seat = rnd.to_move
        hand = self._knock_hand(rnd, action, at_wall)

        def effect() -> None:
            if at_wall:
                rnd.taken_discard = rnd.discard_pile.pop()
            rnd.hands[seat] = hand
            rnd.knocker = seat
            rnd.phase = Phase.KNOCK

        return effect

    def _plan_knock_shortcut(self, rnd: RoundState, action: Knock, at_wall: bool) -> Plan:
        """``knock C``: knock, discard ``C``, lay the best arrangement, pass."""
        rules = rnd.rules
        hand = self._knock_hand(rnd, action, at_wall)
        limit = _gin(rnd).knock_card
        values = values_of(rules)
        mask = mask_of(hand)
        if action.card not in hand:
            raise CardNotInHandError(f"{action}: you do not hold {action.card}", "card_not_in_hand")
        taken = rnd.discard_pile[-1] if at_wall else rnd.taken_discard
        if action.card == taken and not rules.may_discard_taken_discard:
            raise DiscardError(
                f"{action}: you may not discard the card you took", "may_discard_taken_discard"
            )
        if action.card not in knock_discards(mask, values, limit):
            raise KnockError(
                f"{action}: after discarding {action.card} your deadwood is above the knock card {limit}",
                "knock_card",
            )
        knock = self._plan_knock(rnd, action, at_wall)
        group = best_group(mask & ~(1 << action.card), values)

        def effect() -> None:
            knock()
            self._knock_discard(rnd, action.card)
            for meld in group:
                self._lay_knocker_meld(rnd, meld)
            self._finish_knock(rnd)

        return effect

    def _plan_wall(self, rnd: RoundState, action: Action) -> Plan:
        if isinstance(action, Pass):
            return lambda: rnd.end_unscored(Termination.WALL)
        if isinstance(action, KnockDeclare):
            return self._plan_knock(rnd, action, at_wall=True)
        if isinstance(action, Knock):
            return self._plan_knock_shortcut(rnd, action, at_wall=True)
        raise WrongTurnError(
            f"{action}: the stock is down to the wall; knock with the top discard or pass", "wall_draw"
        )

    def _plan_knock_phase(self, rnd: RoundState, action: Action) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        hand = rnd.hands[seat]
        limit = _gin(rnd).knock_card
        values = values_of(rules)
        if len(hand) > rules.hand_size:
            if isinstance(action, MeldAction) and rules.big_gin_bonus is not None:
                if not big_gin_hand(mask_of(hand), rules):
                    raise MeldError(
                        f"{action}: big gin lays all {len(hand)} cards in melds, and yours do not all meld; "
                        "discard first",
                        "big_gin",
                    )
                return self._plan_knocker_meld(rnd, action, big_gin=True)
            if not isinstance(action, Discard):
                if big_gin_hand(mask_of(hand), rules):
                    raise WrongTurnError(
                        f"{action}: after knocking, discard first, or lay all {len(hand)} cards in melds "
                        "(big gin)",
                        "knock_discard",
                    )
                raise WrongTurnError(f"{action}: after knocking, discard first", "knock_discard")
            self._check_discard(rnd, action.card, action)
            if action.card not in knock_discards(mask_of(hand), values, limit):
                raise KnockError(
                    f"{action}: after this discard your deadwood would be above the knock card {limit}",
                    "knock_card",
                )
            return lambda: self._knock_discard(rnd, action.card)
        big = big_gin_laid(rnd)
        if isinstance(action, MeldAction):
            return self._plan_knocker_meld(rnd, action, big_gin=big)
        if isinstance(action, Pass):
            left = sum(values[c] for c in hand)
            if big and hand:
                raise KnockError(
                    f"pass: a big gin lays every card; lay melds of the {len(hand)} cards left", "big_gin"
                )
            if left > limit:
                raise KnockError(
                    f"pass: your unmelded cards total {left}, above the knock card {limit}; lay more melds",
                    "knock_card",
                )
            return lambda: self._finish_knock(rnd)
        raise WrongTurnError(f"{action}: lay your melds one at a time, then pass", "knock_melds")

    def _plan_knocker_meld(self, rnd: RoundState, action: MeldAction, big_gin: bool) -> Plan:
        """A meld of the knocker's, from an arrangement that leaves at most the knock card as
        deadwood; in a big gin an arrangement of every card left."""
        mask = mask_of(rnd.hands[rnd.to_move])
        meld = _single_meld(action)
        if meld.mask & mask != meld.mask:
            raise CardNotInHandError(f"{action}: you do not hold these cards", "card_not_in_hand")
        limit = 0 if big_gin else _gin(rnd).knock_card
        values = counting_values(rnd.rules) if big_gin else values_of(rnd.rules)
        if meld not in legal_melds(mask, values, limit):
            if big_gin:
                raise MeldError(
                    f"{action}: with this meld your other cards could not all lie in melds (big gin)",
                    "big_gin",
                )
            raise MeldError(
                f"{action}: with this meld your cards left could not get within the knock card {limit}",
                "knock_card",
            )
        return lambda: self._lay_knocker_meld(rnd, meld)

    def _knock_discard(self, rnd: RoundState, card: Card) -> None:
        seat = rnd.to_move
        rnd.hands[seat] = rnd.hands[seat].without((card,))
        rnd.discard_pile.append(card)

    def _lay_knocker_meld(self, rnd: RoundState, meld: GinMeld) -> None:
        self._lay(rnd, meld)
        _update(rnd, knocker_melds=(*_gin(rnd).knocker_melds, meld.cards))

    def _lay(self, rnd: RoundState, meld: GinMeld) -> None:
        seat = rnd.to_move
        rnd.hands[seat] = rnd.hands[seat].without(meld.cards)
        rnd.melds.append(TableMeld(Meld.from_cards(meld.cards, rnd.rules), seat))

    def _finish_knock(self, rnd: RoundState) -> None:
        rules = rnd.rules
        assert rnd.knocker is not None
        left = sum(values_of(rules)[c] for c in rnd.hands[rnd.knocker])
        rnd.knock_deadwood = left
        no_layoffs = left == 0 or rules.layoff_after_knock == "none"
        _update(rnd, layoffs_done=no_layoffs)
        _hand_to(rnd, _defender(rnd), Phase.LAYOFF)

    def _plan_layoff(self, rnd: RoundState, action: Action) -> Plan:
        gin = _gin(rnd)
        seat = rnd.to_move
        hand = rnd.hands[seat]
        if isinstance(action, Pass):
            if gin.layoffs_done:
                return lambda: self._score(rnd)
            return lambda: _update(rnd, layoffs_done=True)
        if not gin.layoffs_done:
            if not isinstance(action, LayOffCard):
                raise WrongTurnError(
                    f"{action}: first lay cards off onto the knocker's melds ('layoff 5H'), then pass",
                    "layoff_first",
                )
            if action.card not in hand:
                raise CardNotInHandError(f"{action}: you do not hold {action.card}", "card_not_in_hand")
            if action.card not in self.layoff_targets(rnd):
                raise LayOffError(f"{action}: {action.card} fits none of the knocker's melds", "layoff")
            return lambda: self._lay_off(rnd, action.card)
        if isinstance(action, MeldAction):
            meld = _single_meld(action)
            if meld.mask & mask_of(hand) != meld.mask:
                raise CardNotInHandError(f"{action}: you do not hold these cards", "card_not_in_hand")
            return lambda: self._lay(rnd, meld)
        if isinstance(action, LayOffCard):
            raise LayOffError(f"{action}: you passed on lay-offs; lay your own melds or pass", "layoff_done")
        raise WrongTurnError(f"{action}: lay your own melds one at a time, then pass", "layoff_melds")

    def layoff_targets(self, rnd: RoundState) -> set[Card]:
        """Cards that may be laid off now onto the knocker's melds (``layoff_run_chain``)."""
        gin = _gin(rnd)
        melds = [MELD_BY_MASK[mask_of(cards)] for cards in gin.knocker_melds]
        return layoff_cards(melds, gin.layoffs, rnd.rules.layoff_run_chain)

    def _lay_off(self, rnd: RoundState, card: Card) -> None:
        seat = rnd.to_move
        knocker = rnd.knocker
        gin = _gin(rnd)
        layoffs = (*gin.layoffs, card)
        laid = [Meld.from_cards(cards, rnd.rules) for cards in gin.knocker_melds]
        shown = iter(placed_layoffs(laid, layoffs, rnd.rules))  # before anything changes
        rnd.hands[seat] = rnd.hands[seat].without((card,))
        _update(rnd, layoffs=layoffs)
        rnd.melds[:] = [TableMeld(next(shown), knocker) if tm.owner == knocker else tm for tm in rnd.melds]

    def _score(self, rnd: RoundState) -> None:
        rules = rnd.rules
        knocker = rnd.knocker
        assert knocker is not None
        defender = _defender(rnd)
        values = values_of(rules)
        own = sum(values[c] for c in rnd.hands[knocker])
        other = sum(values[c] for c in rnd.hands[defender])
        r = other - own
        big = big_gin_laid(rnd)
        if own == 0:
            r += rules.big_gin_bonus if big and rules.big_gin_bonus is not None else rules.gin_bonus
        if own > 0 and (r < 0 or (r == 0 and rules.undercut_on_tie)):  # a gin is never undercut
            r -= rules.undercut_bonus
        multiplier = 2 if _gin(rnd).doubled else 1  # a spade upcard doubles it all, bonuses included
        r *= multiplier
        points = [0] * rnd.seats
        points[knocker] = r
        points[defender] = -r
        gains = tuple(max(p, 0) for p in points)
        penalties = tuple(max(-p, 0) for p in points)
        rnd.finish(Termination.KNOCK, knocker, penalties, gains, multiplier, big_gin=big)

    # Legal actions ------------------------------------------------------------------------------
    def legal_actions(self, rnd: RoundState) -> list[Action]:
        phase = rnd.phase
        gin = _gin(rnd)
        if phase is _PHASE_DRAW:  # every other turn: nothing to look at
            return [_DRAW, _TAKE]
        if phase is _PHASE_FIRST_UPCARD:
            return [_DRAW] if gin.upcard_passes >= 2 else [_TAKE, _PASS]
        rules = rnd.rules
        seat = rnd.to_move
        hand = rnd.hands[seat]
        values = values_of(rules)
        if phase is _PHASE_WALL:
            wall: list[Action] = [_PASS]
            top = rnd.discard_pile[-1] if rnd.discard_pile else None
            if top is not None and self._may_knock(rnd, mask_of(hand) | 1 << top, top):
                wall.append(_KNOCK)
            return wall
        if phase is _PHASE_DISCARD:
            actions: list[Action] = []
            if self._may_knock(rnd, mask_of(hand), rnd.taken_discard):
                actions.append(_KNOCK)
            return actions + [_DISCARDS[c] for c in self._discardable(rnd, hand)]
        if phase is _PHASE_KNOCK:
            mask = mask_of(hand)
            if len(hand) > rules.hand_size:
                allowed = set(self._discardable(rnd, hand))
                first: list[Action] = [
                    Discard(c) for c in knock_discards(mask, values, gin.knock_card) if c in allowed
                ]
                if rules.big_gin_bonus is not None:  # big gin: melds of the whole hand, empty if none
                    first += [meld_action(m) for m in legal_melds(mask, counting_values(rules), 0)]
                return first
            if big_gin_laid(rnd):  # every card left in melds, then a pass with none in hand
                big: list[Action] = [meld_action(m) for m in legal_melds(mask, counting_values(rules), 0)]
                return big if hand else [_PASS]
            knock: list[Action] = [meld_action(m) for m in legal_melds(mask, values, gin.knock_card)]
            if sum(values[c] for c in hand) <= gin.knock_card:
                knock.insert(0, _PASS)
            return knock
        if phase is _PHASE_LAYOFF:
            if not gin.layoffs_done:
                targets = self.layoff_targets(rnd)
                return [_PASS, *(LayOffCard(c) for c in sorted(set(hand)) if c in targets)]
            return [_PASS, *(meld_action(m) for m in melds_in(mask_of(hand)))]
        return []

    def _may_knock(self, rnd: RoundState, mask: int, taken: Card | None) -> bool:
        """Whether the player may knock holding the eleven cards of ``mask``: a discard leaves deadwood
        within the knock card (option ``eleven_card_deadwood``) and is allowed (not the card just
        ``taken`` where ``may_discard_taken_discard`` is off), or the cards are a big gin."""
        rules = rnd.rules
        values = values_of(rules)
        limit = _gin(rnd).knock_card
        if eleven_card_knock(mask, values, rules.eleven_card_deadwood, limit):
            if taken is None or rules.may_discard_taken_discard:
                return True
            if any(c != taken for c in knock_discards(mask, values, limit)):
                return True
        return big_gin_hand(mask, rules)

    def _discardable(self, rnd: RoundState, hand: Hand) -> list[Card]:
        cards = list(hand.cards())  # one pack: each card once, in code order
        taken = rnd.taken_discard
        if taken is not None and not rnd.rules.may_discard_taken_discard:
            cards.remove(taken)
        return cards


def placed_layoffs(melds: Sequence[Meld], layoffs: Sequence[Card], rules: Rules) -> list[Meld]:
    """The knocker's ``melds`` with the defender's ``layoffs`` laid on them.

    A lay-off names a card, not a meld (RULES.md §5.4), and the cards laid off are valid together
    when some placement of all of them is, whatever their order: 3H fits 3C 3D 3S and 4H…8H, and
    after 2H it is on the run; 9D laid before 8D and 10D goes on 5D 6D 7D with them, not on the
    nines. A card goes on the first meld it can when several placements work.

    Raises:
        ValueError: no placement takes every card (the lay-offs offered always have one).
    """
    choices = [
        [j for j, meld in enumerate(melds) if _may_extend(meld, card)] for card in layoffs
    ]
    for placement in itertools.product(*choices):
        extended = []
        for j, meld in enumerate(melds):
            added = [card for card, k in zip(layoffs, placement, strict=True) if k == j]
            grown = _extended(meld, added, rules)
            if grown is None:
                break
            extended.append(grown)
        else:
            return extended
    raise ValueError(f"no placement of the lay-offs {' '.join(map(str, layoffs))} on the knocker's melds")


def _may_extend(meld: Meld, card: Card) -> bool:
    """Whether ``card`` is of the set's rank or the run's suit."""
    return card.suit == meld.suit if meld.is_run else card.rank == meld.rank


def _extended(meld: Meld, added: Sequence[Card], rules: Rules) -> Meld | None:
    """``meld`` with ``added`` cards (a run's in rank order), or ``None`` if that is no meld."""
    if not added:
        return meld
    cards = sorted((*meld.cards, *added)) if meld.is_run else (*meld.cards, *added)
    try:
        return Meld.from_cards(tuple(cards), rules)
    except IllegalMeldError:
        return None


GIN_FAMILY: Final = GinFamily()


def gin_json(info: GinInfo | None) -> dict[str, object] | None:
    """The public gin facts of a view as JSON (``None`` outside gin): the knock card, the first-upcard
    passes, the knocker's melds as laid, the lay-offs, whether laying off is over, and whether a spade
    upcard doubles the hand (``doubled``)."""
    if info is None:
        return None
    return {
        "knock_card": info.knock_card,
        "upcard_passes": info.upcard_passes,
        "upcard_draws": info.upcard_draws,
        "knocker_melds": [[str(c) for c in meld] for meld in info.knocker_melds],
        "layoffs": [str(c) for c in info.layoffs],
        "layoffs_done": info.layoffs_done,
        "doubled": info.doubled,
    }
