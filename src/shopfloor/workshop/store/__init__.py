"""The workshop store: SQLAlchemy models, migrations, engines (SQLite or PostgreSQL with row-level security)
and the actor-scoped repository."""

from shopfloor.workshop.store.engine import Store, make_engine, open_store
from shopfloor.workshop.store.repo import NotFound, WorkshopRepo

__all__ = ["NotFound", "Store", "WorkshopRepo", "make_engine", "open_store"]
