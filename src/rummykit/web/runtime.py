"""Process settings of a server process: the garbage collector.

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

import gc
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
