"""``rk_tables.organised``: whether the organiser made a table from the organiser's page
(:mod:`rummykit.web.organiser`), holding no seat at it: the organiser starts it and removes people
from it, and seat 1 is a player's like any other. Tables made before it all had a host.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, SQLite takes NOT NULL too): a batch copy of rk_tables
    # would have to drop the table the actions refer to.
    op.add_column(
        "rk_tables", sa.Column("organised", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("rk_tables", "organised")
