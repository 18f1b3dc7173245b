"""The per-address caps hold for requests that arrive together.

A cap is counted and then kept by a write (a new table, a joined seat). Counted apart from the write,
requests arriving together each count the same old number and all pass: five creations at once from
one address made five tables under a cap of two. In one process the count and the write are one
step; with a shared database (PostgreSQL, several processes) the count is made again in the write's
transaction, under a lock that every such write takes (:func:`rummykit.web.owners.lock_counts`).

The database's writes are slowed down here, so that on code that counts apart from the write every
count is made before any write, on any machine.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rummykit.web.limits import ServerSettings
from rummykit.web.manager import TableManager
from rummykit.web.protocol import CreateTable
from rummykit.web.store import Store
from rummykit.web.tables import LobbyError

CREATOR = "203.0.113.5"
JOINER = "198.51.100.7"
SLOW_WRITE_SECONDS = 0.15


def slowed(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make every call of ``Store.<name>`` wait before it writes."""
    original: Callable[..., Any] = getattr(Store, name)

    def slow(self: Store, *args: Any, **kwargs: Any) -> Any:
        time.sleep(SLOW_WRITE_SECONDS)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Store, name, slow)


def outcomes(results: list[Any]) -> tuple[int, list[str]]:
    """How many requests succeeded, and the refusal codes of the others (anything else raises)."""
    refused = []
    for result in results:
        if isinstance(result, LobbyError):
            refused.append(result.error)
        elif isinstance(result, BaseException):
            raise result
    return len(results) - len(refused), refused


async def managers(url: str, settings: ServerSettings, count: int) -> list[TableManager]:
    made = [TableManager(Store(url), settings) for _ in range(count)]
    for manager in made:
        await manager.load()
    return made


async def create_together(url: str, settings: ServerSettings, processes: int, requests: int) -> list[Any]:
    """``requests`` creations from one address at once, spread over ``processes`` servers."""
    made = await managers(url, settings, processes)
    try:
        spec = CreateTable(preset="gin", seats=2)
        calls = [made[i % processes].create(spec, CREATOR) for i in range(requests)]
        return list(await asyncio.gather(*calls, return_exceptions=True))
    finally:
        for manager in made:
            await manager.close()


async def join_together(url: str, settings: ServerSettings, processes: int, tables: int) -> list[Any]:
    """One address joins ``tables`` waiting tables of another address at once, spread over
    ``processes`` servers."""
    made = await managers(url, settings, processes)
    try:
        codes = []
        for _ in range(tables):
            table, _seat, _token = await made[0].create(CreateTable(preset="german", seats=4), CREATOR)
            codes.append(table.code)
        found = [await made[i % processes].find(code) for i, code in enumerate(codes)]
        calls = [table.join("J", JOINER) for table in found]
        return list(await asyncio.gather(*calls, return_exceptions=True))
    finally:
        for manager in made:
            await manager.close()


def test_creations_together_from_one_address_stop_at_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slowed(monkeypatch, "create")
    settings = ServerSettings(max_tables_per_address=2, max_tables=3)
    results = asyncio.run(create_together(f"sqlite:///{tmp_path / 'c.db'}", settings, 1, 5))
    assert outcomes(results) == (2, ["too_many_tables"] * 3)


def test_creations_together_stop_at_the_servers_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slowed(monkeypatch, "create")
    settings = ServerSettings(max_tables_per_address=10, max_tables_per_network=10, max_tables=3)
    results = asyncio.run(create_together(f"sqlite:///{tmp_path / 'c.db'}", settings, 1, 5))
    assert outcomes(results) == (3, ["server_full"] * 2)


def test_creations_together_in_two_processes_stop_at_the_cap(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, web: Any
) -> None:
    slowed(monkeypatch, "create")
    settings = ServerSettings(max_tables_per_address=2, max_tables=3)
    url = web.fresh_database(postgres_url, "caps_create")
    results = asyncio.run(create_together(url, settings, 2, 6))
    assert outcomes(results) == (2, ["too_many_tables"] * 4)


def test_joins_together_in_two_processes_stop_at_the_seat_cap(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, web: Any
) -> None:
    settings = ServerSettings(max_seats_per_address=2, max_tables_per_address=10, max_tables_per_network=10)
    slowed(monkeypatch, "update_lobby")
    url = web.fresh_database(postgres_url, "caps_join")
    results = asyncio.run(join_together(url, settings, 2, 6))
    assert outcomes(results) == (2, ["too_many_seats"] * 4)


# In one process the count and the seat were one step already (no await between them): this one
# guards that path, the two-process test above is the one that failed.
def test_joins_together_in_one_process_stop_at_the_seat_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = ServerSettings(max_seats_per_address=2, max_tables_per_address=10, max_tables_per_network=10)
    slowed(monkeypatch, "update_lobby")
    results = asyncio.run(join_together(f"sqlite:///{tmp_path / 'j.db'}", settings, 1, 6))
    assert outcomes(results) == (2, ["too_many_seats"] * 4)
