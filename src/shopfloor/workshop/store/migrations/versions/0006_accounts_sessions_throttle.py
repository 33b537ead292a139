"""Accounts: stored sessions, token expiry, and a sign-in throttle shared by every server process.

* ``user_sessions``: one row per signed-in browser session; the cookie names it and sign-out ends it, so a
  copied cookie stops working at sign-out.
* ``api_tokens.expires_at``: tokens issued before this revision expire 90 days after they were made.
* ``signin_failures``: failed sign-ins per email and per client address (docs/security.md, throttles).

On PostgreSQL both new tables get the same forced row-level security as the others. A client's or an unknown
email's counter belongs to no workshop, so no workshop sees it: the throttle reads and writes its rows through
narrow owner-run functions, as sign-in already does. ``app_token_lookup`` now also returns the token's
expiry.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from shopfloor.workshop.store.types import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

NEW_TENANT_TABLES = ("user_sessions", "signin_failures")
CURRENT = "NULLIF(current_setting('app.workshop_id', true), '')"

TOKEN_LOOKUP_0002 = """
CREATE FUNCTION app_token_lookup(p_token_hash text)
RETURNS TABLE (user_id text, workshop_id text, revoked boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT user_id, workshop_id, revoked_at IS NOT NULL FROM api_tokens WHERE token_hash = p_token_hash
$$
"""
TOKEN_LOOKUP = """
CREATE FUNCTION app_token_lookup(p_token_hash text)
RETURNS TABLE (user_id text, workshop_id text, revoked boolean, expires_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT user_id, workshop_id, revoked_at IS NOT NULL, expires_at FROM api_tokens WHERE token_hash = p_token_hash
$$
"""
# The throttle's counters, before any workshop is known: read some, count one failure, forget one, and drop
# the stale ones (with sessions long over). Nothing else of the table is reachable.
THROTTLE_FUNCTIONS = (
    """
    CREATE FUNCTION app_signin_failures(p_keys text[])
    RETURNS TABLE (key text, failures integer, last_failed_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
        SELECT key, failures, last_failed_at FROM signin_failures WHERE key = ANY(p_keys)
    $$
    """,
    """
    CREATE FUNCTION app_signin_failed(
        p_key text, p_kind text, p_workshop text, p_now timestamptz, p_forget_before timestamptz)
    RETURNS TABLE (failures integer, last_failed_at timestamptz)
    LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
        INSERT INTO signin_failures AS f (key, kind, workshop_id, failures, first_failed_at, last_failed_at)
        VALUES (p_key, p_kind, p_workshop, 1, p_now, p_now)
        ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN f.last_failed_at < p_forget_before THEN 1 ELSE f.failures + 1 END,
            first_failed_at = CASE WHEN f.last_failed_at < p_forget_before THEN p_now
                                   ELSE f.first_failed_at END,
            last_failed_at = p_now,
            workshop_id = p_workshop
        RETURNING f.failures, f.last_failed_at
    $$
    """,
    """
    CREATE FUNCTION app_signin_forget(p_key text) RETURNS void
    LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
        DELETE FROM signin_failures WHERE key = p_key
    $$
    """,
    """
    CREATE FUNCTION app_auth_prune(p_forget_before timestamptz, p_sessions_before timestamptz)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    DECLARE
        removed integer;
    BEGIN
        DELETE FROM signin_failures WHERE last_failed_at < p_forget_before;
        GET DIAGNOSTICS removed = ROW_COUNT;
        DELETE FROM user_sessions WHERE expires_at < p_sessions_before OR ended_at < p_sessions_before;
        RETURN removed;
    END
    $$
    """,
)
THROTTLE_SIGNATURES = (
    "app_signin_failures(text[])",
    "app_signin_failed(text, text, text, timestamptz, timestamptz)",
    "app_signin_forget(text)",
    "app_auth_prune(timestamptz, timestamptz)",
)


def upgrade() -> None:
    """Add the tables and columns; on PostgreSQL their policies and the owner-run functions."""
    postgres = op.get_bind().dialect.name == "postgresql"
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("ended_at", UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["profiles.id"]),
        sa.ForeignKeyConstraint(["workshop_id"], ["workshops.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_user_sessions_user", "user_sessions", ["workshop_id", "user_id"], unique=False)
    op.create_index(op.f("ix_user_sessions_expires_at"), "user_sessions", ["expires_at"], unique=False)
    op.create_table(
        "signin_failures",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("first_failed_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_failed_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('email', 'client')", name="ck_signin_failures_kind"),
        sa.ForeignKeyConstraint(["workshop_id"], ["workshops.id"]),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index(op.f("ix_signin_failures_workshop_id"), "signin_failures", ["workshop_id"], unique=False)
    op.create_index(
        op.f("ix_signin_failures_last_failed_at"), "signin_failures", ["last_failed_at"], unique=False
    )
    op.add_column("api_tokens", sa.Column("expires_at", UTCDateTime(timezone=True), nullable=True))
    later = "created_at + interval '90 days'" if postgres else "datetime(created_at, '+90 days')"
    op.execute(f"UPDATE api_tokens SET expires_at = {later}")
    if not postgres:
        return
    for table in NEW_TENANT_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY {table}_workshop ON {table} "
            f"USING (workshop_id = {CURRENT}) WITH CHECK (workshop_id = {CURRENT})"
        )
    op.execute("DROP FUNCTION app_token_lookup(text)")
    op.execute(TOKEN_LOOKUP)
    op.execute("REVOKE ALL ON FUNCTION app_token_lookup(text) FROM PUBLIC")
    for statement in THROTTLE_FUNCTIONS:
        op.execute(statement)
    for signature in THROTTLE_SIGNATURES:
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")


def downgrade() -> None:
    """Back to revision 0005 (sessions and throttle counters are dropped)."""
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        for signature in THROTTLE_SIGNATURES:
            op.execute(f"DROP FUNCTION IF EXISTS {signature}")
        op.execute("DROP FUNCTION app_token_lookup(text)")
        op.execute(TOKEN_LOOKUP_0002)
        op.execute("REVOKE ALL ON FUNCTION app_token_lookup(text) FROM PUBLIC")
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("expires_at")
    op.drop_index(op.f("ix_signin_failures_last_failed_at"), table_name="signin_failures")
    op.drop_index(op.f("ix_signin_failures_workshop_id"), table_name="signin_failures")
    op.drop_table("signin_failures")
    op.drop_index(op.f("ix_user_sessions_expires_at"), table_name="user_sessions")
    op.drop_index("ix_user_sessions_user", table_name="user_sessions")
    op.drop_table("user_sessions")
