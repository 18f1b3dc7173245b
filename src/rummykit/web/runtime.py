"""Process settings of a server process: the garbage collector, and following the parent process.

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

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from typing import Final

THRESHOLDS: Final = (20_000, 20, 20)
"""Allocations (net of frees) between young collections, young collections per middle one, middle
ones per full one (CPython's defaults: 700, 10, 10)."""


def settle_garbage_collector() -> None:
    """Freeze what exists now and collect less often. For a server process once started (a process
    that makes and drops many apps, such as a test run, would keep their garbage)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


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
