"""``/api/health`` with a shared database: each of the process's database threads is checked (the
moves', the lookups', the lease's), so that a load balancer takes out a process whose lookups or
lease are stuck (not merely busy), with the same terse answer as for a database that does not answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web import health as health_module
from rummykit.web import manager as manager_module
from rummykit.web.app import create_app

NOT_ANSWERING = {"ok": False, "tables": 0, "database": "not answering"}


@pytest.fixture
def shared(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[TestClient]:
    """A process on a PostgreSQL database of its own whose health check waits 0.5 s for a thread,
    keeps no answer, renews its lease every 0.1 s and is unhealthy once the lease is 0.6 s old."""
    monkeypatch.setattr(health_module, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(health_module, "CACHE_SECONDS", 0.0)
    monkeypatch.setattr(health_module, "LEASE_LATE_SECONDS", 0.6)
    monkeypatch.setattr(manager_module, "RENEW_SECONDS", 0.1)
    url = web.fresh_database(postgres_url, "rk_health_" + request.node.name[5:40].lower())
    with TestClient(create_app(url, settings=web.settings())) as client:
        yield client


def held_while(client: TestClient, thread: str, seconds: float) -> Callable[[], None]:
    """Hold the manager's database ``thread`` (its executor's attribute) with a task that waits, and
    wait ``seconds``; the function that lets it go."""
    release = threading.Event()
    getattr(client.app.state.manager, thread).submit(release.wait, 30)  # type: ignore[attr-defined]
    time.sleep(seconds)
    return release.set


def healthy_again(client: TestClient) -> bool:
    deadline = time.monotonic() + 10
    while client.get("/api/health").status_code != 200:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("thread", ["_side", "_lease_thread"])
def test_a_stuck_lookups_or_lease_thread_makes_the_process_unhealthy_on_postgres(
    shared: TestClient, thread: str
) -> None:
    """Strangers' lookups queued for longer than a check waits, or a lease not renewed (its thread
    held by a statement that waits), make a process its load balancer should take out: the check
    says so within its wait, GET and HEAD alike, and says no more than for the database."""
    assert shared.get("/api/health").json() == {"ok": True, "tables": 0}
    release = held_while(shared, thread, 0.8)
    try:
        started = time.monotonic()
        answer = shared.get("/api/health")
        assert time.monotonic() - started < 3.0
        assert answer.status_code == 503 and answer.json() == NOT_ANSWERING
        head = shared.head("/api/health")
        assert head.status_code == 503 and head.content == b""
    finally:
        release()
    assert healthy_again(shared)


def test_a_lookups_thread_that_is_gone_makes_the_process_unhealthy_on_postgres(shared: TestClient) -> None:
    """A thread that can take no more work (its executor shut down) is unhealthy too, answered 503
    rather than failing the check with a 500."""
    assert shared.get("/api/health").status_code == 200
    shared.app.state.manager._side.shutdown(wait=False)  # type: ignore[attr-defined]
    answer = shared.get("/api/health")
    assert answer.status_code == 503 and answer.json() == NOT_ANSWERING


@pytest.mark.parametrize("thread", ["_side", "_db"])
def test_a_busy_database_thread_keeps_the_process_healthy_on_postgres(
    shared: TestClient, thread: str
) -> None:
    """A thread whose queue is longer than a check waits, yet moves (strangers flooding lookups, each
    answered), is busy, not stuck: the load balancer keeps the process, or anybody could have a
    process taken out by sending requests; once one of its calls is held as long, it is unhealthy."""
    executor = getattr(shared.app.state.manager, thread)  # type: ignore[attr-defined]
    assert shared.get("/api/health").status_code == 200
    for _ in range(60):  # 3 s of work, each call answered within 0.05 s
        executor.submit(time.sleep, 0.05)
    time.sleep(0.8)  # the queue is longer than the 0.5 s a check waits
    started = time.monotonic()
    answer = shared.get("/api/health")
    assert time.monotonic() - started >= 0.4  # the round trip waited behind the queue
    assert answer.status_code == 200 and answer.json() == {"ok": True, "tables": 0}
    assert shared.head("/api/health").status_code == 200
    release = held_while(shared, thread, 0.8)  # then one call waits (a lock): nothing moves
    try:
        deadline = time.monotonic() + 10
        while shared.get("/api/health").status_code != 503:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert shared.get("/api/health").json() == NOT_ANSWERING
    finally:
        release()
    assert healthy_again(shared)
