"""``rk_tables.version`` (the number of stored actions) and an index on ``rk_tables.status``.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        batch.create_index("ix_rk_tables_status", ["status"])
    op.execute(
        "UPDATE rk_tables SET version = "
        "(SELECT COUNT(*) FROM rk_actions WHERE rk_actions.code = rk_tables.code)"
    )


def downgrade() -> None:
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_index("ix_rk_tables_status")
        batch.drop_column("version")
