"""How each deal of a table was dealt, so that a server upgraded to a taash that shuffles differently still
continues its tables with the cards they were dealt.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deals",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("redeals", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deals")
