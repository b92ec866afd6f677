"""Chat: the lines said at tables (and later in other rooms), the rooms' settings (the word filter switched off
by a private table's creator) and the lines reported to the operator (``taash.web.chat``).

Revision ID: 0016_chat
Revises: 0015_social
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_chat"
down_revision = "0015_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("room", sa.String(64), nullable=False, index=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("speaker", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("said_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "chat_rooms",
        sa.Column("room", sa.String(64), primary_key=True),
        sa.Column("filter_on", sa.Boolean, nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("line_id", sa.String(16), sa.ForeignKey("chat_lines.id"), nullable=False, index=True),
        sa.Column("reporter", sa.String(32), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.UniqueConstraint("line_id", "reporter", name="uq_chat_reports_line_reporter"),
    )


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_table("chat_rooms")
    op.drop_table("chat_lines")
