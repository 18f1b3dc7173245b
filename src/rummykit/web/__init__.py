"""Play in the browser: a FastAPI server with websockets (the ``web`` extra).

``rummykit serve`` starts it; :func:`create_app` builds the application for tests and embedding.
The protocol is described in :mod:`rummykit.web.protocol`, a table and its bots in
:mod:`rummykit.web.tables`, all tables of a process (creating, routing, clocks, the bots'
processes, the group commit) in :mod:`rummykit.web.manager`, persistence in
:mod:`rummykit.web.store`; several processes sharing a PostgreSQL database in
:mod:`rummykit.web.owners` (who plays which table), :mod:`rummykit.web.relay` and
:mod:`rummykit.web.coordination`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(database_url: str | None = None, **options: Any) -> FastAPI:
    """Build the web application (see :func:`rummykit.web.app.create_app`)."""
    from rummykit.web.app import create_app as build

    return build(database_url, **options)


__all__ = ["create_app"]
