"""Forwarded addresses are believed only from the proxies `SHOPFLOOR_FORWARDED_ALLOW_IPS` names (empty by
default), so a client cannot pick the address the throttles count (docs/security.md, "Forwarded addresses").

Each test serves the server's app with the options `shopfloor serve` gives uvicorn, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from shopfloor.server.app import create_app
from shopfloor.server.http_limits import uvicorn_options
from shopfloor.settings import Settings
from shopfloor.workshop.store import Store
from tests.web.live import serving


@contextmanager
def served(store: Store, tmp_path: Path, **overrides: Any) -> Iterator[str]:
    settings = Settings(
        workshop_db=store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        shifts_db=tmp_path / "no-shifts.duckdb",
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        signin_client_free_failures=3,
        shifts_rate_limit_per_minute=4,
        **overrides,
    )
    with serving(create_app(settings), **uvicorn_options(settings)) as port:
        yield f"http://127.0.0.1:{port}"


def spray(base: str, tries: int) -> list[int]:
    """Failed sign-ins on distinct unknown emails, each claiming another address in `X-Forwarded-For`."""
    statuses = []
    with httpx.Client(base_url=base) as client:
        for i in range(tries):
            body = {"email": f"nobody{i}@spray.example", "password": "wrong-password"}
            headers = {"X-Forwarded-For": f"198.51.100.{i + 1}"}
            statuses.append(client.post("/workshop/auth/login", json=body, headers=headers).status_code)
    return statuses


def test_the_default_trusts_no_proxy() -> None:
    options = uvicorn_options(Settings())
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] == []


def test_a_client_cannot_pick_its_address_by_default(store: Store, tmp_path: Path) -> None:
    with served(store, tmp_path) as base:
        statuses = spray(base, 6)
    # The client counter (3 free failures) counts the connection's address, whatever the header says.
    assert statuses[:3] == [401, 401, 401]
    assert statuses[3:] == [429, 429, 429]


def test_the_shifts_limit_counts_the_connections_address(store: Store, tmp_path: Path) -> None:
    with served(store, tmp_path) as base, httpx.Client(base_url=base) as client:
        statuses = [
            client.get("/shifts/a?unknown=1", headers={"X-Forwarded-For": f"203.0.113.{i + 1}"}).status_code
            for i in range(7)
        ]
    assert statuses.count(429) >= 3, statuses


def test_a_named_proxy_is_believed(store: Store, tmp_path: Path) -> None:
    with served(store, tmp_path, forwarded_allow_ips="127.0.0.1") as base:
        statuses = spray(base, 6)
    # Each forwarded address is its own client, so none reaches the client counter's delay.
    assert statuses == [401] * 6


@pytest.mark.parametrize("proxies", ["10.0.0.0/8", "192.0.2.7"])
def test_a_connection_from_an_unnamed_address_is_not_believed(
    store: Store, tmp_path: Path, proxies: str
) -> None:
    with served(store, tmp_path, forwarded_allow_ips=proxies) as base:
        statuses = spray(base, 5)
    assert statuses[3:] == [429, 429]
