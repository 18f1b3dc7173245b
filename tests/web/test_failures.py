"""The server's log of a failure it survives: a storage failure in one line, a defect in full."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy.exc import OperationalError

from rummykit.web.failures import log_failure


def test_a_storage_failure_is_one_line_and_a_defect_keeps_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """During a database outage the lease and clock loops retry every few seconds: each failure is
    one warning line naming the error (40 lines of traceback each filled the log); an error of
    another kind is a defect and keeps its traceback."""
    log = logging.getLogger("rummykit.web.test")
    with caplog.at_level(logging.WARNING, logger="rummykit.web.test"):
        try:
            raise OperationalError("SELECT 1", {}, Exception("connection refused\nis the server running?"))
        except OperationalError:
            log_failure(log, "table %s: clock failed", "ABCD")
        try:
            raise KeyError("seat")
        except KeyError:
            log_failure(log, "table %s: clock failed", "ABCD")
    storage, defect = caplog.records
    assert storage.levelno == logging.WARNING and storage.exc_info is None
    expected = "table ABCD: clock failed (OperationalError: (builtins.Exception) connection refused)"
    assert storage.getMessage() == expected
    assert defect.levelno == logging.ERROR and defect.exc_info is not None


def test_a_listener_whose_connection_fails_at_once_waits_before_trying_again() -> None:
    """A connection that fails as soon as it listens (a driver without ``notifies``, a database that
    drops it) is retried after a growing wait: it reconnected 100,000 times a second."""
    import asyncio
    import threading
    import time
    from typing import Any

    from rummykit.web.coordination import Listener

    connects = []

    class Connection:
        autocommit = False

        def execute(self, _sql: str) -> None:
            pass

        def notifies(self, timeout: float) -> Any:
            raise TypeError("notifies() got an unexpected keyword argument 'timeout'")

        def close(self) -> None:
            pass

    class Pooled:
        driver_connection = Connection()

        def detach(self) -> None:
            pass

    class Engine:
        def raw_connection(self) -> Pooled:
            connects.append(time.monotonic())
            return Pooled()

    loop = asyncio.new_event_loop()
    listener = Listener(Engine(), "me", lambda notice: None)  # type: ignore[arg-type]
    thread = threading.Thread(target=listener._run, args=(loop,), daemon=True)
    thread.start()
    time.sleep(1.2)
    listener.stop()
    listener._stop.set()
    thread.join(5)
    loop.close()
    assert 1 <= len(connects) <= 3
