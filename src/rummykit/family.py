"""The interface between :class:`~rummykit.round.Round` and a family's turn logic."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rummykit.actions import Action
from rummykit.cards import Card
from rummykit.rules import Rules
from rummykit.views import Phase

if TYPE_CHECKING:
    from rummykit.round import Round

Plan = Callable[[], Card | None]
"""A checked state change; running it applies the action and returns the privately moved card."""


class Family(Protocol):
    """Turn logic of one family of games: one legal-action generator and one planner."""

    @property
    def after_draw_phase(self) -> Phase:
        """The phase a player enters after drawing (PLAY or DISCARD)."""
        ...

    def legal_actions(self, rnd: Round) -> list[Action]: ...

    def plan(self, rnd: Round, action: Action) -> Plan:
        """Check ``action`` against the round and return its effect; raise if it is illegal."""
        ...


def family_for(rules: Rules) -> Family:
    """The melding family (German, Scala 40, Basic) or the knock family (Viennese, ROA)."""
    if rules.is_knock_game:
        from rummykit.knocking import KNOCK_FAMILY

        return KNOCK_FAMILY
    from rummykit.melding import MELDING_FAMILY

    return MELDING_FAMILY
