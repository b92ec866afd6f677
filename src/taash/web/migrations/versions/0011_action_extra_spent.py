"""Each action keeps the extra seconds (of ``--extra-seconds``, for the whole match) that the seat to move had spent
by then, so that a restarted server gives every seat back only the extra time it has left. Actions stored before
have none: their seats count as having spent nothing.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("extra_spent", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("extra_spent")
