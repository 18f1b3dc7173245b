"""A table of the web server: lobby entry, seats and tokens, serialised moves, bots and persistence
(all tables of a process: :mod:`rummykit.web.manager`).

Each table holds one :class:`rummykit.Match`. Moves on a table are serialised by the table's lock; a
move names the state ``version`` (the number of actions applied so far) it was made against, and a
stale version is refused. An action is checked by the engine, written to the database (committed),
then applied and broadcast: every client gets its own seat's view, spectators the public view.

Seats are ``open`` (waiting for a person), ``human`` (held by whoever has the seat's token) or
``bot``. Only the host starts a table (a full table waits for the host too); bots fill the seats
still open then. A table the organiser made (:mod:`rummykit.web.organiser`, ``organised``) has no
host: every seat is a player's, seat 1 too (a person leaving it before the start frees it, as any
seat), and the organiser starts it, from the organiser's page, and removes people from its waiting
seats; nobody at the table can. A person who leaves during play hands the seat to a bot that holds it for them
(:mod:`rummykit.web.seats`). A person whose last connection closes
is *away*; after ``takeover_seconds`` a bot plays that seat until the person reconnects with the
token. A connected person who does not move within ``turn_seconds`` is away too (a bot plays for them
until they send ``back``). A person is *present* when connected and not away.

Between hands each person gets a break, as at the commercial sites: when a hand ends, every person's
turn clock rests until they close the hand's result (``ready``) or ``hand_break_seconds`` pass, so a
first turn of the new hand that comes while the result is still shown keeps its whole
``turn_seconds``. The break is per person and bounded: bots play on, and a person who never closes the
result delays the table by the break and one turn at most. The break's end is not stored: a table
loaded after a restart (or by another process) gives it again in full to each person who has not
moved since the hand ended. Nor is a turn's start: after a restart the person to move has a whole
turn again. That is deliberate: nobody could move while the server was down, and the time of the
last stored move does not tell how much of the turn passed before it went down (counting the outage
would hand a person's seat to a bot for the server's fault).

Liveness: bots play only while a person holding a seat is connected, so a table of bots alone does
nothing; a waiting or playing table with nobody present for ``idle_table_seconds`` *expires* and
leaves the lobby (a person replaced for not moving keeps the bots playing that long at most; an
organiser's waiting table does not expire while the organiser's page is open); a table that stores
``max_table_actions`` moves before its match ends expires too (a match need not end: people who only
draw and discard are present and moving);
finished tables leave the server's memory after ``finished_table_seconds``, keeping meanwhile, once
their end is stored, only what they still show (:meth:`Table.settle`, :mod:`rummykit.web.settled`).

Randomness: a table deals from its secret (:mod:`rummykit.web.dealing`) and its bots draw from a
:class:`~rummykit.web.dealing.SecretRandom` keyed by the secret and labelled with the state version,
so a table replayed after a restart continues exactly as it would have. A seeded table's bots draw
from ``Random(f"{seed}:{version}")``: reproducible offline, as a seeded table promises.

What needs no live table has a module of its own (its names are importable from here too): a
connection (:mod:`rummykit.web.clients`), seats, tokens and the lobby entry
(:mod:`rummykit.web.lobby`), answers that depend on a client's message alone
(:mod:`rummykit.web.answers`) and the match a table deals (:mod:`rummykit.web.matches`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import itertools
import json
import logging
import math
import random
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any, Final, Literal, Protocol, TypeVar

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError

from rummykit.actions import Action, KnockDeclare, Pass, Swap
from rummykit.bots import Bot, GreedyBot, RandomBot, make_bot
from rummykit.errors import IllegalActionError, NotationError, RummyError
from rummykit.explain.language import number_de
from rummykit.match import Match
from rummykit.melding_table import jokers_freed
from rummykit.melds import Meld
from rummykit.record import Record
from rummykit.record_seats import RecordSeat, bot_seat
from rummykit.revisions import RULES_REVISION
from rummykit.rules import Rules
from rummykit.views import Phase
from rummykit.web import handlog, practice, protocol
from rummykit.web.answers import SIMPLE_TEXTS_KEPT, _judged, bad_message_text, opening_total, simple_texts
from rummykit.web.chat import ChatMessage, ChatRoom
from rummykit.web.clients import CLIENT_QUEUE, Client, _dumps
from rummykit.web.dealing import SecretRandom, derive_key, seeded_key
from rummykit.web.failures import log_failure
from rummykit.web.limits import RateLimiter, ServerSettings
from rummykit.web.lobby import (
    WEB_BOT_KINDS,
    LobbyError,
    Seat,
    default_bot_kind,
    hash_token,
    lobby_entry,
    read_stored_rules,
    shown_turn_seconds,
    stored_lobby_json,
    stored_rules,
    turn_seconds_of,
)
from rummykit.web.matches import new_table_match
from rummykit.web.moves import Allowed, allowed
from rummykit.web.protocol import (
    ActMessage,
    BackMessage,
    CreateTable,
    EvaluateMessage,
    HintMessage,
    HintsPolicy,
    MovesMessage,
    PingMessage,
    error_json,
    notice_json,
)
from rummykit.web.settled import Settled, figures
from rummykit.web.store import Guard, LobbyConflict, Store, StoredAction, StoredTable
from rummykit.web.texts import STATUS_DE, action_texts, engine_error_texts, server_error_texts
from rummykit.web.thinking import Decision, decide, fair_network, snapshot, table_key

_TABLES_MADE: Final = itertools.count()
"""Numbers the tables in the order this process makes or rebuilds them (:attr:`Table.made`)."""

__all__ = [  # what this module defines, and what it defined before it was split (imported from here)
    "CLIENT_QUEUE",
    "END_RETRY_SECONDS",
    "HIDDEN_WITHOUT_HINTS",
    "HINTS_OFF",
    "OPEN",
    "SIMPLE_TEXTS_KEPT",
    "SLOW_STORAGE_SECONDS",
    "TOKEN_BYTES",
    "WEB_BOT_KINDS",
    "BotKey",
    "Client",
    "LobbyError",
    "Seat",
    "Status",
    "Table",
    "TableHost",
    "bad_message_text",
    "default_bot_kind",
    "hash_token",
    "lobby_entry",
    "new_table_match",
    "no_table",
    "read_stored_rules",
    "refusal",
    "shown_turn_seconds",
    "simple_texts",
    "stored_lobby_json",
    "stored_rules",
    "turn_seconds_of",
]

log = logging.getLogger("rummykit.web")

TOKEN_BYTES: Final = 24
HINTS_OFF: Final = (
    "hints are given at practice tables only (you against bots): "
    "this table was not made with hints for everyone"
)

HIDDEN_WITHOUT_HINTS: Final = ("open", "meld")
"""The kinds of action a ``moves`` answer leaves out of a melding game for a seat without hints
(:meth:`Table.send_moves`)."""

Status = Literal["waiting", "playing", "over", "closed", "expired"]
OPEN: Final = ("waiting", "playing")
END_RETRY_SECONDS: Final = 5.0
"""How often the end of a match whose write failed is tried again (:meth:`Table.store_end`)."""
SLOW_STORAGE_SECONDS: Final = 3.0
"""A move not yet stored after this long has everybody at its table told that it waits for the
database (:meth:`Table._store`): without a word, a database that takes a statement and does not
answer looks like a mover who thinks forever. The move is still applied only once it is stored."""
STOOD_IN_KEPT: Final = 50
"""The most moves a bot made for an absent person that their next connection is told of (the last)."""


BotKey = tuple[Literal["seat", "takeover", "hint"], str, str | None]
"""A table's bot: its role (a bot's seat, a person away too long, hints), kind and level."""


def _freed(action: Action, table: Sequence[Meld], rules: Rules) -> int | None:
    """How many jokers a joker exchange frees on ``table`` (its words count them); else ``None``."""
    return jokers_freed(action, table, rules) if isinstance(action, Swap) else None


def refusal(
    http: int, error: str, message: str, retry_after: float | None = None, **values: str
) -> LobbyError:
    """A :class:`LobbyError` with its German text (:data:`~rummykit.web.texts.SERVER_ERRORS_DE`
    ``error``, filled from ``values``; a ``status`` value is said in German)."""
    if "status" in values:
        status = values.pop("status")
        values["status_de"] = STATUS_DE.get(status, status)
    texts = server_error_texts(error, message, **values)
    return LobbyError(http, message, retry_after, texts=texts, error=error)


def needs_status(status: Status) -> Callable[[StoredTable], None]:
    """A check for :meth:`TableManager.find <rummykit.web.manager.TableManager.find>`: the stored
    table is ``status`` (else 409 ``table_status``, as :meth:`Table.require` says it)."""

    def check(stored: StoredTable) -> None:
        if stored.status != status:
            message = f"table {stored.code} is {stored.status}"
            raise refusal(409, "table_status", message, code=stored.code, status=stored.status)

    return check


def needs_seat(token: str) -> Callable[[StoredTable], None]:
    """A check for :meth:`TableManager.find <rummykit.web.manager.TableManager.find>`: a seat of
    the stored table is held by ``token``, or kept for it by a bot (else 403 ``unknown_token``)."""
    digest = hash_token(token)

    def check(stored: StoredTable) -> None:
        for seat in stored.seats:
            for held in (seat.get("token_hash"), seat.get("held_for")):
                if isinstance(held, str) and hmac.compare_digest(held, digest):
                    return
        raise refusal(403, "unknown_token", "unknown seat token")

    return check


def joinable(stored: StoredTable) -> None:
    """A check for :meth:`TableManager.find <rummykit.web.manager.TableManager.find>` before a join:
    the stored table waits for players (else 409 ``table_watch``, as :meth:`Table.join` says)."""
    if stored.status != "waiting":
        raise _watch_instead(stored.code, stored.status)


def _watch_instead(code: str, status: str) -> LobbyError:
    message = f"table {code} is {status}; watch it instead"
    return refusal(409, "table_watch", message, code=code, status=status)


def needs_held_seat(token: str) -> Callable[[StoredTable], None]:
    """A check for :meth:`TableManager.find <rummykit.web.manager.TableManager.find>` before a
    retake: the stored table is being played (else 409 ``table_status``) and a bot holds a seat for
    ``token`` (else 403 ``no_held_seat``), as :func:`~rummykit.web.seats.retake` says."""
    digest = hash_token(token)
    playing = needs_status("playing")

    def check(stored: StoredTable) -> None:
        playing(stored)
        for seat in stored.seats:
            held = seat.get("held_for")
            if isinstance(held, str) and hmac.compare_digest(held, digest):
                return
        raise refusal(403, "no_held_seat", "no seat at this table is held for you")

    return check


def record_seats(
    seats: Sequence[Seat],
    stored: Sequence[tuple[str, int, str | None]] | None,
    actions: int,
    hints: Sequence[bool] = (),
) -> tuple[RecordSeat, ...] | None:
    """The game record's ``seats`` (:mod:`rummykit.record_seats`) of a table that has ended: a seat
    is a person's when a person sat down to play it (a bot holding it for a person who left keeps it
    a person's), else the bot's kind and level; never a name. From the ``stored`` records in order
    (action, seat, :data:`~rummykit.web.store.PLAYED_BY`; the moves in force after practice undos),
    a person's seat lists the moves a bot made for them (``stand_in``) and those they made right
    after a hint (``hinted``), both left out where a move of theirs was stored before the server
    kept who made it. ``None`` while a seat is open (a table closed before its start) or without
    the stored records.

    Which moves followed a hint is a person's own business where other people sat at the table: a
    record is handed to whoever has the table's code, and its public entry names the seats. So a
    seat that could ask for hints (``hints``, per seat) at a table of several people has its
    ``hinted`` left out (not known); a person alone with bots, or at a table without hints, has it.
    Which moves a bot made for a person is no secret: everybody at the table saw them away."""
    if any(s.kind == "open" for s in seats):
        return None
    people = [s.kind == "human" or s.held_for is not None for s in seats]
    moves = _moves_in_force(stored, actions)
    out: list[RecordSeat] = []
    for number, seat in enumerate(seats):
        if not people[number]:
            spec = seat.bot if seat.bot is None or seat.level is None else f"{seat.bot}:{seat.level}"
            out.append(bot_seat(spec))
            continue
        mine = [(n, by) for n, (mover, by) in enumerate(moves or (), start=1) if mover == number]
        if moves is None or any(by is None for _, by in mine):
            out.append(RecordSeat("person"))
            continue
        stand_in = [n for n, by in mine if by not in ("person", "hinted")]
        withheld = number < len(hints) and hints[number] and sum(people) > 1
        hinted = None if withheld else [n for n, by in mine if by == "hinted"]
        out.append(RecordSeat.person(stand_in, hinted))
    return tuple(out)


def _moves_in_force(
    stored: Sequence[tuple[str, int, str | None]] | None, actions: int
) -> list[tuple[int, str | None]] | None:
    """The seat and author of every move in force (practice undos applied), ``None`` where they are
    not the match's ``actions`` moves (not stored, or a table that does not load)."""
    if stored is None:
        return None
    try:
        kept = practice.in_force([action for action, _, _ in stored])
    except ValueError:
        return None
    if len(kept) != actions:
        return None
    return [(stored[i][1], stored[i][2]) for i in kept]


def record_not_yet(stored: StoredTable) -> None:
    """A check for :meth:`TableManager.find <rummykit.web.manager.TableManager.find>` before a
    record: a stored open table's record is refused (:meth:`Table.record`) without replaying it."""
    raise refusal(409, "match_not_over", _not_over(stored.code), code=stored.code)


def _not_over(code: str) -> str:
    return (
        f"table {code} is not over yet: its record holds every hidden card, so it is handed out once "
        "the match is over"
    )


def no_table(code: str) -> LobbyError:
    """The refusal for a table code that names no table (404), quoting at most 16 characters of it."""
    shown_code = repr(code[:16])
    return refusal(404, "no_table", f"no table {shown_code}", code=shown_code)


T = TypeVar("T")


class TableHost(Protocol):
    """What a table uses of the server that holds it (:class:`rummykit.web.manager.TableManager`)."""

    settings: ServerSettings
    store: Store
    evaluations: RateLimiter

    @property
    def bot_delay(self) -> float: ...

    async def db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def side_db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def append(self, record: StoredAction) -> None: ...

    async def think(self, key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision: ...

    def unload(self, table: Table) -> None: ...

    def organiser_watching(self, now: float) -> bool: ...

    def digest(self, address: str) -> str: ...

    async def create(self, spec: CreateTable, address: str | None = None) -> tuple[Table, int, str]: ...

    async def create_organised(self, spec: CreateTable) -> Table: ...

    async def check_seats(self, digest: str, network: str, joining: Table) -> None: ...
    def seats_guard(self, digest: str, network: str, joining: Table) -> Guard | None: ...


class Table:
    """One table: lobby, match, connections. Create through :class:`~rummykit.web.manager.TableManager`."""

    def __init__(
        self,
        manager: TableHost,
        code: str,
        rules: Rules,
        seed: int | None,
        secret: bytes | None,
        dealer: int,
        seats: list[Seat],
        status: Status,
        takeover_seconds: float,
        match: Match,
        address: str | None = None,
        hints: HintsPolicy = "practice",
    ) -> None:
        if (seed is None) == (secret is None):
            raise ValueError("a table deals either from a seed (seeded) or from a secret")
        self.manager = manager
        self.code = code
        self.rules = rules
        self.rules_text = str(rules)
        """The rules in their text form (rules never change at a table)."""
        self.rules_revision = RULES_REVISION
        """The rules revision of the stored rules text (:mod:`rummykit.revisions`): this version's for
        a new table; a table rebuilt from the database keeps the one it was stored with."""
        self.stored_rules_text = self.rules_text
        """The rules text as stored, written under ``rules_revision`` (a table rebuilt from an older
        revision keeps its text: ``rules_text`` is the current form of what it meant)."""
        self.seed = seed
        self.secret = secret
        """The secret every deal and bot decision is drawn from (in memory only)."""
        self.stored_secret = secret
        """What the database holds of it: the secret itself, or what it is sealed from (``sealed``)."""
        self.sealed = False
        """Whether ``secret`` is the seal of ``stored_secret`` (:func:`rummykit.web.dealing.seal`)."""
        self.address = address
        """Digest of the client address that created the table (the per-address cap; stored)."""
        self.fair: str | None = None
        """Digest of the creator's network that bot time is shared among
        (:func:`~rummykit.web.thinking.fair_network`; stored, so it holds after a restart)."""
        self.listed = True
        """Whether the lobby lists the table (:attr:`~rummykit.web.protocol.CreateTable.listed`)."""
        self.organised = False
        """Whether the organiser made the table (:mod:`rummykit.web.organiser`; stored): it has no host,
        the organiser starts it and removes people from it."""
        self.label = ""
        """The organiser's name for the table ("Group A"; :attr:`~rummykit.web.protocol.CreateTable.label`;
        stored), empty for none."""
        self.made = next(_TABLES_MADE)
        """The order this process made or rebuilt the table in (the database's open tables are
        rebuilt in the order they were created): the organiser's list keeps a batch together."""
        self.owned = True
        """Whether this process plays the table; a copy made for one lobby request to a table
        another process owns is not (no bots, no clocks: the owner hears of the change)."""
        self.archived = False
        """Whether this is an ended table looked up from the database after it left the server's
        memory (:meth:`~rummykit.web.manager.TableManager.find`): shown as it ended, no rematch. A
        finished match that ended within ``finished_table_seconds`` before a restart is held again instead."""
        self.rematch: asyncio.Task[tuple[Table, int, str]] | None = None
        """The opening of this finished table's one rematch (:mod:`rummykit.web.rematch`)."""
        self.rematch_code: str | None = None
        """The code of that rematch once it is opened, as stored (``rk_tables.rematch``): what a
        restarted server knows of a rematch opened before the restart."""
        self.stored_end: datetime | None = None
        """The row's last change as read when the table was rebuilt (UTC, no zone): for an ended
        table, its end, from which ``finished_table_seconds`` counts (a restart or a lookup)."""
        self.rematch_grants: dict[int, str] = {}
        """The seats given a seat at the rematch, and their tokens there: told again to the seat's
        connections made later (:func:`~rummykit.web.rematch.offer`)."""
        self.dealer = dealer
        self.seats = seats
        self.status: Status = status
        self.takeover_seconds = takeover_seconds
        self.hints = hints
        """Who may ask for hints (:data:`rummykit.web.protocol.HintsPolicy`; rules of the table, fixed)."""
        self._settled: Settled | None = None
        """What an ended table keeps of its match once its end is stored (:meth:`settle`)."""
        self._match: Match | None = match
        """The match (:attr:`match`), ``None`` while the table is settled."""
        self._hand_log: str | None = None
        """A settled table's last hand's log, once asked for (:meth:`_hand_log_text`)."""
        self.records = len(match.actions)
        """Records stored for this table: moves and undos (:mod:`rummykit.web.practice`)."""
        self.clients: set[Client] = set()
        self.chat = ChatRoom()
        self._chat_from: dict[int, int] = {}
        """Per seat a person joined, the chat lines said before (:attr:`ChatRoom.said`), which the
        backlog sent on connecting leaves out: a person who takes a seat from the lobby does not
        read what the others said before they came."""
        self._record_json: tuple[int, bytes] | None = None
        """The record's JSON once made, with the version it was made at (:meth:`record_json`)."""
        self.lock = asyncio.Lock()
        self._away: dict[int, float] = {}
        self._bots: dict[BotKey, Bot] = {}
        self._allowed: tuple[int, Allowed] | None = None
        self._moves: tuple[int, list[str], list[dict[str, str]]] | None = None
        self._hint: tuple[int, str, dict[str, str], str] | None = None
        self._hint_thinking: tuple[int, asyncio.Task[Decision]] | None = None
        """The hint decision being made, and the version it is for."""
        """(version, the hinted move, its words, the bot that found it)."""
        self._hint_shown: int | None = None
        """The version a hint was last sent at: the move made at that version followed it."""
        self._log: protocol.LogCache = {}
        """Log entries already worded (:func:`rummykit.web.protocol.log_json`)."""
        self._log_written: dict[int, tuple[dict[str, Any], str]] = {}
        """Log entries already written as JSON, by the identity of the entry (kept with it)."""
        self._lobby_seen: tuple[str, str] | None = None
        """Status and seats text as last read from or written to the database."""
        self._last_round: tuple[int, dict[int | None, str]] = (-1, {})
        """The last finished hand's number and its text per seat (``None``: as spectators see it)."""
        self._touched = 0.0
        self._driver: asyncio.Task[None] | None = None
        now = asyncio.get_running_loop().time()
        self.loaded_at = now
        """When this process made or loaded the table (loop time)."""
        self._idle_since: float | None = now
        self._turn: tuple[int, float] | None = None
        """(version, start) of the person's current turn, for the turn timer (it runs while they are
        disconnected too)."""
        self._returning: set[int] = set()
        """Seats whose person came back in a turn whose time had run out: back after the bot's move."""
        self._stood_in: dict[int, list[int]] = {}
        """Per seat, the log indices of the moves a bot made for its person while no connection held
        the seat: told to the person's next connection (its ``welcome``), then forgotten."""
        self._rest: dict[int, float] = {}
        """Seats in the break after a hand, with when it ends (loop time): their turn clock rests."""
        self._ended_at: float | None = None if status in OPEN else now
        self.end_unsaved = False
        """The match is over but the table's row does not say so yet (the write failed, or the table
        was loaded so): :meth:`tick` writes it until it is stored."""
        self._end_tried = -math.inf

    # Derived state ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def version(self) -> int:
        """The state version: the number of records stored (moves, and undos at practice tables)."""
        return self.records

    @property
    def match(self) -> Match:
        """The table's match. A settled table (:meth:`settle`) answers what it is asked without its
        match; anything else that reads it has it replayed here, on the event loop, and held again
        until the clock settles the table once more."""
        if self._match is None:
            log.debug("table %s: its settled match is replayed", self.code)
            self._match = self._replayed()
        return self._match

    @match.setter
    def match(self, match: Match) -> None:
        self._match = match
        self._settled = None

    def fresh_match(self) -> Match:
        """This table's match before its first move."""
        return new_table_match(self.rules, self.players, self.seed, self.secret, self.dealer)

    def _replayed(self) -> Match:
        """A settled table's match, replayed from its moves (no table state is touched: a thread may
        call this)."""
        assert self._settled is not None
        return practice.replay(self.fresh_match, self._settled.moves_in_force())

    def _readable_match(self) -> Match:
        """The match to read off the event loop (a record, a hand's log): a settled table's is
        replayed for that reader and not kept."""
        match = self._match
        return match if match is not None else self._replayed()

    def settle(self) -> bool:
        """Keep of an ended table whose end is stored only what it still shows (:class:`Settled`,
        written as the states its connections were sent), and drop its match and caches; whether
        that was done now. Not while a request holds the table (it may be reading the match): the
        clock tries again a second later."""
        if self.status in OPEN or self.end_unsaved or self.lock.locked():
            return False
        match = self._match
        if match is None:
            return False
        seats = list(range(self.players))
        views = [_dumps(protocol.view_json(match.round.view(seat), own=True)) for seat in seats]
        views.append(_dumps(protocol.view_json(match.round.view(0), own=False)))
        last_rounds = [self._last_round_text(seat) for seat in [*seats, None]]
        last_rounds = [view if text == view else text for text, view in zip(last_rounds, views, strict=True)]
        self._settled = Settled(
            moves="\n".join(str(action) for action in match.actions),
            match=_dumps(protocol.match_json(match)),
            log=self._log_text(),
            views=tuple(views),
            last_rounds=tuple(last_rounds),
            is_over=match.is_over,
            to_move=None if match.is_over else match.to_move,
            hand_sizes=tuple(len(match.round.hands[seat]) for seat in seats),
            figures=figures(match, playing=False),
        )
        self._match = None
        self._log, self._log_written, self._last_round = {}, {}, (-1, {})
        self._allowed = self._moves = self._hint = self._hint_thinking = None
        self._bots.clear()
        if self._driver is not None and self._driver.done():
            self._driver = None
        return True

    def match_figures(self) -> dict[str, Any]:
        """The match's figures in the organiser's list (:func:`rummykit.web.settled.figures`)."""
        if self._settled is not None:
            return dict(self._settled.figures)
        return figures(self.match, self.status == "playing")

    def _over(self) -> bool:
        """Whether the match is over."""
        return self._settled.is_over if self._settled is not None else self.match.is_over

    def _seat_to_move(self) -> int | None:
        """The seat to move, ``None`` once the match is over."""
        if self._settled is not None:
            return self._settled.to_move
        return None if self.match.is_over else self.match.to_move

    def record(
        self, stored: Sequence[tuple[str, int, str | None]] | None = None, match: Match | None = None
    ) -> Record:
        """The game record of the table's match (``GET /api/tables/{code}/record``): its rules, every
        deal, every reshuffle and every move, for ``rummykit replay`` (:meth:`Record.from_match`). It
        holds every hidden card, so it is handed out only once the table has ended (the match over,
        or the table closed or expired): nobody plays that match any more. It names no player; with
        the ``stored`` records of the table (:meth:`Store.played_by
        <rummykit.web.store.Store.played_by>`) it says which seats were people's and which of their
        moves a stand-in bot made or followed a hint (:func:`record_seats`). ``match``: the table's
        match as read for it (:meth:`_readable_match`), else :attr:`match`.

        Raises:
            LobbyError: 409 ``match_not_over`` while the table waits or plays.
        """
        if self.status in ("waiting", "playing"):
            raise refusal(409, "match_not_over", _not_over(self.code), code=self.code)
        record = Record.from_match(self.match if match is None else match)
        hints = [self.hints_for(seat) for seat in range(len(self.seats))]
        seats = record_seats(self.seats, stored, len(record.actions), hints)
        return record if seats is None else dataclasses.replace(record, seats=seats)

    async def record_json(self) -> bytes:
        """:meth:`record` as the JSON the server hands out, made once (an ended match does not
        change), off the event loop, and under the table's lock: a status set while its end is being
        stored (a failed write takes it back, and the match goes on) is not taken for an end.

        Raises:
            LobbyError: 409 ``match_not_over`` while the table waits or plays.
        """
        async with self.lock:
            if self.status in OPEN:
                self.record()  # its refusal
            if self._record_json is None or self._record_json[0] != self.version:
                stored = await self.manager.side_db(self.manager.store.played_by, self.code)

                def made() -> bytes:
                    return json.dumps(self.record(stored, self._readable_match()).to_dict()).encode("utf-8")

                text = await asyncio.to_thread(made)
                self._record_json = (self.version, text)
            return self._record_json[1]

    def require(self, status: Status) -> None:
        """Refuse a lobby request unless the table is ``status`` (409 ``table_status``, naming it)."""
        if self.status != status:
            message = f"table {self.code} is {self.status}"
            raise refusal(409, "table_status", message, code=self.code, status=self.status)

    def seat_for_token(self, token: str) -> int | None:
        return self.seat_for_digest(hash_token(token))

    def seat_for_digest(self, digest: str) -> int | None:
        """The seat a token of this digest holds, if any."""
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    @property
    def seeded(self) -> bool:
        """Whether the deal follows from a public seed (everybody could know every hand)."""
        return self.seed is not None

    def connected(self, seat: int) -> bool:
        """A connection holds the seat (one dropped as too slow no longer counts: it is closing)."""
        return any(c.seat == seat and not c.dropped for c in self.clients)

    def present(self, seat: int) -> bool:
        """A person holds the seat, is connected and is not replaced by a bot."""
        return self.seats[seat].kind == "human" and self.connected(seat) and seat not in self._away

    def anyone_present(self) -> bool:
        return any(self.present(i) for i in range(self.players))

    def anyone_connected(self) -> bool:
        """Some person holding a seat is connected (bots play only then)."""
        return any(
            c.seat is not None and not c.dropped and self.seats[c.seat].kind == "human" for c in self.clients
        )

    def bot_rng(self, purpose: str) -> random.Random:
        """The generator of one bot decision or hint at the current version."""
        if self.secret is not None:
            return SecretRandom(derive_key(self.secret, purpose), f"{purpose}:{self.version}")
        assert self.seed is not None
        if purpose == "bots":
            return random.Random(f"{self.seed}:{self.version}")
        return SecretRandom(seeded_key(self.seed), f"{purpose}:{self.version}")

    def lobby_json(self) -> dict[str, Any]:
        return lobby_entry(
            self.code,
            self.status,
            self.rules,
            self.rules_text,
            self.takeover_seconds,
            shown_turn_seconds(self.seats, self.manager.settings),
            self.seeded,
            [
                {**s.public(), "seat": i, "connected": self.connected(i), "away": i in self._away}
                for i, s in enumerate(self.seats)
            ],
            sum(1 for c in self.clients if c.seat is None),
            self.hints,
            self.listed,
            self.organised,
            self.label,
        )

    def _shared_texts(self) -> tuple[str, str, str]:
        """The parts of a state message that every connection gets: table, match, log (JSON)."""
        if self._settled is not None:
            return _dumps(self.lobby_json()), self._settled.match, self._settled.log
        return _dumps(self.lobby_json()), _dumps(protocol.match_json(self.match)), self._log_text()

    def _log_text(self) -> str:
        """The log as JSON text, each entry written once (an entry stays the same object while it is
        shown: :func:`rummykit.web.protocol.log_json`'s cache)."""
        entries = protocol.log_json(self.match, cache=self._log)
        written = self._log_written
        parts = []
        for entry in entries:
            known = written.get(id(entry))
            if known is None or known[0] is not entry:
                known = written[id(entry)] = (entry, _dumps(entry))
            parts.append(known[1])
        if len(written) > 2 * len(entries) + protocol.LOG_LENGTH:  # forget entries no longer shown
            shown = {id(e) for e in entries}
            for key in [k for k in written if k not in shown]:
                del written[key]
        return "[" + ",".join(parts) + "]"

    def _last_round_text(self, seat: int | None) -> str:
        """The last finished hand as ``seat`` sees it (everything of it is shown: hands revealed,
        showdown arrangements); a finished hand never changes, so its text is kept for every seat
        until the next hand ends (one text for all seats was rebuilt for each seat in turn on every
        broadcast to a table of several people)."""
        rounds = self.match.rounds
        number = len(rounds) - 1 if rounds and rounds[-1].result is not None else len(rounds) - 2
        if number < 0:
            return "null"
        last = rounds[number]
        own = seat is not None and seat < last.seats
        key = seat if own else None
        if self._last_round[0] != number:
            self._last_round = (number, {})
        texts = self._last_round[1]
        if key not in texts:
            view = protocol.view_json(last.view(seat if own and seat is not None else 0), own=own)
            texts[key] = _dumps(view)
        return texts[key]

    def state_text(self, seat: int | None, shared: tuple[str, str, str] | None = None) -> str:
        """The state message for ``seat`` (``None``: a spectator) as JSON text."""
        options = Allowed()
        settled = self._settled
        if settled is not None:  # an ended table: as it ended (no moves, no clock)
            shown = self.players if seat is None else seat
            view, last_round = settled.views[shown], settled.last_rounds[shown]
        else:
            m = self.match
            seen: dict[str, Any] | None = None
            if self.status != "waiting":
                if seat is not None:
                    seen = protocol.view_json(m.round.view(seat), own=True)
                    if self.status == "playing" and not m.is_over and m.to_move == seat:
                        options = self.allowed()
                else:
                    seen = protocol.view_json(m.round.view(0), own=False)
            view, last_round = _dumps(seen), self._last_round_text(seat)
        table, match, log_entries = shared or self._shared_texts()
        return (
            f'{{"type":"state","version":{self.version},"you":{_dumps(seat)},"table":{table},'
            f'"view":{view},"legal":{_dumps(options.legal)},"compose":{_dumps(options.compose)},'
            f'"legal_texts":{_dumps(options.texts)},'
            f'"match":{match},"log":{log_entries},"last_round":{last_round},'
            f'"rest":{_dumps(self._rest_seen_by(seat))},"turn_left":{_dumps(self._turn_left())}}}'
        )

    def _rest_seen_by(self, seat: int | None) -> list[int]:
        """The seats on a break that ``seat`` is told of: its own (its page closes the result) and
        the person to move (whose clock the pages show resting). When the others close their
        result is theirs alone."""
        to_move = self._seat_to_move()
        return sorted(s for s in self._rest if s in (seat, to_move))

    def _answer(self, client: Client) -> None:
        """The state, to one client whose message changed nothing (``back`` when not away, ``ready``
        when not resting, from a player or a watcher): every message a client sends gets an answer.
        Asked again at the same version, the answer is the error ``unchanged`` instead: a state costs
        the server a quarter of a millisecond or more to write, and a hundred connections of one
        network sending ``back`` at the message rate would otherwise keep a core busy writing states
        nobody needs (any change is sent to every connection anyway)."""
        if self.answer_once(client, "state"):
            client.send(self.state_text(client.seat, self._shared_texts()))

    def answer_once(self, client: Client, kind: str) -> bool:
        """Whether ``client`` is to be sent the answer ``kind`` (``state``, ``hand_log``, ``moves``):
        once per table version; asked again, it is sent the small error ``unchanged`` instead. A hand's
        log can be hundreds of kilobytes, and a connection asking for it at the message rate would
        otherwise turn twenty bytes into that much, every time."""
        if client.answered.get(kind) == self.version:
            text = "nothing changed since the answer you were sent"
            client.send(error_json("unchanged", text, self.version))
            return False
        client.answered[kind] = self.version
        return True

    def _breaks_ended(self, seats: Collection[int]) -> None:
        """Tell whom it concerns that the break of ``seats`` ended: everyone when the person to move
        is among them (their clock runs now), else only those seats' own pages."""
        to_move = self._seat_to_move()
        if to_move is not None and to_move in seats:
            self.broadcast()
            return
        shared = None
        for client in list(self.clients):
            if client.seat in seats:
                shared = shared or self._shared_texts()
                client.send(self.state_text(client.seat, shared))

    def _turn_left(self) -> float | None:
        """Seconds left of the turn clock of the person to move (whole tenths), ``None`` where none
        runs: so a page opened in the middle of a turn counts down what is really left."""
        if self.status != "playing" or self.match.is_over:
            return None
        seat = self.match.to_move
        limit = self._turn_limit(seat)
        if self.seats[seat].kind != "human" or seat in self._rest or limit is None:
            return None
        used = self._turn_used(asyncio.get_running_loop().time())
        return limit if used is None else round(max(0.0, limit - used), 1)

    def _turn_limit(self, seat: int) -> float | None:
        """The turn clock of ``seat``'s person (:func:`turn_seconds_of`); ``None`` where none runs."""
        return turn_seconds_of(self.seats, seat, self.manager.settings) or None

    def _turn_used(self, now: float) -> float | None:
        """Seconds the person to move has had of this turn (loop time ``now``); ``None`` before its
        clock started."""
        if self._turn is None or self._turn[0] != self.version:
            return None
        return now - self._turn[1]

    def allowed(self) -> Allowed:
        """The cheap options of the player to move (:mod:`rummykit.web.moves`), once per version."""
        if self._allowed is None or self._allowed[0] != self.version:
            self._allowed = (self.version, allowed(self.match, self._move_texts))
        return self._allowed[1]

    def _move_texts(self, action: Action) -> dict[str, str]:
        """A simple move's words; a gin pass or knock says what it means in this phase (a pass at the
        wall ends the hand unscored), the rest are worded once per notation."""
        if isinstance(action, (Pass, KnockDeclare)):
            return action_texts(action, phase=self._phase())
        return simple_texts(action)

    def _phase(self) -> Phase | None:
        return None if self.match.is_over else self.match.round.phase

    def moves(self) -> tuple[list[str], list[dict[str, str]]]:
        """Every legal action of the player to move and its texts in every language (in the phase's
        words), enumerated on demand once per version."""
        if self._moves is None or self._moves[0] != self.version:
            actions, phase = self.match.legal_actions(), self._phase()
            table = [tm.meld for tm in self.match.round.melds] if not self.match.is_over else []
            texts = [
                action_texts(a, phase=phase, rules=self.rules, freed=_freed(a, table, self.rules))
                for a in actions
            ]
            self._moves = (self.version, [str(a) for a in actions], texts)
        return self._moves[1], self._moves[2]

    def broadcast(self) -> None:
        texts: dict[int | None, str] = {}
        shared = self._shared_texts() if self.clients else None
        for client in list(self.clients):
            if client.seat not in texts:
                texts[client.seat] = self.state_text(client.seat, shared)
            client.send(texts[client.seat])

    def _stored(self) -> StoredTable:
        return StoredTable(
            code=self.code,
            rules=self.stored_rules_text,
            players=self.players,
            seed=self.seed,
            secret=self.stored_secret,
            dealer=self.dealer,
            status=self.status,
            seats=[asdict(s) for s in self.seats],
            takeover_seconds=self.takeover_seconds,
            actions=[str(a) for a in self.match.actions],
            creator=self.address,
            hints=self.hints,
            fair=self.fair,
            sealed=self.sealed,
            rules_revision=self.rules_revision,
            listed=self.listed,
            organised=self.organised,
            label=self.label,
            rematch=self.rematch_code,
        )

    async def _save_lobby(self, guard: Guard | None = None) -> None:
        """Store status and seats; with a shared database, only if nobody changed them meanwhile
        (else the lobby is reloaded and the request refused with 409). A ``guard`` that refuses
        (:meth:`TableManager.seats_guard`) leaves seats and status as last stored."""
        store = self.manager.store
        seats = [asdict(s) for s in self.seats]
        expect = self._lobby_seen if store.shared else None
        try:
            written = await self.manager.db(store.update_lobby, self.code, self.status, seats, expect, guard)
        except LobbyConflict:
            await self._reload_lobby()
            message = f"table {self.code} changed meanwhile; try again"
            raise refusal(409, "lobby_changed", message, code=self.code) from None
        except Exception:
            self._undo_lobby()
            raise
        self._lobby_seen = (self.status, written)

    def _undo_lobby(self) -> None:
        """A lobby change that could not be stored is not made: seats and status go back to what was
        last stored (no seat held for a token nobody was given, no table played that did not start)."""
        if self._lobby_seen is None:
            return
        status, seats = self._lobby_seen
        self.status = status  # type: ignore[assignment]
        self.seats = [Seat(**s) for s in json.loads(seats)]

    # Other server processes (a shared database) ---------------------------------------------------
    async def _reload_lobby(self) -> None:
        """Read status and seats from the database (the caller holds the lock), on the lookups'
        thread: a stranger's join through another process has every process holding the table
        read it."""
        found = await self.manager.side_db(self.manager.store.lobby, self.code)
        if found is None or found == self._lobby_seen:
            return
        self._lobby_seen = found
        status, seats = found
        before = self.seats
        self.seats = [Seat(**s) for s in json.loads(seats)]
        for i, (old, new) in enumerate(zip(before, self.seats, strict=False)):
            if old.token_hash is not None and new.token_hash != old.token_hash:
                self._unbind(i)  # left (or left and taken by someone else) through another process
            if new.token_hash is not None and new.token_hash != old.token_hash:
                if old.held_for != new.token_hash:  # joined (not retaken) through another process:
                    self._chat_from[i] = self.chat.said  # the chat before stays unread
                self.rebind(i)  # retaken through another process
        self.status = "over" if status == "playing" and self._over() else status  # type: ignore[assignment]
        if self.status == "playing":  # started or a seat retaken elsewhere: people not here are away
            for i, s in enumerate(self.seats):
                if s.kind == "human" and not self.connected(i) and i not in self._away:
                    self._mark_away(i)
        self.broadcast()
        if self.status not in OPEN and self.status != "over":
            for client in list(self.clients):
                client.close()

    async def _catch_up(self) -> bool:
        """Apply the actions other processes stored since our version (the caller holds the lock);
        whether there were any."""
        stored = await self.manager.db(self.manager.store.actions, self.code, self.version)
        self.match, closed = practice.apply_records(self.match, stored, self.fresh_match)
        self.records += len(stored)
        if stored:
            if self.match.is_over and self.status == "playing":
                self.status = "over"
            if closed is not None:  # a hand ended in the moves another process made
                self.start_break(closed)
            self.broadcast()
        return bool(stored)

    async def refresh(self) -> None:
        """Take in a lobby change (seats, status) another process announced."""
        async with self.lock:
            await self._reload_lobby()
        self.kick()

    async def holds_seat(self, digest: str) -> bool:
        """Whether a token of ``digest`` holds a seat here. With a shared database a seat taken through
        another process a moment ago counts too: its lobby notice may not have come yet (a person
        joins through one process and their page connects to the one that plays the table), so an
        unknown token that could hold such a seat (:meth:`_may_be_given`) has the table's lobby row
        read on the lookups' thread (one row by its key, as a lookup of the code costs) before it is
        refused; only a token that row holds has the lobby taken in, read again under the table's
        lock as a notice would have it (a row read before a newer notice was taken in must not undo
        it)."""
        if self.seat_for_digest(digest) is not None:
            return True
        if not self.manager.store.shared or not self._may_be_given(digest):
            return False
        found = await self.manager.side_db(self.manager.store.lobby, self.code)
        if found is None or not any(
            s.get("token_hash") is not None and hmac.compare_digest(s["token_hash"], digest)
            for s in json.loads(found[1])
        ):
            return False
        async with self.lock:
            if self.seat_for_digest(digest) is None:
                await self._reload_lobby()
        self.kick()
        return self.seat_for_digest(digest) is not None

    def _may_be_given(self, digest: str) -> bool:
        """Whether another process may have given a token of ``digest`` a seat here that this one does
        not know of yet: only while the table waits (a join; the organiser's or host's removal frees
        a seat for the next) or to the person a bot holds a seat for (a retake keeps its token). A
        started or ended table gives no new token a seat, so a made-up token at a table being played
        or watched at its end is refused without a trip to the database: a stranger's connections
        to the lobby's tables cost the lookups' thread nothing for it."""
        if self.status == "waiting":
            return True
        return any(
            s.kind == "bot" and s.held_for is not None and hmac.compare_digest(s.held_for, digest)
            for s in self.seats
        )

    def seat_taken_elsewhere(self, seat: int) -> None:
        """A person took ``seat`` on another process: it is no longer away here."""
        if seat in self._away and not self.connected(seat):
            self._away.pop(seat, None)

    # Connections --------------------------------------------------------------------------------
    async def connect(self, client: Client) -> None:
        async with self.lock:
            if client.token_digest is not None:  # the seat its token holds now (a leave may have come first)
                client.seat = self.seat_for_digest(client.token_digest)
            self.clients.add(client)
            if client.seat is not None and client.seat in self._away:
                self._come_back(client.seat)
            welcome: dict[str, Any] = {"type": "welcome", "seat": client.seat, "code": self.code}
            stood_in = self._stood_in.pop(client.seat, None) if client.seat is not None else None
            if stood_in:  # the moves a bot made for them meanwhile: the page says so once
                welcome["stood_in"] = stood_in
            client.send(welcome)
            if client.seat is not None:  # a watcher reads the lines said while it watches, no earlier
                for line in self.chat.history:
                    if line["n"] > self._chat_from.get(client.seat, 0):  # nor one who joined since
                        client.send(line)
            watchers = sum(1 for c in self.clients if c.seat is None)
            if client.seat is None and watchers > 1:  # another watcher: only the count changed for the
                client.send(self.state_text(None))  # others, which they see with the next move
            else:  # a player, or the first watcher: the players learn at once that they are watched
                self.broadcast()
        if client.seat is not None and self.manager.store.shared:
            await self.manager.db(self.manager.store.announce_presence, self.code, client.seat)
        self.kick()  # a person is connected: bots that waited may play

    async def disconnect(self, client: Client) -> None:
        async with self.lock:
            self.clients.discard(client)
            seat = client.seat
            if seat is not None and self.seats[seat].kind == "human" and not self.connected(seat):
                self._mark_away(seat)
            if seat is not None:  # a watcher leaving changes nothing a player needs at once
                self.broadcast()
        self.kick()

    def _mark_away(self, seat: int) -> None:
        loop = asyncio.get_running_loop()
        self._away[seat] = loop.time()
        if self.status == "playing":
            loop.call_later(self.takeover_seconds + 0.01, self.kick)

    # Messages -----------------------------------------------------------------------------------
    async def handle(self, client: Client, raw: str) -> None:
        """Validate and answer one client message; errors go to that client only."""
        if len(raw) > protocol.MAX_MESSAGE_BYTES or len(raw.encode("utf-8")) > protocol.MAX_MESSAGE_BYTES:
            client.send(
                error_json(
                    "too_large", f"messages are limited to {protocol.MAX_MESSAGE_BYTES} bytes", self.version
                )
            )
            return
        try:
            message = protocol.CLIENT_MESSAGE.validate_json(raw)
        except ValidationError as exc:
            client.send(error_json("bad_message", bad_message_text(exc), self.version))
            return
        if isinstance(message, ActMessage):
            await self.act(client, message)
        elif isinstance(message, HintMessage):
            await self.hint(client)
        elif isinstance(message, MovesMessage):
            # Under the lock, as the moves are: between a move's version and its state going out (the
            # end of a match is stored in that gap), an answer at the new version reached a page that
            # still held the old one, which dropped it and was told 'unchanged' when it asked again.
            async with self.lock:
                self.send_moves(client)
        elif isinstance(message, EvaluateMessage):
            client.send(self.evaluate(client, message))
        elif isinstance(message, PingMessage):
            # With the turn clock as it stands: a page woken from sleep corrects its clock with it.
            client.send({"type": "pong", "version": self.version, "turn_left": self._turn_left()})
        elif isinstance(message, BackMessage):
            await self.back(client)
        elif isinstance(message, protocol.UndoMessage):
            await practice.undo(self, client)
        elif isinstance(message, protocol.ReadyMessage):
            await self.ready(client)
        elif isinstance(message, protocol.RematchMessage):
            await self.ask_rematch(client)
        elif isinstance(message, protocol.HandLogMessage):
            async with self.lock:  # as moves above
                if self.answer_once(client, "hand_log"):
                    client.send(await self._hand_log_text())
        elif isinstance(message, ChatMessage):
            name = self.seats[client.seat].name if client.seat is not None else ""
            line = self.chat.say(client.seat, name, message.text)
            if line["type"] == "chat":
                for other in list(self.clients):
                    other.send(line)
            else:
                client.send({**line, "version": self.version})

    async def _hand_log_text(self) -> str:
        """The current hand's log (:func:`~rummykit.web.handlog.hand_log_text`); a settled table's is
        made once, from its match replayed off the event loop (the caller holds the lock)."""
        if self._settled is None:
            return handlog.hand_log_text(self.match, self.version, protocol.seat_draw_json)
        if self._hand_log is None:
            version = self.version

            def made() -> str:
                return handlog.hand_log_text(self._readable_match(), version, protocol.seat_draw_json)

            self._hand_log = await asyncio.to_thread(made)
        return self._hand_log

    async def ask_rematch(self, client: Client) -> None:
        """The host asks for the rematch over the socket: every connected seat (the host's too) is
        sent its new seat (:mod:`rummykit.web.rematch`); a refusal goes to this client only."""
        from rummykit.web.rematch import rematch  # it makes tables: imported where it is used

        opened = self.rematch is not None and self.rematch.done()  # asked before: not sent again
        try:
            new, seat, token = await rematch(self, client.seat, client.address)
        except LobbyError as exc:
            client.send(error_json(exc.error, exc.message, self.version, texts=exc.texts))
            return
        except Exception:  # the database failed, say: the host may ask again
            log.exception("table %s: the rematch could not be opened", self.code)
            message = "the rematch could not be opened; try again"
            client.send(error_json("rematch_failed", message, self.version))
            return
        if opened:
            client.send({"type": "rematch", "code": new.code, "seat": seat, "token": token})

    async def back(self, client: Client) -> None:
        """The seat's person is back after being replaced for not moving: the bot stops (after this
        turn, if its time has run out: :meth:`_come_back`)."""
        async with self.lock:
            if client.seat is None or client.seat not in self._away:
                self._answer(client)  # not away: the state says so
                return
            self._come_back(client.seat)
            self.broadcast()

    def _come_back(self, seat: int) -> None:
        """The person of ``seat`` plays again. Not in a turn of theirs whose time has run out: the bot
        plays that turn and they are back after it. So coming back (or reconnecting) never starts a
        turn's clock again; it would let someone hold a table for ever."""
        used = self._turn_used(asyncio.get_running_loop().time())
        limit = self._turn_limit(seat)
        expired = (
            self.status == "playing"
            and not self.match.is_over
            and self.match.to_move == seat
            and used is not None
            and limit is not None
            and used >= limit
        )
        if expired:
            self._returning.add(seat)
            # The bot plays that turn now (as after a timeout), not a takeover time after leaving.
            self._away[seat] = asyncio.get_running_loop().time() - self.takeover_seconds
            self.kick()
        else:
            self._away.pop(seat, None)

    async def ready(self, client: Client) -> None:
        """The seat's person closed the hand's result: their break ends, their turn clock may run."""
        async with self.lock:
            if client.seat is None or self._rest.pop(client.seat, None) is None:
                self._answer(client)  # nothing to end: the state says so (no "rest" for the seat)
                return
            self._breaks_ended((client.seat,))

    async def act(self, client: Client, message: ActMessage) -> None:
        seat = client.seat
        if seat is None:
            client.send(error_json("spectator", "spectators cannot play", self.version))
            return
        async with self.lock:
            error = self._refuse(seat, message.version)
            if error is not None:
                client.send(error)
                return
            try:
                action = Action.parse(message.action)
                self.match.check(action)
            except NotationError as exc:
                client.send(error_json("notation", str(exc), self.version, texts=self._texts(exc)))
                return
            except IllegalActionError as exc:
                client.send(error_json("illegal", str(exc), self.version, exc.rule, self._texts(exc)))
                return
            except RummyError as exc:
                client.send(error_json("illegal", str(exc), self.version, texts=self._texts(exc)))
                return
            try:
                await self._commit(seat, action, "hinted" if self._hint_shown == self.version else "person")
            except IntegrityError:
                # Another server process stored a move at this version first.
                await self._catch_up()
                client.send(
                    error_json("stale", "the table moved on before your move was stored", self.version)
                )
                return
            except Exception:
                log_failure(log, "table %s: cannot store %s", self.code, action)
                client.send(
                    error_json("storage", "the move could not be stored; nothing changed", self.version)
                )
                return
            # A move of their own says they are back, as "back" does (a client need not know that
            # message): the bot that replaced them after their time ran out stops here.
            if self._away.pop(seat, None) is not None:
                self._returning.discard(seat)
                self.broadcast()
        self.kick()

    async def _store(self, record: StoredAction) -> None:
        """Store one record, telling the table if the database is slow to take it.

        A write is never abandoned on the server's side of the connection: one given up while it
        may still commit would leave a stored move that nobody saw applied. What bounds it is the
        database: PostgreSQL cancels a statement that waits on a lock or runs too long
        (:data:`~rummykit.web.store.POSTGRES_CONNECT`), and the move is then refused as unstored."""
        told: list[bool] = []
        timer = asyncio.get_running_loop().call_later(
            SLOW_STORAGE_SECONDS, self._storage_slow, record.idx, told
        )
        try:
            await self.manager.append(record)
        except Exception:
            if told:  # the table was told it waits: now that it is refused, nothing changed
                failed = "the move could not be stored; nothing changed"
                self._tell_all(notice_json("storage", failed, record.idx))
            raise
        finally:
            timer.cancel()

    def _storage_slow(self, version: int, told: list[bool]) -> None:
        log.warning("table %s: move %d is waiting for the database", self.code, version)
        slow = "the server's database is slow to answer; the move is waiting to be stored"
        told.append(True)
        self._tell_all(notice_json("storage_slow", slow, version))

    def _tell_all(self, message: dict[str, Any]) -> None:
        for client in list(self.clients):
            client.send(message)

    def _texts(self, exc: RummyError) -> dict[str, str]:
        """An engine error for people in every language, seats named as at this table."""
        return engine_error_texts(exc, [s.name for s in self.seats])

    def _refuse(self, seat: int, version: int) -> dict[str, Any] | None:
        if self.status != "playing":
            return error_json("not_playing", f"the table is {self.status}", self.version)
        if self.at_action_limit():  # its end is not stored yet (the clock tries again)
            return self.action_limit_error()
        if version != self.version:
            return error_json(
                "stale",
                f"your move was made against version {version}; the table is at {self.version}",
                self.version,
            )
        if self.match.to_move != seat:
            to_move = self.match.to_move  # counted from 1, as "the host (seat 1)" is
            return error_json("not_your_turn", f"it is seat {to_move + 1}'s turn", self.version)
        return None

    async def _commit(self, seat: int, action: Action, played_by: str) -> None:
        """Store a checked action with who made it (:data:`~rummykit.web.store.PLAYED_BY`), then
        apply and broadcast it (the caller holds the lock).

        The write joins the manager's next group commit; the move is applied and broadcast only
        once that transaction has committed."""
        await self._store(StoredAction(self.code, self.version, seat, str(action), played_by=played_by))
        self.records += 1
        before = len(self.match.history)
        ended = practice.ends_hand(self.match, action)
        self._note_stand_in(seat, played_by, before)
        self._rest.pop(seat, None)
        for returning in self._returning:  # the turn whose time ran out is over: they play again
            self._away.pop(returning, None)
        self._returning.clear()
        if ended:
            self.start_break(())
        if self.match.is_over:
            self.status = "over"
            try:
                await self._save_lobby()
            except Exception as exc:  # the move is stored: a table whose match is over loads as over
                self.status = "over"
                self.end_unsaved = True  # the clock writes it once the database takes writes again
                self._end_tried = asyncio.get_running_loop().time()
                why = type(exc).__name__
                log.warning("table %s: the move is stored, its end not yet (%s)", self.code, why)
        await self.show_record()

    def _note_stand_in(self, seat: int, played_by: str, before: int) -> None:
        """Keep the log indices of a move a bot made for a person while no connection held the seat
        (history entries ``before`` on; the last :data:`STOOD_IN_KEPT`); a move of the person's own
        forgets those kept."""
        if played_by != "stand_in":
            self._stood_in.pop(seat, None)
        elif not self.connected(seat):
            history = self.match.history
            made = [i for i in range(before, len(history)) if history[i].seat == seat]
            kept = self._stood_in.setdefault(seat, [])
            kept.extend(made)
            del kept[:-STOOD_IN_KEPT]  # the last ones only: a long absence holds no growing list

    async def show_record(self) -> None:
        """After a stored record (a move, a practice undo; the caller holds the lock): every client
        gets the new state, or, at the server's limit of records, the table ends and says why."""
        if self.at_action_limit() and await self.end_at_action_limit():
            return  # ended: every client has been sent the last state and why
        self.broadcast()

    def at_action_limit(self) -> bool:
        """Whether this open table has stored as many records as the server allows a table
        (``max_table_actions``; 0: no limit) while its match goes on: it is to end."""
        most = self.manager.settings.max_table_actions
        return most > 0 and self.records >= most and self.status in OPEN and not self.match.is_over

    def action_limit_error(self) -> dict[str, Any]:
        """The error that says this table ended at the server's limit of records (every client is
        sent it once; a move after it is answered with it)."""
        most = self.manager.settings.max_table_actions
        message = (
            f"this table reached the server's limit of {most:,} moves (undos included) "
            "before the match ended; start a new table"
        )
        texts = server_error_texts("move_limit", message, most=number_de(most))
        return error_json("move_limit", message, self.version, texts=texts)

    async def end_at_action_limit(self) -> bool:
        """End the table at the server's limit of records (:meth:`at_action_limit`; the caller holds
        the lock) as the server's other endings do: it is stored ``expired``, leaves the lobby list,
        and every client gets the last state, the reason in every language, and the connection's
        end. Whether the end was stored: when the write fails, the table stays open here, refuses
        moves (:meth:`_refuse`) and the clock tries again (:meth:`tick`)."""
        self.status = "expired"
        try:
            await self._save_lobby()
        except Exception as exc:  # the status went back to the stored one
            self._end_tried = asyncio.get_running_loop().time()
            why = type(exc).__name__
            log.warning("table %s: at the limit of moves, its end is not stored yet (%s)", self.code, why)
            return False
        most = self.manager.settings.max_table_actions
        log.info("table %s: ended at the server's limit of %d moves", self.code, most)
        self.broadcast()
        error = self.action_limit_error()
        for client in list(self.clients):
            client.send(error)
            client.close()
        if self._driver is not None and self._driver is not asyncio.current_task():
            self._driver.cancel()
        return True

    async def store_end(self, now: float) -> None:
        """Write the end of a match whose row still says it is played (:attr:`end_unsaved`), at most
        every :data:`END_RETRY_SECONDS`; a failure leaves it for the next try."""
        if not self.end_unsaved or now - self._end_tried < END_RETRY_SECONDS:
            return
        self._end_tried = now
        async with self.lock:
            if not self._over() or self.status != "over":
                self.end_unsaved = False
                return
            try:
                await self._save_lobby()
            except LobbyError:  # another process changed the row: the lobby is reloaded from it
                gone = await self.manager.db(self.manager.store.lobby, self.code) is None
                if gone or self.status != "over":  # no row, or closed or expired meanwhile
                    self.end_unsaved = False
                return
            except KeyError:  # the row is gone (pruned, deleted): there is no end to write
                self.status = "over"
                self.end_unsaved = False
                return
            except Exception as exc:
                self.status = "over"  # the failed write took the status back to the stored one
                log.debug("table %s: its end is not stored yet (%s)", self.code, type(exc).__name__)
                return
            self.end_unsaved = False
            log.info("table %s: its end is stored", self.code)

    def start_break(self, moved: Collection[int]) -> None:
        """A hand has ended: the turn clock of every person who has not ``moved`` since rests for
        the break (when the match goes on and breaks are on).

        Also called when a table is loaded after a restart, or by another process, with the seats
        that moved since the last hand ended: the break's end was not stored, so for the others it
        starts again in full, and a person still reading the result does not find their clock
        running (a restart costs the table one break at most)."""
        seconds = self.manager.settings.hand_break_seconds
        if seconds > 0 and self.status == "playing" and not self.match.is_over:
            ends = asyncio.get_running_loop().time() + seconds
            self._rest = {i: ends for i, s in enumerate(self.seats) if s.kind == "human" and i not in moved}

    def _to_move(self, client: Client) -> bool:
        seat = client.seat
        return (
            seat is not None
            and self.status == "playing"
            and not self.match.is_over
            and (self.match.to_move == seat)
        )

    def send_moves(self, client: Client) -> None:
        """Answer ``{"type": "moves"}``: the complete legal list, for the player to move only.

        Where the seat gets no hints (:meth:`hints_for`) a melding game's openings and melds are left
        out: every opening the hand allows, the best first, is the hint the table does not give (the
        page composes them from the hand, and the engine judges what is sent). Lay-offs and joker
        exchanges stay: they follow from the melds on the table, which everybody sees, and the page
        places a card on a meld with them. Gin's melds stay too: its end of hand is played from the
        list (:data:`HIDDEN_WITHOUT_HINTS`)."""
        if not self._to_move(client):
            client.send(error_json("no_moves", "moves are listed for the player to move", self.version))
            return
        if not self.answer_once(client, "moves"):
            return
        actions, texts = self.moves()
        if not self.hints_for(client.seat) and self.rules.family == "melding":
            kept = [i for i, a in enumerate(actions) if a.split(" ", 1)[0] not in HIDDEN_WITHOUT_HINTS]
            actions, texts = [actions[i] for i in kept], [texts[i] for i in kept]
        client.send({"type": "moves", "version": self.version, "actions": actions, "texts": texts})

    def hints_for(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask for hints: at every seat of a table made with hints for
        everyone, else only where every opponent is a bot (:data:`rummykit.web.protocol.HintsPolicy`)."""
        return seat is not None and (self.hints == "everyone" or practice.is_practice(self.seats, seat))

    async def hint(self, client: Client) -> None:
        """The move the hint bot would make for the client to move (thought out of the lock, on a
        copy of the match; a hint the table moved past is dropped, as the client asks again)."""
        async with self.lock:
            if not self._to_move(client):
                client.send(error_json("no_hint", "hints are given to the player to move", self.version))
                return
            if not self.hints_for(client.seat):
                client.send(error_json("hints_off", HINTS_OFF, self.version))
                return
            version, match = self.version, self.match
            thinking = None
            if self._hint is None or self._hint[0] != version:
                bot_key: BotKey = ("hint", default_bot_kind(), "medium")
                thinking = (bot_key, self._bot(bot_key))
        if thinking is not None:
            bot_key, bot = thinking
            try:
                action, thought = await self._hint_decision(version, match, bot)
            except Exception:
                log.exception("table %s: the hint bot failed", self.code)
                client.send(error_json("hint_failed", "no hint could be found; try again", version))
                return
            async with self.lock:
                if self.version != version or self.match is not match:
                    return  # the table moved on: the client's next state shows it
                self._bots[bot_key] = thought
                view = match.round.view(match.to_move)
                table = [tm.meld for tm in view.melds]
                texts = action_texts(
                    action,
                    taken=view.top_discard,
                    phase=view.phase,
                    rules=match.rules,
                    freed=_freed(action, table, match.rules),
                )
                self._hint = (version, str(action), texts, thought.name)
        async with self.lock:
            if self._hint is None or self._hint[0] != self.version:
                return
            _, text, texts, name = self._hint
            self._hint_shown = self.version
            client.send({"type": "hint", "action": text, "texts": texts, "bot": name,
                         "version": self.version})  # fmt: skip

    async def _hint_decision(self, version: int, match: Match, bot: Bot) -> Decision:
        """The hint bot's decision at ``version``: one per version, however many connections ask
        for it at once (the others wait for the same decision; the match is copied once)."""
        if self._hint_thinking is None or self._hint_thinking[0] != version:
            copy, rng = snapshot(match), self.bot_rng("hints")
            task = asyncio.get_running_loop().create_task(self.manager.think(self.think_key, bot, copy, rng))
            self._hint_thinking = (version, task)
        return await asyncio.shield(self._hint_thinking[1])

    def evaluate(self, client: Client, message: EvaluateMessage) -> dict[str, Any]:
        """Judge melds a seated person composes; a group is also tried in run order, so clicking order
        matters less.

        Judging costs the server work a message does not (each group is parsed, arranged and its
        refusal worded in every language), so it is bounded: only a seat's person composes (a
        spectator holds no cards), the groups hold at most the cards of that seat's hand, and an
        address's evaluations share one budget of the message rate, however many connections it
        opens. A group judged before at the table is answered from memory (:func:`_judged`)."""
        seat = client.seat
        if seat is None:
            return error_json("spectator", "spectators cannot play", self.version)
        cards = sum(len(group) for group in message.melds)
        held = (
            self._settled.hand_sizes[seat]
            if self._settled is not None
            else len(self.match.round.hands[seat])
        )
        if cards > held:
            text = f"the melds composed hold {cards} cards, more than the {held} of your hand"
            texts = server_error_texts("too_many_cards", text, cards=str(cards), held=str(held))
            return error_json("too_many_cards", text, self.version, texts=texts)
        wait = self.manager.evaluations.take(client.address)
        if wait > 0:
            error = error_json("rate_limited", "too many messages; slow down", self.version)
            return {**error, "retry_after": round(wait, 3)}
        groups = [tuple(group) for group in message.melds]
        melds = [_judged(group, self.rules) for group in groups]
        taken = None
        if self._settled is None and self.match.round.to_move == seat:
            taken = self.match.round.taken_discard  # taken this turn: may not count toward the opening
        return {
            "type": "evaluation",
            "melds": melds,
            "total": opening_total(groups, melds, self.rules, taken),
            "opening_min": self.rules.opening_min_points,
        }

    # Bots ---------------------------------------------------------------------------------------
    def _bot(self, key: BotKey) -> Bot:
        """The table's bot for ``key``: one per role, kind and level, kept with its memory."""
        if key not in self._bots:
            self._bots[key] = make_bot(key[1], key[2])
        return self._bots[key]

    def _bot_to_move(self) -> int | None:
        """The seat a bot should move for now, if any."""
        if self.status != "playing" or self.match.is_over or not self.anyone_connected():
            return None  # no person is connected: the table pauses
        if self.at_action_limit():
            return None  # the table ends (:meth:`tick`)
        seat = self.match.to_move
        info = self.seats[seat]
        if info.kind == "bot":
            return seat
        since = self._away.get(seat)
        away_long = since is not None and asyncio.get_running_loop().time() - since >= self.takeover_seconds
        return seat if info.kind == "human" and away_long else None

    def kick(self) -> None:
        """Make sure the bot driver runs if a bot is to move (on the table's owner only)."""
        if not self.owned or self._bot_to_move() is None:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    @property
    def think_key(self) -> str:
        """The key this table's bot decisions share with the other tables of its creator's network
        (:class:`~rummykit.web.thinking.FairThinkers`)."""
        if self.fair is not None:
            return f"fair:{self.fair}"
        return table_key(self.address, self.code)

    async def _drive(self) -> None:
        """Move for the bots (and the people away too long) while one is to move. A bot thinks out
        of the lock, on a copy of the match; its move is played if the table has not moved since.

        A bot that fails (raises, or chooses a move the engine refuses) would fail again on every
        kick of the clock and the table would wait for ever: the greedy bot moves for it this once,
        thought out as any bot's decision is (in the bot processes, charged to the table's network),
        and the next move asks a fresh bot. Should that fail too, a random legal action is played."""
        fallback = False
        while True:
            seat = self._bot_to_move()
            if seat is None:
                return
            if self.manager.bot_delay > 0 and not fallback:
                await asyncio.sleep(self.manager.bot_delay)
            async with self.lock:
                if self._bot_to_move() != seat:
                    fallback = False
                    continue
                info = self.seats[seat]
                bot_key: BotKey = (
                    ("seat", info.bot or default_bot_kind(), info.level)
                    if info.kind == "bot"
                    else ("takeover", default_bot_kind(), "medium")
                )
                bot = GreedyBot() if fallback else self._bot(bot_key)
                version, match = self.version, self.match
                copy, rng = snapshot(match), self.bot_rng("bots")
            try:
                action, thought = await self.manager.think(self.think_key, bot, copy, rng)
            except Exception:
                if not fallback:
                    log.exception("table %s: bot %s failed for seat %d; the greedy bot moves", self.code,
                                  bot.name, seat)  # fmt: skip
                    self._bots.pop(bot_key, None)
                    fallback = True
                    continue
                log.exception("table %s: the greedy bot failed too for seat %d; a random move", self.code,
                              seat)  # fmt: skip
                try:
                    action, thought = await asyncio.to_thread(decide, RandomBot(), copy, rng)
                except Exception:
                    log.exception("table %s: no move could be made for seat %d", self.code, seat)
                    return
            async with self.lock:
                if self.version != version or self.match is not match or self._bot_to_move() != seat:
                    fallback = False
                    continue  # the table moved on while the bot thought: think again
                try:
                    self.match.check(action)
                except RummyError as exc:
                    if fallback:
                        log.error("table %s: the fallback chose a refused move for seat %d: %s", self.code,
                                  seat, exc)  # fmt: skip
                        return
                    log.error("table %s: bot %s chose a refused move for seat %d (%s); the greedy bot moves",
                              self.code, bot.name, seat, exc)  # fmt: skip
                    self._bots.pop(bot_key, None)
                    fallback = True
                    continue
                if not fallback:
                    self._bots[bot_key] = thought  # the bot keeps what it learned, once its move stands
                fallback = False
                held = info.kind == "bot" and info.held_for is None
                try:
                    await self._commit(seat, action, "bot" if held else "stand_in")
                except IntegrityError:
                    await self._catch_up()  # another process stored this move first
                except Exception:
                    # The clock kicks the driver again each second: a database away is one line each.
                    log_failure(log, "table %s: bot %s failed for seat %d", self.code, bot.name, seat)
                    return

    def cancel(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
        for client in list(self.clients):
            client.close()

    # Liveness -----------------------------------------------------------------------------------
    async def tick(self, now: float) -> None:
        """Run the clocks: the turn timer, the idle expiry, the end of a match still to store; called
        about once a second."""
        settings = self.manager.settings
        await self.store_end(now)
        if self.status not in OPEN:
            self.settle()  # its end is stored (or is tried again first): it keeps what it shows
            return
        if self.at_action_limit():  # a write that failed, or a table loaded so (a restart)
            if now - self._end_tried >= END_RETRY_SECONDS:
                async with self.lock:
                    if self.at_action_limit():
                        await self.end_at_action_limit()
            return
        present = (
            self.anyone_present()
            if self.status == "playing"
            else any(self.connected(i) for i, s in enumerate(self.seats) if s.kind == "human")
            or (self.organised and self.manager.organiser_watching(now))
        )
        shared = self.manager.store.shared
        if present:
            self._idle_since = None
            if shared and now - self._touched >= settings.idle_table_seconds / 4:
                self._touched = now  # other processes see that people play here
                await self.manager.db(self.manager.store.touch, self.code)
        elif self._idle_since is None:
            self._idle_since = now
        elif now - self._idle_since >= settings.idle_table_seconds:
            idle = await self.manager.db(self.manager.store.idle_seconds, self.code) if shared else None
            if idle is not None and idle < settings.idle_table_seconds:
                self.manager.unload(self)  # people play it through another process
            else:
                await self.expire()
            return
        if self.status == "playing" and not self.match.is_over:
            seat = self.match.to_move
            if any(ends <= now for ends in self._rest.values()):
                async with self.lock:  # breaks over: those turn clocks may run, and the pages show it
                    ended = {i for i, ends in self._rest.items() if ends <= now}
                    self._rest = {i: ends for i, ends in self._rest.items() if ends > now}
                    self._breaks_ended(ended)
            # The turn clock runs from the start of the turn, also while the person is disconnected:
            # leaving and coming back does not start it again (else someone could hold a table for
            # ever by reconnecting before each takeover). It rests only in the break after a hand.
            limit = self._turn_limit(seat)
            if seat in self._rest or self.seats[seat].kind != "human" or limit is None:
                self._turn = None
            elif (used := self._turn_used(now)) is None:
                self._turn = (self.version, now)
            elif self.present(seat) and used >= limit:
                async with self.lock:
                    if self.present(seat) and self._turn_used(now) is not None:
                        # Replaced at once: counted as away since the takeover time. The turn's
                        # start stays: coming back in this turn does not start its clock again.
                        self._away[seat] = now - self.takeover_seconds
                        self.broadcast()
        self.kick()

    async def expire(self) -> None:
        """Nobody was present for too long: the table ends unfinished and leaves the lobby."""
        async with self.lock:
            if self.status not in OPEN:
                return
            self.status = "expired"
            await self._save_lobby()
            self.broadcast()
        if self._driver is not None:
            self._driver.cancel()
        for client in list(self.clients):
            client.close()

    async def close_by_organiser(self) -> None:
        """The organiser closes the table (:mod:`rummykit.web.organiser`): an open table ends
        ``closed`` as when its last person leaves, and every connection gets the reason, the last
        state and the connection's end.

        Raises:
            LobbyError: 409 ``table_status`` for a table that already ended; the database's error
                when the end cannot be stored (the table then stays open).
        """
        async with self.lock:
            if self.status not in OPEN:
                message = f"table {self.code} is {self.status}"
                raise refusal(409, "table_status", message, code=self.code, status=self.status)
            self.status = "closed"
            await self._save_lobby()  # a failed write takes the status back
            self.broadcast()
            closed = error_json("closed_by_organiser", "the organiser closed this table", self.version)
            for client in list(self.clients):
                client.send(closed)
        if self._driver is not None:
            self._driver.cancel()
        for client in list(self.clients):
            client.close()

    @property
    def ended_at(self) -> float | None:
        """When the table stopped being open (loop time), ``None`` while it is open."""
        if self.status in OPEN:
            return None
        if self._ended_at is None:
            self._ended_at = asyncio.get_running_loop().time()
        return self._ended_at

    # Lobby --------------------------------------------------------------------------------------
    def _new_token(self, seat: int) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.seats[seat].token_hash = hash_token(token)
        return token

    async def join(self, name: str, address: str | None = None) -> tuple[int, str]:
        """Take the next open seat; from client ``address`` (its network key), within its seat cap
        (:meth:`TableManager.check_seats`).

        With a shared database another process may change the lobby meanwhile (a join, a leave, a
        close); the write then finds it changed, reloads it and tries again with the next open seat,
        at most once per seat."""
        digest = None if address is None else self.manager.digest(address)
        network = None if address is None else self.manager.digest(fair_network(address))
        for _ in range(len(self.seats)):
            try:
                return await self._join_once(name, digest, network)
            except LobbyError as exc:
                if exc.error != "lobby_changed":
                    raise
        return await self._join_once(name, digest, network)

    async def _join_once(self, name: str, digest: str | None, network: str | None) -> tuple[int, str]:
        async with self.lock:
            if self.manager.store.shared:
                await self._reload_lobby()
            if self.status != "waiting":
                raise _watch_instead(self.code, self.status)
            free = [i for i, s in enumerate(self.seats) if s.kind == "open"]
            if not free:
                raise refusal(409, "no_free_seat", f"table {self.code} has no free seat", code=self.code)
            guard = None
            if digest is not None and network is not None:
                await self.manager.check_seats(digest, network, self)
                guard = self.manager.seats_guard(digest, network, self)
            seat = free[0]
            self.seats[seat] = Seat("human", name.strip(), joined_from=digest, joined_net=network)
            self._chat_from[seat] = self.chat.said  # what was said before the person came stays unread
            token = self._new_token(seat)
            # The host starts the table, also when the last seat fills (nobody is rushed in).
            await self._save_lobby(guard)
            self.broadcast()
            return seat, token

    async def start(self, token: str) -> None:
        """The host starts the table: bots take the seats still open.

        Raises:
            LobbyError: 409 ``table_status`` unless it waits; 403 ``organiser_starts`` at a table the
                organiser made; 403 ``not_host`` for anybody but the host.
        """
        async with self.lock:
            if self.manager.store.shared:
                await self._reload_lobby()
            self.require("waiting")  # first, as a process that does not play the table says it
            if self.organised:
                why = "the organiser starts this table (a table made from the organiser's page has no host)"
                raise refusal(403, "organiser_starts", why)
            if self.seat_for_token(token) != 0:
                raise refusal(403, "not_host", "only the host (seat 1) can start the table")
            await self._fill_and_begin()

    async def start_by_organiser(self) -> None:
        """The organiser starts a table they made (:mod:`rummykit.web.organiser`): bots take the seats
        still open, as at the host's start.

        Raises:
            LobbyError: 409 ``table_status`` unless it waits; 409 ``has_host`` at a table a person
                made (its host starts it); 409 ``nobody_seated`` while no person sits at it (bots
                would play for nobody).
        """
        async with self.lock:
            self.require("waiting")
            self._require_organised()
            if not any(s.kind == "human" for s in self.seats):
                message = f"nobody sits at table {self.code} yet"
                raise refusal(409, "nobody_seated", message, code=self.code)
            await self._fill_and_begin()

    async def relabel(self, label: str) -> None:
        """The organiser names a table they made anew (``""``: no label), while it is open or its
        finished match is still shown; everybody at it sees the new label with the next state.

        Raises:
            LobbyError: 409 ``has_host`` at a table a person made (it has no label); 409
                ``table_status`` once it was closed or expired; the database's error (the label
                then stays as it was).
        """
        async with self.lock:
            self._require_organised()
            if self.status not in OPEN and self.status != "over":
                message = f"table {self.code} is {self.status}"
                raise refusal(409, "table_status", message, code=self.code, status=self.status)
            await self.manager.db(self.manager.store.set_label, self.code, label.strip())
            self.label = label.strip()
            self.broadcast()

    def _require_organised(self) -> None:
        if not self.organised:
            message = f"table {self.code} has a host, who starts it and removes people from it"
            raise refusal(409, "has_host", message, code=self.code)

    async def _fill_and_begin(self) -> None:
        """Bots take the open seats and play begins (the caller holds the lock)."""
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                kind = default_bot_kind()
                self.seats[i] = Seat("bot", f"Bot {i + 1}", kind, "medium")
        await self._begin()

    async def remove(self, token: str, seat: int, name: str | None = None) -> None:
        """The host frees ``seat``, taken by a person at the waiting table (a stranger from the lobby,
        a pupil at the wrong table): the seat is open again, the person's connections watch and are
        told why (``removed``), and their token holds nothing. Only before the start: once play began,
        a seat is a player's. With ``name`` (the name the host saw there), only if that person still
        sits there: one who left and another who joined the seat meanwhile is not removed.

        Raises:
            LobbyError: 403 ``organiser_removes`` at a table the organiser made; 403
                ``not_host_remove`` for anybody but the host; 409 ``table_status`` once the table
                started or ended; 409 ``no_person`` where the seat holds no person (or is the host's
                own).
        """
        async with self.lock:
            if self.manager.store.shared:
                await self._reload_lobby()
            self.require("waiting")  # first, as a process that does not play the table says it
            if self.organised:
                why = "only the organiser removes people from this table (made from the organiser's page)"
                raise refusal(403, "organiser_removes", why)
            if self.seat_for_token(token) != 0:
                why = "only the host (seat 1) can remove a person from the table"
                raise refusal(403, "not_host_remove", why)
            message = "the host took this seat back: you watch the table now"
            await self._free_seat(seat, name, 1, error_json("removed", message, self.version))

    async def remove_by_organiser(self, seat: int, name: str | None = None) -> None:
        """The organiser frees ``seat`` (seat 1 too) of a waiting table they made, as the host does at
        theirs (:meth:`remove`); the person is told that the organiser took the seat back.

        Raises:
            LobbyError: 409 ``table_status`` once it started or ended; 409 ``has_host`` at a table a
                person made; 409 ``no_person``; 409 ``lobby_changed`` when ``name`` sits there no more.
        """
        async with self.lock:
            self.require("waiting")
            self._require_organised()
            message = "the organiser took this seat back: you watch the table now"
            texts = server_error_texts("removed_by_organiser", message)
            await self._free_seat(seat, name, 0, error_json("removed", message, self.version, texts=texts))

    async def _free_seat(self, seat: int, name: str | None, first: int, told: dict[str, Any]) -> None:
        """Open ``seat`` (from ``first`` on) that a person holds, if ``name`` still sits there, and
        send its connections ``told`` (the caller holds the lock and has checked who asks)."""
        if not first <= seat < self.players or self.seats[seat].kind != "human":
            why = f"seat {seat + 1} holds no person to remove"
            raise refusal(409, "no_person", why, seat=str(seat + 1))
        if name is not None and self.seats[seat].name != name:
            message = f"table {self.code} has changed meanwhile; please try again"
            raise refusal(409, "lobby_changed", message, code=self.code)
        self.seats[seat] = Seat("open")
        await self._save_lobby()
        for client in list(self.clients):
            if client.seat == seat:
                client.send(told)
        self._unbind(seat)
        self.broadcast()

    async def leave(self, token: str) -> None:
        async with self.lock:
            if self.manager.store.shared:
                await self._reload_lobby()
            seat = self.seat_for_token(token)
            if seat is None:
                raise refusal(403, "unknown_token", "unknown seat token")
            info = self.seats[seat]
            before = self.status
            if self.status == "waiting":
                if seat == 0 and not self.organised:
                    self.status = "closed"  # the host left before the start: nobody can start it now
                else:
                    self.seats[seat] = Seat("open")
            elif self.status == "playing":
                # The bot holds the seat: the token can take it back (rummykit.web.seats.retake).
                name = f"{info.name} (bot)" if info.name else f"Bot {seat + 1}"
                self.seats[seat] = Seat(
                    "bot", name, default_bot_kind(), "medium", held_for=info.token_hash, held_name=info.name
                )
                if not any(s.kind == "human" for s in self.seats):
                    # The last person left (a practice table, or everyone else had left): bots would
                    # play on for nobody, and the table would count against its creator's open
                    # tables until it expired.
                    self.status = "closed"
            self.seats[seat].token_hash = None
            await self._save_lobby()  # a leave the database refuses is undone before it touches anyone
            self._away.pop(seat, None)
            self._unbind(seat)
            self.broadcast()
        if self.status == "closed" and before == "playing":  # the last person left: the game is over
            if self._driver is not None:
                self._driver.cancel()
            for client in list(self.clients):
                client.close()
            return
        self.kick()

    def rebind(self, seat: int) -> None:
        """The seat's token holds it again (retaken here or through another process): connections
        that showed that token and watch since it was left play it again, and are told so by a new
        welcome (a second tab, or a client that stayed connected, need not reconnect)."""
        digest = self.seats[seat].token_hash
        if digest is None:
            return
        for client in list(self.clients):
            shown = client.token_digest
            if client.seat is None and shown is not None and hmac.compare_digest(shown, digest):
                client.seat = seat
                client.send({"type": "welcome", "seat": seat, "code": self.code})

    def _unbind(self, seat: int) -> None:
        """The seat's token no longer holds it (its person left, here or through another process):
        the connections that showed that token watch from now on, and are told so."""
        for client in list(self.clients):
            if client.seat == seat:
                client.seat = None
                client.send({"type": "welcome", "seat": None, "code": self.code})

    async def _begin(self) -> None:
        """Start play (the caller holds the lock): people not connected count as away from now."""
        self.status = "playing"
        for i, s in enumerate(self.seats):
            if s.kind == "human" and not self.connected(i):
                self._mark_away(i)
        await self._save_lobby()
        self.broadcast()
        asyncio.get_running_loop().call_soon(self.kick)
