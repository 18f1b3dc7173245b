"""The interface between a round and a family's turn logic, and the draw phase both families share.

A family plans on the round's :class:`~rummykit.state.RoundState`: :meth:`Family.plan` checks an
action and returns its effect (a :data:`Plan`), which the round runs; legality is decided there and
nowhere else. An effect replaces a seat's :class:`~rummykit.cards.Hand` instead of changing it in
place (undo snapshots share hands, see :meth:`RoundState.snapshot`). :mod:`rummykit.families` holds
the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from rummykit.actions import Action, Draw, TakeDiscard
from rummykit.cards import Card
from rummykit.errors import DrawError, IllegalActionError, WrongTurnError
from rummykit.state import RoundState
from rummykit.views import Phase

# Enum members as module constants: ``Phase.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and the turn flow reads them on every action.
_PHASE_DRAW: Final = Phase.DRAW


Plan = Callable[[], Card | None]
"""A checked state change; running it applies the action and returns the privately moved card."""


class Family(Protocol):
    """Turn logic of one family of games: one legal-action generator and one planner."""

    @property
    def after_draw_phase(self) -> Phase:
        """The phase a player enters after drawing (PLAY or DISCARD)."""
        ...

    def legal_actions(self, rnd: RoundState) -> list[Action]: ...

    def plan(self, rnd: RoundState, action: Action) -> Plan:
        """Check ``action`` against the state and return its effect; raise if it is illegal."""
        ...


def is_legal(family: Family, rnd: RoundState, action: Action) -> bool:
    """Whether ``family`` would plan ``action`` (the state is not over)."""
    try:
        family.plan(rnd, action)
    except IllegalActionError:
        return False
    return True


def draw_phase_plan(
    rnd: RoundState, action: Action, plan_take: Callable[[RoundState], Plan], after_draw: Phase
) -> Plan | None:
    """The draw phase, alike in both families: ``draw`` or ``take`` (planned by ``plan_take``) while
    the player has not drawn, an error for anything else then, and for a second draw later.
    Returns ``None`` when the action belongs to the rest of the turn."""
    if rnd.phase is _PHASE_DRAW:
        if isinstance(action, Draw):
            return plan_draw(rnd, after_draw)
        if isinstance(action, TakeDiscard):
            return plan_take(rnd)
        raise WrongTurnError(f"{action}: first draw from the stock or take the discard", "draw_first")
    if isinstance(action, (Draw, TakeDiscard)):
        if rnd.turn == 0 and rnd.rules.start_mode in ("dealer_extra_card", "forehand_extra_card"):
            who = "dealer" if rnd.to_move == rnd.dealer else "forehand"
            first = "knock or discard" if rnd.rules.is_knock_game else "meld if you can, then discard"
            raise WrongTurnError(
                f"{action}: the {who} is dealt the extra card and starts without drawing: {first}",
                "one_draw_per_turn",
            )
        raise WrongTurnError(f"{action}: you have already drawn this turn", "one_draw_per_turn")
    return None


def plan_draw(rnd: RoundState, after_draw: Phase) -> Plan:
    """Take the top stock card; under ``turn_over_all_if_declined`` an empty stock is first made
    from the whole discard pile turned over."""
    seat = rnd.to_move
    turn_over = not rnd.stock
    if turn_over and not rnd.discard_pile:
        raise DrawError("draw: the stock is empty", "stock_exhaustion")

    def effect() -> Card:
        if turn_over:
            rnd.turn_over_discard_pile()
        rnd.takes_in_a_row = 0
        card = rnd.stock.pop()
        rnd.hands[seat] = rnd.hands[seat].plus(card)
        rnd.phase = after_draw
        return card

    return effect
