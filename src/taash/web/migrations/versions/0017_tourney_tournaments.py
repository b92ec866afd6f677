"""Tournaments: each tournament's settings and state, its entrants (with what they paid), and its matches by round
(``taash.web.tournaments``), so that a server killed mid-tournament carries on from the database.

Revision ID: 0017_tourney
Revises: 0016_chat
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_tourney"
down_revision = "0016_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("length", sa.String(32), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("capacity", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("fee", sa.BigInteger, nullable=False),
        sa.Column("prizes", sa.String(120), nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("creator", sa.String(32), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("payout", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'running', 'paying', 'finished', 'cancelling', 'cancelled')",
                           name="ck_tournaments_status"),
        sa.CheckConstraint("fee >= 0 AND capacity >= 2 AND players >= 2", name="ck_tournaments_numbers"),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("entrant", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("state IN ('paying', 'registered', 'withdrawing', 'withdrawn')",
                           name="ck_tournament_entrants_state"),
    )
    op.create_index("ix_tournament_entrants_entrant", "tournament_entrants", ["entrant"])
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True, index=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.Text, nullable=True),
        sa.CheckConstraint("status IN ('pending', 'playing', 'done')", name="ck_tournament_matches_status"),
    )


def downgrade() -> None:
    op.drop_table("tournament_matches")
    op.drop_index("ix_tournament_entrants_entrant", "tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
