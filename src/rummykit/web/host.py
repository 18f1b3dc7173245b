"""What a table uses of the server process that holds it (:class:`TableHost`, which
:class:`rummykit.web.manager.TableManager` is).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rummykit.bots import Bot
from rummykit.web.limits import RateLimiter, ServerSettings
from rummykit.web.protocol import CreateTable
from rummykit.web.store import Guard, Store, StoredAction
from rummykit.web.thinking import Decision

if TYPE_CHECKING:
    from rummykit.web.tables import Table

__all__ = ["TableHost"]

T = TypeVar("T")


class TableHost(Protocol):
    """What a table uses of the server that holds it (:class:`rummykit.web.manager.TableManager`)."""

    settings: ServerSettings
    store: Store
    evaluations: RateLimiter

    @property
    def bot_delay(self) -> float: ...

    async def db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def append(self, record: StoredAction) -> None: ...

    async def think(self, key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision: ...

    def unload(self, table: Table) -> None: ...

    def digest(self, address: str) -> str: ...

    async def create(self, spec: CreateTable, address: str | None = None) -> tuple[Table, int, str]: ...

    async def check_seats(self, digest: str, network: str, joining: Table) -> None: ...
    def seats_guard(self, digest: str, network: str, joining: Table) -> Guard | None: ...
