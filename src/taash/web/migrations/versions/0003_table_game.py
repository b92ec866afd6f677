"""Each table names its game (``seep`` for every table made before there was more than one).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("game", sa.String(16), nullable=False, server_default="seep"))


def downgrade() -> None:
    op.drop_column("tables", "game")  # SQLite 3.35 and later drop a column in place (no copy of the table)
