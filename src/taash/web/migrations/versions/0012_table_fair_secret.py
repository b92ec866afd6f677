"""Each table keeps the server's secret that its cards come from (provably fair dealing, ``taash.fairness``):
its commitment is published from the table's making, the secret itself with the record once the match is over.
Tables stored before have none: their cards keep coming from their seed.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("fair_secret", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "fair_secret")
