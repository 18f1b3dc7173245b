"""uvicorn writes ``Invalid HTTP request received.`` for every malformed request, before any rate limit
of the server sees it (one client wrote 3,000 lines at 6,500 a second): the server lets through at most
ten of them a minute and says in one line how many it left out."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.web.runtime import (
    INVALID_REQUEST,
    UNSUPPORTED_UPGRADE,
    RepeatLimit,
    limit_invalid_request_lines,
)


class Lines(logging.Handler):
    """The messages a logger writes."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def logger() -> Iterator[tuple[logging.Logger, Lines]]:
    log = logging.getLogger("rummykit.test.repeats")
    log.propagate = False
    log.setLevel(logging.WARNING)
    lines = Lines()
    log.addHandler(lines)
    yield log, lines
    log.removeHandler(lines)
    log.filters.clear()


def test_at_most_ten_a_minute_then_one_line_with_the_count(logger: tuple[logging.Logger, Lines]) -> None:
    log, lines = logger
    now = [1000.0]
    log.addFilter(RepeatLimit(log, most=10, interval=60.0, clock=lambda: now[0]))
    for i in range(3000):
        log.warning(INVALID_REQUEST)
        if i % 500 == 0:
            log.warning("table %s: something else", "ABCDEF")  # other lines pass untouched
        now[0] += 0.0002  # 6,500 lines a second, as measured
    assert lines.lines.count(INVALID_REQUEST) == 10
    assert lines.lines.count("table ABCDEF: something else") == 6
    assert not any("left out" in line for line in lines.lines)  # the minute is not over
    now[0] += 60.0
    log.warning(INVALID_REQUEST)  # the next minute: first the count of the last one, then the line
    assert lines.lines[-2:] == [
        "2990 more 'Invalid HTTP request received.' lines were left out in 60 s (at most 10 an "
        "interval are written)",
        INVALID_REQUEST,
    ]
    for _ in range(9):
        log.warning(INVALID_REQUEST)
    assert lines.lines.count(INVALID_REQUEST) == 20
    log.warning(INVALID_REQUEST)
    assert lines.lines.count(INVALID_REQUEST) == 20  # the eleventh of this minute is left out
    now[0] += 61.0
    log.warning("another line")
    assert lines.lines[-1] == "another line"  # only its own kind of line says the count


def test_the_count_is_said_when_the_flood_stops(logger: tuple[logging.Logger, Lines]) -> None:
    """In the server's event loop a timer says the count at the interval's end, whether or not
    another such line comes."""
    log, lines = logger
    log.addFilter(RepeatLimit(log, most=2, interval=0.2))

    async def flood() -> None:
        for _ in range(7):
            log.warning(INVALID_REQUEST)
        await asyncio.sleep(0.5)

    asyncio.run(flood())
    assert lines.lines == [INVALID_REQUEST, INVALID_REQUEST, (
        "5 more 'Invalid HTTP request received.' lines were left out in 0.2 s (at most 2 an interval "
        "are written)"
    )]  # fmt: skip


def test_the_limit_is_installed_once_on_uvicorns_logger() -> None:
    uvicorn_error = logging.getLogger("uvicorn.error")
    before = list(uvicorn_error.filters)
    try:
        installed = limit_invalid_request_lines()
        assert installed in uvicorn_error.filters and installed.message == INVALID_REQUEST
        assert installed.most == 10 and installed.interval == 60.0
        assert limit_invalid_request_lines() is installed
        assert len(uvicorn_error.filters) == len(before) + 2
        upgrades = [f for f in uvicorn_error.filters if getattr(f, "message", None) == UNSUPPORTED_UPGRADE]
        assert len(upgrades) == 1 and isinstance(upgrades[0], RepeatLimit)
    finally:
        uvicorn_error.filters[:] = before


def test_a_running_server_writes_ten_lines_for_a_flood(tmp_path: Path, server_factory: Any) -> None:
    """``rummykit serve`` installs the limit: 40 malformed requests make ten lines."""
    server = server_factory(f"sqlite:///{tmp_path / 'flood.db'}")
    for _ in range(40):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
            assert sock.recv(1024).startswith(b"HTTP/1.1 400")
    deadline = time.monotonic() + 10
    while server.output().count(INVALID_REQUEST) < 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    assert server.output().count(INVALID_REQUEST) == 10, server.output()


def test_the_servers_log_lines_carry_time_and_level_on_the_stderr_of_the_moment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``rummykit serve`` writes its own lines with their time and level (they came bare). The handler
    writes to ``sys.stderr`` as it is then: a command that failed after installing it (a port in use)
    left a closed stream behind, and later lines of the process were lost; they still propagate."""
    import io
    import logging
    import re
    import sys

    from rummykit.web.runtime import log_to_stderr

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    log_to_stderr()
    sys.stderr.close()  # the stream of that command is gone
    later = io.StringIO()
    monkeypatch.setattr(sys, "stderr", later)
    with caplog.at_level(logging.WARNING, logger="rummykit.web"):
        logging.getLogger("rummykit.web").warning("table QQQQQQ: a line")
    line = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING rummykit\.web: table QQQQQQ: a line\n"
    assert re.fullmatch(line, later.getvalue())
    assert [r.getMessage() for r in caplog.records] == ["table QQQQQQ: a line"]


def test_the_log_level_leaves_the_less_grave_lines_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --log-level warning`` keeps an operator's log to what needs looking at."""
    import io
    import logging
    import sys

    from rummykit.web.runtime import log_to_stderr

    written = io.StringIO()
    monkeypatch.setattr(sys, "stderr", written)
    log = logging.getLogger("rummykit.web")
    try:
        log_to_stderr("warning")
        log.info("table QQQQQQ: its end is stored")
        log.warning("table QQQQQQ: a stored move was refused")
        lines = written.getvalue()
        assert "its end is stored" not in lines and "a stored move was refused" in lines
        log_to_stderr("debug")
        log.debug("table QQQQQQ: its end is not stored yet")
        assert "DEBUG rummykit.web: table QQQQQQ: its end is not stored yet" in written.getvalue()
        with pytest.raises(ValueError, match="a log level is one of debug, info, warning, error"):
            log_to_stderr("verbose")
    finally:
        log_to_stderr("info")
