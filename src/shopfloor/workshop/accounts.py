"""Accounts: sign-in with argon2 hashes, signed session cookies for pages, bearer tokens for the API, CSRF.

A session cookie holds only ``{user id, workshop id, csrf token}``, signed with the settings' secret key and
checked for age; the user is re-read from the store on every request, so a deactivated user is out at once.
Cookie-authenticated POSTs must echo the session's CSRF token in the ``x-csrf-token`` header; bearer requests carry no ambient credentials and need none.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Any, cast

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import Table, bindparam, select, text

from shopfloor.workshop import domain
from shopfloor.workshop.passwords import verify_password
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

SESSION_COOKIE = "tt_session"
SESSION_MAX_AGE_S = 12 * 3600
CSRF_HEADER = "x-csrf-token"
TOKEN_PREFIX = "tt_"

# Every request is authenticated with these two reads, so they are Core statements built once.
_PROFILES = cast(Table, m.Profile.__table__)
_TOKENS = cast(Table, m.ApiToken.__table__)
_ACTOR = select(_PROFILES.c.id, _PROFILES.c.workshop_id, _PROFILES.c.role, _PROFILES.c.name).where(
    _PROFILES.c.id == bindparam("user_id"),
    _PROFILES.c.workshop_id == bindparam("workshop_id"),
    _PROFILES.c.active.is_(True),
)
_TOKEN_SQLITE = select(_TOKENS.c.user_id, _TOKENS.c.workshop_id, _TOKENS.c.revoked_at.is_not(None)).where(
    _TOKENS.c.token_hash == bindparam("h")
)
# Before the token is read no workshop is known; on PostgreSQL the narrow owner-run look-up is the only way in.
_TOKEN_POSTGRES = text("SELECT user_id, workshop_id, revoked FROM app_token_lookup(:h)")


@dataclass(frozen=True)
class SessionData:
    """What a signed session cookie carries."""

    user_id: str
    workshop_id: str
    csrf: str


class SessionSigner:
    """Signs and reads session cookies (itsdangerous, timestamped)."""

    def __init__(self, secret: str, max_age_s: int = SESSION_MAX_AGE_S) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="shopfloor.workshop.session")
        self.max_age_s = max_age_s

    def dumps(self, data: SessionData) -> str:
        """The cookie value for ``data``."""
        return str(self._serializer.dumps({"u": data.user_id, "w": data.workshop_id, "c": data.csrf}))

    def loads(self, value: str | None) -> SessionData | None:
        """The session in a cookie value, or None if missing, forged, malformed or expired."""
        if not value:
            return None
        try:
            raw: Any = self._serializer.loads(value, max_age=self.max_age_s)
        except BadSignature:
            return None
        if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("u", "w", "c")):
            return None
        return SessionData(raw["u"], raw["w"], raw["c"])


def new_session(actor: domain.Actor) -> SessionData:
    """A fresh session for ``actor`` with a new CSRF token."""
    return SessionData(actor.user_id, actor.workshop_id, secrets.token_urlsafe(24))


def csrf_ok(session: SessionData, presented: str | None) -> bool:
    """Constant-time comparison of the presented CSRF token with the session's."""
    return bool(presented) and hmac.compare_digest(session.csrf.encode(), (presented or "").encode())


class LoginThrottle:
    """Refuses sign-in for an email after ``limit`` failures within ``window_s`` (per process, in memory)."""

    def __init__(
        self, limit: int = 5, window_s: float = 900.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window_s = window_s
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = Lock()

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        failures = self._failures.setdefault(key, deque())
        while failures and now - failures[0] > self.window_s:
            failures.popleft()
        return failures

    def blocked(self, email: str) -> bool:
        """True while ``email`` has too many recent failures."""
        with self._lock:
            return len(self._recent(email.strip().lower())) >= self.limit

    def failed(self, email: str) -> None:
        """Count one failed sign-in."""
        with self._lock:
            self._recent(email.strip().lower()).append(self._clock())

    def succeeded(self, email: str) -> None:
        """Forget the failures of ``email``."""
        with self._lock:
            self._failures.pop(email.strip().lower(), None)


def token_hash(token: str) -> str:
    """SHA-256 of a bearer token (tokens are random, so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def load_actor(store: Store, user_id: str, workshop_id: str) -> domain.Actor | None:
    """The active user ``user_id`` of ``workshop_id`` as an actor, or None."""
    with store.reading(workshop_id) as conn:
        row = conn.execute(_ACTOR, {"user_id": user_id, "workshop_id": workshop_id}).first()
    if row is None:
        return None
    role: domain.Role = "admin" if row.role == "admin" else "member"
    return domain.Actor(row.id, row.workshop_id, role, row.name)


def _login_row(store: Store, email: str) -> tuple[str, str, str, bool] | None:
    email = email.strip().lower()
    # Before sign-in no workshop is known; on PostgreSQL the narrow owner-run look-up is the only way in.
    with store.transaction(None, write=False) as s:
        if store.is_sqlite:
            row = s.execute(
                select(m.Profile.id, m.Profile.workshop_id, m.Profile.password_hash, m.Profile.active).where(
                    m.Profile.email == email
                )
            ).first()
        else:
            row = s.execute(
                text("SELECT user_id, workshop_id, password_hash, active FROM app_login_lookup(:e)"),
                {"e": email},
            ).first()
    return (row[0], row[1], row[2], bool(row[3])) if row else None


def authenticate(store: Store, email: str, password: str) -> domain.Actor | None:
    """The actor for a correct email and password, else None (same work either way)."""
    row = _login_row(store, email) if 3 <= len(email) <= 254 else None
    ok = verify_password(row[2] if row else None, password[:1024])
    if row is None or not ok or not row[3]:
        return None
    return load_actor(store, row[0], row[1])


def actor_by_email(store: Store, email: str) -> domain.Actor | None:
    """The active user with this email as an actor, without a password (for trusted local commands)."""
    row = _login_row(store, email)
    if row is None or not row[3]:
        return None
    return load_actor(store, row[0], row[1])


def issue_token(store: Store, actor: domain.Actor, name: str = "api") -> str:
    """A new bearer token for ``actor``; only its hash is stored, so show it once."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with store.transaction(actor.workshop_id) as s:
        s.add(
            m.ApiToken(
                workshop_id=actor.workshop_id,
                user_id=actor.user_id,
                name=name[:120],
                token_hash=token_hash(token),
            )
        )
    return token


def revoke_tokens(store: Store, actor: domain.Actor) -> int:
    """Revoke every token of ``actor``; returns how many."""
    with store.transaction(actor.workshop_id) as s:
        rows = list(
            s.scalars(
                select(m.ApiToken).where(
                    m.ApiToken.user_id == actor.user_id,
                    m.ApiToken.workshop_id == actor.workshop_id,
                    m.ApiToken.revoked_at.is_(None),
                )
            )
        )
        for row in rows:
            row.revoked_at = m.utcnow()
        return len(rows)


def actor_for_token(store: Store, token: str) -> domain.Actor | None:
    """The actor behind a bearer token, or None for unknown or revoked tokens."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    with store.reading(None) as conn:
        statement = _TOKEN_SQLITE if store.is_sqlite else _TOKEN_POSTGRES
        row = conn.execute(statement, {"h": token_hash(token)}).first()
    if row is None or row[2]:
        return None
    return load_actor(store, row[0], row[1])
