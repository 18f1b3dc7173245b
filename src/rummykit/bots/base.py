"""The bot protocol: a bot sees one seat's view and the legal actions, and returns one of them.

A bot never receives more than a :class:`~rummykit.views.PlayerView`: it cannot read another seat's
cards by accident. Randomness is injected (``rng``), so a seeded game with seeded bots replays
exactly. The same protocol covers match decisions such as the Viennese buy-back (the legal actions
are then ``buyback`` and ``decline``; the view is that of the seat deciding).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rummykit.actions import Action
from rummykit.views import PlayerView


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for a seat."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one of ``legal`` (never empty) for the seat of ``view``."""
        ...


class RandomBot:
    """Picks a legal action uniformly at random: the baseline of every ladder."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))
