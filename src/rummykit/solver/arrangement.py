"""The split of a hand into melds and deadwood (one class for the solver and the showdown)."""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.melds import Meld


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into disjoint melds and unmelded cards (deadwood, Restpunkte)."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds]
        rest = " ".join(str(c) for c in self.deadwood_cards)
        return " ".join(parts) + (f" | {rest}" if rest else "") + f" = {self.deadwood}"
