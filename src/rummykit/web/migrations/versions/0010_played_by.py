"""``rk_actions.played_by``: who made a stored move, for the game record's ``seats``
(:mod:`rummykit.record_seats`): ``person``, ``hinted`` (a person right after a hint for that move),
``bot`` (a bot's seat) or ``stand_in`` (a bot for a person away too long or gone). Moves stored
before it have none (``NULL``): who made them is not known. Undo records have none either.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN of a nullable column: no batch copy of the table.
    op.add_column("rk_actions", sa.Column("played_by", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("rk_actions", "played_by")
