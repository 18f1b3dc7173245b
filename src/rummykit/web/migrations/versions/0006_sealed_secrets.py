"""``rk_tables.sealed``: a table deals from the seal of its stored secret under the server's key
file (:func:`rummykit.web.dealing.seal`), so the database alone rebuilds no deal. Tables made before
it deal from the stored secret, as they did.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, SQLite takes NOT NULL too): a batch copy of rk_tables
    # would have to drop the table the actions refer to.
    op.add_column("rk_tables", sa.Column("sealed", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("rk_tables", "sealed")
