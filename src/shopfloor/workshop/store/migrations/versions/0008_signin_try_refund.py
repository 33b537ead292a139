"""Sign-in throttle: a try is counted before the password check, so a successful one is given back.

The throttle now counts every try against its counters atomically before the slow password hash (so tries
racing in parallel cannot all pass the check; docs/security.md, throttles). A success then hands its try
back to the client address's counter, as if it had not been counted: ``app_signin_refund`` lowers one counter
by one, removing it when that leaves no failure. Like the other throttle functions it is owner-run, since a client's counter
belongs to no workshop.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

REFUND = """
CREATE FUNCTION app_signin_refund(p_key text) RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
    DELETE FROM signin_failures WHERE key = p_key AND failures <= 1;
    UPDATE signin_failures SET failures = failures - 1 WHERE key = p_key;
$$
"""
SIGNATURE = "app_signin_refund(text)"


def upgrade() -> None:
    """Add the owner-run refund on PostgreSQL (SQLite has no roles: the app updates the row itself)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(REFUND)
        op.execute(f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC")


def downgrade() -> None:
    """Back to revision 0006."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
