"""The seeded workshop stores (SQLite and PostgreSQL) and the generated shift records, for the fuzz gate."""

from tests.shifts.conftest import year  # noqa: F401 (fixtures, found by name)
from tests.workshop.conftest import (  # noqa: F401
    _light_argon2,
    owner,
    pg_app,
    pg_database,
    pg_owner,
    pg_store,
    sqlite_store,
    store,
)
