"""Process settings of a server process: the garbage collector, following the parent process, and
how often uvicorn may repeat one log line.

After start-up a server process holds a few hundred thousand long-lived objects (the modules of
FastAPI, SQLAlchemy, pydantic, the engine). CPython's cyclic collector walks them again at every full
collection and, with its default thresholds (a young collection every 700 allocations net of frees,
a middle one every 10 young ones), pauses a busy server every few moves: measured under 100 clients,
about a hundred young and ten middle collections per 10,000 moves, the middle ones 10–15 ms each on
the shared 2-core machine. :func:`settle_garbage_collector` moves what start-up made into the
permanent generation (``gc.freeze``), so no collection walks it again, and collects the young
generation less often: three young collections and no middle one in the same run. Reference counting
still frees almost everything a move makes at once; the cyclic collector only finds cycles.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final

THRESHOLDS: Final = (20_000, 20, 20)
"""Allocations (net of frees) between young collections, young collections per middle one, middle
ones per full one (CPython's defaults: 700, 10, 10)."""


def settle_garbage_collector() -> None:
    """Freeze what exists now and collect less often. For a server process once started (a process
    that makes and drops many apps, such as a test run, would keep their garbage)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


SERVER_LOG_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The server's own log lines (``rummykit.*``) on stderr: when, how bad, whose, what."""


FILES_BESIDE: Final = 256
"""Open files a server process needs beside its websocket connections: its listeners, database
connections, the pipes of its bot processes, its log."""


def open_files_for(connections: int) -> int:
    """Raise this process's soft limit of open files toward its hard limit, far enough for
    ``connections`` websocket connections and :data:`FILES_BESIDE`; the connections the limit then
    allows (``connections`` where it allows them all, or where the system has no such limit).

    Without this, a server under a service manager's usual limit of 1,024 files stopped answering
    anything once a thousand connections were open (each is a file); with the connections capped
    below the limit, it refuses the next websocket and still answers HTTP.
    """
    try:
        import resource
    except ImportError:  # not a Unix system
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + FILES_BESIDE
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - FILES_BESIDE))


LOG_LEVELS: Final = ("debug", "info", "warning", "error")
"""The levels ``rummykit serve --log-level`` takes: ``info`` (the default) adds to the warnings and
errors the tables that end at the move limit, the ended tables deleted and a table's stored end;
``debug`` adds what a developer follows (an end not stored yet)."""


def log_to_stderr(level: str = "info") -> None:
    """Write the ``rummykit`` loggers' lines of ``level`` (one of :data:`LOG_LEVELS`) and above to
    stderr, each with its time and level (without this, Python wrote only warnings, bare: an operator
    could not tell when a table failed to load or how bad a line was). The handler is installed once
    per process; uvicorn's own lines keep its format. The lines still reach the root logger's
    handlers, where a program that embeds the server set some.

    Raises:
        ValueError: a level not in :data:`LOG_LEVELS`.
    """
    if level not in LOG_LEVELS:
        raise ValueError(f"a log level is one of {', '.join(LOG_LEVELS)}, not {level!r}")
    logger = logging.getLogger("rummykit")
    logger.setLevel(level.upper())
    if any(isinstance(h, _ServerLog) for h in logger.handlers):
        return
    handler = _ServerLog()
    handler.setFormatter(logging.Formatter(SERVER_LOG_FORMAT))
    logger.addHandler(handler)


class _ServerLog(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`log_to_stderr` installs (known by its class, so it is installed once). It
    writes to ``sys.stderr`` as it is when a line comes, not as it was when installed: a command that
    failed after installing it (a port in use) left a closed stream behind in a test run."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        """The stream is always the current ``sys.stderr``: what StreamHandler sets is ignored."""


def exit_on_sigterm() -> None:
    """End the server with a normal exit, status 0, when SIGTERM arrives before or after uvicorn's
    graceful stop: the stop was asked for (a supervisor, ``systemctl stop``, ``docker stop``), and
    ``rummykit serve --workers`` exits so too.

    uvicorn catches SIGTERM, stops gracefully, then raises the signal again with the handler that
    was there before it ran: Python's default ends the process by the signal, which skips the exit
    handlers, and multiprocessing's exit handlers are what remove the bot pool's named semaphores
    (otherwise its resource tracker warns of "leaked semaphore objects" at every stop)."""
    signal.signal(signal.SIGTERM, _exit_asked)


def _exit_asked(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


PR_SET_PDEATHSIG: Final = 1
"""Linux ``prctl`` option: the signal a process gets when its parent ends."""
GRACE_SECONDS: Final = 15.0
"""How long a server process that lost its parent may take to stop before it is ended outright."""


def follow_parent(parent: int, graceful: bool) -> None:
    """End this process when its parent ``parent`` is gone, even when the parent was killed with
    SIGKILL (and so could not stop its children): ``rummykit serve --workers`` processes and the
    bot processes would otherwise live on as orphans, holding the port and the tables.

    ``graceful``: stop as on SIGTERM (a server closes its connections and gives up its tables), and
    outright after :data:`GRACE_SECONDS`; otherwise exit at once (a bot process holds nothing). On
    Linux the kernel sends the signal the moment the parent ends (``PR_SET_PDEATHSIG``); everywhere a
    thread also looks once a second, which covers other systems and a parent that ended before."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM if graceful else signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch below still stops it

    def gone() -> None:
        if graceful:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(GRACE_SECONDS)
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        gone()

    threading.Thread(target=watch, name="rummykit-parent-watch", daemon=True).start()


INVALID_REQUEST: Final = "Invalid HTTP request received."
"""What uvicorn logs (as a warning of ``uvicorn.error``) for each malformed HTTP request, before any
rate limit of the server sees the request."""
UNSUPPORTED_UPGRADE: Final = "Unsupported upgrade request."
"""What uvicorn logs likewise for each request asking to upgrade to a protocol it does not speak."""
FLOOD_LINES: Final = (INVALID_REQUEST, UNSUPPORTED_UPGRADE)
"""uvicorn's fixed lines a client can have written once per request it sends: each limited."""
REPEATS_SHOWN: Final = 10
REPEAT_SECONDS: Final = 60.0
"""At most this many identical lines an interval: the rest are counted and said in one line."""


class RepeatLimit(logging.Filter):
    """A logger's filter that lets through at most ``most`` records of one ``message`` per
    ``interval`` seconds; the others are counted, and once the interval is over one line (on the same
    logger, as a warning) says how many were left out. Every other record passes untouched.

    One client can send thousands of malformed requests a second, and uvicorn writes a line for each
    before anything of the server sees them (measured: 3,000 lines at 6,500 a second): without this
    it fills the log and the disk. The count is said at the first such record after the interval or,
    in a process with a running event loop (uvicorn logs from its loop), by a timer at the
    interval's end, so a flood that stops is counted too."""

    def __init__(
        self,
        logger: logging.Logger,
        message: str = INVALID_REQUEST,
        most: int = REPEATS_SHOWN,
        interval: float = REPEAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.logger = logger
        self.message = message
        self.most = most
        self.interval = interval
        self.clock = clock
        self._start = -math.inf
        self._passed = 0
        self.suppressed = 0
        """Records of the current interval left out so far."""
        self._timer: asyncio.TimerHandle | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.message:
            return True
        now = self.clock()
        if now - self._start >= self.interval:
            self.flush()
            self._start, self._passed = now, 0
        if self._passed < self.most:
            self._passed += 1
            return True
        self.suppressed += 1
        if self.suppressed == 1:
            self._schedule(self._start + self.interval - now)
        return False

    def _schedule(self, delay: float) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop here: the next such record says the count
            return
        self._timer = loop.call_later(max(0.0, delay), self.flush)

    def flush(self) -> None:
        """Say how many records of the interval were left out, if any."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.suppressed:
            count, self.suppressed = self.suppressed, 0
            self.logger.warning(
                "%d more %r lines were left out in %g s (at most %d an interval are written)",
                count,
                self.message,
                self.interval,
                self.most,
            )


def limit_invalid_request_lines(most: int = REPEATS_SHOWN, interval: float = REPEAT_SECONDS) -> RepeatLimit:
    """Install a :class:`RepeatLimit` of each of uvicorn's :data:`FLOOD_LINES` on the logger that
    writes them (``uvicorn.error``), once (after ``uvicorn.Config``, which configures the loggers);
    the filter of ``Invalid HTTP request received.``."""
    logger = logging.getLogger("uvicorn.error")
    installed = {f.message: f for f in logger.filters if isinstance(f, RepeatLimit)}
    for message in FLOOD_LINES:
        if message not in installed:
            installed[message] = RepeatLimit(logger, message, most, interval)
            logger.addFilter(installed[message])
    return installed[INVALID_REQUEST]
