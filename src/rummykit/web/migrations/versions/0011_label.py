"""``rk_tables.label``: the organiser's name for a table it made from the organiser's page ("Group A";
:attr:`rummykit.web.protocol.CreateTable.label`), shown beside the table's code. Empty for none, and
for every table made before it.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, SQLite takes NOT NULL too): a batch copy of rk_tables
    # would have to drop the table the actions refer to.
    op.add_column("rk_tables", sa.Column("label", sa.String(64), nullable=False, server_default=""))


def downgrade() -> None:
    op.drop_column("rk_tables", "label")
