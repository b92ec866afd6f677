"""The chips ledger: accounts (wallets, each match's escrow, the house, the grant source) and their append-only
transfers (see ``taash.chips.books`` for what each constraint keeps).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

ACCOUNT_KINDS = "'wallet', 'escrow', 'house', 'grants'"
TRANSFER_KINDS = "'grant', 'bonus', 'hold', 'settle', 'rake', 'refund', 'move'"

#: Triggers that refuse to change or delete a transfer, per dialect.
APPEND_ONLY = {
    "sqlite": [
        f"""CREATE TRIGGER chips_transfers_no_{verb} BEFORE {verb.upper()} ON chips_transfers
            BEGIN SELECT RAISE(ABORT, 'chips_transfers is append-only: a transfer is never changed or deleted'); END"""
        for verb in ("update", "delete")
    ],
    "postgresql": [
        """CREATE FUNCTION chips_transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'chips_transfers is append-only: a transfer is never changed or deleted'; END $$""",
        """CREATE TRIGGER chips_transfers_append_only BEFORE UPDATE OR DELETE ON chips_transfers
           FOR EACH ROW EXECUTE FUNCTION chips_transfers_append_only()""",
    ],
}


def upgrade() -> None:
    op.create_table(
        "chips_accounts",
        sa.Column("id", sa.String(160), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("currency", sa.String(16), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("state", sa.String(8), nullable=True),
        sa.Column("rake_bps", sa.Integer, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("id", "currency", name="uq_chips_accounts_id_currency"),
        sa.CheckConstraint(f"kind IN ({ACCOUNT_KINDS})", name="ck_chips_accounts_kind"),
        sa.CheckConstraint("(kind IN ('wallet', 'escrow') AND balance >= 0) OR kind = 'house' "
                           "OR (kind = 'grants' AND balance <= 0)", name="ck_chips_accounts_never_overdrawn"),
        sa.CheckConstraint("(kind = 'escrow') = (state IS NOT NULL)", name="ck_chips_accounts_escrow_state"),
        sa.CheckConstraint("state IS NULL OR state IN ('pending', 'posted', 'voided')",
                           name="ck_chips_accounts_state"),
        sa.CheckConstraint("state IS NULL OR state = 'pending' OR balance = 0",
                           name="ck_chips_accounts_closed_escrow_empty"),
        sa.CheckConstraint("(state IS NULL OR state = 'pending') = (closed_at IS NULL)",
                           name="ck_chips_accounts_closed_at"),
        sa.CheckConstraint("(kind = 'escrow') = (rake_bps IS NOT NULL) AND (rake_bps IS NULL OR "
                           "rake_bps BETWEEN 0 AND 10000)", name="ck_chips_accounts_rake"),
    )
    op.create_index("ix_chips_accounts_table_id", "chips_accounts", ["table_id"])
    op.create_table(
        "chips_transfers",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("debit_id", sa.String(160), nullable=False),
        sa.Column("credit_id", sa.String(160), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("currency", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("match_id", sa.String(150), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["debit_id", "currency"], ["chips_accounts.id", "chips_accounts.currency"],
                                name="fk_chips_transfers_debit"),
        sa.ForeignKeyConstraint(["credit_id", "currency"], ["chips_accounts.id", "chips_accounts.currency"],
                                name="fk_chips_transfers_credit"),
        sa.UniqueConstraint("match_id", "seat", "kind", name="uq_chips_transfers_match_seat_kind"),
        sa.CheckConstraint("amount > 0", name="ck_chips_transfers_amount"),
        sa.CheckConstraint("debit_id <> credit_id", name="ck_chips_transfers_two_accounts"),
        sa.CheckConstraint(f"kind IN ({TRANSFER_KINDS})", name="ck_chips_transfers_kind"),
        sa.CheckConstraint("(kind IN ('hold', 'settle', 'rake', 'refund')) = (match_id IS NOT NULL)",
                           name="ck_chips_transfers_match"),
        sa.CheckConstraint("(kind IN ('hold', 'settle', 'refund')) = (seat IS NOT NULL)",
                           name="ck_chips_transfers_seat"),
    )
    op.create_index("ix_chips_transfers_debit_id", "chips_transfers", ["debit_id"])
    op.create_index("ix_chips_transfers_credit_id", "chips_transfers", ["credit_id"])
    op.create_index("ix_chips_transfers_match_id", "chips_transfers", ["match_id"])
    for statement in APPEND_ONLY.get(op.get_bind().dialect.name, []):
        op.execute(statement)
    accounts = sa.table("chips_accounts", sa.column("id"), sa.column("kind"), sa.column("currency"),
                        sa.column("balance"), sa.column("created_at", sa.DateTime(timezone=True)))
    from datetime import UTC, datetime

    opened = datetime.now(UTC)
    op.bulk_insert(accounts, [
        {"id": "house", "kind": "house", "currency": "chips", "balance": 0, "created_at": opened},
        {"id": "grants", "kind": "grants", "currency": "chips", "balance": 0, "created_at": opened},
    ])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS chips_transfers_append_only ON chips_transfers")
        op.execute("DROP FUNCTION IF EXISTS chips_transfers_append_only()")
    op.drop_table("chips_transfers")  # SQLite drops a table's triggers with it
    op.drop_table("chips_accounts")
