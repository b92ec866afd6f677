"""Friends and blocks between accounts (``taash.web.friend_store``): a friendship asked and (once accepted) kept,
and the people each account has blocked.

Revision ID: 0015_social
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_social"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("asker", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("asked", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True, index=True),
        sa.Column("accepted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("asker <> asked", name="ck_friendships_two_people"),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("blocked", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("blocker <> blocked", name="ck_blocks_two_people"),
    )


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("friendships")
