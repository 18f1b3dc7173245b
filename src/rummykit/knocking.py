"""Turn logic of the knock games: Viennese Rummy (Wiener Rummy) and Rommé ohne Auslegen.

Cards stay in hand (RULES.md §4.3). A turn is DRAW (``draw`` or ``take``), then DISCARD, which is one
of:

* ``discard C``: discard face up (never the card just taken, D15).
* ``knock C`` (klopfen): discard face up; the minimum deadwood ``d`` of the hand left must satisfy
  ``0 < d`` and ``d < knock_threshold`` (``knock_comparison = lt``) or ``d <= knock_threshold``
  (``le``). A hand with ``d = 0`` must call Rummy instead (D14). The knocker's hand is shown.
  With ``knock_extra_turn`` every other player, clockwise from the knocker's left, takes exactly one
  more turn of draw and discard (no knock, no Rummy, no lay-off); then the showdown.
* ``rummy C``: every other card forms melds; ``C`` goes face down and the hand ends at once.

Showdown (§4.5–4.7, ``hand_scoring = deadwood_all``): every seat's hand is arranged optimally by the
solver and shown; the Rummy caller scores 0, the knocker their own deadwood
(``knocker_scores_own_deadwood``), everybody else their minimum deadwood, times ``rummy_multiplier``
after a Rummy call.

Legal-action enumeration: ``draw``, ``take`` in the draw phase; then ``rummy C`` and ``knock C`` for
every card that allows them, then every distinct ``discard C``.
"""

from __future__ import annotations

from typing import Final

from rummykit import scoring, solver
from rummykit.actions import Action, CallRummy, Discard, Draw, Knock, KnockDeclare, TakeDiscard
from rummykit.cards import NUM_CODES, Card, Hand
from rummykit.errors import (
    CardNotInHandError,
    DrawError,
    KnockError,
    WrongTurnError,
    taken_discard_error,
)
from rummykit.events import Showdown
from rummykit.family import Plan, draw_phase_plan, plan_draw
from rummykit.state import RoundState
from rummykit.views import Phase, Termination


def _without(rnd: RoundState, seat: int, card: Card, action: Action) -> Hand:
    hand = rnd.hands[seat]
    if card not in hand:
        raise CardNotInHandError(f"{action}: you do not hold {card}", "card_not_in_hand")
    return hand.without((card,))


_PHASE_DRAW: Final = Phase.DRAW
_PHASE_DISCARD: Final = Phase.DISCARD
# Enum members as module constants: ``Phase.X`` costs ~0.3 us per read on Python 3.11.
_DRAW: Final = Draw()
_TAKE: Final = TakeDiscard()
_DISCARDS: Final = tuple(Discard(Card(c)) for c in range(NUM_CODES))
"""Offered actions are shared objects (immutable), one per kind and card."""


def knock_allowed(deadwood: int, threshold: int, comparison: str) -> bool:
    """Whether ``deadwood`` after the discard allows a knock (RULES.md §4.5; zero is a Rummy)."""
    if deadwood == 0:
        return False
    return deadwood < threshold if comparison == "lt" else deadwood <= threshold


def _barred_taken(rnd: RoundState) -> Card | None:
    """The card the mover may not discard (nor knock or call with): the one taken from the discard
    pile this turn (RULES.md D15, ``may_discard_taken_discard = false``), as long as the hand holds
    another card. A hand of nothing but copies of it (a joker taken onto a joker, where hands are
    one or two cards) would have no move left; the bar lifts then, as it does in the melding games
    when nothing else is left."""
    taken = rnd.taken_discard
    if taken is None or rnd.rules.may_discard_taken_discard:
        return None
    hand = rnd.hands[rnd.to_move]
    return taken if hand.count(taken) < len(hand) else None


class KnockFamily:
    """Turn logic for the knock games."""

    after_draw_phase: Final = Phase.DISCARD

    def plan(self, rnd: RoundState, action: Action) -> Plan:
        drawing = draw_phase_plan(rnd, action, self._plan_take, self.after_draw_phase)
        if drawing is not None:
            return drawing
        if isinstance(action, Discard):
            return self._plan_discard(rnd, action)
        if isinstance(action, Knock):
            return self._plan_knock(rnd, action)
        if isinstance(action, CallRummy):
            return self._plan_rummy(rnd, action)
        if isinstance(action, KnockDeclare):
            # Gin's bare "knock" (its discard comes later); here the knock is the discard.
            raise WrongTurnError(
                f"{action}: a knock discards a card: name it ('knock CARD')", "not_in_this_game"
            )
        raise WrongTurnError(
            f"{action}: in {rnd.rules.name} cards stay in hand; discard, knock or call rummy",
            "not_in_this_game",
        )

    def _plan_take(self, rnd: RoundState) -> Plan:
        seat = rnd.to_move
        if not rnd.discard_pile:
            raise DrawError("take: the discard pile is empty", "empty_discard_pile")
        return _take_effect(rnd, seat)

    def _check_not_taken(self, rnd: RoundState, card: Card, action: Action) -> None:
        if card == rnd.taken_discard and card == _barred_taken(rnd):
            raise taken_discard_error(action, card, rnd.hands[rnd.to_move].count(card))

    def _plan_discard(self, rnd: RoundState, action: Discard) -> Plan:
        seat = rnd.to_move
        hand = _without(rnd, seat, action.card, action)
        self._check_not_taken(rnd, action.card, action)
        return self._discard_effect(rnd, seat, action.card, hand)

    def _discard_effect(self, rnd: RoundState, seat: int, card: Card, hand: Hand) -> Plan:
        def effect() -> None:
            rnd.hands[seat] = hand
            rnd.discard_pile.append(card)
            self._next(rnd, seat)

        return effect

    def plan_offered(self, rnd: RoundState, action: Action) -> Plan:
        """The effect of ``action`` taken from the current :meth:`legal_actions` list (the caller
        guarantees that; :meth:`rummykit.round.Round.apply` does): a draw, a take and a discard are
        not checked again; a knock and a Rummy call (once a hand) are planned as usual."""
        phase = rnd.phase
        kind = type(action)
        if phase is _PHASE_DISCARD and kind is Discard:
            seat = rnd.to_move
            card = action.card  # type: ignore[attr-defined]  # a Discard
            return self._discard_effect(rnd, seat, card, rnd.hands[seat].minus(card))
        if phase is _PHASE_DRAW:
            if kind is Draw:
                return plan_draw(rnd, _PHASE_DISCARD)
            if kind is TakeDiscard:
                return _take_effect(rnd, rnd.to_move)
        return self.plan(rnd, action)

    def _plan_knock(self, rnd: RoundState, action: Knock) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if rnd.knocker is not None:
            raise KnockError(
                f"{action}: the player in seat {rnd.knocker} has already knocked; "
                "now you only draw and discard",
                "knock_extra_turn",
            )
        hand = _without(rnd, seat, action.card, action)
        self._check_not_taken(rnd, action.card, action)
        deadwood = solver.min_deadwood(list(hand), rules)
        threshold = rules.knock_threshold or 0
        if deadwood == 0:
            raise KnockError(
                f"{action}: your hand has no deadwood; call 'rummy {action.card}' instead", "rummy"
            )
        if not knock_allowed(deadwood, threshold, rules.knock_comparison):
            sign = "<" if rules.knock_comparison == "lt" else "<="
            raise KnockError(
                f"cannot knock with {deadwood} deadwood: knock_threshold needs deadwood {sign} {threshold}",
                "knock_threshold",
            )

        def effect() -> None:
            rnd.hands[seat] = hand
            if rules.knock_discard_face_up:
                rnd.discard_pile.append(action.card)
            else:
                rnd.face_down = action.card
            rnd.knocker = seat
            rnd.knock_deadwood = deadwood
            if rules.knock_extra_turn:
                rnd.extra_turns = [s for s in _clockwise_from(rnd, seat) if s != seat]
                self._next_extra(rnd)
            else:
                self._showdown(rnd, seat, Termination.KNOCK)

        return effect

    def _plan_rummy(self, rnd: RoundState, action: CallRummy) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if rnd.knocker is not None:
            raise KnockError(f"{action}: after a knock the others only draw and discard", "knock_extra_turn")
        hand = _without(rnd, seat, action.card, action)
        self._check_not_taken(rnd, action.card, action)  # D15: the face-down card is a discard too
        deadwood = solver.min_deadwood(list(hand), rules)
        if deadwood:
            raise KnockError(f"cannot call Rummy: {deadwood} points of your cards fit in no meld", "rummy")

        def effect() -> None:
            rnd.hands[seat] = hand
            if rules.final_discard_face_down:
                rnd.face_down = action.card
            else:
                rnd.discard_pile.append(action.card)
            self._showdown(rnd, seat, Termination.RUMMY)

        return effect

    def _next(self, rnd: RoundState, seat: int) -> None:
        if rnd.knocker is None:
            rnd.begin_turn(rnd.next_seat(seat))
        else:
            self._next_extra(rnd)

    def _next_extra(self, rnd: RoundState) -> None:
        assert rnd.knocker is not None
        if not rnd.extra_turns:
            self._showdown(rnd, rnd.knocker, Termination.KNOCK)
            return
        rnd.begin_turn(rnd.extra_turns.pop(0))

    def _showdown(self, rnd: RoundState, winner: int, termination: Termination) -> None:
        """End the hand scored by :func:`rummykit.scoring.showdown` (RULES.md §4.5–4.7)."""
        score = scoring.showdown(rnd.rules, rnd.hands, rnd.active_seats, winner, termination)
        rnd.steps.append(Showdown(score.arrangements))
        rnd.finish(termination, winner, score.penalties, score.gains, score.multiplier, score.arrangements)

    def legal_actions(self, rnd: RoundState) -> list[Action]:
        if rnd.phase is _PHASE_DRAW:
            # What plan() accepts: a draw while the stock or the pile (turned over) has a card, a
            # take while the pile has one.
            if rnd.discard_pile:
                return [_DRAW, _TAKE]
            return [_DRAW] if rnd.stock else []
        rules = rnd.rules
        seat = rnd.to_move
        hand = rnd.hands[seat]
        barred = _barred_taken(rnd)
        distinct = [c for c in dict.fromkeys(hand.cards()) if c != barred]
        calls: list[Action] = []
        threshold = rules.knock_threshold or 0
        best, _ = solver.best_discards(list(hand), rules) if rnd.knocker is None else (0, ())
        # When even the best discard leaves too much deadwood, no discard allows a call.
        may_call = rnd.knocker is None and (
            best == 0 or knock_allowed(best, threshold, rules.knock_comparison)
        )
        if may_call:
            for card in distinct:
                d = solver.min_deadwood(list(hand.without((card,))), rules)
                if d == 0:
                    calls.append(CallRummy(card))
                elif knock_allowed(d, threshold, rules.knock_comparison):
                    calls.append(Knock(card))
        calls.sort(
            key=lambda a: (not isinstance(a, CallRummy), a.card if isinstance(a, (Knock, CallRummy)) else 0)
        )
        return calls + [_DISCARDS[c] for c in distinct]


def _take_effect(rnd: RoundState, seat: int) -> Plan:
    """``seat`` takes the top discard (the pile holds one) and goes on to discard."""
    card = rnd.discard_pile[-1]

    def effect() -> None:
        if rnd.knocker is not None:  # an extra turn after the knock: the hand ends with this round,
            rnd.takes_in_a_row += 1  # so the take bound does not void the knock
        elif rnd.count_take():
            return
        rnd.discard_pile.pop()
        rnd.hands[seat] = rnd.hands[seat].plus(card)
        rnd.taken_discard = card
        rnd.phase = _PHASE_DISCARD

    return effect


def _clockwise_from(rnd: RoundState, seat: int) -> list[int]:
    """Active seats in turn order starting at ``seat``'s left."""
    order = []
    s = seat
    for _ in rnd.active_seats:
        s = rnd.next_seat(s)
        order.append(s)
    return order


KNOCK_FAMILY: Final = KnockFamily()
