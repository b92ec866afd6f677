"""The language an account chose (``en``, ``hi``, ``pa``; null: none chosen yet), so that every browser its
person signs in from speaks it (``PUT /api/me/language``).

Revision ID: 0020_i18n3_language
Revises: 0019_offline
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_i18n3_language"
down_revision = "0019_offline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
