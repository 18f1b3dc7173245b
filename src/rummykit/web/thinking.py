"""Bot decisions on a shared server: fair among the networks that made the tables, made on a copy of
the match so that no table waits for a bot under its lock, and kept with the bot's memory.

The bot processes (or one thread) are few and a decision of ``search:hard`` takes up to a second, so
a stranger running several tables of hard bots could otherwise keep every other table's bots
waiting: the process pool serves decisions first come, first served. :class:`FairThinkers` keeps
the decisions waiting for a free process in one queue per *key* (the network that created the table,
:func:`table_key`) and, whenever a process is free, starts the oldest decision of the key that used
the least bot time lately (its seconds of thinking, halved every :data:`USAGE_HALF_LIFE` seconds).
A key with one table is then served as soon as a process frees, however many decisions another key
has waiting, and a key that thought much lately yields to the others. No process stays idle while
a decision waits (a busy server slows the heavy users first, an idle one lets them use it all).

A decision is made on a pickled copy of the match (:func:`snapshot`: the current hand and the match's
standing, not its finished hands), so the table can serve its
people (chat, hints, joining, the clocks) while its bot thinks; the table checks on its return that
nothing moved meanwhile. The bot comes back from the process with the decision: a search bot keeps
what it learned of the other seats' hands (:class:`~rummykit.bots.inference.TableMemory`) from one
decision to the next, as it does in the arena.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import math
import pickle
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

from rummykit.actions import Action
from rummykit.bots import Bot, match_action
from rummykit.match import Match

USAGE_HALF_LIFE: Final = 60.0
"""Seconds after which a key's past bot time counts half in the choice of the next decision."""

USAGE_STEP: Final = 0.05
"""Keys whose recent use differs by less than this many seconds are served oldest decision first."""

Decision = tuple[Action, Bot]
"""A bot's action and the bot after making it (with what it learned)."""

Submit = Callable[[Bot, bytes, random.Random], Awaitable[Decision]]
"""Runs :func:`decide` somewhere (a process pool, a thread) and returns its result."""


DECISION_LEAVES_OUT: Final = ("rounds", "actions", "history")
"""What a bot decision never reads of a match and its snapshot leaves out: the finished hands and the
match's logs of actions and events. A decision reads the current hand (its history included), the
totals, chips, buy-backs and pending decisions (:func:`~rummykit.bots.match_action`,
:class:`~rummykit.views.MatchView`); the finished hands grew the copy with the match, to 1.2 MB
pickled in 60 ms on the event loop (and unpickled in 77 ms in the bot process) for every decision
of a 100-hand match, where the current hand costs 0.1–0.3 ms whatever came before it."""


def snapshot(match: Match) -> bytes:
    """The match as a bot decides on it: a pickled copy of what a decision reads (all of the match but
    :data:`DECISION_LEAVES_OUT`), taken while the table's lock is held."""
    state = {**vars(match), **{name: [] for name in DECISION_LEAVES_OUT}}
    trimmed = Match.__new__(Match)
    trimmed.__dict__.update(state)
    return pickle.dumps(trimmed, pickle.HIGHEST_PROTOCOL)


def decide(bot: Bot, match: bytes, rng: random.Random) -> Decision:
    """Make ``bot``'s decision on the pickled ``match`` (in a bot process or a thread)."""
    return match_action(bot, pickle.loads(match), rng), bot  # the server's own snapshot, never input


def table_key(creator: str | None, code: str) -> str:
    """The key a table's bot decisions share: the digest of the network that created it, else (a
    table made without a client address) the table's own code."""
    return f"net:{creator}" if creator is not None else f"table:{code}"


FAIR_IPV4_BITS: Final = 24
FAIR_IPV6_BITS: Final = 48
"""The networks bot time is shared among: an IPv4 /24 and an IPv6 /48 (a home connection often has a
/56 or a /48 of its own, 256 or 65,536 of the /64s the limits count by). Coarser than the limits'
networks on purpose: someone holding many of them does not get a share for each."""


def fair_network(address: str) -> str:
    """The sharing network (:data:`FAIR_IPV4_BITS`, :data:`FAIR_IPV6_BITS`) of a client ``address``
    (an address, or a network key such as ``2001:db8::/64``); the address itself if unreadable."""
    try:
        ip = ipaddress.ip_interface(address).ip
    except ValueError:
        return address
    bits = FAIR_IPV4_BITS if ip.version == 4 else FAIR_IPV6_BITS
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


@dataclass
class _Job:
    key: str
    bot: Bot
    match: bytes
    rng: random.Random
    number: int
    future: asyncio.Future[Decision] = field(repr=False)


class FairThinkers:
    """Runs bot decisions through ``submit`` on at most ``slots`` at once, fairly among keys (see the
    module docstring). ``clock`` gives seconds (tests pass their own)."""

    def __init__(self, slots: int, submit: Submit, clock: Callable[[], float] = time.monotonic) -> None:
        if slots < 1:
            raise ValueError(f"slots must be at least 1, not {slots}")
        self.slots = slots
        self._submit = submit
        self._clock = clock
        self._waiting: dict[str, deque[_Job]] = {}
        self._usage: dict[str, tuple[float, float]] = {}
        """Per key: the bot seconds used (decayed) and when that figure was last brought up to date."""
        self._running = 0
        self._numbers = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> int:
        """Decisions being made now."""
        return self._running

    def waiting(self, key: str | None = None) -> int:
        """Decisions waiting for a free slot (of ``key``, or of all keys)."""
        if key is not None:
            return len(self._waiting.get(key, ()))
        return sum(len(q) for q in self._waiting.values())

    def usage(self, key: str) -> float:
        """The bot seconds ``key`` used lately (halved every :data:`USAGE_HALF_LIFE` seconds)."""
        used, at = self._usage.get(key, (0.0, 0.0))
        if used == 0.0:
            return 0.0
        return used * math.exp2(-(self._clock() - at) / USAGE_HALF_LIFE)

    async def think(self, key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision:
        """``bot``'s decision on the pickled ``match`` (:func:`snapshot`), in ``key``'s turn.

        A caller cancelled while its decision waits gives up its place; once started, a decision runs
        to its end (a process cannot be interrupted) and its result is dropped."""
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        job = _Job(key, bot, match, rng, next(self._numbers), future)
        self._waiting.setdefault(key, deque()).append(job)
        self._dispatch()
        return await future

    def _next(self) -> _Job | None:
        """The oldest waiting decision of the key with the least recent use (:meth:`_rank`; among
        equals, the key whose decision has waited longest)."""
        while self._waiting:
            key = min(self._waiting, key=lambda k: (self._rank(k), self._waiting[k][0].number))
            queue = self._waiting[key]
            job = queue.popleft()
            if not queue:
                del self._waiting[key]
            if not job.future.done():  # a caller that gave up is skipped
                return job
        return None

    def _rank(self, key: str) -> int:
        """``key``'s recent use in steps of :data:`USAGE_STEP` (use that differs by less is equal)."""
        return int(self.usage(key) / USAGE_STEP)

    def _dispatch(self) -> None:
        while self._running < self.slots:
            job = self._next()
            if job is None:
                return
            self._running += 1
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: _Job) -> None:
        start = self._clock()
        try:
            result = await self._submit(job.bot, job.match, job.rng)
        except asyncio.CancelledError:
            job.future.cancel()
            raise
        except Exception as exc:  # handed to the caller, who reports it
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._charge(job.key, self._clock() - start)
            self._running -= 1
            self._dispatch()

    def _charge(self, key: str, seconds: float) -> None:
        self._usage[key] = (self.usage(key) + max(0.0, seconds), self._clock())
        if len(self._usage) > 4 * (len(self._waiting) + self.slots) + 64:
            self._forget()

    def _forget(self) -> None:
        """Drop the keys whose use has faded (under a millisecond), so the table stays small."""
        for key in [k for k in self._usage if k not in self._waiting and self.usage(k) < 1e-3]:
            del self._usage[key]
