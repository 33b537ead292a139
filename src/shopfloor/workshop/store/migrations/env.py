"""Alembic environment: migrations always run on a connection handed over by ``store.migrate``."""

from __future__ import annotations

from alembic import context

from shopfloor.workshop.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the programmatic path is supported
    raise RuntimeError("Run workshop migrations through shopfloor.workshop.store.migrate.")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=False,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
