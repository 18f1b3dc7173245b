"""What the player to move may do, told cheaply: the ``legal`` and ``compose`` of a state message.

Listing every legal action of a melding game means enumerating openings, melds, lay-offs and joker
exchanges with the solver: milliseconds per state for a hand with jokers, and most clients never
look at the list. A state message therefore carries

* ``legal``: every legal action of the kinds that need no composing, exactly as the engine offers
  them (``draw``, ``take``, ``discard X``, ``knock X``, ``rummy X``, ``buyback``, ``decline``);
* ``compose``: the compound kinds the player is *permitted* to compose now (``open``, ``meld``,
  ``layoff``, ``swap``), by the rules' permissions alone. A permitted kind may still have no legal
  instance (a hand without a meld may "open" nothing); the engine's check answers such an attempt
  with an error naming the rule.

When ``compose`` is empty, ``legal`` is the complete list. The complete list (compound actions
included) is enumerated on demand, once per state version (:meth:`Table.moves
<rummykit.web.tables.Table.moves>`). Only the melding family's play phase is abridged; the draw
phase, buy-back decisions and the other families' turns are short lists and are sent whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from rummykit.actions import Action, Discard
from rummykit.match import Match
from rummykit.melding import MELDING_FAMILY
from rummykit.permissions import exchange_bar, may_lay_off
from rummykit.views import Phase

COMPOUND_VERBS: Final = ("open", "meld", "layoff", "swap")
"""Action kinds a client composes from cards rather than picks from a list."""


@dataclass(frozen=True)
class Allowed:
    """What the player to move may do now: the simple legal actions and the kinds to compose."""

    legal: list[str] = field(default_factory=list)
    compose: list[str] = field(default_factory=list)
    texts: list[dict[str, str]] = field(default_factory=list)
    """Each of ``legal`` worded in every language (``legal_texts`` of the state message)."""

    @property
    def complete(self) -> bool:
        """Whether ``legal`` lists every legal action (nothing is left to compose)."""
        return not self.compose


def allowed(match: Match, texts: Callable[[Action], dict[str, str]]) -> Allowed:
    """The cheap description of the player to move's options (see the module docstring); ``texts``
    words an action in every language."""
    if match.is_over:
        return Allowed()
    rnd = match.round
    if match.pending_buyback or rnd.rules.family != "melding" or rnd.phase is not Phase.PLAY:
        actions = match.legal_actions()
        return Allowed([str(a) for a in actions], [], [texts(a) for a in actions])
    state = rnd.state()
    seat = state.to_move
    rules = state.rules
    opened_turn = state.opened_turn[seat]
    compose = ["meld" if state.has_opened(seat) else "open"]
    if state.melds and may_lay_off(rules, opened_turn, state.turn):
        compose.append("layoff")
    if any(tm.meld.jokers for tm in state.melds) and exchange_bar(rules, opened_turn, state.turn) is None:
        compose.append("swap")
    discards = [] if state.must_lay is not None else MELDING_FAMILY.discardable(state, seat)
    simple = [Discard(c) for c in discards]
    return Allowed([str(a) for a in simple], compose, [texts(a) for a in simple])
