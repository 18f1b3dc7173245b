"""The bot protocol: a bot sees one seat's view and the legal actions, and returns one of them.

A bot never receives more than a :class:`~rummykit.views.PlayerView`: it cannot read another seat's
cards by accident. Randomness is injected (``rng``), so a seeded game with seeded bots replays
exactly. The same protocol covers match decisions such as the Viennese buy-back (the legal actions
are then ``buyback`` and ``decline``; the view is that of the seat deciding). Bots that also implement
``choose_match`` receive a :class:`MatchView` (public totals, chips and pot) for those decisions, and
bots that implement ``follow_match`` are shown it before each round decision; see :func:`match_action`.

A bot that keeps a memory of the hand from one decision to the next (:class:`CatchingUpBot`, the
search bot's :class:`~rummykit.bots.inference.TableMemory`) decides as if it had played the match so
far, however the match got where it is: :func:`match_action` shows it its seat's earlier decisions of
the hand whenever it has not made them itself on this very round (a resumed game, a match rebuilt by
an undo, a table replayed after a restart, a copy of the bot in another process), and
:func:`new_game` makes it forget the last game when the same bot object starts another one.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Final, Protocol, cast, runtime_checkable
from weakref import WeakKeyDictionary

from rummykit.actions import Action
from rummykit.errors import RummyError
from rummykit.events import Event
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


@runtime_checkable
class CatchingUpBot(Protocol):
    """A bot whose decisions depend on its seat's earlier decisions in the hand (a memory of what the
    other seats did between them), and that can be brought to the state it would have had if it had
    made them: shown the seat's earlier views and actions of the hand, never the round itself."""

    def catch_up(self, past: SeatPast | None, view: PlayerView) -> None:
        """Rebuild the memory of ``view``'s seat as if the bot had decided every one of ``past`` (the
        seat's earlier decisions of the hand, oldest first; ``None``: they cannot be known) and is now
        to decide from ``view``."""
        ...


@dataclass(frozen=True, slots=True)
class _Followed:
    """Where a :class:`CatchingUpBot` last stood in a round: it had seen ``rnd`` up to event ``at``
    (``before``: the event just before, the very object) and then chose ``action`` (``None``: it was
    only caught up)."""

    rnd: Round
    at: int
    before: Event | None
    action: Action | None
    content: Any
    """The digest of the deal and of events ``[:at]`` being made (:func:`_content`), extended from
    one decision to the next of the same round."""


_FOLLOWED: WeakKeyDictionary[object, dict[int, _Followed]] = WeakKeyDictionary()
"""Per catching-up bot object and seat, where it last stood (kept beside the bot, not in it: the bot
never holds the round; a bot that cannot be weakly referenced is caught up at every decision)."""


CARRIED: Final = "_rummykit_followed"
"""The attribute in which a catching-up bot carries, per seat, where it last stood as content (a
digest of the deal and the moves before it, :func:`_digest`): a copy of the bot made by pickling
(a server's bot process decides on copies of the bot and of the match) follows the copied round
without a catch-up. Objects are not compared across a copy; content is."""


def _content(rnd: Round, start: int, at: int, digest: Any = None) -> Any:
    """The digest of ``rnd``'s deal and events ``[:at]`` (who did what): ``digest`` (of events
    ``[:start]``) extended, or begun from the deal."""
    if digest is None:
        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{rnd.dealer}|{','.join(str(int(card)) for card in rnd.deck)}|".encode())
        start = 0
    for event in rnd.history[start:at]:
        digest.update(f"{event.seat}:{event.action}\n".encode())
    return digest


def _digest(rnd: Round, at: int) -> str:
    """The deal and the first ``at`` events of ``rnd``, as text (what a copy of a bot carries)."""
    return str(_content(rnd, 0, at).hexdigest())


def _follows(bot: object, rnd: Round, seat: int) -> bool:
    """Whether ``bot`` has made every decision of ``seat`` in ``rnd`` itself (so its memory is
    already the one a catch-up would build): the same round (the same object, its events up to the
    bot's last decision unchanged: an undo re-applies them as new objects; or, for a copy, the same
    deal and moves up to there), its action the one the bot chose, and no later decision of the seat
    made by anyone else."""
    try:
        last = _FOLLOWED.get(bot, {}).get(seat)
    except TypeError:
        last = None
    history = rnd.history
    if last is not None and last.rnd is rnd:
        if len(history) < last.at or (last.at and history[last.at - 1] is not last.before):
            return False
        at, action = last.at, last.action
    else:
        carried = getattr(bot, CARRIED, {}).get(seat)
        if carried is None:
            return False
        at, action, digest = carried
        if len(history) < at or _digest(rnd, at) != digest:
            return False
    start = at
    if action is not None:
        if len(history) <= start or history[start].seat != seat or history[start].action != action:
            return False
        start += 1
    return all(e.seat != seat for e in history[start:])


def _note(bot: object, rnd: Round, seat: int, action: Action | None) -> None:
    """Remember where ``bot`` stands in ``rnd`` for ``seat`` (see :func:`_follows`)."""
    history = rnd.history
    at = len(history)
    try:
        last = _FOLLOWED.get(bot, {}).get(seat)
    except TypeError:
        last = None
    same = last is not None and last.rnd is rnd and last.at <= at
    if same and last is not None and (last.at == 0 or history[last.at - 1] is last.before):
        content = _content(rnd, last.at, at, last.content.copy())  # only the events since
    else:
        content = _content(rnd, 0, at)
    with suppress(TypeError):
        _FOLLOWED.setdefault(bot, {})[seat] = _Followed(
            rnd, at, history[-1] if history else None, action, content
        )
    carried = getattr(bot, CARRIED, None)
    if carried is None:
        carried = {}
        with suppress(AttributeError, TypeError):  # a bot without attributes of its own: no copy follows
            setattr(bot, CARRIED, carried)
    carried[seat] = (at, action, str(content.hexdigest()))


def catch_up(bot: Bot, match: Match | Round, seat: int) -> None:
    """Bring ``bot``'s memory of ``seat`` to exactly the state it would have had if it had played
    ``seat`` in ``match`` so far (its earlier decisions of the current hand, :func:`seat_past`): a
    :class:`CatchingUpBot` replays them into its memory, a :class:`RecallingBot` recalls them when it
    asks to; other bots have no memory to bring. :func:`match_action` does this by itself whenever
    the bot has not followed the round; calling it is needed only before a bot's ``choose`` is
    called directly on a match the bot did not play."""
    rnd = match.round if isinstance(match, Match) else match
    view = rnd.view(seat)
    if isinstance(bot, CatchingUpBot) and _offers(bot, "catch_up"):
        bot.catch_up(seat_past(rnd, seat), view)
        _note(bot, rnd, seat, None)
    recalling = isinstance(bot, RecallingBot) and _offers(bot, "recalls") and _offers(bot, "recall")
    if recalling and cast(RecallingBot, bot).recalls(view):
        cast(RecallingBot, bot).recall(seat_past(rnd, seat))


def new_game(bot: Bot) -> None:
    """Start ``bot``'s next game afresh: its optional ``new_game()`` method forgets every memory of
    the last game (a bot without one keeps none). Call it when one bot object plays game after game
    (a game environment's episodes), so that a game cut short leaves nothing behind."""
    if _offers(bot, "new_game"):
        bot.new_game()  # type: ignore[attr-defined]
    with suppress(TypeError):
        _FOLLOWED.pop(bot, None)
    with suppress(AttributeError):
        delattr(bot, CARRIED)


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
    A :class:`RecallingBot` first recalls the hand so far, a :class:`CatchingUpBot` that has not made
    the seat's earlier decisions of this round itself is caught up on them (:func:`catch_up`); a
    :class:`MatchAwareBot` is shown the match before a round decision.
    """
    seat = match.to_move
    legal = match.legal_actions()
    if match.pending_buyback and isinstance(bot, MatchBot) and _offers(bot, "choose_match"):
        return bot.choose_match(MatchView.of(match, seat), legal, rng)
    rnd = match.round
    view = rnd.view(seat)
    catching_up = isinstance(bot, CatchingUpBot) and _offers(bot, "catch_up")
    if catching_up and not _follows(bot, rnd, seat):
        cast(CatchingUpBot, bot).catch_up(seat_past(rnd, seat), view)
    recalling = isinstance(bot, RecallingBot) and _offers(bot, "recalls") and _offers(bot, "recall")
    if recalling and cast(RecallingBot, bot).recalls(view):
        cast(RecallingBot, bot).recall(seat_past(match.round, seat))
    if isinstance(bot, MatchAwareBot) and _offers(bot, "follow_match"):
        bot.follow_match(MatchView.of(match, seat))
    action = bot.choose(view, legal, rng)
    if catching_up:
        _note(bot, rnd, seat, action)
    return action
