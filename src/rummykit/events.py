"""What a round records: one :class:`Event` per applied action, with the automatic steps it caused.

Some state changes are nobody's action: the stock is rebuilt from the discard pile when it runs
out (RULES.md §3.13), the hands are shown and scored at a knock game's showdown (§4.5), and the hand
ends. Each such :data:`Step` is recorded on the event of the action that caused it, in the order it
happened, so a reader of ``Round.history`` (a log, a replay, an RL environment) sees them without
comparing states.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.actions import Action
from rummykit.cards import Card
from rummykit.views import Arrangement, Termination


@dataclass(frozen=True, slots=True)
class StockRebuilt:
    """The empty stock was made again from the discard pile (``stock_exhaustion``)."""

    rebuilds: int
    """Rebuilds in this hand so far, this one included."""
    stock_size: int
    shuffled: bool
    """``reshuffle_keep_top``: shuffled; otherwise the pile was turned over as it lay."""

    def __str__(self) -> str:
        how = "reshuffled" if self.shuffled else "turned over"
        return f"stock rebuilt ({how}, {self.stock_size} cards, rebuild {self.rebuilds})"


@dataclass(frozen=True, slots=True)
class Showdown:
    """Knock games: every hand in play was shown, arranged into melds and deadwood."""

    arrangements: tuple[Arrangement | None, ...]
    """Per seat; ``None`` for seats that sat the hand out."""

    def __str__(self) -> str:
        shown = ", ".join(f"{s}: {a.deadwood}" for s, a in enumerate(self.arrangements) if a is not None)
        return f"showdown (deadwood {shown})"


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; ``Round.result`` holds the outcome."""

    termination: Termination
    winner: int | None
    points: tuple[int, ...]

    def __str__(self) -> str:
        who = "" if self.winner is None else f", winner {self.winner}"
        return f"hand ended ({self.termination.value}{who})"


Step = StockRebuilt | Showdown | HandEnded
"""An automatic state change, recorded on the event of the action that caused it."""


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action, as recorded in ``Round.history``.

    ``card`` is the card that came into the hand: after a ``draw`` the card drawn from the stock,
    which moved privately (part of the engine's full record, never of a view); after a ``take`` the
    card taken from the discard pile, which everybody saw (a move list may name it). ``steps`` are
    the automatic state changes the action caused, in order (a rebuilt stock, the showdown, the end
    of the hand).
    """

    index: int
    seat: int
    action: Action
    turn: int
    card: Card | None = None
    steps: tuple[Step, ...] = ()

    def __str__(self) -> str:
        return f"{self.seat}: {self.action}"


_new_object = object.__new__
_SET_INDEX, _SET_SEAT, _SET_ACTION, _SET_TURN, _SET_CARD, _SET_STEPS = (
    Event.__dict__[name].__set__ for name in ("index", "seat", "action", "turn", "card", "steps")
)


def record(
    index: int, seat: int, action: Action, turn: int, card: Card | None = None, steps: tuple[Step, ...] = ()
) -> Event:
    """``Event(index, seat, action, turn, card, steps)``, built for the engine's every action: the
    same frozen object, its slots filled through their descriptors instead of the dataclass
    ``__init__``'s ``object.__setattr__`` per field (which costs about twice as much)."""
    event: Event = _new_object(Event)
    _SET_INDEX(event, index)
    _SET_SEAT(event, seat)
    _SET_ACTION(event, action)
    _SET_TURN(event, turn)
    _SET_CARD(event, card)
    _SET_STEPS(event, steps)
    return event
