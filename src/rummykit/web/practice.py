"""Practice tables in the browser: taking moves back, recorded as events in the append-only store.

A table is a *practice table* for a person when every other seat is a bot that holds no seat for a
person who left (:func:`is_practice`); nobody else can be wronged by a move taken back, or by a
hint (``{"type": "hint"}``). Undo is allowed only here; hints are given here, and at every seat of a
table made with hints for everyone (:data:`rummykit.web.protocol.HintsPolicy`).

What undo means. ``{"type": "undo"}`` (:class:`rummykit.web.protocol.UndoMessage`) takes back the
sender's latest move and every move made after it (the bots' replies), so that it is the sender's
turn again in the position before that move. It is refused when a move in that stretch *showed the
sender a card it had not seen* (:func:`shows_a_card`): its own draw from the stock (the drawn
card), another player's discard, meld, lay-off or joker exchange of a card from a hidden hand, a
revealed hand, a new deal. So:

- a draw from the stock is never taken back, nor anything before it: after ``draw`` and a meld, undo
  takes back the meld and the player keeps the drawn card (it cannot draw again, and never sees the
  stock's next card); a card taken from the discard pile can be taken back (it was face up);
- a discard can be taken back while the next players' replies showed no card (a bot that drew from
  the stock and has not discarded yet); once a bot discarded or laid a card from its hand, that card
  would be a known card of a hidden hand after the undo, so the move before it stays;
- undo never crosses the end of a hand (the showdown and the new deal show cards).

After an undo the player knows no card that a player in that position could not know. (It does know
how the bots answered the move taken back, as after any move.)

Storage. The store only appends. An undo is a record of its own, :func:`undo_record` (``#undo K``:
the table's moves are the first ``K`` moves in force before it), stored at the next record number
and committed before anybody sees it, like a move. Replaying the records
(:func:`effective_actions`) gives the same match after a restart or on another server process, so a
server killed at any moment loses nothing. The table's state ``version`` counts records (moves and
undos), so it only grows.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from sqlalchemy.exc import IntegrityError

from rummykit.actions import Action
from rummykit.i18n import describe_action
from rummykit.match import Match
from rummykit.views import PlayerView
from rummykit.web.failures import log_failure
from rummykit.web.limits import RateLimiter
from rummykit.web.protocol import error_json
from rummykit.web.store import StoredAction
from rummykit.web.texts import server_error_texts


class SeatInfo(Protocol):
    """What undo reads of a seat (:class:`rummykit.web.tables.Seat`)."""

    @property
    def kind(self) -> str: ...
    @property
    def held_for(self) -> str | None: ...


class Connection(Protocol):
    """A connection (:class:`rummykit.web.tables.Client`)."""

    seat: int | None

    def send(self, message: dict[str, Any] | str) -> None: ...


class Manager(Protocol):
    async def append(self, record: StoredAction) -> None: ...


class PracticeTable(Protocol):
    """What undo uses of a table (:class:`rummykit.web.tables.Table`, which imports this module)."""

    code: str
    match: Match
    records: int
    lock: asyncio.Lock

    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def manager(self) -> Manager: ...
    @property
    def version(self) -> int: ...
    def fresh_match(self) -> Match: ...
    def broadcast(self) -> None: ...
    def kick(self) -> None: ...
    async def show_record(self) -> None: ...
    async def _catch_up(self) -> bool: ...
    async def _store(self, record: StoredAction) -> None: ...


log = logging.getLogger("rummykit.web")

UNDO_PER_SECOND: Final = 1.0
UNDO_BURST: Final = 5
"""Undos a seat may make in a row, then one a second: each one replays the match from the deal."""

UNDO_PREFIX: Final = "#undo "
"""A stored record starting with this is an undo, never an action (no action's notation starts
with ``#``)."""
_UNDO_RECORD: Final = re.compile(r"#undo (0|[1-9][0-9]{0,8})")


def undo_record(keep: int) -> str:
    """The stored record of an undo that keeps the first ``keep`` moves."""
    if keep < 0:
        raise ValueError("an undo keeps zero or more moves")
    return f"{UNDO_PREFIX}{keep}"


def is_undo(record: str) -> bool:
    return record.startswith(UNDO_PREFIX)


def effective_actions(records: Sequence[str]) -> list[str]:
    """The moves in force after the stored ``records`` (moves and undos), in order.

    Raises:
        ValueError: a malformed undo record, or one keeping more moves than there were.
    """
    return [records[i] for i in in_force(records)]


def in_force(records: Sequence[str]) -> list[int]:
    """The indices of the stored ``records`` (moves and undos) that are the moves in force, in order
    (:func:`effective_actions`).

    Raises:
        ValueError: a malformed undo record, or one keeping more moves than there were.
    """
    moves: list[int] = []
    for i, record in enumerate(records):
        if not is_undo(record):
            moves.append(i)
            continue
        found = _UNDO_RECORD.fullmatch(record)
        if found is None or int(found.group(1)) > len(moves):
            raise ValueError(f"bad undo record {record[:40]!r} after {len(moves)} moves")
        del moves[int(found.group(1)) :]
    return moves


def replay(fresh: Callable[[], Match], moves: Sequence[str]) -> Match:
    """A new match (from ``fresh``) with ``moves`` applied."""
    match = fresh()
    for text in moves:
        match.apply(Action.parse(text))
    return match


def ends_hand(match: Match, action: Action) -> bool:
    """Apply ``action`` to ``match``; whether it ended the hand in play (a move between hands, a
    buy-back decision, ends none)."""
    in_play = match.round
    was_over = in_play.result is not None
    match.apply(action)
    return not was_over and in_play.result is not None


def play_on(match: Match, moves: Sequence[str]) -> set[int] | None:
    """Apply ``moves`` to ``match`` in place. When a hand ended among them: the seats that moved
    after the last such end (they have closed its result); ``None`` when no hand ended."""
    since: set[int] | None = None
    for text in moves:
        seat = match.to_move
        if ends_hand(match, Action.parse(text)):
            since = set()
        elif since is not None:
            since.add(seat)
    return since


def apply_records(
    match: Match, records: Sequence[str], fresh: Callable[[], Match]
) -> tuple[Match, set[int] | None]:
    """``match`` after the further stored ``records``: applied in place when they are moves only,
    rebuilt from ``fresh`` when one of them is an undo. With it, as :func:`play_on` says, the seats
    that moved since a hand ended among the records (``None`` after an undo: an undo never crosses
    the end of a hand)."""
    if not any(is_undo(r) for r in records):
        return match, play_on(match, records)
    return replay(fresh, effective_actions([str(a) for a in match.actions] + list(records))), None


def is_practice(seats: Sequence[SeatInfo], seat: int) -> bool:
    """Whether ``seat`` is the only person at the table: every other seat is a bot that holds no
    seat for a person who left."""
    return all(s.kind == "bot" and s.held_for is None for i, s in enumerate(seats) if i != seat)


def visible_cards(view: PlayerView) -> Counter[int]:
    """Every card ``view.seat`` sees, each counted once where it lies: own hand, table melds, discard
    pile, other seats' revealed hands (else their publicly known cards), gin's knock melds and
    lay-offs. Fields that repeat a card lying elsewhere (the taken discard) are left out."""
    seen: Counter[int] = Counter(view.hand)
    for tm in view.melds:
        seen.update(tm.meld.cards)
    seen.update(view.discard_pile)
    for other in range(len(view.hand_sizes)):
        if other == view.seat:
            continue
        revealed = view.revealed[other] if other < len(view.revealed) else None
        if revealed is not None:
            seen.update(revealed)
        elif other < len(view.known_cards):
            seen.update(view.known_cards[other])
    if view.gin is not None:
        for meld in view.gin.knocker_melds:
            seen.update(meld)
        seen.update(view.gin.layoffs)
    return seen


def shows_a_card(before: PlayerView, after: PlayerView) -> bool:
    """Whether a move showed ``before.seat`` a card: some card is seen more often after it."""
    return bool(visible_cards(after) - visible_cards(before))


class UndoRefused(Exception):
    """Undo is not possible now; ``code`` names why (texts: :func:`undo_texts`)."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values


UNDO_MESSAGES: Final[dict[str, str]] = {
    "not_practice": "Moves can be taken back only at a practice table (you and bots only)",
    "nothing_to_undo": "You have made no move in this hand that could be taken back",
    "undo_rate": "Too many undos in a row; wait a moment",
    "undo_shows_card": "That move cannot be taken back: a move since then showed you a card ({move})",
}
"""Why an undo was refused, by code (``{move}``: the move that showed the card); the German texts
are the server's error texts (:data:`rummykit.web.texts.SERVER_ERRORS_DE`)."""


def undo_texts(refusal: UndoRefused) -> dict[str, str]:
    message = UNDO_MESSAGES[refusal.code].format(**refusal.values)
    return server_error_texts(refusal.code, message, **refusal.values)


def undo_target(match: Match, seat: int) -> int:
    """How many of the match's moves remain when ``seat`` takes back its latest move (see the
    module). The moves after it are stepped back on a copy of the current hand, so the cost does not
    grow with the match.

    Raises:
        UndoRefused: ``seat`` has no move of this hand to take back, or a move since showed it a card.
    """
    history = match.history
    mine = [i for i, event in enumerate(history) if event.seat == seat]
    hand = match.round.history
    if not mine or len(history) - mine[-1] > len(hand):
        raise UndoRefused("nothing_to_undo")  # none, or only before this hand's deal (it showed cards)
    keep = mine[-1]
    window = history[keep:]
    if any(a is not b for a, b in zip(window, hand[len(hand) - len(window) :], strict=True)):
        raise UndoRefused("nothing_to_undo")  # a match decision (buy-back) lies in between
    rnd = match.round.copy()
    after = rnd.view(seat)
    for _ in window:
        event = rnd.undo()
        before = rnd.view(seat)
        if shows_a_card(before, after):
            raise UndoRefused("undo_shows_card", **_named(event.action, match))
        after = before
    return keep


def _named(action: Action, match: Match) -> dict[str, str]:
    """The move that showed a card, in words (a move inside the hand: nothing of it went face down
    at the hand's end)."""
    return {
        "move": describe_action(action, "en", rules=match.rules),
        "move_de": describe_action(action, "de", rules=match.rules),
    }


_limits: weakref.WeakKeyDictionary[PracticeTable, RateLimiter] = weakref.WeakKeyDictionary()
"""The undo rate limit of each table, by seat."""


async def undo(table: PracticeTable, client: Connection) -> None:
    """Answer ``{"type": "undo"}``: store the undo, rebuild the match, show everybody the new state."""
    seat = client.seat
    if seat is None:
        client.send(error_json("spectator", "spectators cannot play", table.version))
        return
    async with table.lock:
        if table.status != "playing" or table.match.is_over:
            client.send(error_json("not_playing", f"the table is {table.status}", table.version))
            return
        try:
            if not is_practice(table.seats, seat):
                raise UndoRefused("not_practice")
            keep = undo_target(table.match, seat)
            if _limits.setdefault(table, RateLimiter(UNDO_PER_SECOND, UNDO_BURST)).take(seat) > 0:
                raise UndoRefused("undo_rate")
        except UndoRefused as refusal:
            texts = undo_texts(refusal)
            client.send(error_json(refusal.code, texts["en"], table.version, texts=texts))
            return
        moves = [str(a) for a in table.match.actions[:keep]]
        # Rebuilt by a replay from the deal, as a restarted server does (in a thread: a long
        # match takes some milliseconds).
        rebuilt = await asyncio.to_thread(replay, table.fresh_match, moves)
        try:
            await table._store(StoredAction(table.code, table.version, seat, undo_record(keep)))
        except IntegrityError:  # another server process stored a record at this number first
            await table._catch_up()
            client.send(error_json("stale", "the table moved on before your undo was stored", table.version))
            return
        except Exception:
            log_failure(log, "table %s: cannot store an undo", table.code)
            client.send(error_json("storage", "the undo could not be stored; nothing changed", table.version))
            return
        table.match = rebuilt
        table.records += 1
        await table.show_record()  # an undo is a record too: at the limit the table ends
    table.kick()
