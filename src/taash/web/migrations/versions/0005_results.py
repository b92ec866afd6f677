"""Each seat's result of a finished match, for history and leaderboards.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("guest", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("result", sa.Float, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("stats", sa.Text, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_game", "results", ["game"])
    op.create_index("ix_results_guest", "results", ["guest"])
    op.create_index("ix_results_finished_at", "results", ["finished_at"])


def downgrade() -> None:
    op.drop_table("results")
