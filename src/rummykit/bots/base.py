"""The bot protocol: a bot sees one seat's view and the legal actions, and returns one of them.

A bot never receives more than a :class:`~rummykit.views.PlayerView`: it cannot read another seat's
cards by accident. Randomness is injected (``rng``), so a seeded game with seeded bots replays
exactly. The same protocol covers match decisions such as the Viennese buy-back (the legal actions
are then ``buyback`` and ``decline``; the view is that of the seat deciding). Bots that also implement
``choose_match`` receive a :class:`MatchView` (public totals, chips and pot) for those decisions, and
bots that implement ``follow_match`` are shown it before each round decision; see :func:`match_action`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, cast, runtime_checkable

from rummykit.actions import Action
from rummykit.errors import RummyError
from rummykit.match import Match
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import MatchView as MatchView
from rummykit.views import PlayerView


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for a seat.

    A bot that plays from something outside the code (a weights file, a book) may say what with a
    ``fingerprint`` string attribute (the policy bot gives its file's SHA-256): self-play records it
    and refuses to resume a run with another one.
    """

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one of ``legal`` (never empty) for the seat of ``view``."""
        ...


class RandomBot:
    """Picks a legal action uniformly at random: the baseline of every ladder."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


@runtime_checkable
class MatchBot(Protocol):
    """A bot that also reads the match state for match decisions (buy-back)."""

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action: ...


SeatPast = Sequence[tuple[PlayerView, Action]]
"""A seat's earlier decisions in a hand, each the view it decided from and the action it took."""


@runtime_checkable
class RecallingBot(Protocol):
    """A bot with a memory of the hand (what the opponents did between its decisions) that can
    rebuild it from its seat's earlier decisions: a copy of the bot that has not seen them (the web
    server decides in worker processes, each from a fresh copy) recalls them before it chooses. It is
    shown only what its seat saw then (:func:`seat_past`), never the round itself."""

    def recalls(self, view: PlayerView) -> bool:
        """Whether the bot needs the seat's earlier decisions before it decides from ``view``."""
        ...

    def recall(self, past: SeatPast | None) -> None:
        """Show the bot its seat's earlier decisions in the hand (``None``: the hand cannot be
        replayed from its deal, so they are unknown)."""
        ...


def seat_past(rnd: Round, seat: int) -> list[tuple[PlayerView, Action]] | None:
    """``seat``'s earlier decisions in ``rnd``, each with the view it decided from: what a bot that
    played along saw, and nothing more. The round is replayed from its deal; ``None`` where that does
    not reach the round's state (a round not dealt from its seed and deck, such as one made with
    :meth:`~rummykit.round.Round.from_state`)."""
    try:
        replay = Round.new(
            rnd.rules, rnd.players, seed=rnd.seed, deck=rnd.deck, dealer=rnd.dealer, in_play=rnd.in_play
        )
        past: list[tuple[PlayerView, Action]] = []
        for event in rnd.history:
            if event.seat == seat:
                past.append((replay.view(seat), event.action))
            replay.apply(event.action)
    except RummyError:
        return None
    return past if replay.view(seat) == rnd.view(seat) else None


def check_seat(bot: Bot, rules: Rules, players: int) -> None:
    """Raise the bot's own error when it cannot play at a table of ``players`` under ``rules``: a bot
    that plays only some tables (a policy trained for two seats, OpenSpiel's gin bot) says so with a
    ``check_table(rules, players)`` method, so a game refuses it before the first move and not at
    the bot's first turn. A bot without one plays every table."""
    if _offers(bot, "check_table"):
        bot.check_table(rules, players)  # type: ignore[attr-defined]


def seat_notice(bot: Bot, rules: Rules) -> str | None:
    """A line to show before a game when ``bot`` plays a table it can play but was not made for (a
    policy trained under other rules), from its optional ``table_notice(rules)`` method; ``None``
    when there is nothing to say."""
    if _offers(bot, "table_notice"):
        line = bot.table_notice(rules)  # type: ignore[attr-defined]
        return None if line is None else str(line)
    return None


def _offers(bot: object, method: str) -> bool:
    """Whether ``bot`` has a method ``method`` (a field of that name that is not callable is not)."""
    return callable(getattr(bot, method, None))


@runtime_checkable
class MatchAwareBot(Protocol):
    """A bot that weighs its round decisions by the match (see :mod:`rummykit.bots.stakes`)."""

    def follow_match(self, mv: MatchView) -> None:
        """Show the bot the match state of its next round decision."""
        ...


def match_action(bot: Bot, match: Match, rng: random.Random) -> Action:
    """The action of the seat to move in ``match``: a round action from its view, or a match decision
    (buy-back) from its :class:`MatchView` when the bot reads one (else from the finished round's view).
    A :class:`RecallingBot` first recalls the hand so far; a :class:`MatchAwareBot` is shown the
    match before a round decision.
    """
    seat = match.to_move
    legal = match.legal_actions()
    if match.pending_buyback and isinstance(bot, MatchBot) and _offers(bot, "choose_match"):
        return bot.choose_match(MatchView.of(match, seat), legal, rng)
    view = match.round.view(seat)
    recalling = isinstance(bot, RecallingBot) and _offers(bot, "recalls") and _offers(bot, "recall")
    if recalling and cast(RecallingBot, bot).recalls(view):
        cast(RecallingBot, bot).recall(seat_past(match.round, seat))
    if isinstance(bot, MatchAwareBot) and _offers(bot, "follow_match"):
        bot.follow_match(MatchView.of(match, seat))
    return bot.choose(view, legal, rng)
