"""What of an action everybody at the table may learn.

Most actions are public as written. Three put a card face down, and that card is known to its player
alone (RULES.md §4):

- ``knock QS`` when ``knock_discard_face_up`` is off: the knock card goes face down;
- ``rummy QS`` when ``final_discard_face_down`` is on (the default): the last card goes face down;
- ``discard QS`` that goes out in the German family when ``final_discard_face_down`` is on.

A ``take`` is written with the card it took when that is known (``take KD``): the card lay face up.

:func:`public_action_text` is the one place that decides it; logs, spectator views and error messages
of every adapter (web, terminal) print actions of other players through it.

>>> import rummykit as rk
>>> from rummykit.actions import Action
>>> public_action_text(Action.parse("rummy QS"), rk.Rules.preset("viennese"), goes_out=True)
'rummy'
>>> public_action_text(Action.parse("discard QS"), rk.Rules.preset("german"), goes_out=False)
'discard QS'
"""

from __future__ import annotations

from rummykit.actions import Action, CallRummy, Discard, Knock, TakeDiscard
from rummykit.cards import Card
from rummykit.round import Event, Round
from rummykit.rules import Rules

__all__ = ["event_goes_out", "face_down_card", "public_action_text", "public_event_text"]


def face_down_card(action: Action, rules: Rules, *, goes_out: bool) -> Card | None:
    """The card ``action`` puts face down under ``rules``, or ``None`` when all of it is public.

    ``goes_out`` says whether the action ends the hand by its player going out (a discard of the
    last card); it matters only for a German-family discard.
    """
    if isinstance(action, Knock):
        return None if rules.knock_discard_face_up else action.card
    if isinstance(action, CallRummy):
        return action.card if rules.final_discard_face_down else None
    if isinstance(action, Discard) and goes_out:
        return action.card if rules.final_discard_face_down else None
    return None


def public_action_text(action: Action, rules: Rules, *, goes_out: bool, taken: Card | None = None) -> str:
    """``action`` in notation as everybody may read it: a face-down card is left out
    (``knock``, ``rummy``, ``discard face down``); a ``take`` names the card ``taken`` (``take KD``)."""
    if taken is not None and isinstance(action, TakeDiscard):
        return f"take {taken}"
    if face_down_card(action, rules, goes_out=goes_out) is None:
        return str(action)
    if isinstance(action, Knock):
        return "knock"
    if isinstance(action, CallRummy):
        return "rummy"
    return "discard face down"


def event_goes_out(rnd: Round, event: Event) -> bool:
    """Whether ``event`` (of ``rnd.history``) ended the hand by its player going out."""
    result = rnd.result
    return (
        result is not None
        and bool(rnd.history)
        and rnd.history[-1] is event
        and result.winner == event.seat
        and str(result.termination) in ("went_out", "rummy")
    )


def public_event_text(rnd: Round, event: Event) -> str:
    """The public text of an event of ``rnd``'s history."""
    taken = event.card if isinstance(event.action, TakeDiscard) else None
    return public_action_text(event.action, rnd.rules, goes_out=event_goes_out(rnd, event), taken=taken)
