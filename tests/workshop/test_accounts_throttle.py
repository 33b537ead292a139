"""The sign-in throttle: failures counted per email and per client address in the store, shared by every server
process, forgotten after a while, bounded for unknown emails, and a growing delay rather than a lock.

Every test runs on SQLite and on PostgreSQL (as the app role).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

from .helpers import PASSWORDS, assert_envelope

LOGIN = "/workshop/auth/login"
ANA = "ana@taller.example"
WRONG = {"email": ANA, "password": "not-her-password"}
RIGHT = {"email": ANA, "password": PASSWORDS[ANA]}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


AppFactory = Callable[..., TestClient]


@pytest.fixture
def make_client(store: Store, tmp_path: Path) -> Iterator[AppFactory]:
    """Builds a separate app instance (its own state, engine and throttle) over the one test database."""
    apps: list[Any] = []

    def build(
        clock: Clock | None = None, client: tuple[str, int] = ("198.51.100.7", 40000), **overrides: Any
    ) -> TestClient:
        settings = Settings(
            workshop_db=store.engine.url.render_as_string(hide_password=False),
            var_dir=tmp_path,
            secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
            **overrides,
        )
        app = create_app(settings)
        state = workshop_state(app)
        if clock is not None:
            state.throttle.clock = clock
        apps.append(state)
        return TestClient(app, raise_server_exceptions=False, client=client)

    yield build
    for state in apps:
        state.dispose()


def workshop_state(app: Any) -> Any:
    mount = next(r for r in app.routes if isinstance(r, Mount) and r.path == "/workshop")
    return mount.app.state.workshop


def throttle_rows(owner: Store) -> list[tuple[str, str | None, int]]:
    """(kind, workshop, failures) of every throttle row, seen by a role that sees all rows."""
    with owner.engine.connect() as conn:
        rows = conn.execute(
            select(m.SigninFailure.kind, m.SigninFailure.workshop_id, m.SigninFailure.failures)
        ).all()
    return [(r[0], r[1], r[2]) for r in rows]


def retry_after(r: Any) -> int:
    assert_envelope(r, 429, "rate_limited")
    return int(r.headers["retry-after"])


def test_failures_are_shared_by_two_server_instances_on_one_database(make_client: AppFactory) -> None:
    first, second = make_client(), make_client()
    for _ in range(3):
        assert_envelope(first.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    for _ in range(2):
        assert_envelope(second.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    # Five failures in all, spread over two instances: both now answer 429, even to the right password.
    assert retry_after(first.post(LOGIN, json=RIGHT)) == 15
    assert retry_after(second.post(LOGIN, json=WRONG)) == 15
    # Another email is not held up.
    other = {"email": "admin@taller.example", "password": PASSWORDS["admin@taller.example"]}
    assert second.post(LOGIN, json=other).status_code == 200


def test_a_known_emails_lockout_is_a_growing_delay_and_the_owner_gets_in(
    make_client: AppFactory, owner: Store
) -> None:
    clock = Clock()
    client = make_client(clock)
    for _ in range(5):
        assert_envelope(client.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    waits = []
    for _ in range(6):
        wait = retry_after(client.post(LOGIN, json=WRONG))
        waits.append(wait)
        clock.advance(wait)
        # A refused try is not counted and checks no password; the first try after the delay is.
        assert_envelope(client.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    assert waits == [15, 30, 60, 120, 240, 300]
    assert retry_after(client.post(LOGIN, json=RIGHT)) == 300
    clock.advance(299)
    assert retry_after(client.post(LOGIN, json=RIGHT)) == 1
    clock.advance(1)
    # Never a hard lock: once the delay passes, the owner signs in, and the count starts afresh.
    assert client.post(LOGIN, json=RIGHT).status_code == 200
    assert [r for r in throttle_rows(owner) if r[0] == "email"] == []
    assert_envelope(client.post(LOGIN, json=WRONG), 401, "invalid_credentials")


def test_one_client_spraying_many_emails_is_throttled_and_others_are_not(
    make_client: AppFactory, owner: Store
) -> None:
    sprayer = make_client(client=("203.0.113.9", 5000), signin_client_free_failures=8)
    for i in range(8):
        body = {"email": f"guess{i}@nowhere.example", "password": "password1"}
        assert_envelope(sprayer.post(LOGIN, json=body), 401, "invalid_credentials")
    # The client is held up whichever email it tries next, a real account's right password included.
    fresh = {"email": "another@nowhere.example", "password": "password1"}
    assert retry_after(sprayer.post(LOGIN, json=fresh)) == 15
    assert retry_after(sprayer.post(LOGIN, json=RIGHT)) == 15
    # Another client address signs in at once, and the account itself was never counted against.
    elsewhere = make_client(client=("192.0.2.44", 5001), signin_client_free_failures=8)
    assert elsewhere.post(LOGIN, json=RIGHT).status_code == 200
    kinds = [r[0] for r in throttle_rows(owner)]
    assert kinds.count("client") == 1


def test_a_client_is_counted_by_its_address_and_an_ipv6_client_by_its_64_prefix() -> None:
    assert accounts.client_key("203.0.113.9") == "client:203.0.113.9"
    same = accounts.client_key("2001:db8:1:2::1")
    assert (
        same == accounts.client_key("2001:0db8:0001:0002:ffff:eeee:dddd:cccc") == "client:2001:db8:1:2::/64"
    )
    assert accounts.client_key("2001:db8:1:3::1") != same
    assert accounts.client_key("::ffff:203.0.113.9") == "client:203.0.113.9"
    assert accounts.client_key(None) == accounts.client_key("testclient") == "client:unknown"


@pytest.mark.slow
def test_unknown_emails_share_a_bounded_set_of_counters(store: Store, owner: Store) -> None:
    throttle = accounts.SigninThrottle(store, Settings())
    for i in range(accounts.UNKNOWN_EMAIL_BUCKETS + 200):
        throttle.failed(accounts.email_key(f"nobody{i}@nowhere.example", known=False), None)
    rows = throttle_rows(owner)
    assert len(rows) <= accounts.UNKNOWN_EMAIL_BUCKETS
    assert {r[0] for r in rows} == {"email"} and {r[1] for r in rows} == {None}
    assert sum(r[2] for r in rows) == accounts.UNKNOWN_EMAIL_BUCKETS + 200
    # A known email keeps its own counter, so no unknown email can delay a real account.
    assert accounts.email_key(ANA, known=True) == "email:ana@taller.example"
    assert accounts.email_key(" Nobody@X.example", known=False) == accounts.email_key(
        "nobody@x.example", False
    )


def test_old_entries_expire_and_are_removed(make_client: AppFactory, owner: Store) -> None:
    clock = Clock()
    client = make_client(clock, signin_forget_after_s=900)
    for _ in range(5):
        assert_envelope(client.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    assert_envelope(client.post(LOGIN, json={**WRONG, "email": "x@nowhere.example"}), 401)
    assert sorted(r[0] for r in throttle_rows(owner)) == ["client", "email", "email"]
    assert retry_after(client.post(LOGIN, json=WRONG)) == 15
    clock.advance(901)
    # Forgotten: five more free failures, and the stale rows are gone from the table.
    for _ in range(5):
        assert_envelope(client.post(LOGIN, json=WRONG), 401, "invalid_credentials")
    assert sorted(throttle_rows(owner)) == [("client", None, 5), ("email", WORKSHOP_A, 5)]
    assert workshop_state(client.app).throttle.prune() == 0
    clock.advance(901)
    assert workshop_state(client.app).throttle.prune() == 2
    assert throttle_rows(owner) == []


def test_the_429_is_the_envelope_with_retry_after(make_client: AppFactory) -> None:
    client = make_client()
    for _ in range(5):
        client.post(LOGIN, json=WRONG)
    r = client.post(LOGIN, json=WRONG)
    body = assert_envelope(r, 429, "rate_limited")
    assert set(body) == {"error"}
    assert r.headers["retry-after"] == "15"
    assert "15 seconds" in body["error"]["message"]
    assert "tt_session" not in r.headers.get("set-cookie", "")


def test_the_delay_rule() -> None:
    policy = accounts.ThrottlePolicy(free_failures=5, first_delay_s=15, max_delay_s=300)
    assert [accounts.throttle_delay(n, policy) for n in range(12)] == [
        0, 0, 0, 0, 0, 15, 30, 60, 120, 240, 300, 300,
    ]  # fmt: skip
    last = utcnow()
    assert accounts.retry_after_s(4, last, last, policy) == 0
    assert accounts.retry_after_s(5, last, last + timedelta(seconds=10), policy) == 5
    assert accounts.retry_after_s(5, last, last + timedelta(seconds=15), policy) == 0


def test_the_forget_period_cannot_be_shorter_than_the_longest_delay() -> None:
    with pytest.raises(ValueError, match="forget"):
        Settings(signin_max_delay_s=600, signin_forget_after_s=300)


def test_throttle_rows_in_plain_sql_follow_the_workshop(store: Store) -> None:
    """On PostgreSQL the app role sees only its workshop's counters; the client's and unknown emails' none."""
    throttle = accounts.SigninThrottle(store, Settings())
    throttle.failed(accounts.email_key(ANA, known=True), WORKSHOP_A)
    throttle.failed(accounts.client_key("203.0.113.9"), None)
    with store.transaction(WORKSHOP_A, write=False) as s:
        seen = s.scalar(select(func.count()).select_from(m.SigninFailure))
    with store.transaction("ws-pile", write=False) as s:
        other = s.scalar(select(func.count()).select_from(m.SigninFailure))
    if store.is_sqlite:
        assert (seen, other) == (2, 2)  # no second wall on SQLite (docs/workshop.md)
    else:
        assert (seen, other) == (1, 0)
