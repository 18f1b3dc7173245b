"""A guard against hands and matches that never end, for the tools that let bots or learners play
unattended (the arena, self-play, the reinforcement-learning environments).

It is not a rule of the game. Under the rules every hand ends (``max_stock_rebuilds`` bounds the
draws, ``max_takes_in_a_row`` the turns that take the top discard instead, RULES.md D10) except under
unlimited stock rebuilds (``max_stock_rebuilds = unlimited``), where players that never knock or go
out draw for ever. And a match of players who never go out ends every hand unscored, so a match that
ends on a score (a target, elimination) never ends. The guard stays as a second line behind the
rules: :class:`HandWatch` counts the actions of the hand being played and the unscored hands before
it, and says when a limit below is passed; the arena then raises an error naming the game, and the
environments truncate the episode.
"""

from __future__ import annotations

from typing import Final

from rummykit.round import Round

MAX_IDLE_ACTIONS: Final = 10_000
"""Actions in a row without the stock changing (nobody draws from it, no rebuild). Real hands are far
below it: in scans of Viennese, Rommé ohne Auslegen and German (greedy, random and mixed tables of 2
to 4 players) the stock never stayed unchanged for more than 37 actions in a row, and the longest
whole hand was 1,527 actions (random against random, heads-up Viennese; greedy hands of Viennese and
Rommé ohne Auslegen at most 137 actions in 18,000 deals)."""

MAX_UNSCORED_HANDS: Final = 100
"""Hands in a row of one match that end without a score (a dead hand, an exhausted stock). A match of
players who never go out is nothing else, and a match that ends on a score (a target, elimination)
would never end; real matches see an unscored hand now and then, never a run of them."""

MAX_HAND_ACTIONS: Final = 1_000_000
"""Actions in one hand, stock draws or not. Far above real hands: with unlimited rebuilds, random
against random in heads-up Viennese takes about 5,000 actions (median of 300 hands), a few over
45,000."""


class HandWatch:
    """Counts the actions of the hand being played; :meth:`count` names a passed limit.

    The limits are read from this module when counting, so a test can lower them.
    """

    __slots__ = ("actions", "idle", "rnd", "stock", "unscored")

    def __init__(self) -> None:
        self.rnd: Round | None = None
        self.actions = self.idle = self.unscored = 0
        self.stock = (0, 0)

    def count(self, rnd: Round) -> str | None:
        """One more action in ``rnd`` (a new round starts a new count, and counts the unscored hands
        before it); the limit it passes, as a clause with its subject (``"the hand did not end
        within 10,000 actions without a draw from the stock"``, ``"100 hands in a row ended without
        a score"``), or ``None``."""
        stock = (rnd.stock_size, rnd.stock_rebuilds)
        if rnd is not self.rnd:
            last = self.rnd.result if self.rnd is not None else None
            self.unscored = self.unscored + 1 if last is not None and not last.scored else 0
            self.rnd, self.actions, self.idle, self.stock = rnd, 0, 0, stock
            if self.unscored >= MAX_UNSCORED_HANDS:
                return f"{MAX_UNSCORED_HANDS:,} hands in a row ended without a score"
        self.actions += 1
        if stock != self.stock:
            self.idle, self.stock = 0, stock
        else:
            self.idle += 1
        if self.idle > MAX_IDLE_ACTIONS:
            return f"the hand did not end within {MAX_IDLE_ACTIONS:,} actions without a draw from the stock"
        if self.actions > MAX_HAND_ACTIONS:
            return f"the hand did not end within {MAX_HAND_ACTIONS:,} actions"
        return None
