"""Login CSRF: the sign-in form carries a token (also kept in a sign-in cookie) and its post checks `Origin`,
so a foreign page cannot sign a browser into another account (docs/security.md, "Sessions and tokens").

Each test drives a real server over HTTP, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import func, select

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from tests.web.live import serving

LOGIN = {"email": "ana@taller.example", "password": "ana-toquilla-demo"}
FOREIGN = "https://attacker.example"


@pytest.fixture
def base(store: Store, tmp_path: Path) -> Iterator[str]:
    """The server's app over ``store``, served by uvicorn on a free loopback port."""
    settings = Settings(
        workshop_db=store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        shifts_db=tmp_path / "no-shifts.duckdb",
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
    )
    app = create_app(settings)
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


def sessions_of_ana(owner: Store) -> int:
    with owner.transaction(WORKSHOP_A, write=False) as s:
        return int(s.scalar(select(func.count()).select_from(m.UserSession)) or 0)


def form_token(page: str) -> str:
    found = re.search(r'name="signin_token" value="([^"]+)"', page)
    assert found, "the sign-in form carries no token"
    return found.group(1)


def test_a_foreign_sites_post_signs_nobody_in(base: str, owner: Store) -> None:
    before = sessions_of_ana(owner)
    with httpx.Client(base_url=base) as browser:
        # What a foreign page's auto-submitted form sends: the right credentials, its own Origin, no token.
        r = browser.post("/workshop/signin", data=LOGIN, headers={"Origin": FOREIGN})
    assert r.status_code == 403
    assert accounts.SESSION_COOKIE not in r.cookies
    assert sessions_of_ana(owner) == before


def test_a_token_the_attacker_fetched_is_refused_without_the_browsers_cookie(base: str, owner: Store) -> None:
    before = sessions_of_ana(owner)
    with httpx.Client(base_url=base) as attacker:
        token = form_token(attacker.get("/workshop/signin").text)
    with httpx.Client(base_url=base) as victim:
        # The token is real but the victim's browser never got the matching sign-in cookie.
        r = victim.post("/workshop/signin", data={**LOGIN, "signin_token": token}, headers={"Origin": base})
        assert r.status_code == 403
        # Even a right token and cookie do not pass from a foreign origin.
        token = form_token(victim.get("/workshop/signin").text)
        r = victim.post(
            "/workshop/signin", data={**LOGIN, "signin_token": token}, headers={"Origin": FOREIGN}
        )
        assert r.status_code == 403
        r = victim.post("/workshop/signin", data={**LOGIN, "signin_token": token}, headers={"Origin": "null"})
        assert r.status_code == 403
    assert accounts.SESSION_COOKIE not in r.cookies
    assert sessions_of_ana(owner) == before


def test_a_forged_token_in_both_places_is_refused(base: str, owner: Store) -> None:
    with httpx.Client(base_url=base, cookies={accounts.SIGNIN_COOKIE: "x.y.z"}) as browser:
        r = browser.post(
            "/workshop/signin", data={**LOGIN, "signin_token": "x.y.z"}, headers={"Origin": base}
        )
    assert r.status_code == 403
    assert accounts.SESSION_COOKIE not in r.cookies


def test_the_servers_own_form_signs_in(base: str, owner: Store) -> None:
    before = sessions_of_ana(owner)
    with httpx.Client(base_url=base) as browser:
        page = browser.get("/workshop/signin")
        assert page.status_code == 200 and accounts.SIGNIN_COOKIE in page.cookies
        token = form_token(page.text)
        r = browser.post("/workshop/signin", data={**LOGIN, "signin_token": token}, headers={"Origin": base})
        assert r.status_code == 303, r.text
        assert accounts.SESSION_COOKIE in r.cookies
        # A browser that sends no Origin at all still needs only the token.
        with httpx.Client(base_url=base) as other:
            token = form_token(other.get("/workshop/signin").text)
            again = other.post("/workshop/signin", data={**LOGIN, "signin_token": token})
            assert again.status_code == 303
    assert sessions_of_ana(owner) == before + 2


def test_a_refused_post_checks_no_password_and_counts_nothing(base: str, owner: Store) -> None:
    wrong = {"email": "ana@taller.example", "password": "not-her-password"}
    with httpx.Client(base_url=base) as browser:
        for _ in range(12):  # past the 5 free failures of the email, were they counted
            assert (
                browser.post("/workshop/signin", data=wrong, headers={"Origin": FOREIGN}).status_code == 403
            )
        token = form_token(browser.get("/workshop/signin").text)
        r = browser.post("/workshop/signin", data={**LOGIN, "signin_token": token}, headers={"Origin": base})
    assert r.status_code == 303


def test_the_api_sign_in_refuses_a_foreign_origin_and_takes_only_json(base: str, owner: Store) -> None:
    before = sessions_of_ana(owner)
    wrong = {"email": "ana@taller.example", "password": "not-her-password"}
    with httpx.Client(base_url=base) as browser:
        # A foreign page's fetch: a JSON body needs a CORS preflight this server never grants, but were it sent,
        # its Origin is refused before any password is checked or counted.
        for _ in range(12):
            r = browser.post("/workshop/auth/login", json=wrong, headers={"Origin": FOREIGN})
            assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
        r = browser.post("/workshop/auth/login", json=LOGIN, headers={"Origin": FOREIGN})
        assert r.status_code == 403 and accounts.SESSION_COOKIE not in r.cookies
        # What a foreign form can send without a preflight (text/plain shaped as JSON) is no sign-in either.
        r = browser.post(
            "/workshop/auth/login",
            content=httpx.Request("POST", "/", json=LOGIN).content,
            headers={"Content-Type": "text/plain", "Origin": FOREIGN},
        )
        assert r.status_code in (400, 403) and accounts.SESSION_COOKIE not in r.cookies
        r = browser.post(
            "/workshop/auth/login",
            content=httpx.Request("POST", "/", json=LOGIN).content,
            headers={"Content-Type": "text/plain"},
        )
        assert r.status_code == 400 and accounts.SESSION_COOKIE not in r.cookies
        assert sessions_of_ana(owner) == before
        # Our own pages (their Origin) and scripts (no Origin) sign in; the refused tries counted nothing.
        assert browser.post("/workshop/auth/login", json=LOGIN, headers={"Origin": base}).status_code == 200
    with httpx.Client(base_url=base) as script:
        assert script.post("/workshop/auth/login", json=LOGIN).status_code == 200
    assert sessions_of_ana(owner) == before + 2
