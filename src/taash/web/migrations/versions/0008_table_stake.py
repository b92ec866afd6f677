"""A table may be played for chips: its stake (0: no stakes).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("stake", sa.BigInteger, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("tables", "stake")
