"""Accounts: a guest who claims his name with a password (one account per guest; names unique by both their keys,
see ``taash.web.names``).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("guest_id", sa.String(32), sa.ForeignKey("guests.id"), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("look_key", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("failed_since", sa.BigInteger, nullable=True),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
        sa.UniqueConstraint("look_key", name="uq_accounts_look_key"),
        sa.CheckConstraint("failures >= 0", name="ck_accounts_failures"),
        sa.CheckConstraint("length(name_key) > 0 AND length(look_key) > 0", name="ck_accounts_keys"),
    )


def downgrade() -> None:
    op.drop_table("accounts")
