"""The schema of the last release before migrations: one row per table, one per action.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rk_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("secret", sa.String(64), nullable=True),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("takeover_seconds", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "rk_actions",
        sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rk_actions")
    op.drop_table("rk_tables")
