"""Alembic's environment: migrations run on the connection the server (or a test) hands over."""

from __future__ import annotations

from alembic import context

from taash.chips.books import ChipsBase
from taash.web.db import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes one
    raise RuntimeError("run migrations through taash.web.db.migrate()")
context.configure(connection=connection, target_metadata=[Base.metadata, ChipsBase.metadata], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
