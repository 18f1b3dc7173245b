"""``rk_tables.listed``: whether the lobby lists a table; one found by its link alone is not (a
practice table by default, or one its creator asked to keep off the list). Tables made before it
were all listed.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, SQLite takes NOT NULL too): a batch copy of rk_tables
    # would have to drop the table the actions refer to.
    op.add_column("rk_tables", sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("rk_tables", "listed")
