"""PostgreSQL row-level security: every tenant table enabled and forced, one policy per table keyed on the
per-transaction ``app.workshop_id`` setting, and two narrow SECURITY DEFINER look-ups for signing in.

Nothing happens on SQLite (the repository's workshop filters are the only wall there).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

TENANT_TABLES = (
    "profiles",
    "api_tokens",
    "weavers",
    "hats",
    "hat_events",
    "hat_flags",
    "agent_runs",
    "proposals",
    "app_logs",
)
# An empty or missing setting becomes NULL, and NULL never equals a workshop id: no workshop, no rows.
CURRENT = "NULLIF(current_setting('app.workshop_id', true), '')"


def upgrade() -> None:
    """Enable, force and key the policies; add the sign-in look-ups."""
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in (*TENANT_TABLES, "workshops"):
        column = "id" if table == "workshops" else "workshop_id"
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY {table}_workshop ON {table} "
            f"USING ({column} = {CURRENT}) WITH CHECK ({column} = {CURRENT})"
        )
    # Signing in happens before the workshop is known, so these two look-ups run as the owner; they return
    # only what the sign-in needs, for one exact email or token hash.
    op.execute(
        """
        CREATE FUNCTION app_login_lookup(p_email text)
        RETURNS TABLE (user_id text, workshop_id text, password_hash text, active boolean)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
            SELECT id, workshop_id, password_hash, active FROM profiles WHERE email = lower(p_email)
        $$
        """
    )
    op.execute(
        """
        CREATE FUNCTION app_token_lookup(p_token_hash text)
        RETURNS TABLE (user_id text, workshop_id text, revoked boolean)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
            SELECT user_id, workshop_id, revoked_at IS NOT NULL FROM api_tokens WHERE token_hash = p_token_hash
        $$
        """
    )
    op.execute("REVOKE ALL ON FUNCTION app_login_lookup(text) FROM PUBLIC")
    op.execute("REVOKE ALL ON FUNCTION app_token_lookup(text) FROM PUBLIC")


def downgrade() -> None:
    """Drop the look-ups and the policies."""
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION IF EXISTS app_token_lookup(text)")
    op.execute("DROP FUNCTION IF EXISTS app_login_lookup(text)")
    for table in (*TENANT_TABLES, "workshops"):
        op.execute(f"DROP POLICY IF EXISTS {table}_workshop ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
