"""Fair play: the addresses seen for each person (as keyed hashes, never in clear) when he became a guest, claimed
an account or logged in, to tell related people apart at staked tables and to limit accounts per address
(``taash.web.fair_play``).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "identity_addresses",
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("address_hash", sa.String(64), primary_key=True, index=True),
        sa.Column("seen_as", sa.String(8), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("identity_addresses")
