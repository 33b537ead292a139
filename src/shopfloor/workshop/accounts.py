"""Accounts: sign-in with argon2 hashes and a throttle, stored sessions for pages, bearer tokens for the API,
and CSRF.

A session cookie holds only ``{user id, workshop id, csrf token, session id}``, signed with the settings'
secret key and checked for age; the session and the user are re-read from the store on every request, so a
deactivated user, or a session ended by signing out, is out at once. Cookie-authenticated POSTs must echo the
session's CSRF token in the ``x-csrf-token`` header; bearer requests carry no ambient credentials and need
none. Bearer tokens expire and can be revoked (docs/workshop.md, "Accounts").
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from threading import Lock
from typing import Any, cast

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from sqlalchemy import Connection, Select, Table, bindparam, case, literal, select, text, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from shopfloor.settings import Settings
from shopfloor.web.tokens import token_matches
from shopfloor.workshop import domain
from shopfloor.workshop.passwords import verify_password
from shopfloor.workshop.store import NotFound, Store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.prepared import first_row
from shopfloor.workshop.store.types import UTCDateTime

SESSION_COOKIE = "tt_session"
# Before a session exists, the sign-in form's token is also kept in this cookie (docs/security.md, sessions).
SIGNIN_COOKIE = "tt_signin"
SIGNIN_FIELD = "signin_token"
SESSION_MAX_AGE_S = 12 * 3600
CSRF_HEADER = "x-csrf-token"
TOKEN_PREFIX = "tt_"
# A token's name: 1 to TOKEN_NAME_MAX characters (the api_tokens.name column), for the API and the pages.
TOKEN_NAME_MAX = 120

# Every request is authenticated with these two reads, so they are Core statements built once.
_PROFILES = cast(Table, m.Profile.__table__)
_TOKENS = cast(Table, m.ApiToken.__table__)
_ACTOR = select(_PROFILES.c.id, _PROFILES.c.workshop_id, _PROFILES.c.role, _PROFILES.c.name).where(
    _PROFILES.c.id == bindparam("user_id"),
    _PROFILES.c.workshop_id == bindparam("workshop_id"),
    _PROFILES.c.active.is_(True),
)
_TOKEN_SQLITE = select(
    _TOKENS.c.user_id,
    _TOKENS.c.workshop_id,
    _TOKENS.c.revoked_at.is_not(None),
    _TOKENS.c.expires_at,
).where(_TOKENS.c.token_hash == bindparam("h"))
# Before the token is read no workshop is known; on PostgreSQL the narrow owner-run look-up is the only way in.
_TOKEN_POSTGRES = text("SELECT user_id, workshop_id, revoked, expires_at FROM app_token_lookup(:h)")
_USER_SESSIONS = cast(Table, m.UserSession.__table__)
# A cookie's session: stored, not ended, not expired, of this user in this workshop, and the user active.
_SESSION_ACTOR = (
    select(_PROFILES.c.id, _PROFILES.c.workshop_id, _PROFILES.c.role, _PROFILES.c.name)
    .join(_USER_SESSIONS, _USER_SESSIONS.c.user_id == _PROFILES.c.id)
    .where(
        _USER_SESSIONS.c.id == bindparam("session_id"),
        _USER_SESSIONS.c.user_id == bindparam("user_id"),
        _USER_SESSIONS.c.workshop_id == bindparam("workshop_id"),
        _USER_SESSIONS.c.ended_at.is_(None),
        _USER_SESSIONS.c.expires_at > bindparam("now", type_=UTCDateTime()),
        _PROFILES.c.workshop_id == bindparam("workshop_id"),
        _PROFILES.c.active.is_(True),
    )
)


@dataclass(frozen=True)
class SessionData:
    """What a signed session cookie carries."""

    user_id: str
    workshop_id: str
    csrf: str
    # Names the stored session (`user_sessions`), so that signing out ends it on the server.
    session_id: str = ""


class SessionSigner:
    """Signs and reads session cookies (itsdangerous, timestamped)."""

    def __init__(self, secret: str, max_age_s: int = SESSION_MAX_AGE_S) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="shopfloor.workshop.session")
        self._signin = TimestampSigner(secret, salt="shopfloor.workshop.signin")
        self.max_age_s = max_age_s

    def signin_token(self, current: str | None = None) -> str:
        """The sign-in form's token: ``current`` (the browser's sign-in cookie) while it is still valid, so
        several open sign-in tabs share one, else a new random value signed with the server's key."""
        if current is not None and self.signin_token_valid(current):
            return current
        return self._signin.sign(secrets.token_urlsafe(18)).decode("ascii")

    def signin_token_valid(self, token: str | None) -> bool:
        """Whether ``token`` is a sign-in token this server issued within the session lifetime."""
        if not token or len(token) > 200:
            return False
        try:
            self._signin.unsign(token, max_age=self.max_age_s)
        except BadSignature:  # a SignatureExpired is a BadSignature too
            return False
        return True

    def signin_allowed(self, cookie: str | None, presented: str | None) -> bool:
        """Whether a sign-in post carries the form's token: a valid token, the same in the form and in the
        browser's sign-in cookie (a foreign site can read neither, nor set the cookie)."""
        return self.signin_token_valid(cookie) and token_matches(cookie or "", presented)

    def dumps(self, data: SessionData) -> str:
        """The cookie value for ``data``."""
        payload = {"u": data.user_id, "w": data.workshop_id, "c": data.csrf, "s": data.session_id}
        return str(self._serializer.dumps(payload))

    def loads(self, value: str | None) -> SessionData | None:
        """The session in a cookie value, or None if missing, forged, malformed or expired."""
        if not value:
            return None
        try:
            raw: Any = self._serializer.loads(value, max_age=self.max_age_s)
        except BadSignature:
            return None
        if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("u", "w", "c", "s")):
            return None
        return SessionData(raw["u"], raw["w"], raw["c"], raw["s"])


def new_session(actor: domain.Actor) -> SessionData:
    """A fresh session for ``actor`` with a new CSRF token and session id (not stored yet)."""
    return SessionData(actor.user_id, actor.workshop_id, secrets.token_urlsafe(24), secrets.token_urlsafe(24))


def start_session(store: Store, actor: domain.Actor, max_age_s: int = SESSION_MAX_AGE_S) -> SessionData:
    """A new session for ``actor``, stored so that a cookie naming it is honoured until it ends or expires."""
    session = new_session(actor)
    now = m.utcnow()
    with store.transaction(actor.workshop_id) as s:
        s.add(
            m.UserSession(
                id=session.session_id,
                workshop_id=actor.workshop_id,
                user_id=actor.user_id,
                created_at=now,
                expires_at=now + timedelta(seconds=max_age_s),
            )
        )
    return session


def actor_for_session(store: Store, session: SessionData) -> domain.Actor | None:
    """The actor of a cookie's session, or None when the session is not stored, ended or expired, or its
    user is inactive."""
    if not session.session_id:
        return None
    params = {
        "session_id": session.session_id,
        "user_id": session.user_id,
        "workshop_id": session.workshop_id,
        "now": m.utcnow(),
    }
    with store.reading(session.workshop_id) as conn:
        row = conn.execute(_SESSION_ACTOR, params).first()
    if row is None:
        return None
    role: domain.Role = "admin" if row.role == "admin" else "member"
    return domain.Actor(row.id, row.workshop_id, role, row.name)


def end_session(store: Store, session: SessionData) -> None:
    """End a stored session (sign-out): a copy of its cookie is refused from now on."""
    with store.transaction(session.workshop_id) as s:
        s.execute(
            update(m.UserSession)
            .where(
                m.UserSession.id == session.session_id,
                m.UserSession.workshop_id == session.workshop_id,
                m.UserSession.user_id == session.user_id,
                m.UserSession.ended_at.is_(None),
            )
            .values(ended_at=m.utcnow())
        )


def csrf_ok(session: SessionData, presented: str | None) -> bool:
    """Whether the presented CSRF token is the session's (the shared constant-time comparison)."""
    return token_matches(session.csrf, presented)


def same_origin(origin: str | None, scheme: str, netloc: str) -> bool:
    """Whether a request's ``Origin`` header is absent or names the request's own scheme and host (a browser
    sends one with every form post; ``null``, from a sandboxed or privacy-stripped page, is not ours)."""
    if origin is None:
        return True
    return origin.strip().lower() == f"{scheme}://{netloc}".lower()


UNKNOWN_EMAIL_BUCKETS = 1024
_PRUNE_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class ThrottlePolicy:
    """How many failures a counter may have before a delay, the first delay and the longest one."""

    free_failures: int
    first_delay_s: float
    max_delay_s: float


def throttle_delay(failures: int, policy: ThrottlePolicy) -> float:
    """Seconds a counter with ``failures`` must wait after its latest failure: none for the free failures,
    then ``first_delay_s``, doubling with each further failure up to ``max_delay_s`` (never a lock)."""
    if failures < policy.free_failures:
        return 0.0
    doublings = min(failures - policy.free_failures, 32)
    return float(min(policy.max_delay_s, policy.first_delay_s * 2.0**doublings))


def retry_after_s(failures: int, last_failed_at: datetime, now: datetime, policy: ThrottlePolicy) -> int:
    """Whole seconds until a counter may try again (0: now)."""
    delay = throttle_delay(failures, policy)
    wait = min(delay, delay - (now - last_failed_at).total_seconds())
    return math.ceil(wait) if wait > 0 else 0


def client_key(host: str | None) -> str:
    """The counter name of a client address: an IPv4 address, or an IPv6 address's /64 (one host or site
    usually holds a whole /64, so counting single addresses would let it rotate through them)."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return "client:unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return f"client:{address.ipv4_mapped}"
        return f"client:{ipaddress.ip_network((address, 64), strict=False)}"
    return f"client:{address}"


def email_key(email: str, known: bool) -> str:
    """The counter name of an email: its own for an account, else one of ``UNKNOWN_EMAIL_BUCKETS`` shared
    counters, so guessing unknown emails cannot grow the table and meets the same delays as a real one."""
    email = email.strip().lower()
    if known:
        return f"email:{email}"
    bucket = int.from_bytes(hashlib.sha256(email.encode()).digest()[:4], "big") % UNKNOWN_EMAIL_BUCKETS
    return f"email:unknown/{bucket}"


def _stored_key(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


_FAILURES = cast(Table, m.SigninFailure.__table__)
_SESSIONS = cast(Table, m.UserSession.__table__)


class Throttled(Exception):
    """Sign-in refused for now; try again in ``retry_after_s`` seconds."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"retry after {retry_after_s} s")
        self.retry_after_s = retry_after_s


class SigninThrottle:
    """Failed sign-ins per email and per client address, counted in the store so that every server process
    shares them (docs/security.md, throttles). A counter is forgotten ``signin_forget_after_s`` after its
    latest failure, and stale rows are removed at most once a minute per process."""

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], datetime] = m.utcnow) -> None:
        self.store = store
        self.email_policy = ThrottlePolicy(
            settings.signin_email_free_failures, settings.signin_first_delay_s, settings.signin_max_delay_s
        )
        self.client_policy = ThrottlePolicy(
            settings.signin_client_free_failures, settings.signin_first_delay_s, settings.signin_max_delay_s
        )
        self.forget_after = timedelta(seconds=settings.signin_forget_after_s)
        self.clock = clock
        self._next_prune: datetime | None = None
        self._lock = Lock()

    def wait_s(self, counters: dict[str, ThrottlePolicy]) -> int:
        """Whole seconds until every named counter allows a try (0: now)."""
        now = self.clock()
        keys = {_stored_key(name): policy for name, policy in counters.items()}
        with self.store.reading(None) as conn:
            if self.store.is_sqlite:
                rows = conn.execute(
                    select(_FAILURES.c.key, _FAILURES.c.failures, _FAILURES.c.last_failed_at).where(
                        _FAILURES.c.key.in_(list(keys))
                    )
                ).all()
            else:
                rows = conn.execute(
                    text(
                        "SELECT key, failures, last_failed_at FROM app_signin_failures(CAST(:keys AS text[]))"
                    ),
                    {"keys": list(keys)},
                ).all()
        waits = [
            retry_after_s(failures, last, now, keys[key])
            for key, failures, last in rows
            if now - last <= self.forget_after
        ]
        return max(waits, default=0)

    def attempt(self, counters: dict[str, tuple[ThrottlePolicy, str | None]]) -> None:
        """Count one try against every named counter (``name: (policy, workshop id of an account)``), or raise
        :class:`Throttled` and count nothing while any of them makes the caller wait.

        The check and the count are one write transaction that holds the counters: on SQLite the write lock,
        on PostgreSQL a transaction-scoped advisory lock per counter (taken in one order). So tries racing on
        one counter, from threads or from server processes, are counted one after another before any
        password is hashed, and no more than the free tries reach the password check."""
        now = self.clock()
        forget_before = now - self.forget_after
        named = {_stored_key(name): (name, policy, workshop) for name, (policy, workshop) in counters.items()}
        with self.store.writing(None) as conn:
            if self.store.is_sqlite:
                rows = conn.execute(
                    select(_FAILURES.c.key, _FAILURES.c.failures, _FAILURES.c.last_failed_at).where(
                        _FAILURES.c.key.in_(list(named))
                    )
                ).all()
            else:
                for key in sorted(named):
                    conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"), {"k": key})
                rows = conn.execute(
                    text(
                        "SELECT key, failures, last_failed_at FROM app_signin_failures(CAST(:keys AS text[]))"
                    ),
                    {"keys": list(named)},
                ).all()
            wait = max(
                (
                    retry_after_s(failures, last, now, named[key][1])
                    for key, failures, last in rows
                    if now - last <= self.forget_after
                ),
                default=0,
            )
            if wait > 0:
                raise Throttled(wait)
            for key, (name, _policy, workshop) in named.items():
                self._count(conn, key, name.partition(":")[0], workshop, now, forget_before)
        self._prune_now_and_then(now)

    def failed(self, name: str, workshop_id: str | None) -> int:
        """Count one failure against counter ``name`` (of ``workshop_id`` for an account); returns its count."""
        now = self.clock()
        with self.store.writing(None) as conn:
            failures = self._count(
                conn, _stored_key(name), name.partition(":")[0], workshop_id, now, now - self.forget_after
            )
        self._prune_now_and_then(now)
        return failures

    def _count(
        self, conn: Any, key: str, kind: str, workshop_id: str | None, now: datetime, forget_before: datetime
    ) -> int:
        if self.store.is_sqlite:
            stale = _FAILURES.c.last_failed_at < literal(forget_before, UTCDateTime())
            stamp = literal(now, UTCDateTime())
            statement = (
                sqlite_insert(_FAILURES)
                .values(
                    key=key,
                    kind=kind,
                    workshop_id=workshop_id,
                    failures=1,
                    first_failed_at=now,
                    last_failed_at=now,
                )
                .on_conflict_do_update(
                    index_elements=[_FAILURES.c.key],
                    set_={
                        "failures": case((stale, 1), else_=_FAILURES.c.failures + 1),
                        "first_failed_at": case((stale, stamp), else_=_FAILURES.c.first_failed_at),
                        "last_failed_at": stamp,
                        "workshop_id": workshop_id,
                    },
                )
                .returning(_FAILURES.c.failures)
            )
            return int(conn.execute(statement).scalar_one())
        return int(
            conn.execute(
                text("SELECT failures FROM app_signin_failed(:k, :kind, :w, :now, :before)"),
                {"k": key, "kind": kind, "w": workshop_id, "now": now, "before": forget_before},
            ).scalar_one()
        )

    def forget(self, name: str) -> None:
        """Drop counter ``name`` (after its account signed in)."""
        with self.store.writing(None) as conn:
            if self.store.is_sqlite:
                conn.execute(_FAILURES.delete().where(_FAILURES.c.key == _stored_key(name)))
            else:
                conn.execute(text("SELECT app_signin_forget(:k)"), {"k": _stored_key(name)})

    def refund(self, name: str) -> None:
        """Give one counted try back to counter ``name`` (a client's, after a successful sign-in): a success
        is counted before the password check like any try, but only failures should hold a client up."""
        with self.store.writing(None) as conn:
            if self.store.is_sqlite:
                key = _stored_key(name)
                conn.execute(_FAILURES.delete().where(_FAILURES.c.key == key, _FAILURES.c.failures <= 1))
                conn.execute(
                    update(_FAILURES).where(_FAILURES.c.key == key).values(failures=_FAILURES.c.failures - 1)
                )
            else:
                conn.execute(text("SELECT app_signin_refund(:k)"), {"k": _stored_key(name)})

    def prune(self) -> int:
        """Remove counters past the forget period (and sessions that ended or expired); returns how many
        counters went."""
        now = self.clock()
        forget_before = now - self.forget_after
        with self.store.writing(None) as conn:
            if self.store.is_sqlite:
                removed = conn.execute(
                    _FAILURES.delete().where(_FAILURES.c.last_failed_at < forget_before)
                ).rowcount
                conn.execute(
                    _SESSIONS.delete().where((_SESSIONS.c.expires_at < now) | (_SESSIONS.c.ended_at < now))
                )
            else:
                removed = conn.execute(
                    text("SELECT app_auth_prune(:before, :now)"), {"before": forget_before, "now": now}
                ).scalar_one()
        return int(removed)

    def _prune_now_and_then(self, now: datetime) -> None:
        with self._lock:
            due = self._next_prune is None or now >= self._next_prune
            if due:
                self._next_prune = now + _PRUNE_EVERY
        if due:
            self.prune()


def token_hash(token: str) -> str:
    """SHA-256 of a bearer token (tokens are random, so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def load_actor(store: Store, user_id: str, workshop_id: str) -> domain.Actor | None:
    """The active user ``user_id`` of ``workshop_id`` as an actor, or None."""
    with store.reading(workshop_id) as conn:
        return _actor_in(conn, user_id, workshop_id)


def _actor_in(conn: Connection, user_id: str, workshop_id: str) -> domain.Actor | None:
    """:func:`load_actor` on a read transaction already scoped to ``workshop_id``."""
    row = first_row(conn, _ACTOR, {"user_id": user_id, "workshop_id": workshop_id})
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


def sign_in(
    store: Store, throttle: SigninThrottle, email: str, password: str, client_host: str | None
) -> domain.Actor | None:
    """The actor for a correct email and password, else None; raises :class:`Throttled` while the email's or
    the client address's counter makes it wait (then no password is checked and nothing is counted).

    Every try that reaches the password check is counted first, atomically, against the email (an account's
    own counter, or a shared one for unknown emails) and against the client address, so tries racing in
    parallel cannot all pass the check (docs/security.md, throttles). A success then forgets the email's
    counter and gives its one try back to the client's, so only failures hold a client up and a client
    cannot clear its own count with an account it holds.
    """
    row = _login_row(store, email) if 3 <= len(email) <= 254 else None
    email_name = email_key(email, known=row is not None)
    client_name = client_key(client_host)
    throttle.attempt(
        {
            email_name: (throttle.email_policy, row[1] if row is not None else None),
            client_name: (throttle.client_policy, None),
        }
    )
    ok = verify_password(row[2] if row else None, password[:1024])
    actor = load_actor(store, row[0], row[1]) if row is not None and ok and row[3] else None
    if actor is None:
        return None
    throttle.forget(email_name)
    throttle.refund(client_name)
    return actor


def actor_by_email(store: Store, email: str) -> domain.Actor | None:
    """The active user with this email as an actor, without a password (for trusted local commands)."""
    row = _login_row(store, email)
    if row is None or not row[3]:
        return None
    return load_actor(store, row[0], row[1])


TOKEN_FIELDS = (
    "id",
    "name",
    "user_id",
    "user_name",
    "created_at",
    "expires_at",
    "revoked_at",
    "status",
)


def token_status(revoked_at: datetime | None, expires_at: datetime | None, now: datetime) -> str:
    """``revoked``, ``expired`` (also a token without an expiry) or ``active``."""
    if revoked_at is not None:
        return "revoked"
    if expires_at is None or expires_at <= now:
        return "expired"
    return "active"


def parse_time(value: str) -> datetime:
    """A time as the API writes it (ISO 8601 with the zone) read back."""
    return datetime.fromisoformat(value)


@dataclass(frozen=True)
class TokenInfo:
    """What may be shown of a bearer token: never the secret, nor its hash."""

    id: str
    name: str
    user_id: str
    user_name: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    status: str

    def as_json(self) -> dict[str, Any]:
        """The token for the API and `shopfloor workshop tokens list --json` (times in ISO 8601, UTC)."""

        def iso(value: datetime | None) -> str | None:
            return value.isoformat() if value is not None else None

        return {
            "id": self.id,
            "name": self.name,
            "user_id": self.user_id,
            "user_name": self.user_name,
            "created_at": iso(self.created_at),
            "expires_at": iso(self.expires_at),
            "revoked_at": iso(self.revoked_at),
            "status": self.status,
        }


def _token_info(row: m.ApiToken, user_name: str, now: datetime) -> TokenInfo:
    return TokenInfo(
        row.id,
        row.name,
        row.user_id,
        user_name,
        row.created_at,
        row.expires_at,
        row.revoked_at,
        token_status(row.revoked_at, row.expires_at, now),
    )


def create_token(
    store: Store, actor: domain.Actor, name: str = "api", ttl_days: int = 90
) -> tuple[str, TokenInfo]:
    """A new bearer token for ``actor``, valid ``ttl_days``: the secret (show it once; only its hash is
    stored) and what may be shown of it later."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = m.utcnow()
    with store.transaction(actor.workshop_id) as s:
        row = m.ApiToken(
            workshop_id=actor.workshop_id,
            user_id=actor.user_id,
            name=name[:TOKEN_NAME_MAX],
            token_hash=token_hash(token),
            created_at=now,
            expires_at=now + timedelta(days=ttl_days),
        )
        s.add(row)
        s.flush()
        return token, _token_info(row, actor.name, now)


def issue_token(store: Store, actor: domain.Actor, name: str = "api", ttl_days: int = 90) -> str:
    """A new bearer token for ``actor`` (valid ``ttl_days``); only its hash is stored, so show it once."""
    return create_token(store, actor, name, ttl_days)[0]


def _visible_tokens(actor: domain.Actor, everyone: bool) -> Select[m.ApiToken, str]:
    # A member sees only their own tokens; an admin may see every token of the workshop.
    query = (
        select(m.ApiToken, m.Profile.name)
        .join(m.Profile, m.Profile.id == m.ApiToken.user_id)
        .where(m.ApiToken.workshop_id == actor.workshop_id, m.Profile.workshop_id == actor.workshop_id)
    )
    if not (everyone and actor.is_admin):
        query = query.where(m.ApiToken.user_id == actor.user_id)
    return query


def list_tokens(store: Store, actor: domain.Actor, everyone: bool = False) -> list[TokenInfo]:
    """``actor``'s tokens (with ``everyone``, for an admin: every token of the workshop), newest first."""
    now = m.utcnow()
    query = _visible_tokens(actor, everyone).order_by(m.ApiToken.created_at.desc(), m.ApiToken.id)
    with store.transaction(actor.workshop_id, write=False) as s:
        return [_token_info(row, user_name, now) for row, user_name in s.execute(query).all()]


def revoke_token(store: Store, actor: domain.Actor, token_id: str) -> TokenInfo:
    """Revoke one token: the actor's own, or for an admin any of the workshop. Revoking a revoked token
    changes nothing. Raises ``NotFound`` for a token the actor may not see (another member's, another
    workshop's, or none)."""
    now = m.utcnow()
    query = _visible_tokens(actor, everyone=True).where(m.ApiToken.id == token_id).with_for_update()
    with store.transaction(actor.workshop_id) as s:
        found = s.execute(query).first()
        if found is None:
            raise NotFound("No such token.")
        row, user_name = found
        if row.revoked_at is None:
            row.revoked_at = now
            s.flush()
        return _token_info(row, user_name, now)


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
    """The actor behind a bearer token, or None for unknown, revoked or expired tokens."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    # One read transaction for the token and its user (every bearer request pays for it): the token is read
    # with no workshop, then the transaction moves to the token's workshop to read the user.
    with store.reading(None) as conn:
        statement = _TOKEN_SQLITE if store.is_sqlite else _TOKEN_POSTGRES
        row = first_row(conn, statement, {"h": token_hash(token)})
        now = m.utcnow()
        if row is None or row[2] or token_status(None, _aware(row[3]), now) != "active":
            return None
        # Last use is not recorded: it would make every bearer request a write (docs/workshop.md, "Accounts").
        store.rescope(conn, row[1])
        return _actor_in(conn, row[0], row[1])


def _aware(value: datetime | None) -> datetime | None:
    # The SQLite statement restores the zone through the column type; the PostgreSQL function returns
    # timestamptz, which psycopg reads as aware already.
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
