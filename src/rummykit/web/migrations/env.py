"""Alembic environment: runs on the connection :func:`rummykit.web.migrations.upgrade` passes."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
