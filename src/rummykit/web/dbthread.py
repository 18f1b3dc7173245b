"""A database thread that tells when it last finished a piece of work (:class:`DatabaseThread`), so
that the health check (:mod:`rummykit.web.health`) tells a thread that is busy, whose queue is long
but moves, from one that is stuck, whose statement waits on a lock or a database that froze."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class DatabaseThread(ThreadPoolExecutor):
    """One worker thread running storage calls in order; :attr:`finished` is when a call last
    returned (``time.monotonic``; ``-inf`` before any). A call that raised is no sign of work
    done: a database that refuses every statement does not make its thread look busy."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self.finished = -math.inf

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        def timed() -> T:
            result = fn(*args, **kwargs)
            self.finished = time.monotonic()
            return result

        return super().submit(timed)

    def idle_for(self) -> float:
        """Seconds since a call last returned (``inf`` before any)."""
        return time.monotonic() - self.finished
