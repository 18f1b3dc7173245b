"""``rk_tables.rules_revision``: the rules revision a table's rules text was written under
(:mod:`rummykit.revisions`), so that a table is replayed with the meaning its text had when it was
made. Tables made before it were written before revisions were recorded: revision 0.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, SQLite takes NOT NULL too): a batch copy of rk_tables
    # would have to drop the table the actions refer to.
    op.add_column("rk_tables", sa.Column("rules_revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("rk_tables", "rules_revision")
