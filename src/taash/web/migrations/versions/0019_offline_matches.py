"""Offline matches uploaded back online (``taash.web.offline.routes``): each one's save, replayed by the server
before it was kept, and its summary for its person's history; never results, ratings or chips.

Revision ID: 0019_offline
Revises: 0018_cluster
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_offline"
down_revision = "0018_cluster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_matches",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("guest", sa.String(32), sa.ForeignKey("guests.id"), nullable=False, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("save", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("offline_matches")
