"""Table owners and what the server processes share: leases, connections and rates per address.

* ``rk_processes``: one row per live server process: its internal address for relayed
  connections, the key a relay must show, and its lease (renewed while the process lives).
* ``rk_tables.owner``: the process that plays the table; ``rk_tables.creator``: a digest of the
  address that created it (the per-address table cap holds across processes and restarts).
* ``rk_connections``: websocket connections per process and address digest.
* ``rk_rates``: the token buckets of the per-address rate limits.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rk_processes",
        sa.Column("origin", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(128), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("lease_until", sa.DateTime, nullable=False),
    )
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(16), nullable=True))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_table(
        "rk_connections",
        sa.Column("origin", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
    )
    op.create_table(
        "rk_rates",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rk_rates")
    op.drop_table("rk_connections")
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_column("creator")
        batch.drop_column("owner")
    op.drop_table("rk_processes")
