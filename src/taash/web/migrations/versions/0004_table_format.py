"""A table names its match's format where its game has formats (Rummy: points, pool101, deals2 ...).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("format", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "format")
