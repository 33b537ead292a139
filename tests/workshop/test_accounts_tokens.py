"""Bearer tokens expire and can be listed and revoked; sign-out ends the session on the server.

On SQLite and on PostgreSQL (as the app role, so row-level security is the second wall).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text, update
from starlette.routing import Mount
from typer.testing import CliRunner

from shopfloor.server.app import create_app
from shopfloor.settings import Settings, get_settings
from shopfloor.workshop import accounts, cli, domain
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B, load_sample
from shopfloor.workshop.store import NotFound, Store, open_store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.migrate import downgrade, migrate
from shopfloor.workshop.store.models import utcnow

from .helpers import assert_envelope, login

PILE_ADMIN = domain.Actor("u-pile-admin", WORKSHOP_B, "admin", "Marta Mero")
TOKENS = "/workshop/auth/tokens"
WEAVERS = "/workshop/api/weavers"


@pytest.fixture
def settings(store: Store, tmp_path: Path) -> Settings:
    return Settings(
        workshop_db=store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        token_ttl_days=7,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings)
    yield TestClient(app, raise_server_exceptions=False)
    for route in app.routes:
        if isinstance(route, Mount) and route.path == "/workshop":
            route.app.state.workshop.dispose()  # type: ignore[attr-defined]


def new_token(client: TestClient, email: str, name: str = "script") -> tuple[dict[str, str], dict[str, Any]]:
    """A fresh token of a demo account: its headers and the creation answer (the cookie is dropped)."""
    csrf = login(client, email)
    r = client.post(TOKENS, json={"name": name}, headers={"x-csrf-token": csrf})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    body = r.json()
    return {"authorization": f"Bearer {body['token']}"}, body


def revoke(client: TestClient, token_id: str, headers: dict[str, str]) -> Any:
    return client.post(f"{TOKENS}/{token_id}/revoke", headers=headers)


def test_a_new_token_expires_after_the_configured_days(client: TestClient) -> None:
    before = utcnow()
    _, body = new_token(client, "ana@taller.example")
    assert set(body) == {"token", *accounts.TOKEN_FIELDS}
    assert body["status"] == "active" and body["name"] == "script" and body["user_id"] == "u-ana"
    expires = accounts.parse_time(body["expires_at"])
    assert before + timedelta(days=7) <= expires <= utcnow() + timedelta(days=7)
    assert Settings().token_ttl_days == 90


def test_an_expired_token_is_refused(client: TestClient, owner: Store) -> None:
    headers, body = new_token(client, "ana@taller.example")
    assert client.get(WEAVERS, headers=headers).status_code == 200
    with owner.transaction(WORKSHOP_A) as s:
        s.execute(
            update(m.ApiToken)
            .where(m.ApiToken.id == body["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    assert_envelope(client.get(WEAVERS, headers=headers), 401, "unauthorized")
    listed = client.get(TOKENS, headers=new_token(client, "ana@taller.example")[0]).json()["tokens"]
    assert {t["id"]: t["status"] for t in listed}[body["id"]] == "expired"


def test_a_revoked_token_is_refused_and_the_list_never_shows_a_secret(client: TestClient) -> None:
    first, made = new_token(client, "ana@taller.example", "laptop")
    second, other = new_token(client, "ana@taller.example", "phone")
    r = client.get(TOKENS, headers=first)
    assert r.status_code == 200
    listed = r.json()
    assert listed["scope"] == "mine"
    assert [t["name"] for t in listed["tokens"]] == ["phone", "laptop"]  # newest first
    assert all(set(t) == set(accounts.TOKEN_FIELDS) for t in listed["tokens"])
    secrets = [h["authorization"].split()[1] for h in (first, second)]
    assert not any(s in r.text or accounts.token_hash(s) in r.text for s in secrets)
    done = revoke(client, made["id"], second)
    assert done.status_code == 200, done.text
    assert done.json()["revoked"]["status"] == "revoked" and "token" not in done.json()["revoked"]
    assert_envelope(client.get(WEAVERS, headers=first), 401, "unauthorized")
    assert client.get(WEAVERS, headers=second).status_code == 200
    # Revoking again changes nothing and says so; the one's own remaining token is still listed as active.
    again = revoke(client, made["id"], second)
    assert (
        again.status_code == 200
        and again.json()["revoked"]["revoked_at"] == done.json()["revoked"]["revoked_at"]
    )
    statuses = {t["name"]: t["status"] for t in client.get(TOKENS, headers=second).json()["tokens"]}
    assert statuses == {"laptop": "revoked", "phone": "active"}
    assert other["id"] != made["id"]


def test_a_member_cannot_revoke_another_members_token_but_an_admin_can(client: TestClient) -> None:
    ana, ana_token = new_token(client, "ana@taller.example")
    admin, admin_token = new_token(client, "admin@taller.example")
    assert_envelope(revoke(client, admin_token["id"], ana), 404, "not_found")
    assert client.get(WEAVERS, headers=admin).status_code == 200
    assert [t["id"] for t in client.get(TOKENS, headers=ana).json()["tokens"]] == [ana_token["id"]]
    assert_envelope(client.get(TOKENS, params={"all": "true"}, headers=ana), 403, "forbidden")
    everyone = client.get(TOKENS, params={"all": "true"}, headers=admin).json()
    assert everyone["scope"] == "workshop"
    assert {t["user_id"] for t in everyone["tokens"]} == {"u-ana", "u-admin"}
    assert revoke(client, ana_token["id"], admin).json()["revoked"]["user_id"] == "u-ana"
    assert_envelope(client.get(WEAVERS, headers=ana), 401, "unauthorized")


def test_no_one_revokes_or_lists_tokens_across_workshops(client: TestClient, store: Store) -> None:
    ana, ana_token = new_token(client, "ana@taller.example")
    pile_admin, pile_token = new_token(client, "admin@pile.example")
    assert_envelope(revoke(client, ana_token["id"], pile_admin), 404, "not_found")
    assert client.get(WEAVERS, headers=ana).status_code == 200
    listed = client.get(TOKENS, params={"all": "true"}, headers=pile_admin).text
    assert ana_token["id"] not in listed and "u-ana" not in listed
    # Below the routes: the repository's filter, and on PostgreSQL the policies in plain SQL too.
    with pytest.raises(NotFound):
        accounts.revoke_token(store, PILE_ADMIN, ana_token["id"])
    assert [t.id for t in accounts.list_tokens(store, PILE_ADMIN, everyone=True)] == [pile_token["id"]]
    if not store.is_sqlite:
        with store.transaction(WORKSHOP_B) as s:
            changed = s.execute(
                text("UPDATE api_tokens SET revoked_at = now() WHERE id = :i"), {"i": ana_token["id"]}
            )
            assert changed.rowcount == 0  # type: ignore[attr-defined]
            assert set(s.execute(text("SELECT workshop_id FROM user_sessions")).scalars()) == {WORKSHOP_B}
    if not store.is_sqlite:
        with store.transaction(WORKSHOP_A, write=False) as s:
            assert set(s.execute(text("SELECT workshop_id FROM user_sessions")).scalars()) == {WORKSHOP_A}
    assert client.get(WEAVERS, headers=ana).status_code == 200


def test_a_copied_cookie_is_refused_after_sign_out(client: TestClient, settings: Settings) -> None:
    csrf = login(client, "ana@taller.example")
    copied = client.cookies.get("tt_session")
    assert copied
    other = TestClient(client.app, raise_server_exceptions=False)
    login(other, "ana@taller.example")  # a second session of the same user
    assert client.post("/workshop/auth/logout", headers={"x-csrf-token": csrf}).status_code == 200
    thief = TestClient(client.app, raise_server_exceptions=False)
    thief.cookies.set("tt_session", copied)
    assert_envelope(thief.get(WEAVERS), 401, "unauthorized")
    assert_envelope(thief.get("/workshop/auth/me"), 401, "unauthorized")
    # Signing out ends that session only.
    assert other.get(WEAVERS).status_code == 200


def test_a_signed_cookie_without_a_stored_session_is_refused(client: TestClient, settings: Settings) -> None:
    signer = accounts.SessionSigner(settings.session_secret())
    forged = signer.dumps(accounts.SessionData("u-ana", WORKSHOP_A, "csrf", "no-such-session"))
    client.cookies.set("tt_session", forged)
    assert_envelope(client.get(WEAVERS), 401, "unauthorized")
    client.cookies.clear()
    # Nor one naming another user's real session.
    login(client, "admin@taller.example")
    real = signer.loads(client.cookies.get("tt_session"))
    assert real is not None and real.session_id
    client.cookies.clear()
    client.cookies.set(
        "tt_session", signer.dumps(accounts.SessionData("u-ana", WORKSHOP_A, "c", real.session_id))
    )
    assert_envelope(client.get(WEAVERS), 401, "unauthorized")


def test_a_session_past_its_stored_expiry_is_refused(client: TestClient, owner: Store) -> None:
    login(client, "ana@taller.example")
    assert client.get(WEAVERS).status_code == 200
    with owner.transaction(WORKSHOP_A) as s:
        s.execute(update(m.UserSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert_envelope(client.get(WEAVERS), 401, "unauthorized")


def test_tokens_list_and_revoke_from_the_command_line(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, ana_token = new_token(client, "ana@taller.example", "ci job")
    monkeypatch.setenv("SHOPFLOOR_WORKSHOP_DB", settings.workshop_db_url())
    monkeypatch.setenv("SHOPFLOOR_VAR_DIR", str(settings.var_dir))
    get_settings.cache_clear()
    runner = CliRunner()
    try:
        listed = runner.invoke(cli.app, ["tokens", "list", "--as", "admin@taller.example", "--all", "--json"])
        assert listed.exit_code == 0, listed.output
        assert [t["name"] for t in json.loads(listed.output)["tokens"]] == ["ci job"]
        assert ana["authorization"].split()[1] not in listed.output
        mine = runner.invoke(cli.app, ["tokens", "list", "--as", "ana@taller.example"])
        assert mine.exit_code == 0 and ana_token["id"] in mine.output and "active" in mine.output
        refused = runner.invoke(cli.app, ["tokens", "revoke", "nope", "--as", "ana@taller.example"])
        assert refused.exit_code == 1 and "No such token" in refused.output
        done = runner.invoke(cli.app, ["tokens", "revoke", ana_token["id"], "--as", "admin@taller.example"])
        assert done.exit_code == 0, done.output
        assert "revoked" in done.output
        unknown = runner.invoke(cli.app, ["tokens", "list", "--as", "nobody@nowhere.example"])
        assert unknown.exit_code == 1
    finally:
        get_settings.cache_clear()
    assert_envelope(client.get(WEAVERS, headers=ana), 401, "unauthorized")


def test_upgrade_to_0006_gives_old_tokens_90_days(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'up.db'}")
    migrate(store.engine)
    load_sample(store)
    downgrade(store.engine, "0005")
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO api_tokens (id, workshop_id, user_id, name, token_hash, created_at) "
            "VALUES ('t-old', ?, 'u-ana', 'old', 'h', '2026-01-10 08:00:00.000000')",
            (WORKSHOP_A,),
        )
    migrate(store.engine)
    with store.transaction(WORKSHOP_A, write=False) as s:
        row = s.scalars(select(m.ApiToken).where(m.ApiToken.id == "t-old")).one()
    assert row.expires_at is not None
    assert row.expires_at.isoformat() == "2026-04-10T08:00:00+00:00"
    downgrade(store.engine, "0005")
    assert "expires_at" not in {c["name"] for c in inspect(store.engine).get_columns("api_tokens")}
    store.dispose()
