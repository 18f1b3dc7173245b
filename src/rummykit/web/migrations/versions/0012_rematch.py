"""``rk_tables.rematch``: the code of a finished table's one rematch (:mod:`rummykit.web.rematch`),
so that a server restarted while the table is still held (``--finished-table-seconds`` after its end)
offers that rematch again and does not open a second one. ``NULL`` for none, and for every table
stored before it.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN of a nullable column: no batch copy of the table the actions refer to.
    op.add_column("rk_tables", sa.Column("rematch", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("rk_tables", "rematch")
