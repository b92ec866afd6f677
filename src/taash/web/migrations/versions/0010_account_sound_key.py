"""Accounts: a third key, the name as it reads in Latin letters (``taash.web.names``: "Меера" reads "Meera"),
unique like the other two. Accounts made before get theirs; where two of them read alike, the later keeps its name
and a key of its own (marked with its guest id), so no account is lost.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from taash.web.names import name_keys

    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("sound_key", sa.String(400), nullable=True))
    accounts = sa.table("accounts", sa.column("guest_id", sa.String), sa.column("name", sa.String),
                        sa.column("created_at", sa.DateTime), sa.column("sound_key", sa.String))
    bind = op.get_bind()
    taken: set[str] = set()
    for guest_id, name in bind.execute(sa.select(accounts.c.guest_id, accounts.c.name)
                                       .order_by(accounts.c.created_at, accounts.c.guest_id)).all():
        key = name_keys(name).sound
        if key in taken:
            key = f"{key}#{guest_id}"
        taken.add(key)
        bind.execute(accounts.update().where(accounts.c.guest_id == guest_id).values(sound_key=key))
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("sound_key", existing_type=sa.String(400), nullable=False)
        batch.create_unique_constraint("uq_accounts_sound_key", ["sound_key"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_sound_key", type_="unique")
        batch.drop_column("sound_key")
