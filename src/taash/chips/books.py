"""The books: the ledger's accounts and its append-only transfers (SQLAlchemy 2 models).

The schema itself comes from the web server's one Alembic chain (``taash/web/migrations/versions/0006_chips.py``);
these models are its mirror, kept here because the ledger sits below the web server (the server will use the
ledger; the ledger knows nothing of the server). A test checks that the models and the migrated schema agree.

Every rule the books must keep that a row can state is a database constraint, so that no code path (a bug, a
hand-written ``UPDATE``) can break it:

- a wallet or a match's escrow never holds fewer than 0 chips; the grant source never holds more than 0 (it only
  ever gives); the house may go below 0 (it is the bank behind the bots' stakes and the rakes);
- an escrow is ``pending`` while its match is played, then ``posted`` (settled) or ``voided`` (refunded), and a
  closed escrow holds 0 chips: a settlement or a refund empties it in the same transaction that closes it; its
  rake (0 to 100%) is fixed when the stakes are held;
- a transfer moves a positive amount between two different accounts of its own currency; a match's transfers
  name the match, and each seat of a match is held, settled and refunded at most once;
- transfers are never changed or deleted (triggers refuse ``UPDATE`` and ``DELETE``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKeyConstraint,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Kinds of account. A wallet belongs to a person; an escrow to one match; the house and the grant source are one each.
WALLET = "wallet"
ESCROW = "escrow"
HOUSE = "house"
GRANTS = "grants"
ACCOUNT_KINDS = (WALLET, ESCROW, HOUSE, GRANTS)

#: The states of a match's hold (TigerBeetle's pending, posted and voided transfers).
PENDING = "pending"
POSTED = "posted"
VOIDED = "voided"
HOLD_STATES = (PENDING, POSTED, VOIDED)

#: Kinds of transfer: a starting grant, a daily bonus, a seat's stake into a match's escrow, its payout when the
#: match is settled, the house's rake, its refund when the match is abandoned, and any other movement.
GRANT = "grant"
BONUS = "bonus"
HOLD = "hold"
SETTLE = "settle"
RAKE = "rake"
REFUND = "refund"
MOVE = "move"
TRANSFER_KINDS = (GRANT, BONUS, HOLD, SETTLE, RAKE, REFUND, MOVE)
MATCH_TRANSFERS = (HOLD, SETTLE, RAKE, REFUND)

#: The one currency today (the schema keeps one per account and transfer, and the audit sums per currency).
CHIPS = "chips"

#: The house's and the grant source's account ids.
HOUSE_ACCOUNT = "house"
GRANTS_ACCOUNT = "grants"


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


def now() -> datetime:
    return datetime.now(UTC)


class ChipsBase(DeclarativeBase):
    pass


class AccountRow(ChipsBase):
    """An account of the books and its balance, kept in the same transaction as every transfer that moves it."""

    __tablename__ = "chips_accounts"
    __table_args__ = (
        UniqueConstraint("id", "currency", name="uq_chips_accounts_id_currency"),
        CheckConstraint(f"kind IN ({_listed(ACCOUNT_KINDS)})", name="ck_chips_accounts_kind"),
        CheckConstraint(
            f"(kind IN ('{WALLET}', '{ESCROW}') AND balance >= 0) OR kind = '{HOUSE}' "
            f"OR (kind = '{GRANTS}' AND balance <= 0)", name="ck_chips_accounts_never_overdrawn"),
        CheckConstraint(f"(kind = '{ESCROW}') = (state IS NOT NULL)", name="ck_chips_accounts_escrow_state"),
        CheckConstraint(f"state IS NULL OR state IN ({_listed(HOLD_STATES)})", name="ck_chips_accounts_state"),
        CheckConstraint(f"state IS NULL OR state = '{PENDING}' OR balance = 0",
                        name="ck_chips_accounts_closed_escrow_empty"),
        CheckConstraint(f"(state IS NULL OR state = '{PENDING}') = (closed_at IS NULL)",
                        name="ck_chips_accounts_closed_at"),
        CheckConstraint(f"(kind = '{ESCROW}') = (rake_bps IS NOT NULL) AND (rake_bps IS NULL OR "
                        "rake_bps BETWEEN 0 AND 10000)", name="ck_chips_accounts_rake"),
    )

    #: ``wallet:PERSON``, ``escrow:MATCH``, ``house`` or ``grants``.
    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    currency: Mapped[str] = mapped_column(String(16))
    balance: Mapped[int] = mapped_column(BigInteger)
    #: An escrow's hold: pending, posted or voided (None for other accounts).
    state: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: An escrow's rake, fixed when the stakes are held: the house's share of each winner's winnings, in
    #: hundredths of a percent (None for other accounts).
    rake_bps: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The web table an escrow's match is played at, when it is one (the audit checks its status).
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TransferRow(ChipsBase):
    """One movement of chips from one account (debited) to another (credited); never changed, never deleted."""

    __tablename__ = "chips_transfers"
    __table_args__ = (
        ForeignKeyConstraint(["debit_id", "currency"], ["chips_accounts.id", "chips_accounts.currency"],
                             name="fk_chips_transfers_debit"),
        ForeignKeyConstraint(["credit_id", "currency"], ["chips_accounts.id", "chips_accounts.currency"],
                             name="fk_chips_transfers_credit"),
        UniqueConstraint("match_id", "seat", "kind", name="uq_chips_transfers_match_seat_kind"),
        CheckConstraint("amount > 0", name="ck_chips_transfers_amount"),
        CheckConstraint("debit_id <> credit_id", name="ck_chips_transfers_two_accounts"),
        CheckConstraint(f"kind IN ({_listed(TRANSFER_KINDS)})", name="ck_chips_transfers_kind"),
        CheckConstraint(f"(kind IN ({_listed(MATCH_TRANSFERS)})) = (match_id IS NOT NULL)",
                        name="ck_chips_transfers_match"),
        CheckConstraint(f"(kind IN ('{HOLD}', '{SETTLE}', '{REFUND}')) = (seat IS NOT NULL)",
                        name="ck_chips_transfers_seat"),
    )

    #: Chosen from the event that makes it (``MATCH:SEAT:settle``, ``grant:PERSON``): a retry is recognised by it.
    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    debit_id: Mapped[str] = mapped_column(String(160), index=True)
    credit_id: Mapped[str] = mapped_column(String(160), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(8))
    match_id: Mapped[str | None] = mapped_column(String(150), nullable=True, index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
