"""``rk_tables.hints``: who may ask for hints at a table (:data:`rummykit.web.protocol.HintsPolicy`).

Tables made before the setting existed gave hints to every player; they keep that (``everyone``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("hints", sa.String(16), nullable=False, server_default="everyone"))


def downgrade() -> None:
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_column("hints")
