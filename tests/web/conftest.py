"""The workshop's seeded stores (SQLite and PostgreSQL) and its main-app client, for the edge tests."""

from tests.shifts.conftest import year  # noqa: F401 (the generated shift records)
from tests.workshop.conftest import (  # noqa: F401 (fixtures, found by name)
    _light_argon2,
    client,
    owner,
    pg_app,
    pg_database,
    pg_owner,
    pg_store,
    sqlite_store,
    store,
)
