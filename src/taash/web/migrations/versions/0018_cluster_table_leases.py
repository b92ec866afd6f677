"""Scale-out: which server process owns each live table, under a lease with an epoch (``taash.web.hub.lease``).

A server that takes a table moves its epoch on; every action it writes is fenced by that epoch (the write is
refused once another server has taken the table), so a server that lost its lease can no longer write.

Revision ID: 0018_cluster
Revises: 0017_tourney
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_cluster"
down_revision = "0017_tourney"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("server", sa.String(64), nullable=True),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_table_leases_until", "table_leases", ["until"])


def downgrade() -> None:
    op.drop_index("ix_table_leases_until", "table_leases")
    op.drop_table("table_leases")
