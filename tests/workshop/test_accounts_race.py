"""The sign-in throttle counts each try atomically before the password hash, so parallel tries cannot all reach
the password check (docs/security.md, throttles).

Two server instances (each its own app, engine and connection pool) on one database are served by uvicorn
over real HTTP, on SQLite and PostgreSQL; the tries are sent in parallel to both. The password check is made
slow (as a production argon2 hash is) and counted, so a check-then-count race would let most tries through."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx2 as httpx
import pytest

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts
from shopfloor.workshop.store import Store
from tests.web.live import serving


class CountedChecks:
    """Stands in front of the real password check: counts the calls and makes each take 0.3 s."""

    def __init__(self) -> None:
        self.calls = 0
        self._lock = threading.Lock()
        self._real = accounts.verify_password

    def __call__(self, stored: str | None, password: str) -> bool:
        with self._lock:
            self.calls += 1
        time.sleep(0.3)
        return self._real(stored, password)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> CountedChecks:
    counted = CountedChecks()
    monkeypatch.setattr(accounts, "verify_password", counted)
    return counted


@pytest.fixture
def bases(store: Store, tmp_path: Path) -> Iterator[list[str]]:
    settings = Settings(
        workshop_db=store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        shifts_db=tmp_path / "no-shifts.duckdb",
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        signin_email_free_failures=5,
        signin_client_free_failures=8,
    )
    with ExitStack() as stack:
        ports = [stack.enter_context(serving(create_app(settings))) for _ in range(2)]
        yield [f"http://127.0.0.1:{port}" for port in ports]


def parallel_tries(bases: list[str], bodies: list[dict[str, str]]) -> list[int]:
    def one(i: int) -> int:
        with httpx.Client(base_url=bases[i % len(bases)], timeout=60) as client:
            return client.post("/workshop/auth/login", json=bodies[i]).status_code

    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        return list(pool.map(one, range(len(bodies))))


def test_thirty_parallel_tries_on_one_email_check_at_most_the_free_five(
    bases: list[str], checks: CountedChecks
) -> None:
    body = {"email": "ana@taller.example", "password": "not-her-password"}
    statuses = parallel_tries(bases, [body] * 30)
    assert checks.calls <= 5, f"{checks.calls} tries reached the password check"
    assert statuses.count(401) == checks.calls
    assert statuses.count(429) == 30 - checks.calls


def test_parallel_tries_on_distinct_emails_from_one_client_check_at_most_its_free_count(
    bases: list[str], checks: CountedChecks
) -> None:
    bodies = [{"email": f"guess{i}@spray.example", "password": "wrong-password"} for i in range(24)]
    statuses = parallel_tries(bases, bodies)
    assert checks.calls <= 8, f"{checks.calls} tries reached the password check"
    assert statuses.count(429) >= 16


def test_the_owner_still_signs_in_after_the_race_is_refused(bases: list[str], checks: CountedChecks) -> None:
    statuses = parallel_tries(bases, [{"email": "ana@taller.example", "password": "ana-toquilla-demo"}] * 3)
    assert statuses == [200, 200, 200]
    assert checks.calls == 3
