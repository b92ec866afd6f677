"""Login attempts counted in a table of their own (``taash.web.login_limits``): per name from one address, per
address, and per name from everywhere, each counted before its password is checked. The account's own count of
wrong passwords (which let anyone lock an account) goes.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_limits",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("since", sa.BigInteger, nullable=False),
        sa.CheckConstraint("attempts >= 0", name="ck_login_limits_attempts"),
    )
    op.create_index("ix_login_limits_since", "login_limits", ["since"])
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("ck_accounts_failures", type_="check")
        batch.drop_column("failures")
        batch.drop_column("failed_since")


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("failures", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("failed_since", sa.BigInteger, nullable=True))
        batch.create_check_constraint("ck_accounts_failures", "failures >= 0")
    op.drop_index("ix_login_limits_since", "login_limits")
    op.drop_table("login_limits")
