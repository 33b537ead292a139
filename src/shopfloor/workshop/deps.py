"""The request dependencies of Toquilla Trace: shared state, the store, and who is asking.

The workshop app's routes and the agent route both take the actor from :func:`current_actor`, so they live here,
below both routers: ``workshop.api`` and ``workshop.agent.api`` import this module and never each other.
"""

from __future__ import annotations

from threading import Lock
from typing import Annotated

from fastapi import Depends, Request

from shopfloor.settings import Settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.store import Store, open_store

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class WorkshopState:
    """What the routes share: settings, the session signer and the store (opened on first use)."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.signer = accounts.SessionSigner(settings.session_secret())
        self._store = store
        self._throttle: accounts.SigninThrottle | None = None
        self._lock = Lock()

    @property
    def store(self) -> Store:
        """The workshop store (the app's URL: on PostgreSQL, the non-owner app role)."""
        with self._lock:
            if self._store is None:
                self._store = open_store(self.settings.workshop_db_url())
            return self._store

    @property
    def throttle(self) -> accounts.SigninThrottle:
        """The sign-in throttle, counting in the store (shared by every server process)."""
        store = self.store
        with self._lock:
            if self._throttle is None:
                self._throttle = accounts.SigninThrottle(store, self.settings)
            return self._throttle

    def dispose(self) -> None:
        """Close the store's pooled connections (it reopens on next use)."""
        with self._lock:
            if self._store is not None:
                self._store.dispose()


def state_of(request: Request) -> WorkshopState:
    """The workshop app's shared state."""
    state: WorkshopState = request.app.state.workshop
    return state


def store_of(request: Request) -> Store:
    """FastAPI dependency: the workshop store."""
    return state_of(request).store


def current_actor(request: Request) -> domain.Actor:
    """FastAPI dependency: the signed-in actor, from ``Authorization: Bearer`` or the session cookie.

    A cookie-authenticated unsafe request (POST, ...) must carry the session's CSRF token in ``x-csrf-token``.
    Raises 401 without valid credentials and 403 on a CSRF mismatch.
    """
    state = state_of(request)
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        actor = accounts.actor_for_token(state.store, token.strip()) if scheme.lower() == "bearer" else None
        if actor is None:
            raise ApiError(401, "unauthorized", "The bearer token is not valid.")
        request.state.auth = "bearer"
        return actor
    session = state.signer.loads(request.cookies.get(accounts.SESSION_COOKIE))
    if session is None:
        raise ApiError(401, "unauthorized", "Sign in first.")
    if request.method in UNSAFE_METHODS and not accounts.csrf_ok(
        session, request.headers.get(accounts.CSRF_HEADER)
    ):
        raise ApiError(403, "csrf_failed", "The form is out of date; reload the page and try again.")
    actor = accounts.actor_for_session(state.store, session)
    if actor is None:
        raise ApiError(401, "unauthorized", "Sign in first.")
    request.state.auth = "session"
    request.state.session = session
    return actor


def admin_actor(actor: Annotated[domain.Actor, Depends(current_actor)]) -> domain.Actor:
    """FastAPI dependency: the signed-in actor, who must be an admin (403 otherwise)."""
    if not actor.is_admin:
        raise ApiError(403, "forbidden", "Only a workshop admin can see this.")
    return actor


Actor = Annotated[domain.Actor, Depends(current_actor)]
Admin = Annotated[domain.Actor, Depends(admin_actor)]
StoreDep = Annotated[Store, Depends(store_of)]
