"""Arena tournaments' time window (``tournaments.window`` and ``ends_at``), and the offers a restart used to
forget: rematch offers at finished tables (``rematch_offers``, with the rematch started once it is) and
invitations to tables (``table_invites``), each with its expiry.

Revision ID: 0020_tourney2
Revises: 0019_offline
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_tourney2"
down_revision = "0019_offline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("window", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "rematch_offers",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("by", sa.Integer(), nullable=False),
        sa.Column("answers", sa.Text(), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started", sa.String(32), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "table_invites",
        sa.Column("guest", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("by", sa.String(32), nullable=False),
        sa.Column("by_name", sa.String(40), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("code", sa.String(32), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("table_invites")
    op.drop_table("rematch_offers")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("ends_at")
        batch.drop_column("window")
