"""PostgreSQL roles for row-level security: the app connects as a role that owns nothing and bypasses nothing.

The policies themselves live in migration 0002; this module creates the login role (idempotently, since roles
are cluster-wide) and grants it only what the app needs, in the current database.
"""

from __future__ import annotations

import re

from sqlalchemy import Engine, text

_ROLE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# The owner-run functions the app role may call: the sign-in look-ups (migrations 0002, 0006) and the sign-in
# throttle's counters (migrations 0006, 0008).
APP_FUNCTIONS = (
    "app_login_lookup(text)",
    "app_token_lookup(text)",
    "app_signin_failures(text[])",
    "app_signin_failed(text, text, text, timestamptz, timestamptz)",
    "app_signin_forget(text)",
    "app_signin_refund(text)",
    "app_auth_prune(timestamptz, timestamptz)",
)


def provision_app_role(owner: Engine, role: str, password: str | None = None) -> None:
    """Create ``role`` if missing (LOGIN, no superuser, no BYPASSRLS) and grant it table access here."""
    if not _ROLE.match(role):
        raise ValueError(f"Not a plain role name: {role!r}")
    with owner.begin() as conn:
        # Roles are cluster-wide: two databases provisioned at once would both ALTER the same role row and
        # one would fail with "tuple concurrently updated". A cluster-wide advisory lock makes them take turns.
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext('shopfloor-provision-app-role'))")
        database = conn.execute(text("SELECT current_database()")).scalar_one()
        conn.exec_driver_sql(
            f"""
            DO $$ BEGIN
                CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$
            """
        )
        conn.exec_driver_sql(f"ALTER ROLE {role} NOSUPERUSER NOBYPASSRLS")
        if password is not None:
            conn.execute(text(f"ALTER ROLE {role} PASSWORD :p"), {"p": password})
        conn.exec_driver_sql(f'GRANT CONNECT ON DATABASE "{database}" TO {role}')
        conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA public TO {role}")
        conn.exec_driver_sql(f"GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO {role}")
        conn.exec_driver_sql(f"REVOKE INSERT, UPDATE ON alembic_version FROM {role}")
        conn.exec_driver_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
        for function in APP_FUNCTIONS:
            conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {function} TO {role}")


def rls_status(engine: Engine) -> dict[str, tuple[bool, bool, int]]:
    """Per public table: (RLS enabled, RLS forced, number of policies)."""
    sql = text(
        """
        SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
               (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r'
        """
    )
    with engine.connect() as conn:
        return {name: (bool(on), bool(forced), int(n)) for name, on, forced, n in conn.execute(sql)}
