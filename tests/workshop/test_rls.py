"""PostgreSQL row-level security, exercised as the non-owner app role."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.store import Store
from shopfloor.workshop.store.models import TENANT_TABLES
from shopfloor.workshop.store.rls import rls_status

pytestmark = pytest.mark.postgres

A_ROWS = {"hats": 10, "weavers": 4, "profiles": 2, "hat_events": 24, "hat_flags": 1}
B_ROWS = {"hats": 2, "weavers": 1, "profiles": 2, "hat_events": 3, "hat_flags": 0}
POLICY = "USING (workshop_id = NULLIF(current_setting('app.workshop_id', true), '')) WITH CHECK (workshop_id = NULLIF(current_setting('app.workshop_id', true), ''))"


def isolation_problems(app: Store) -> list[str]:
    """Unfiltered SQL as the app role: each workshop sees exactly its own rows, no workshop sees nothing."""
    problems: list[str] = []
    for workshop_id, expected in ((WORKSHOP_A, A_ROWS), (WORKSHOP_B, B_ROWS), (None, None)):
        with app.transaction(workshop_id, write=False) as s:
            for table, count in (expected or dict.fromkeys(A_ROWS, 0)).items():
                seen = s.execute(text(f"SELECT workshop_id FROM {table}")).scalars().all()
                if len(seen) != count:
                    problems.append(f"{workshop_id}: {table} shows {len(seen)} rows, expected {count}")
                if any(w != workshop_id for w in seen):
                    problems.append(f"{workshop_id}: {table} shows rows of another workshop")
    return problems


def test_every_tenant_table_has_forced_rls(pg_store: Store, pg_owner: Store) -> None:
    status = rls_status(pg_owner.engine)
    for table in (*TENANT_TABLES, "workshops"):
        assert status[table] == (True, True, 1), table


def test_app_role_owns_nothing_and_bypasses_nothing(pg_store: Store) -> None:
    with pg_store.engine.connect() as conn:
        row = conn.execute(
            text("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        ).one()
        assert tuple(row) == (False, False)
        owned = conn.execute(
            text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user")
        ).scalar()
        assert owned == 0


def test_isolation_holds(pg_store: Store) -> None:
    assert isolation_problems(pg_store) == []


def test_setting_is_per_transaction_and_fails_closed(pg_store: Store) -> None:
    with pg_store.transaction(WORKSHOP_B, write=False) as s:
        assert s.execute(text("SELECT current_setting('app.workshop_id', true)")).scalar() == WORKSHOP_B
    # A plain connection (no session hook) has no workshop, so it sees no rows at all.
    with pg_store.engine.connect() as conn:
        assert conn.execute(text("SELECT current_setting('app.workshop_id', true)")).scalar() in (None, "")
        assert conn.execute(text("SELECT count(*) FROM hats")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM workshops")).scalar() == 0


def test_app_role_cannot_change_another_workshops_rows(pg_store: Store) -> None:
    with pg_store.transaction(WORKSHOP_B) as s:
        changed = s.execute(text("UPDATE hats SET stage = 'Finished' WHERE code = 'TQ-7F3K2'"))
        assert changed.rowcount == 0  # type: ignore[attr-defined]
    with pytest.raises(DBAPIError, match="row-level security"), pg_store.transaction(WORKSHOP_B) as s:
        s.execute(
            text(
                "INSERT INTO hat_flags (id, workshop_id, hat_id, kind, message, status, created_at) "
                "VALUES ('x1', :a, 'hat-7f3k2', 'other', 'planted', 'open', now())"
            ),
            {"a": WORKSHOP_A},
        )
    with pytest.raises(DBAPIError, match="row-level security"), pg_store.transaction(WORKSHOP_B) as s:
        s.execute(text("UPDATE hats SET workshop_id = :a WHERE code = 'TQ-7F3K8'"), {"a": WORKSHOP_A})
    with pg_store.transaction(WORKSHOP_A, write=False) as s:
        assert s.execute(text("SELECT stage FROM hats WHERE code = 'TQ-7F3K2'")).scalar() == "Weaving"
        assert s.execute(text("SELECT count(*) FROM hat_flags")).scalar() == 1


def test_sign_in_lookups_work_before_a_workshop_is_known(pg_store: Store) -> None:
    with pg_store.engine.connect() as conn:
        row = conn.execute(
            text("SELECT user_id, workshop_id FROM app_login_lookup('ANA@taller.example')")
        ).one()
        assert tuple(row) == ("u-ana", WORKSHOP_A)
        assert conn.execute(text("SELECT count(*) FROM app_token_lookup('nope')")).scalar() == 0


@contextmanager
def altered_policy(owner: Store, table: str, replacement: str | None) -> Iterator[None]:
    with owner.engine.begin() as conn:
        conn.exec_driver_sql(f"DROP POLICY {table}_workshop ON {table}")
        if replacement is not None:
            conn.exec_driver_sql(f"CREATE POLICY {table}_workshop ON {table} {replacement}")
    try:
        yield
    finally:
        with owner.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP POLICY IF EXISTS {table}_workshop ON {table}")
            conn.exec_driver_sql(f"CREATE POLICY {table}_workshop ON {table} {POLICY}")


def test_isolation_test_fails_without_the_policy(pg_store: Store, pg_owner: Store) -> None:
    with altered_policy(pg_owner, "hats", None):
        problems = isolation_problems(pg_store)
        assert any("hats shows 0 rows, expected 10" in p for p in problems)
    with altered_policy(pg_owner, "hats", "USING (true) WITH CHECK (true)"):
        problems = isolation_problems(pg_store)
        assert any("hats shows rows of another workshop" in p for p in problems)
    assert isolation_problems(pg_store) == []


def test_app_role_cannot_delete_or_touch_migrations(pg_store: Store) -> None:
    with pytest.raises(DBAPIError, match="permission denied"), pg_store.transaction(WORKSHOP_A) as s:
        s.execute(text("DELETE FROM hat_events"))
    with pytest.raises(DBAPIError, match="permission denied"), pg_store.transaction(WORKSHOP_A) as s:
        s.execute(text("UPDATE alembic_version SET version_num = 'x'"))
    with pg_store.transaction(WORKSHOP_A, write=False) as s:
        assert s.execute(text("SELECT count(*) FROM hat_events")).scalar() == 24
