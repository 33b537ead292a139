"""The /shifts request limit is a sliding window, in SQLite and in Redis alike: no 60 seconds hold more than the
limit, also across the turn of a minute (docs/security.md, "The /shifts routes")."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from shopfloor.shifts.pages.limits import Counter, RedisCounter, SqliteCounter

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(params=["sqlite", "redis"])
def counter(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Counter]:
    if request.param == "sqlite":
        yield SqliteCounter(tmp_path / "rate.sqlite3")
        return
    redis_counter = RedisCounter(REDIS_URL)
    try:
        redis_counter.client.ping()
    except Exception as exc:
        pytest.skip(f"Redis is not reachable at {REDIS_URL} ({type(exc).__name__})")
    yield redis_counter


def client() -> str:
    return f"198.51.100.{secrets.randbelow(250) + 1}-{secrets.token_hex(4)}"


def test_a_burst_across_the_turn_of_a_minute_gets_no_more_than_the_limit(counter: Counter) -> None:
    who = client()
    start = 60_000_000.0  # a whole minute: a fixed window would begin afresh at start + 60
    allowed = [counter.allow(who, 10, now=start + 59.5 + i * 0.01) == 0 for i in range(10)]
    assert all(allowed)
    # One second later, in the next calendar minute, the ten are still inside the last 60 seconds.
    later = [counter.allow(who, 10, now=start + 60.5 + i * 0.01) for i in range(10)]
    assert all(wait > 0 for wait in later)
    # The wait is until the oldest of the ten leaves the window (59.5 + 60 - 60.5 = 59 s).
    assert later[0] == pytest.approx(59.0, abs=0.05)


def test_requests_leave_the_window_one_by_one(counter: Counter) -> None:
    who = client()
    start = 70_000_000.0
    for i in range(3):
        assert counter.allow(who, 3, now=start + i * 10) == 0
    assert counter.allow(who, 3, now=start + 30) == pytest.approx(30, abs=0.01)
    assert counter.allow(who, 3, now=start + 60.01) == 0  # the first has left
    assert counter.allow(who, 3, now=start + 60.02) > 0  # the second has not


def test_a_refused_request_is_not_counted(counter: Counter) -> None:
    who = client()
    start = 80_000_000.0
    assert counter.allow(who, 1, now=start) == 0
    for i in range(20):
        assert counter.allow(who, 1, now=start + 1 + i) > 0
    assert counter.allow(who, 1, now=start + 60.5) == 0


def test_clients_are_counted_apart(counter: Counter) -> None:
    a, b = client(), client()
    start = 90_000_000.0
    assert counter.allow(a, 1, now=start) == 0
    assert counter.allow(a, 1, now=start + 1) > 0
    assert counter.allow(b, 1, now=start + 1) == 0
