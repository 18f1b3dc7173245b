"""The server's tables: creating, routing and rebuilding them, the clocks, the bot processes and
the group commit of moves.

A :class:`TableManager` holds every :class:`~rummykit.web.tables.Table` this process serves, the
database thread (storage calls run there, in order; with a shared database, what strangers' requests
and connections cause, lookups, rate buckets, connection counts and claims, on a second one,
:meth:`TableManager.side_db`, and the lease's renewal on a third) and the process pool where bots
think. With a shared database (PostgreSQL) it also leases tables among the processes
(:mod:`rummykit.web.owners`) and listens for their notices (:mod:`rummykit.web.coordination`).
Table codes are six characters of an alphabet without look-alike letters and digits, drawn with
:mod:`secrets`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import math
import multiprocessing
import os
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Final, Literal, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from rummykit.bots import BOT_LEVELS, Bot, make_bot
from rummykit.errors import RulesError, RummyError, quoted
from rummykit.match import Match
from rummykit.revisions import RuleChange, older_text, refusing, written
from rummykit.rules import Rules, option_range
from rummykit.web import practice
from rummykit.web.address_key import claim_key
from rummykit.web.coordination import Listener, Notice
from rummykit.web.dbthread import DatabaseThread
from rummykit.web.dealing import new_secret, seal
from rummykit.web.failures import log_failure
from rummykit.web.guesses import Lookup
from rummykit.web.limits import NetworkRate, RateLimiter, ServerSettings
from rummykit.web.lobby import (
    WEB_BOT_KINDS,
    LobbyError,
    Seat,
    default_bot_kind,
    hash_token,
    read_stored_rules,
    shown_turn_seconds,
    stored_lobby_json,
    stored_rules,
)
from rummykit.web.matches import new_table_match
from rummykit.web.owners import (
    RENEW_SECONDS,
    Cluster,
    Route,
    address_digest,
    count_open_tables,
    count_seats_held,
    lock_counts,
)
from rummykit.web.protocol import CreateTable, hints_policy
from rummykit.web.runtime import follow_parent
from rummykit.web.store import OPEN_STATUSES, Guard, Store, StoredAction, StoredTable
from rummykit.web.tables import OPEN, Status, Table, no_table, refusal
from rummykit.web.texts import engine_error_texts, server_error_texts
from rummykit.web.thinking import Decision, FairThinkers, decide, fair_network

log = logging.getLogger("rummykit.web")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6
PRUNE_SECONDS: Final = 3600.0
"""How often a server deletes the tables that ended long ago and erases the address digests no
limit counts any more (and once when it starts)."""
UNRESTORED_KEPT: Final = 1000
"""How many codes of tables that could not be restored a process remembers (to say so when asked)."""
STALE_RATE_SECONDS: Final = 3600.0
"""A shared rate bucket unused this long is full at any rate the server offers, so it is dropped."""
CODE_ATTEMPTS: Final = 8
"""Codes a creation draws before it gives up: one stored table in 32**6 (about a billion) collides."""
LOBBY_LIST_SECONDS: Final = 1.0
"""How long a process reuses the lobby list it read from a shared database."""
LOBBY_SIZE: Final = 50
"""The most tables the lobby lists (the newest)."""
ARCHIVED_IN_MEMORY: Final = 64
"""Ended tables rebuilt from the database for a lookup (:meth:`TableManager.find`) that one process
keeps in memory at once; each holds its match until the clock settles it, within a second
(:mod:`rummykit.web.settled`: then a few KB and its moves' notation)."""
ARCHIVED_RECORDS_IN_MEMORY: Final = 100_000
"""The records (moves) those tables may hold together: a match keeps its history, about 640 bytes a
move, so a table of ``max_table_actions`` (20,000) holds some 13 MB until it is settled, and 64 of
them rebuilt at once would be most of a small server's memory. 100,000 records are about 64 MB: five
of the longest tables, or every one of 64 ordinary matches (a few hundred moves each). A rebuilt
table larger than this alone is still kept, alone."""
ARCHIVE_REBUILDS: Final = (0.5, 10)
"""Rebuilds of ended tables a process makes (per second, burst): each replays a whole match, and the
codes of ended tables are known to whoever read the public lobby list while they waited."""
ARCHIVE_SHARE: Final = (0.1, 8)
"""The rebuilds one wider network (an IPv4 /24, an IPv6 /48) may ask for (per second, burst), so that
one stranger looking up collected codes does not spend the whole process's budget."""
T = TypeVar("T")


class UnplayableMoves(ValueError):
    """A stored table whose moves this version refuses: the move's number and the engine's refusal,
    then, for a table stored under an older rules revision, the rule changes since that refuse such a
    move (:func:`~rummykit.revisions.refusing`, as a record's replay names them)."""

    def __init__(self, cause: RummyError, revision: int, rules: Rules, number: int) -> None:
        rule = getattr(cause, "rule", None)
        self.changes = refusing(revision, rules, rule if isinstance(rule, str) else None)
        older = older_text(revision, self.changes, table=True)
        super().__init__(f"its move {number} is refused: {cause}{older}")


POOL_CLOSE_SECONDS: Final = 5.0
"""How long a closing server waits for the decision its bot processes are making (a search's budget
is about a second)."""
EVALUATION_SHARE: Final = 3
"""An address's budget of meld judgements, in connections' message rates: room for three people
behind one address composing at full speed, at under 1 % of a core (a judgement of a hand's cards
costs 0.1–0.3 ms)."""


ORGANISER_SEEN_SECONDS: Final = 60.0
"""How long after the organiser's page last asked for its list the organiser counts as watching
their waiting tables (:meth:`TableManager.organiser_watching`): a page shown asks every five
seconds, one behind another tab (slides shown to the class) every thirty; a minute passes over a
slow network too."""

NETWORK_PREFIX: Final = "network:"
"""The key under which a wider network's websocket connections are counted (beside its addresses')."""
MISSES_KIND: Final = "misses"
"""The ``rk_rates`` bucket of a network's misses of codes (:meth:`TableManager._shared_miss`)."""

class TableManager:
    """All tables of a server, their storage, the bounds of :class:`ServerSettings` and the clocks.

    Every client ``address`` it is given is already a network key
    (:func:`~rummykit.web.limits.network_key`, applied where a request or a relay comes in)."""

    def __init__(
        self,
        store: Store,
        settings: ServerSettings | None = None,
        relay_address: str = "",
        address_key: bytes | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.relay_address = relay_address
        """``host:port`` where other server processes reach this one (:mod:`rummykit.web.relay`)."""
        self._address_key = address_key
        """The key of the stored address digests (:mod:`rummykit.web.address_key`); ``None``: plain."""
        self.cluster: Cluster | None = None
        """The other processes sharing the database (PostgreSQL), through it."""
        self.tables: dict[str, Table] = {}
        self.sockets = 0
        """The websocket connections this process holds (relayed ones too): at most
        ``settings.max_connections``."""
        self._connections: dict[str, int] = {}
        self._leases: asyncio.Task[None] | None = None
        self._lease_renewed = -math.inf
        """When the last renewal of the lease that succeeded began (loop time; :meth:`lease_age`)."""
        self._lobby_rows: tuple[float, list[dict[str, Any]]] | None = None
        self._lobby_read: asyncio.Future[list[dict[str, Any]]] | None = None
        """The read of the lobby's rows under way (:meth:`_lobby_list`), which requests meanwhile share."""
        self._stored_entries: tuple[list[dict[str, Any]], dict[str, dict[str, Any] | None]] | None = None
        """The lobby entries made of the rows last read (:meth:`_stored_entry`), by code."""
        rate, burst = self.settings.messages_per_second, self.settings.messages_burst
        self.evaluations: RateLimiter = NetworkRate(EVALUATION_SHARE * rate, EVALUATION_SHARE * burst)
        """Composed melds judged per client address (:meth:`~rummykit.web.tables.Table.evaluate`),
        in this process: one budget for all of an address's connections, :data:`EVALUATION_SHARE`
        times one connection's message rate (people behind one address compose at once), and four
        addresses' worth for its wider network (:class:`~rummykit.web.limits.NetworkRate`: a /48
        holding seats from dozens of its /64s at its own tables would otherwise judge that many times
        over on the event loop every table shares)."""
        self._archive_budget = RateLimiter(*ARCHIVE_REBUILDS)
        """Rebuilds of ended tables for lookups (:meth:`_archived`), whoever asks."""
        self._archive_share = RateLimiter(*ARCHIVE_SHARE)
        """The same per wider network of the client who asks."""
        misses = self.settings.missed_codes_per_hour / 3600.0, self.settings.missed_codes_burst
        self._misses = RateLimiter(*misses)
        """Lookups of codes that named no table, per wider network of the client
        (:mod:`rummykit.web.guesses`)."""
        self._db = DatabaseThread("rummykit-db")
        self._side = DatabaseThread("rummykit-db-side")
        """With a shared database, the thread of what strangers' requests and connections cause
        (lookups, shared rate buckets, connection counts, claims: :meth:`side_db`), so that it does
        not queue before the moves' commits, nor behind them."""
        self._lease_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-db-lease")
        """With a shared database, the thread of the lease's renewal alone (:meth:`_run_leases`): it
        waits neither behind a group commit held by a lock nor behind strangers' lookups, however many
        are queued (each as long as the lease lasts would make the other processes take the tables of
        a live process)."""
        self._creating = asyncio.Lock()
        """Held from the count of open tables that admits a new table until the table is counted."""
        self._clock: asyncio.Task[None] | None = None
        self._pending: list[tuple[StoredAction, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._thinkers: ProcessPoolExecutor | None = None
        self._fair: FairThinkers | None = None
        self._listener: Listener | None = None
        self._refreshing: set[asyncio.Task[None]] = set()
        self._replaying: dict[str, asyncio.Future[tuple[Rules, bytes | None, Match, set[int] | None]]] = {}
        """The replays of ended tables under way (:meth:`_rebuilt`), by code, which the requests for
        the same table meanwhile share: a burst of lookups of one code replays its match once."""
        self._unrestored: dict[str, tuple[RuleChange, ...]] = {}
        """Tables whose rows this process could not replay (newest last, at most
        :data:`UNRESTORED_KEPT`), with the rule changes since their revision that refuse one of their
        moves (none known: empty): their lookups say so (:meth:`_missing`)."""
        self.organiser_seen = -math.inf
        """When the organiser's page last asked for its list (loop time): an organiser's waiting table
        does not expire while the page is open (:meth:`organiser_watching`)."""
        self._read_noted: set[str] = set()
        """Tables whose older rules text was read with its old meaning and logged so (:meth:`_replay`:
        once per table, however often a copy is rebuilt; only tables stored before an upgrade)."""

    def organiser_watching(self, now: float) -> bool:
        """Whether the organiser's page asked for its list in the last :data:`ORGANISER_SEEN_SECONDS`
        (loop time ``now``; the page asks every five seconds while it is shown)."""
        return now - self.organiser_seen < ORGANISER_SEEN_SECONDS

    @property
    def bot_delay(self) -> float:
        return self.settings.bot_delay

    @property
    def takeover_seconds(self) -> float:
        return self.settings.takeover_seconds

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call on the single database thread (writes stay in order)."""
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(fn, *args))

    async def side_db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call that a stranger's request or connection can cause: with a shared
        database on a thread of its own (the lease has a third: :attr:`_lease_thread`). That is
        every read for a lookup (a table's row, its stored match, the counts a creation or a join
        checks first), the shared rate buckets, the websocket connections' counts, and who plays a
        table (:meth:`route`, whose claim a websocket makes, and the release of a table let go:
        one thread keeps them in order). Lookups are as many as strangers' requests and each is a
        trip to the database. On the moves' thread, 130
        lookups a second cut a process's moves from about 350 to 84 a second (p50 12 to 58 ms), every
        group commit waiting behind the lookups queued before it. Nothing here needs the moves'
        order: a bucket, a count or a claim is its own transaction, and a read sees what was
        committed (a change of this process's own was awaited before)."""
        if not self.store.shared:
            return await self.db(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._side, partial(fn, *args))

    async def append(self, record: StoredAction) -> None:
        """Store one action in the next group commit; returns once that transaction committed.

        Moves arriving during one event-loop tick, on any tables, share one transaction (and one
        trip to the database thread); a group refused for an action number already taken is retried
        action by action, so that action fails alone (:meth:`_append_group` for other errors)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((record, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_groups())
        await future

    async def _write_groups(self) -> None:
        while self._pending:
            await asyncio.sleep(0)  # the rest of this tick's moves join the group
            group, self._pending = self._pending, []
            try:
                await self._append_group([record for record, _ in group])
            except IntegrityError:
                for record, future in group:
                    try:
                        await self.db(self.store.append_actions, [record])
                    except Exception as exc:
                        if not future.done():
                            future.set_exception(exc)
                    else:
                        if not future.done():
                            future.set_result(None)
            except Exception as exc:
                for _, future in group:
                    if not future.done():
                        future.set_exception(exc)
            else:
                for _, future in group:
                    if not future.done():
                        future.set_result(None)

    async def _append_group(self, records: list[StoredAction]) -> None:
        """Store one group. Only an :class:`IntegrityError` (an action number taken) is one action's
        fault, which :meth:`_write_groups` then finds action by action; any other error (a lock or
        statement timeout, a full disk) refuses the whole group at once: tried again action by
        action, each would wait as long again (a group of n moves held every table of the process,
        and its lease renewal behind them on the database thread, for n + 1 lock timeouts). A
        connection lost since the last group (a restarted database) is tried once more, on a new one."""
        try:
            await self.db(self.store.append_actions, records)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            await self.db(self.store.append_actions, records)

    async def think(self, key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision:
        """A bot's decision on a snapshot of a match (:func:`~rummykit.web.thinking.snapshot`), made
        in the bot processes (or one thread with ``bot_processes=0``), fairly among the ``key`` of
        each table (:class:`~rummykit.web.thinking.FairThinkers`); the action and the bot after it."""
        if self._fair is None:
            self._fair = FairThinkers(max(1, self.settings.bot_processes), self._submit)
        return await self._fair.think(key, bot, match, rng)

    async def _submit(self, bot: Bot, match: bytes, rng: random.Random) -> Decision:
        """Run :func:`decide` in a bot process. A pool whose process died (killed for memory, say)
        is broken for good in :mod:`concurrent.futures`: it is replaced and the decision asked again
        once, so that no table's bots stop for ever."""
        if self.settings.bot_processes == 0:
            return await asyncio.to_thread(decide, bot, match, rng)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._bot_pool()
            try:
                return await loop.run_in_executor(pool, decide, bot, match, rng)
            except BrokenProcessPool:
                if self._thinkers is pool:
                    log.warning("a bot process died; starting the bot processes again")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._thinkers = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _bot_pool(self) -> ProcessPoolExecutor:
        if self._thinkers is None:
            self._thinkers = ProcessPoolExecutor(
                self.settings.bot_processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=follow_parent,  # a bot process exits when the server is gone
                initargs=(os.getpid(), False),
            )
        return self._thinkers

    def on_notice(self, notice: Notice) -> None:
        """A change announced by another server process (on the event loop)."""
        table = self.tables.get(notice.code)
        if table is None:
            return
        loop = asyncio.get_running_loop()
        task: asyncio.Task[None] | None = None
        if notice.kind == "p" and notice.number is not None:
            table.seat_taken_elsewhere(notice.number)
        elif notice.kind == "l":
            task = loop.create_task(table.refresh())
        if task is not None:
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    def on_resync(self) -> None:
        """The listener connected again after losing its connection: notices of the meantime are
        lost, so every table here reloads its lobby (as a lobby notice would have it do)."""
        loop = asyncio.get_running_loop()
        for table in list(self.tables.values()):
            task = loop.create_task(table.refresh())
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    def unload(self, table: Table) -> None:
        """Forget a table without changing it (another process serves its people)."""
        table.cancel()
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        if self.cluster is not None:
            task = asyncio.get_running_loop().create_task(self.side_db(self.cluster.release, [table.code]))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    @staticmethod
    def _key(code: str) -> str | None:
        key = code.strip().upper()
        return key if len(key) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in key) else None

    async def route(self, code: str, claim: bool = True) -> Route | None:
        """Which process plays table ``code`` (:mod:`rummykit.web.owners`): this one for a table
        held here or (``claim``: a websocket arrived) a table without a live owner, open or finished
        within ``finished_table_seconds`` (:meth:`_hold_finished`), which becomes this process's now;
        ``None`` when there is no such table."""
        key = self._key(code)
        if key is None:
            return None
        table = self.tables.get(key)
        if self.cluster is None or (table is not None and table.owned and not table.archived):
            return Route(mine=True)
        # A copy shown as it ended is no claim: the process holding the table is asked first (a
        # watcher is relayed to it), and once none does, a finished one in its window is claimed.
        route = await self.side_db(self.cluster.route, key, claim, self._held_since())
        if route is None or route.mine or not route.key:
            return route
        return replace(route, key=self.relay_key(route.key))

    def relay_key(self, stored: str) -> str:
        """The key a relay shows the process whose ``rk_processes`` row holds ``stored``: an HMAC of
        it under the key file, so reading the database is not enough to speak for other client
        addresses at a process's relay port (without a key file: the stored value, as before)."""
        if self._address_key is None:
            return stored
        return hmac.new(self._address_key, b"rummykit-relay:" + stored.encode(), hashlib.sha256).hexdigest()

    async def find(
        self,
        code: str,
        check: Callable[[StoredTable], None] | None = None,
        address: str | None = None,
        token: str | None = None,
    ) -> Table:
        """The table ``code`` for a request from ``address`` (the client's; ``None``: the server's
        own), within the misses of its network (:mod:`rummykit.web.guesses`: a request showing a seat's
        ``token`` gets through a network whose misses are spent); :meth:`_find` finds it.

        Raises:
            LobbyError: 429 ``too_many_misses``, and the refusals of :meth:`_find`.
        """
        return await self._looked_up(code, address, token, lambda: self._find(code, check, address))

    async def prove_seat(self, code: str, address: str | None, token: str) -> None:
        """Let a connection from ``address`` that shows a seat's ``token`` on towards table ``code``, as
        :meth:`find` would, from the token's proof alone (:meth:`~rummykit.web.guesses.Lookup.prove_first`):
        nothing is loaded, so that a seat's connection to a table another process plays is relayed
        there without its match being replayed here first.

        Raises:
            LobbyError: 429 ``too_many_misses``.
        """

        async def nothing() -> None:
            return None

        await self._looked_up(code, address, token, nothing)

    async def _looked_up(
        self, code: str, address: str | None, token: str | None, work: Callable[[], Awaitable[T]]
    ) -> T:
        """What ``work`` finds for a lookup of ``code`` from ``address`` (showing ``token``, if any),
        within the misses of the address's network (:class:`~rummykit.web.guesses.Lookup`). A text
        that is no code at all (wrong length, letters codes never use) names nothing: no guess."""
        key = self._key(code)
        lookup = Lookup(self._misses, address if key else None, token)
        if lookup.needs_proof:  # the same work whether the code names a table or not
            # The lobby's list first (a shared database's is read at most once a second, for any code),
            # then the table held in memory now: a table claimed meanwhile proves its token.
            shown = key is not None and key in await self.shown_codes()
            stored = await self._stored_seats(key) if token and key is not None and not shown else None
            held = self.tables.get(key) if key is not None else None
            in_memory = held if held is not None and held.owned and not held.archived else None
            lookup.prove_first(in_memory, shown, stored)
        try:
            found = await work()
        except LobbyError as exc:
            refusal = lookup.failed(exc)
            if lookup.missed and address is not None:
                await self._shared_miss(address)
            raise refusal from None
        lookup.found(found if isinstance(found, Table) else None)
        return found

    async def _stored_seats(self, key: str) -> list[dict[str, Any]]:
        """The seats stored for table ``key`` (``[]``: none, or unreadable), read for a token's
        proof (:meth:`~rummykit.web.guesses.Lookup.prove_first`) whether or not it is held here."""
        found = await self.side_db(self.store.lobby, key)
        try:
            seats = json.loads(found[1]) if found is not None else []
        except ValueError:
            return []
        return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []

    async def _shared_miss(self, address: str) -> None:
        """With a shared database, count a miss of the wider network of ``address`` in its bucket
        there too, and while that one holds no token (the misses of every process together) leave
        this process's none either: each process lets a network miss once more at most before it
        learns of it, and that miss is counted there all the same (the bucket owes it), so that it
        delays the next ones: the processes together allow one process's rate. Only misses cost the
        database a transaction, and a network has few before it is refused."""
        if self.cluster is None:
            return
        network = fair_network(address)
        rate, burst = self._misses.rate, self._misses.burst
        digest = self.digest(NETWORK_PREFIX + network)
        wait = await self.side_db(self.cluster.count, MISSES_KIND, digest, rate, burst)
        self._misses.hold(network, wait)

    async def _find(
        self, code: str, check: Callable[[StoredTable], None] | None = None, address: str | None = None
    ) -> Table:
        """The table ``code``; with a shared database, one another process made is loaded from it.

        A table this process has claimed (:meth:`route`) is kept (people not connected here are away
        from now, so bots play for them after the takeover time). Any other is loaded as a copy for
        one lobby request (join, start, leave, retake) and not kept. ``check`` looks at such a
        stored open table before its match is replayed, and refuses a request that could not be
        granted (:func:`~rummykit.web.tables.needs_status`, :func:`~rummykit.web.tables.needs_seat`):
        a replay of a long match costs a second of the event loop, which a stranger's request with a
        made-up token, or for a table not in the state it needs, does not get to spend. An ended
        table no longer in memory is rebuilt within the budgets of :meth:`_archived`, the share of
        ``address`` (the client's) included."""
        key = self._key(code)
        if key is not None and key in self._unrestored:  # found unplayable: not replayed (nor logged) again
            raise self._missing(code, key)
        table = self.tables.get(key) if key is not None else None
        if table is not None and table.archived and self._may_hold(table):
            table = await self._hold_finished(table.code) or table
        if table is not None and table.archived:
            self.tables[table.code] = self.tables.pop(table.code)  # looked up again: kept longest
        if table is None and key is not None and self.store.shared:
            route = await self.route(key, claim=False)  # the websocket path has claimed it
            # An ended table's moves are not read here: its row (the route's) says it ended, and it is
            # rebuilt within the budgets of _archived, which read them only when a rebuild is granted
            # (a table of 20,000 moves takes 50 ms of the lookups' thread to read).
            opened = route is not None and (route.status is None or route.status in OPEN_STATUSES)
            stored = await self.side_db(self.store.load, key) if opened else None
            if route is not None and stored is not None and stored.status in OPEN_STATUSES:
                table = self.tables.get(key)
                if table is None and check is not None:
                    check(stored)
                if table is None and not route.mine:
                    table = await self._copy(key, stored, address, seated=check is not None)
                elif table is None:
                    try:
                        table = self._rebuild(stored)
                    except (RummyError, ValueError, KeyError) as exc:
                        raise self._unrestorable(key, exc) from None
                    self.tables[key] = table
                    if table.status == "playing":
                        for i, s in enumerate(table.seats):
                            if s.kind == "human":
                                table._mark_away(i)
        if table is None and key is not None:
            table = await self._archived(key, address)
        if table is None:
            raise self._missing(code, key)
        return table

    async def _copy(self, key: str, stored: StoredTable, address: str | None, *, seated: bool) -> Table:
        """A copy of the open table ``key`` that another process plays, made from ``stored`` for one
        lobby request from ``address`` (a leave, a retake, a join …) and not kept; the table held
        here instead if one was taken in meanwhile. A table with moves is replayed off the event loop
        and within a budget: a replay of a long match costs a quarter of a second (19,000 moves), and
        a person seated at a table of their own, leaving and taking the seat back through a process
        that does not play it, would otherwise have that process replay it for every request.

        Decision: a request whose check (``seated``: a leave's or a retake's, which only a seat's
        token passes) found the seat spends only its wider network's share of the rebuilds
        (:data:`ARCHIVE_SHARE`), not the process's (:data:`ARCHIVE_REBUILDS`), which strangers looking
        up the public codes of ended tables from a few networks could keep empty and so refuse every
        player's leave through this process; anything else (a watcher's connection to a table whose
        owner is not reached) spends both, as a rebuild of an ended table does (:meth:`_rebuild_wait`).

        Raises:
            LobbyError: 429 ``replay_busy`` when the budget is spent; the stored table this version
                cannot replay (:meth:`_unrestorable`).
        """
        wait = 0.0
        if stored.actions and seated and address is not None:
            wait = self._archive_share.take(fair_network(address))
        elif stored.actions:
            wait = self._rebuild_wait(address)
        if wait > 0:
            seconds = str(math.ceil(wait))
            why = (
                "too many tables played by the server's other processes were looked up here just now; try "
                f"again in {seconds} s"
            )
            raise refusal(429, "replay_busy", why, retry_after=wait, seconds=seconds)
        try:
            replayed = await asyncio.to_thread(self._replay, stored)
        except (RummyError, ValueError, KeyError) as exc:
            raise self._unrestorable(key, exc) from None
        held = self.tables.get(key)
        if held is not None:  # claimed here meanwhile: the request goes to the table played here
            return held
        table = self._table_of(stored, replayed)
        table.owned = False
        return table

    def _rebuild_wait(self, address: str | None) -> float:
        """Spend one rebuild of a stored match for a request from ``address`` (the client's;
        ``None``: the server's own): one of its wider network's share (:data:`ARCHIVE_SHARE`) and one
        of the process's (:data:`ARCHIVE_REBUILDS`); ``0.0`` if granted, else the seconds to wait
        (nothing is spent then)."""
        network = None if address is None else fair_network(address)
        wait = self._archive_share.take(network) if network is not None else 0.0
        if wait <= 0:
            wait = self._archive_budget.take(None)
            if wait > 0 and network is not None:  # refused for everybody: the network's share is kept
                self._archive_share.refund(network)
        return wait

    def _unrestorable(self, key: str, exc: Exception) -> LobbyError:
        """Log that the stored table ``key`` cannot be replayed (its rules text, or a move, is refused
        by this version, or a newer one stored it), remember it, and the refusal its lookups get.
        The log has the engine's refusal (cards included: it is the operator's); the players get only
        the rule changes that refuse the move (:class:`UnplayableMoves`)."""
        log.error("table %s cannot be restored: %s", key, exc)
        self._unrestored.pop(key, None)
        self._unrestored[key] = exc.changes if isinstance(exc, UnplayableMoves) else ()
        while len(self._unrestored) > UNRESTORED_KEPT:
            del self._unrestored[next(iter(self._unrestored))]
        return self._missing(key, key)

    def misses_wait(self, address: str) -> float:
        """Seconds until the wider network of ``address`` may miss again (0: it may now), spending
        nothing (:mod:`rummykit.web.guesses`)."""
        return self._misses.wait(fair_network(address))

    def _missing(self, code: str, key: str | None) -> LobbyError:
        """The refusal for table ``code`` that is not here: 404, or 409 for a table this process could
        not restore (stored by another version), which says so rather than seem deleted."""
        if key is not None and key in self._unrestored:
            changes = self._unrestored[key]
            why = "".join(f" ({c.date}: {c.text})" for c in changes)
            why_de = "".join(f" ({c.date_de}: {c.text_de})" for c in changes)
            message = (
                f"table {key} was stored by another rummykit version whose rules or moves this version "
                f"cannot play{why}; open a new table"
            )
            return refusal(409, "table_unreadable", message, code=key, why=why_de)
        return no_table(code)

    async def _archived(self, key: str, address: str | None = None) -> Table | None:
        """An ended table (finished, closed or expired) that is no longer in this process's memory,
        rebuilt from the database as it ended (README: its code can still be looked up while it is
        kept there); ``None`` when there is no such ended table. A finished table that ended within
        ``finished_table_seconds`` is held instead, for its rematch (:meth:`_hold_finished`). Any
        other stays in memory as a finished table does (``finished_table_seconds``), at most
        :data:`ARCHIVED_IN_MEMORY` of them (the least recently looked up go first), and the match is
        replayed off the event loop, within a
        budget per process (:data:`ARCHIVE_REBUILDS`) of which the wider network of ``address`` may
        spend a share (:data:`ARCHIVE_SHARE`): a stranger who collected codes from the public lobby
        list can neither make the server replay matches without end nor spend the budget of others.

        Raises:
            LobbyError: 429 when the budget is spent.
        """
        row = await self.side_db(self.store.lobby_row, key)
        if row is None or row["status"] in OPEN_STATUSES:
            return None
        if self._still_held(row["status"], row["updated_at"]):
            held = await self._hold_finished(key)
            if held is not None:
                return held
        wait = self._rebuild_wait(address)
        if wait > 0:
            why = f"too many ended tables looked up just now; try again in {math.ceil(wait)} s"
            raise refusal(429, "archive_busy", why, retry_after=wait, seconds=str(math.ceil(wait)))
        stored = await self.side_db(self.store.load, key)
        if stored is None or stored.status in OPEN_STATUSES:
            return None
        table = await self._rebuilt(key, stored)
        if table is self.tables.get(key):  # another request rebuilt it meanwhile
            return table
        table.archived = True
        self._make_room_for_archived(table.version)
        self.tables[key] = table
        return table

    def _held_since(self) -> datetime:
        """The earliest stored end (UTC) of a table that ended and is still held: a finished table is
        held for ``finished_table_seconds`` after its end, whether or not the server restarted since."""
        held = timedelta(seconds=self.settings.finished_table_seconds)
        return datetime.now(UTC).replace(tzinfo=None) - held

    def _still_held(self, status: str, ended: datetime | None) -> bool:
        """Whether a stored table of ``status`` that last changed at ``ended`` is a finished one still
        held for its rematch (:meth:`_hold_finished`)."""
        return status == "over" and ended is not None and ended >= self._held_since()

    def _may_hold(self, table: Table) -> bool:
        """Whether ``table``, a copy shown as it ended (:meth:`_archived`), may be held here for its
        rematch instead (:meth:`_hold_finished`): with a shared database only, where it was shown here
        while another process held it, and only a finished one within ``finished_table_seconds``
        of its stored end."""
        return self.cluster is not None and self._still_held(table.status, table.stored_end)

    def _hold(self, table: Table) -> None:
        """Count the ended ``table``'s time in memory from its stored end (:attr:`Table.stored_end`), not
        from its rebuilding: a restart does not hold it longer than ``finished_table_seconds``."""
        if table.status in OPEN or table.stored_end is None:
            return
        ago = (datetime.now(UTC).replace(tzinfo=None) - table.stored_end).total_seconds()
        table._ended_at = asyncio.get_running_loop().time() - max(0.0, ago)

    async def _hold_finished(self, key: str) -> Table | None:
        """The finished table ``key``, which ended within ``finished_table_seconds`` but is not in this
        process's memory (the server restarted since, or with a shared database the process that
        held it stopped), rebuilt and held here as it would have been held: for its rematch, and
        until that time from its stored end is over. With a shared database only by the process that
        claims it (:meth:`route`: one holds it, the others relay to it or show it as it ended);
        ``None`` when another live process holds it, or the row changed meanwhile. No budget of
        :meth:`_archived` is spent: each such table is rebuilt once, as an open one is."""
        if self.cluster is not None:
            route = await self.route(key)  # claims it while no live process holds it
            if route is None or not route.mine:
                return None
        stored = await self.side_db(self.store.load, key)
        if stored is None or not self._still_held(stored.status, stored.updated_at):
            return None
        shown = self.tables.get(key)
        if shown is not None and shown.archived:  # shown here as it ended while another process held it
            shown.archived = False  # its connections stay with it
            shown.rematch_code, shown.stored_end = stored.rematch, stored.updated_at
            self._hold(shown)
            return shown
        table = await self._rebuilt(key, stored)
        if table is self.tables.get(key):  # another request rebuilt it meanwhile
            return table
        self._hold(table)
        self.tables[key] = table
        return table

    async def _rebuilt(self, key: str, stored: StoredTable) -> Table:
        """The ended table ``key`` replayed from ``stored`` off the event loop, or the one another
        request put in :attr:`tables` meanwhile (the caller keeps that one as it is). Requests for it
        while it is replayed wait for that replay (:attr:`_replaying`): a stranger's burst of lookups
        of one code costs one replay, also where no budget counts them (:meth:`_hold_finished`).

        Raises:
            LobbyError: the stored table this version cannot replay (:meth:`_unrestorable`).
        """
        held = self.tables.get(key)
        if held is not None:  # rebuilt by a request answered while this one read the database
            return held
        replaying = self._replaying.get(key)
        if replaying is None:  # the first request replays it; those meanwhile wait for that replay
            replaying = asyncio.ensure_future(asyncio.to_thread(self._replay, stored))
            self._replaying[key] = replaying
            replaying.add_done_callback(lambda _: self._replaying.pop(key, None))
        try:
            replayed = await asyncio.shield(replaying)
        except (RummyError, ValueError, KeyError) as exc:
            raise self._unrestorable(key, exc) from None
        held = self.tables.get(key)  # the first to wake put its table there: the callers keep it
        return held if held is not None else self._table_of(stored, replayed)

    def _make_room_for_archived(self, records: int) -> None:
        """Forget the ended tables rebuilt for lookups that were looked up least recently (first in
        :attr:`tables`: a lookup moves its table to the end) until one more of ``records`` records
        fits within :data:`ARCHIVED_IN_MEMORY` tables and :data:`ARCHIVED_RECORDS_IN_MEMORY` records.
        Tables nobody watches go first: a stranger who looks up long ended tables one after the other
        makes the server replay them, but does not cut off the people watching another one."""
        archived = [t for t in self.tables.values() if t.archived]
        archived.sort(key=lambda t: bool(t.clients))  # stable: unwatched first, each in lookup order
        held = sum(t.version for t in archived)
        most = ARCHIVED_RECORDS_IN_MEMORY
        while archived and (len(archived) >= ARCHIVED_IN_MEMORY or held + records > most):
            old = archived.pop(0)
            old.cancel()
            self.tables.pop(old.code, None)
            held -= old.version

    async def rematch_source(self, code: str, token: str, address: str | None = None) -> Table:
        """The finished table named by a rematch request over HTTP, played here. A table not in this
        process's memory has no rematch here (it ended too long ago, or another process plays it):
        the request is refused from its stored row, as :func:`~rummykit.web.rematch.rematch` would
        refuse it (``token`` is the host's or not), without replaying its match.

        Raises:
            LobbyError: 404 without such a table; 409 when another live process of this server
                plays it (a websocket to the table reaches that process: the page asks there); the
                refusals of :func:`~rummykit.web.rematch.refuse_rematch`; 429 ``too_many_misses`` for
                ``address``, the client's, as :meth:`find` says.
        """
        return await self._looked_up(code, address, token, lambda: self._rematch_source(code, token))

    async def _rematch_source(self, code: str, token: str) -> Table:
        key = self._key(code)
        table = self.tables.get(key) if key is not None else None
        if table is not None and table.owned and not table.archived:
            return table
        if key is not None and self.cluster is not None:
            route = await self.route(key, claim=False)
            if route is not None and not route.mine and route.owner is not None and route.alive:
                why = (
                    f"table {key} is played by another process of this server; ask for the rematch "
                    'over the table\'s websocket ({"type": "rematch"})'
                )
                raise refusal(409, "rematch_elsewhere", why, code=key)
        row = await self.side_db(self.store.lobby_row, key) if key is not None else None
        if row is None:
            raise self._missing(code, key)
        from rummykit.web.rematch import refuse_rematch

        seats = json.loads(row["seats"])
        stored = seats[0].get("token_hash") if seats else None
        host = isinstance(stored, str) and hmac.compare_digest(stored, hash_token(token))
        refuse_rematch(key or code, host, str(row["status"]), archived=False)
        # Finished within finished_table_seconds (a restart since, or its process stopped): held here.
        if key is not None and self._still_held(row["status"], row["updated_at"]):
            held = await self._hold_finished(key)
            if held is not None:
                return held
        refuse_rematch(key or code, host, str(row["status"]), archived=True)
        raise AssertionError("a table not held here has no rematch")  # refuse_rematch raised

    async def lobby(self, code: str, address: str | None = None, token: str | None = None) -> dict[str, Any]:
        """The lobby of one table (``GET /api/tables/{code}``), without loading it here, within the
        misses of the network of ``address`` (the client's; :mod:`rummykit.web.guesses`: a seat's
        ``token`` gets through a network whose misses are spent)."""
        return await self._looked_up(code, address, token, lambda: self._lobby(code))

    async def _lobby(self, code: str) -> dict[str, Any]:
        key = self._key(code)
        table = self.tables.get(key) if key is not None else None
        if table is not None:
            return table.lobby_json()
        # Another process's table, or one that ended and left memory (not one found unplayable here).
        if key is not None and key not in self._unrestored:
            row = await self.side_db(self.store.lobby_row, key)
            if row is not None and (self.store.shared or row["status"] not in OPEN_STATUSES):
                lobby = _stored_lobby(row, self.settings)
                if lobby is not None:
                    return lobby
        raise self._missing(code, key)

    async def rules_of(
        self, code: str, address: str | None = None, token: str | None = None
    ) -> tuple[str, Rules]:
        """A table's code and rules (its rules page), without loading it into this process, within
        the misses of the network of ``address`` (the client's; :mod:`rummykit.web.guesses`, as
        :meth:`lobby`)."""
        return await self._looked_up(code, address, token, lambda: self._rules_of(code))

    async def _rules_of(self, code: str) -> tuple[str, Rules]:
        key = self._key(code)
        table = self.tables.get(key) if key is not None else None
        if table is not None:
            return table.code, table.rules
        if key is not None:  # another process's table, or one that ended and left memory
            row = await self.side_db(self.store.lobby_row, key)
            if row is None:
                raise self._missing(code, key)
            if self.store.shared or row["status"] not in OPEN_STATUSES:
                with contextlib.suppress(RummyError):  # rules this version refuses: no page (logged at load)
                    return key, stored_rules(row["rules"], row["rules_revision"])
        raise no_table(code)

    async def lobbies(self) -> list[dict[str, Any]]:
        """The lobby list: the newest :data:`LOBBY_SIZE` open tables, oldest first; with a shared
        database every process's tables (the database is the list)."""
        if not self.store.shared:
            return [t.lobby_json() for t in self.listed_tables()[-LOBBY_SIZE:]]
        listed = []
        rows = await self._lobby_list()
        for row in reversed(rows):
            if row["code"] in self._unrestored:  # stored, but this version cannot play it
                continue
            table = self.tables.get(row["code"])
            if table is not None and table.owned:
                listed.append(table.lobby_json())
            elif (lobby := self._stored_entry(rows, row)) is not None:
                listed.append(lobby)
        return listed

    def _stored_entry(self, rows: list[dict[str, Any]], row: dict[str, Any]) -> dict[str, Any] | None:
        """The lobby entry of ``row``, one of the lobby's ``rows`` as last read (:func:`_stored_lobby`),
        made once per read: the list is public and asked for without a request budget, and each ask
        built every stored entry again (2 ms for a full lobby) and logged a refused row's rules again."""
        kept = self._stored_entries
        if kept is None or kept[0] is not rows:
            kept = self._stored_entries = (rows, {})
        code = row["code"]
        if code not in kept[1]:
            kept[1][code] = _stored_lobby(row, self.settings)
        return kept[1][code]

    async def _lobby_list(self) -> list[dict[str, Any]]:
        """A shared database's lobby rows, newest first: read at most once a second (counted from
        the end of the last read: :meth:`_read_lobby`) however often strangers ask (the list is
        public), by whichever request needs them first; requests that arrive while it is read wait
        for that read (each would cost a trip on the database thread, where every move is stored)."""
        loop = asyncio.get_running_loop()
        if self._lobby_rows is not None and loop.time() - self._lobby_rows[0] < LOBBY_LIST_SECONDS:
            return self._lobby_rows[1]
        if self._lobby_read is None:
            self._lobby_read = asyncio.ensure_future(self._read_lobby())
        return await asyncio.shield(self._lobby_read)  # a request given up does not stop the others'

    async def _read_lobby(self) -> list[dict[str, Any]]:
        """Read the lobby's rows, kept from when the read ended: a read slower than
        :data:`LOBBY_LIST_SECONDS` (a loaded database) kept from when it began was out of date at
        once, and the next request read again, so that a stranger asking for the list kept the
        database thread reading it back to back."""
        try:
            rows = await self.side_db(self.store.lobbies, LOBBY_SIZE)
            self._lobby_rows = (asyncio.get_running_loop().time(), rows)
            return rows
        finally:
            self._lobby_read = None

    async def shown_codes(self) -> set[str]:
        """The codes the lobby lists now (:meth:`lobbies`; with a shared database as read at most a
        second ago, whether or not anybody asked this process for the list): public, so a lookup of
        one tells nobody anything (:meth:`Lookup.prove_first
        <rummykit.web.guesses.Lookup.prove_first>`). A listed table beyond the newest
        :data:`LOBBY_SIZE` is not among them: nobody can see it without its code; nor is a stored one
        that :meth:`lobbies` leaves out (this version cannot play it, or refuses its stored rules)."""
        if not self.store.shared:
            return {t.code for t in self.listed_tables()[-LOBBY_SIZE:]}
        rows = await self._lobby_list()
        return {row["code"] for row in rows if self._shown_row(rows, row)}

    def _shown_row(self, rows: list[dict[str, Any]], row: dict[str, Any]) -> bool:
        """Whether :meth:`lobbies` shows the stored lobby ``row``, one of ``rows`` as last read: not a
        table this process could not replay, nor one whose stored rules this version refuses (unless
        this process plays it), judged by the entry the list makes of it (:meth:`_stored_entry`)."""
        if row["code"] in self._unrestored:
            return False
        table = self.tables.get(row["code"])
        return (table is not None and table.owned) or self._stored_entry(rows, row) is not None

    async def shows(self, code: str) -> bool:
        """Whether the lobby lists table ``code`` now (:meth:`shown_codes`)."""
        key = self._key(code)
        return key is not None and key in await self.shown_codes()

    # Per-address bounds (every process together, with a shared database) --------------------------
    async def take_shared(self, limiter: RateLimiter, kind: str, address: str) -> float:
        """With a shared database, spend one token of ``address``'s bucket ``kind`` there (the
        requests of every process together, at ``limiter``'s rate): ``0.0`` if granted (always without
        one), else seconds to wait. Asked only once this process's own bucket granted the request, so
        a stranger over the rate is refused without costing the database a transaction."""
        if self.cluster is None:
            return 0.0
        digest = self.digest(address)
        return await self.side_db(self.cluster.take, kind, digest, limiter.rate, limiter.burst)

    def digest(self, address: str) -> str:
        """What the database keeps of client ``address`` (:func:`~rummykit.web.owners.address_digest`)."""
        return address_digest(address, self._address_key)

    async def open_connection(self, address: str) -> Literal["address", "network"] | None:
        """Count a websocket connection from ``address`` and from its wider network (an IPv4 /24, an
        IPv6 /48: :func:`~rummykit.web.thinking.fair_network`) unless either has the most allowed;
        which refused it, or ``None`` when it was counted (:meth:`close_connection` uncounts it)."""
        network = NETWORK_PREFIX + fair_network(address)
        if not await self._count_connection(address, self.settings.max_connections_per_address):
            return "address"
        if not await self._count_connection(network, self.settings.max_connections_per_network):
            await self._uncount_connection(address)
            return "network"
        return None

    async def close_connection(self, address: str) -> None:
        for key in (address, NETWORK_PREFIX + fair_network(address)):
            await self._uncount_connection(key)

    async def _count_connection(self, key: str, most: int) -> bool:
        if self.cluster is not None:
            return await self.side_db(self.cluster.open_connection, self.digest(key), most)
        if self._connections.get(key, 0) >= most:
            return False
        self._connections[key] = self._connections.get(key, 0) + 1
        return True

    async def _uncount_connection(self, key: str) -> None:
        if self.cluster is not None:
            await self.side_db(self.cluster.close_connection, self.digest(key))
            return
        self._connections[key] -= 1
        if self._connections[key] <= 0:
            del self._connections[key]

    async def _run_leases(self) -> None:
        """Renew this process's lease; tables another process took over meanwhile are let go."""
        assert self.cluster is not None
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            started = loop.time()
            try:
                renew = partial(self.cluster.renew, self.settings.idle_table_seconds)
                owned = await loop.run_in_executor(self._lease_thread, renew)
            except Exception:
                log_failure(log, "the lease could not be renewed")
                continue
            self._lease_renewed = started
            for table in list(self.tables.values()):
                if table.status in OPEN and table.code not in owned and table.loaded_at < started:
                    log.warning("table %s is played by another process now", table.code)
                    self.unload(table)

    def idle_for(self, lookups: bool) -> float:
        """Seconds since the moves' database thread (``lookups``: the lookups' thread,
        :meth:`side_db`) last finished a storage call that returned (``inf`` before any)."""
        return (self._side if lookups else self._db).idle_for()

    def lease_age(self, now: float) -> float | None:
        """Seconds (loop time ``now``) since the last renewal of this process's lease that succeeded
        began (``math.inf`` once the renewals stopped); ``None`` without a shared database. A lease
        lasts :data:`~rummykit.web.owners.LEASE_SECONDS` from its renewal: an age near that means the
        lease's thread is stuck or the database refuses it, and other processes take the tables soon."""
        if self.cluster is None:
            return None
        if self._leases is None or self._leases.done():
            return math.inf
        return now - self._lease_renewed

    def get(self, code: str) -> Table:
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise no_table(code)
        return table

    def open_tables(self) -> list[Table]:
        return [t for t in self.tables.values() if t.status in OPEN]

    def listed_tables(self) -> list[Table]:
        """The open tables the lobby lists (not those found by their link alone)."""
        return [t for t in self.open_tables() if t.listed]

    async def load(self) -> None:
        """Rebuild every open stored table by replaying its actions; people are away until they
        reconnect. Then the finished ones that ended in the last ``finished_table_seconds``
        (:meth:`_hold`), and start the clocks.

        With a shared database (PostgreSQL), tables are instead loaded when a client asks for one
        (:meth:`find`), and changes made by other processes arrive as notices."""
        loop = asyncio.get_running_loop()
        await self.db(claim_key, self.store.claim_meta, self._address_key)
        if self.store.shared:
            key = secrets.token_hex(24)
            self.cluster = Cluster(self.store.engine, self.store.origin, self.relay_address, key)
            await self.db(self.cluster.register)
            self._lease_renewed = loop.time()
            self._listener = Listener(self.store.engine, self.store.origin, self.on_notice, self.on_resync)
            await asyncio.to_thread(self._listener.start, loop)
            self._clock = loop.create_task(self._run_clock())
            self._leases = loop.create_task(self._run_leases())
            return
        for stored in await self.db(self.store.load_open):
            try:
                table = self._rebuild(stored)
            except (RummyError, ValueError, KeyError) as exc:
                self._unrestorable(stored.code, exc)
                continue
            self.tables[table.code] = table
            if table.status == "playing":
                for i, s in enumerate(table.seats):
                    if s.kind == "human":
                        table._mark_away(i)
        # The matches that finished within finished_table_seconds, held as they were before the restart
        # (for their rematch, the organiser's in its list) for the rest of that time; a closed or
        # expired table is only looked up, as any ended table is (a restart does not load them).
        for stored in await self.db(self.store.load_ended, self._held_since()):
            try:
                table = self._rebuild(stored)
            except (RummyError, ValueError, KeyError) as exc:
                self._unrestorable(stored.code, exc)
                continue
            self._hold(table)
            self.tables[table.code] = table
        self._clock = asyncio.get_running_loop().create_task(self._run_clock())

    def _rebuild(self, stored: StoredTable) -> Table:
        return self._table_of(stored, self._replay(stored))

    def _replay(self, stored: StoredTable) -> tuple[Rules, bytes | None, Match, set[int] | None]:
        """A stored table's rules, dealing secret and match replayed to its last move, and the hand
        that has ended since (the work of :meth:`_rebuild`; no table or loop is touched).

        The rules text is read with the meaning it had under the rules revision it was stored with
        (:func:`~rummykit.web.tables.read_stored_rules`; what that took is logged once per table).

        Raises:
            ValueError: the table was stored by a newer rummykit (its rules revision is above this
                version's), or its rules are refused (:class:`~rummykit.errors.RulesError`).
        """
        read = read_stored_rules(stored.rules, stored.rules_revision)
        rules = read.rules
        if read.notes and stored.code not in self._read_noted:
            self._read_noted.add(stored.code)
            notes = "; ".join(note.en for note in read.notes)
            log.warning("table %s: its rules text %s; %s", stored.code, written(stored.rules_revision), notes)
        secret = self._dealing_secret(stored.secret, stored.sealed)
        match = new_table_match(rules, stored.players, stored.seed, secret, stored.dealer)
        try:
            closed = practice.play_on(match, practice.effective_actions(stored.actions))
        except RummyError as exc:
            raise UnplayableMoves(exc, stored.rules_revision, rules, len(match.actions) + 1) from None
        return rules, secret, match, closed

    def _table_of(
        self, stored: StoredTable, replayed: tuple[Rules, bytes | None, Match, set[int] | None]
    ) -> Table:
        rules, secret, match, closed = replayed
        seats = [Seat(**s) for s in stored.seats]
        status: Status = stored.status  # type: ignore[assignment]
        unsaved = match.is_over and status == "playing"
        if unsaved:
            status = "over"
        table = Table(
            self,
            stored.code,
            rules,
            stored.seed,
            secret,
            stored.dealer,
            seats,
            status,
            stored.takeover_seconds,
            match,
            stored.creator,
            hints_policy(stored.hints),
        )
        table._lobby_seen = (stored.status, json.dumps(stored.seats))
        table.records = len(stored.actions)
        table.fair = stored.fair
        table.listed = stored.listed
        table.organised, table.label = stored.organised, stored.label
        table.rematch_code, table.stored_end = stored.rematch, stored.updated_at
        table.stored_secret, table.sealed = stored.secret, stored.sealed
        table.rules_revision, table.stored_rules_text = stored.rules_revision, stored.rules
        table.end_unsaved = unsaved  # the row still says "playing": the clock writes the end
        if closed is not None:  # a hand has ended: who has not moved since may still read its result
            table.start_break(closed)
        return table

    def _dealing_secret(self, stored: bytes | None, sealed: bool) -> bytes | None:
        """The secret a table deals from, given what its row holds: the seal of it under the key
        file when ``sealed`` (new tables, when the server has a key), else the stored secret itself.

        Raises:
            ValueError: a sealed table on a server without its key (the start-up key check keeps
                a server with another key away).
        """
        if stored is None or not sealed:
            return stored
        if self._address_key is None:
            raise ValueError("a sealed table needs the server's key file to be dealt")
        return seal(self._address_key, stored)

    async def _check_capacity(self, digest: str | None, network: str | None, organised: bool = False) -> None:
        """Refuse a new table when the server, the creator's address (``digest``) or the creator's
        wider network (``network``, :func:`~rummykit.web.thinking.fair_network`'s digest) holds as
        many open tables as allowed; a table the organiser makes (``organised``), when the server or
        the organiser does (``max_organiser_tables``).

        A first look, before the table is built; the count that admits it is made again where it
        is stored (:meth:`create`), so that requests arriving together cannot each pass."""
        if self.cluster is not None:
            counts = await self.side_db(self.cluster.open_tables, digest, network)
        else:
            open_tables = self.open_tables()
            counts = (
                len(open_tables),
                sum(1 for t in open_tables if t.address == digest),
                sum(1 for t in open_tables if t.fair == network),
            )
        self._refuse_when_full(counts, digest, network)
        if organised:  # the organiser's page is refused with a shared database: every table is here
            made = sum(1 for t in self.open_tables() if t.organised)
            if made >= self.settings.max_organiser_tables:
                message = (
                    f"{made} open tables were made from the organiser's page, the limit; close one first, "
                    "or start the server with a higher --max-organiser-tables"
                )
                raise refusal(429, "too_many_organiser_tables", message, 60.0, made=str(made))

    def _refuse_when_full(
        self, counts: tuple[int, int, int], digest: str | None, network: str | None
    ) -> None:
        """Raise the refusal of :meth:`_check_capacity` for ``counts``: the open tables of the
        server, of ``digest`` and of ``network``."""
        settings = self.settings
        total, mine, ours = counts
        if total >= settings.max_tables:
            message = f"the server has {total} open tables, its limit"
            raise refusal(429, "server_full", message, 60.0, total=str(total))
        if digest is not None and mine >= settings.max_tables_per_address:
            message = (
                f"{mine} open tables were created from your network, the limit (a school or office shares "
                "one address); finish or leave one first, or ask whoever runs the server to raise "
                "--max-tables-per-address"
            )
            raise refusal(429, "too_many_tables", message, 60.0, mine=str(mine))
        if network is not None and ours >= settings.max_tables_per_network:
            message = (
                f"{ours} open tables were created from your network, the limit; finish or leave one first"
            )
            raise refusal(429, "too_many_network_tables", message, 60.0, ours=str(ours))

    def _capacity_guard(self, digest: str | None, network: str | None) -> Guard | None:
        """With a shared database, the count of :meth:`_check_capacity` made in the transaction that
        stores the new table, under a lock every creation takes (:func:`lock_counts`)."""
        if self.cluster is None:
            return None

        def guard(c: Connection) -> None:
            lock_counts(c, "tables")
            self._refuse_when_full(count_open_tables(c, digest, network), digest, network)

        return guard

    async def check_seats(self, digest: str, network: str, joining: Table) -> None:
        """Refuse a join from ``digest`` (a network's address digest) that already holds the most
        seats allowed in waiting tables it did not create, or whose wider ``network`` (its digest,
        :func:`~rummykit.web.thinking.fair_network`) does; its own tables do not count, nor does a
        join to one of them.

        With a shared database this is a first look: the count that admits the join is made again
        where the seat is stored (:meth:`seats_guard`)."""
        if joining.address == digest or joining.organised:
            return
        if self.cluster is not None:
            counts = await self.side_db(self.cluster.seats_held, digest, network)
        else:
            joined = [
                s
                for t in self.tables.values()
                if t.status == "waiting" and t.address != digest and not t.organised
                for s in t.seats
                if s.kind == "human"
            ]
            counts = (
                sum(1 for s in joined if s.joined_from == digest),
                sum(1 for s in joined if s.joined_net == network),
            )
        self._refuse_seats(counts)

    def seats_guard(self, digest: str, network: str, joining: Table) -> Guard | None:
        """With a shared database, the count of :meth:`check_seats` made in the transaction that
        stores the joined seat, under a lock every join from ``network`` takes (:func:`lock_counts`;
        in one process the count and the seat are one step already)."""
        if self.cluster is None or joining.address == digest or joining.organised:
            return None

        def guard(c: Connection) -> None:
            lock_counts(c, "seats:" + network)
            self._refuse_seats(count_seats_held(c, digest, network))

        return guard

    def _refuse_seats(self, counts: tuple[int, int]) -> None:
        """Raise the refusal of :meth:`check_seats` for ``counts``: the seats held by the address and
        by its network."""
        held, ours = counts
        if ours >= self.settings.max_seats_per_network:
            message = (
                f"your network already holds {ours} seats at other people's waiting tables, the limit; "
                "leave one or wait until a table starts"
            )
            raise LobbyError(
                429,
                message,
                60.0,
                texts=server_error_texts("too_many_network_seats", message, ours=str(ours)),
                error="too_many_network_seats",
            )
        if held >= self.settings.max_seats_per_address:
            seats = f"{held} seat" if held == 1 else f"{held} seats"
            seats_de = f"{held} Platz" if held == 1 else f"{held} Plätze"
            message = (
                f"your network already holds {seats} at other people's waiting tables, the limit (a school "
                "or office shares one address); leave one or wait until a table starts"
            )
            texts = server_error_texts("too_many_seats", message, seats_de=seats_de)
            raise LobbyError(429, message, 60.0, texts=texts, error="too_many_seats")

    @staticmethod
    def check_server_rules(rules: Rules) -> None:
        """Refuse what the library allows but a server does not: a hand that need never end."""
        if rules.max_stock_rebuilds is None:
            low, high = option_range("max_stock_rebuilds")
            message = (
                "max_stock_rebuilds: unlimited is not offered by this server (a hand must be able to "
                f"end); choose between {low} and {high}"
            )
            raise refusal(400, "unlimited_rebuilds", message, low=str(low), high=str(high))

    async def create(self, spec: CreateTable, address: str | None = None) -> tuple[Table, int, str]:
        """A new table created from client ``address`` (with a shared database, it is played by the
        process its first websocket reaches); the creator takes seat 0 (its token is returned)."""
        table, token = await self._create(spec, address, organised=False)
        assert token is not None
        return table, 0, token

    async def create_organised(self, spec: CreateTable) -> Table:
        """A new table the organiser makes (:mod:`rummykit.web.organiser`): every seat but the bots'
        open for people (``spec.name`` is not used), no host. It counts against ``max_tables`` and
        ``max_organiser_tables``, not against any address's caps: the organiser is known by the key,
        and a class shares the school's address. Bots think for it as for a table of its own."""
        table, _ = await self._create(spec, None, organised=True)
        return table

    async def _create(
        self, spec: CreateTable, address: str | None, organised: bool
    ) -> tuple[Table, str | None]:
        # What the request asks that no server grants is refused first: a refusal of an invalid
        # request does not depend on how full the server is (a full one answered 429 to it).
        if spec.label.strip() and not organised:
            message = "label: only the organiser's page gives a table a label"
            raise refusal(400, "label_organiser_only", message)
        if spec.seed is not None and not self.settings.allow_seeded:
            message = "this server does not offer seeded tables (no 'seed')"
            raise refusal(400, "no_seeded_tables", message)
        digest = None if address is None else self.digest(address)
        network = None if address is None else self.digest(fair_network(address))
        await self._check_capacity(digest, network, organised)
        stored = None if spec.seed is not None else new_secret()
        secret = self._dealing_secret(stored, self._address_key is not None)
        try:
            rules = Rules.from_mapping({"preset": spec.preset, **spec.overrides})
            if Rules.parse(str(rules)) != rules:
                message = f"the rule set {rules} does not survive its text form"
                raise refusal(400, "rules_text", message, rules=str(rules))
            self.check_server_rules(rules)
            match = new_table_match(rules, spec.seats, spec.seed, secret, None)
        except RulesError as exc:
            raise LobbyError(400, str(exc), texts=engine_error_texts(exc), error="rules") from None
        if len(spec.bots) > spec.seats - 1:
            most = spec.seats - 1
            bots = "1 bot" if most == 1 else f"{most} bots"
            bots_de = "1 Bot" if most == 1 else f"{most} Bots"
            message = f"at most {bots} at a table of {spec.seats}"
            raise refusal(400, "too_many_bots", message, bots_de=bots_de, seats=str(spec.seats))
        seats = [] if organised else [Seat("human", spec.name.strip())]
        seats += [Seat("open") for _ in range(spec.seats - len(seats) - len(spec.bots))]
        for i, b in enumerate(spec.bots, start=len(seats)):
            kind = b.kind or default_bot_kind()
            if kind.split(":", 1)[0].strip().lower() not in WEB_BOT_KINDS:
                kinds = ", ".join(WEB_BOT_KINDS)
                message = f"unknown bot {quoted(kind)}; bots: {kinds}"
                texts = server_error_texts("unknown_bot", message, kind=quoted(kind), kinds=kinds)
                raise LobbyError(400, message, texts=texts, error="unknown_bot")
            try:
                make_bot(kind, b.level)
            except RummyError:  # the kind is a web bot's: its level is not a level, or given twice
                levels = ", ".join(BOT_LEVELS)
                at = f" at level {quoted(b.level)}" if b.level else ""
                message = f"no bot {quoted(kind)}{at}; levels: {levels}"
                raise refusal(400, "bad_bot", message, kind=quoted(kind), levels=levels) from None
            seats.append(Seat("bot", f"Bot {i + 1}", kind, b.level))
        takeover = spec.takeover_seconds if spec.takeover_seconds is not None else self.takeover_seconds
        guard = self._capacity_guard(digest, network)
        async with self._creating:  # in one process, the count and the table it admits are one step
            if guard is None:
                await self._check_capacity(digest, network, organised)
            for _ in range(CODE_ATTEMPTS):
                code = self._new_code()
                table = Table(
                    self, code, rules, spec.seed, secret, match.first_dealer, seats, "waiting", takeover,
                    match, digest, spec.hints,
                )  # fmt: skip
                table.fair = network
                # A practice table (every other seat a bot) is found by its link alone unless asked.
                # An organiser's table too: pupils join by the code on the board, strangers do not see it.
                practice = len(spec.bots) >= spec.seats - 1
                table.listed = spec.listed if spec.listed is not None else not (practice or organised)
                table.organised, table.label = organised, spec.label.strip()
                table.stored_secret, table.sealed = stored, secret is not stored
                token = None if organised else table._new_token(0)
                try:
                    await self.db(self.store.create, table._stored(), guard)
                except IntegrityError:
                    continue  # the code of a table stored before (closed, or another process's): draw again
                break
            else:
                raise refusal(503, "no_code", "no free table code was found; please try again", 1.0)
            table._lobby_seen = ("waiting", json.dumps([asdict(s) for s in table.seats]))
            if self.cluster is None:
                self.tables[code] = table
            else:
                # The process that the table's first websocket reaches plays it (behind a proxy that
                # hashes the table code, the machine all its websockets reach); until then a copy.
                table.owned = False
        if all(s.kind != "open" for s in seats):
            async with table.lock:
                await table._begin()
        return table, token

    def _new_code(self) -> str:
        """Six random characters that no table in memory has (the database, which keeps the rows of
        closed tables and those of other processes, refuses a code it has: :meth:`create` draws again)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    @property
    def tick_seconds(self) -> float:
        """How often the clocks run: once a second, more often for short test settings."""
        s = self.settings
        clocks = [s.turn_seconds, s.idle_table_seconds, s.finished_table_seconds]
        if s.hand_break_seconds > 0:  # 0: no break between hands, not a faster clock
            clocks.append(s.hand_break_seconds)
        return max(0.02, min(1.0, *(c / 4 for c in clocks)))

    async def prune(self) -> int:
        """Delete the tables that ended more than ``keep_ended_days`` ago (in batches); how many."""
        days = self.settings.keep_ended_days
        if days <= 0:
            return 0
        # Never a table that may still be in a server's memory (finished_table_seconds) or leased.
        kept = max(timedelta(days=days), timedelta(seconds=self.settings.finished_table_seconds + 3600))
        before = datetime.now(UTC).replace(tzinfo=None) - kept
        total = 0
        while (gone := await self.db(self.store.prune, before)) > 0:
            total += gone
            await asyncio.sleep(0)  # let the moves of the tables through between batches
        if not self.store.shared:
            # With one process, every open table it could replay is in its memory (loaded at the
            # start): an open one unchanged for as long that it does not hold is one it cannot play.
            playing = set(self.tables)
            while (gone := await self.db(self.store.prune_unplayed, before, playing)) > 0:
                total += gone
                await asyncio.sleep(0)
        if total:
            log.info("deleted %d tables that ended before %s", total, before.isoformat(timespec="seconds"))
        return total

    async def forget_addresses(self) -> int:
        """Erase the stored address digests that no limit counts any more (:meth:`Store.forget_addresses`)."""
        return await self.db(self.store.forget_addresses, time.time() - STALE_RATE_SECONDS)

    async def _run_clock(self) -> None:
        loop = asyncio.get_running_loop()
        pruned_at = -math.inf
        while True:
            await asyncio.sleep(self.tick_seconds)
            now = loop.time()
            if now - pruned_at >= PRUNE_SECONDS:
                pruned_at = now
                try:
                    await self.prune()
                    await self.forget_addresses()
                except Exception:
                    log_failure(log, "pruning ended tables failed")
            for table in list(self.tables.values()):
                try:
                    await table.tick(now)
                except Exception:
                    log_failure(log, "table %s: clock failed", table.code)
                ended = table.ended_at
                if table.end_unsaved:
                    continue  # kept until its end is stored: unloaded, its row would read as playing
                if ended is not None and now - ended >= self.settings.finished_table_seconds:
                    table.cancel()
                    self.tables.pop(table.code, None)

    @staticmethod
    async def _close_thinkers(pool: ProcessPoolExecutor) -> None:
        """Stop the bot processes: decisions not begun are dropped, the one being made may finish
        within :data:`POOL_CLOSE_SECONDS` (a search's budget is about a second), and a process still
        busy after that is ended. Joined here, the pool releases its queues and locks before the
        server exits (:func:`rummykit.web.runtime.exit_on_sigterm`)."""
        processes = list((getattr(pool, "_processes", None) or {}).values())  # to end one that hangs
        stopping = asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        try:
            await asyncio.wait_for(stopping, POOL_CLOSE_SECONDS)
        except TimeoutError:
            for process in processes:
                process.terminate()

    async def close(self) -> None:
        for task in (self._clock, self._leases):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, timeout=5.0)
        if self._thinkers is not None:
            await self._close_thinkers(self._thinkers)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.stop)
        for table in self.tables.values():
            table.cancel()
        loop = asyncio.get_running_loop()
        if self.cluster is not None:
            # A renewal under way on its thread (its task is cancelled, not its transaction) ends
            # first: committed after the release, it would write the process's row back, the
            # stopped process alive to the others for a lease. So do a claim or a connection's
            # count on the lookups' thread: committed after it, it would hold a table or count a
            # connection for a process that is gone.
            await loop.run_in_executor(None, partial(self._lease_thread.shutdown, wait=True))
            await loop.run_in_executor(None, partial(self._side.shutdown, wait=True))
            with contextlib.suppress(Exception):
                await self.db(self.cluster.release, None)  # the others may take the tables at once
        await loop.run_in_executor(None, partial(self._db.shutdown, wait=True))
        self._side.shutdown(wait=False)  # idle already (unused without a shared database)
        self._lease_thread.shutdown(wait=False)
        self.store.close()


def _stored_lobby(row: dict[str, Any], settings: ServerSettings) -> dict[str, Any] | None:
    """A stored table's lobby entry, its turn clock as its owner has it (``practice_turn_seconds`` for
    a person alone with bots: :meth:`Table.lobby_json`), or ``None`` (logged) for a table whose stored
    rules this version refuses: a table made before a combination of options was found unplayable (a
    match without an end, hands too small to open) is neither listed nor shown, rather than breaking
    the list."""
    clock = shown_turn_seconds([Seat(**s) for s in json.loads(row["seats"])], settings)
    try:
        return stored_lobby_json(row, clock)
    except RummyError as exc:
        log.warning("table %s: its stored rules are refused: %s", row["code"], exc)
        return None
