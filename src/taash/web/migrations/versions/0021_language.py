"""The language an account chose (``en``, ``hi``, ``pa``; null: none chosen yet), so that every browser its
person signs in from speaks it (``PUT /api/me/language``).

Revision ID: 0021_language
Revises: 0020_tourney2
"""

import sqlalchemy as sa
from alembic import op

revision = "0021_language"
down_revision = "0020_tourney2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
