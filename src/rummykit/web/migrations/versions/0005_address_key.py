"""``rk_meta``: facts about the database every server process must agree on (the address key's
check value, :mod:`rummykit.web.address_key`); ``rk_tables.fair``: the digest of the creator's
network that bot time is shared among (:func:`rummykit.web.thinking.fair_network`). Tables made
before it share bot time by their creator's digest, as they did.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rk_meta",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("fair", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_column("fair")
    op.drop_table("rk_meta")
