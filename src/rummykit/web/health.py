"""The health check of a server process (``GET /api/health``): whether each of its database threads
does its work, so that a load balancer takes out a process whose tables could not be played.

A process has one database thread with SQLite and three with a shared PostgreSQL database
(:class:`~rummykit.web.manager.TableManager`): the moves' (group commits, lobby writes), the
lookups' (what strangers' requests and connections cause:
:meth:`~rummykit.web.manager.TableManager.side_db`) and the lease's. The first two are each asked
for one round trip to the database, together, and given :data:`ANSWER_SECONDS`. A thread that does
not answer in time is stuck only if it has not finished any other call in that time either (a
statement that waits on a lock, a database that froze): one that is merely busy, its queue long but
moving, is healthy, or anybody sending enough requests to queue lookups for the wait would have the
load balancer take the process out. A thread that is gone (its executor shut down) or whose database
answers with an error is unhealthy at once. The lease's thread is judged by its work, without
adding any: the lease is renewed every :data:`~rummykit.web.owners.RENEW_SECONDS`, and one not
renewed for :data:`LEASE_LATE_SECONDS` (a renewal that waited as long as the others are given, or
renewals that fail, or stopped) belongs to a process whose tables the others take soon.

The answer is kept :data:`CACHE_SECONDS`, so asking often costs the database at most two round trips
a second, and requests that arrive while a check is under way wait for that check. Whatever failed,
the answer says no more than that the database does not answer (503); the log names the thread.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Final

from rummykit.web.manager import TableManager
from rummykit.web.owners import RENEW_SECONDS

log = logging.getLogger("rummykit.web")

CACHE_SECONDS: Final = 1.0
"""How long an answer of the health check is kept."""
ANSWER_SECONDS: Final = 5.0
"""How long the health check waits for a database thread's answer."""
LEASE_LATE_SECONDS: Final = RENEW_SECONDS + ANSWER_SECONDS
"""A lease not renewed for this long makes the process unhealthy: the renewal due has waited as long
as a thread's answer may (a lease lasts :data:`~rummykit.web.owners.LEASE_SECONDS`)."""


class HealthCheck:
    """The checks of one application's health requests (:meth:`healthy`)."""

    def __init__(self) -> None:
        self._answer: tuple[float, bool] = (-math.inf, True)
        """When the last check ended (loop time), and whether it found the process healthy."""
        self._checking: asyncio.Future[bool] | None = None
        """The check under way, which the requests meanwhile share."""

    async def healthy(self, manager: TableManager) -> bool:
        """Whether ``manager``'s database threads do their work (as checked at most
        :data:`CACHE_SECONDS` ago); a check takes :data:`ANSWER_SECONDS` at most."""
        checked, answer = self._answer
        if asyncio.get_running_loop().time() - checked < CACHE_SECONDS:
            return answer
        if self._checking is None:
            self._checking = asyncio.ensure_future(self._check(manager))
        return await asyncio.shield(self._checking)  # a request given up does not stop the others'

    async def _check(self, manager: TableManager) -> bool:
        try:
            found = await problems(manager)
        finally:
            self._checking = None
        for problem in found:
            log.warning("health: %s", problem)
        self._answer = (asyncio.get_running_loop().time(), not found)
        return not found


async def problems(manager: TableManager) -> list[str]:
    """What keeps ``manager``'s process from playing its tables, for the log (empty: nothing)."""
    store = manager.store
    moves = partial(manager.idle_for, False)
    threads = [_answers("the moves' database thread", manager.db(store.ping), moves)]
    if store.shared:
        lookups = partial(manager.idle_for, True)
        threads.append(_answers("the lookups' database thread", manager.side_db(store.ping), lookups))
    found = [problem for problem in await asyncio.gather(*threads) if problem is not None]
    age = manager.lease_age(asyncio.get_running_loop().time())
    if age is not None and age >= LEASE_LATE_SECONDS:
        late = "is no longer renewed" if math.isinf(age) else f"was last renewed {age:.0f} s ago"
        found.append(f"the lease {late} (the lease's database thread)")
    return found


async def _answers(thread: str, ping: Awaitable[None], idle_for: Callable[[], float]) -> str | None:
    """``None`` when the round trip ``ping`` through ``thread`` is answered in time, or when the
    thread, busy, finished other work within that time (``idle_for``: seconds since it last did);
    else why not."""
    try:
        await asyncio.wait_for(ping, ANSWER_SECONDS)
    except TimeoutError:
        if idle_for() < ANSWER_SECONDS:
            return None  # busy: its queue is longer than the wait, yet it moves
        return f"{thread} does not answer (stuck for {ANSWER_SECONDS:.0f} s)"
    except Exception as exc:  # the database's error, an executor shut down: not answering
        return f"{thread} does not answer ({type(exc).__name__})"
    return None
