"""The account pages: API tokens (create with the secret shown once, copy, revoke; an admin sees everyone's)
and the admins' spend page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server


def test_a_member_creates_copies_and_revokes_a_token(
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    shoot: Callable[..., Any],
) -> None:
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    sign_in(page, "ana")
    page.get_by_role("link", name="Tokens de API").click()
    page.wait_for_url("**/workshop/tokens")
    expect(page.locator("h1")).to_have_text("Tokens de API")
    axe(page)

    page.get_by_label("Nombre (para qué es)").fill("script de inventario")
    page.get_by_role("button", name="Crear token").click()
    secret = page.locator("#new-token")
    secret.wait_for()
    token = secret.inner_text()
    assert token.startswith("tt_") and len(token) > 30
    page.get_by_role("button", name="Copiar").click()
    expect(page.get_by_role("button", name="Copiado")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == token
    axe(page)
    shoot(page, "tokens")

    # The secret works as a bearer token, and is never shown again.
    api = workshop_server.url("/workshop/api/hats")
    assert page.request.get(api, headers={"authorization": f"Bearer {token}"}).status == 200
    page.reload()
    assert page.locator("#new-token").count() == 0
    assert token not in page.content()

    # A page form without the session's CSRF token is refused, as on every other page form.
    row = page.locator(".token", has_text="script de inventario")
    token_id = row.get_attribute("data-token")
    forged = page.request.post(workshop_server.url(f"/workshop/tokens/{token_id}/revoke"))
    assert forged.status == 403
    assert page.request.get(api, headers={"authorization": f"Bearer {token}"}).status == 200

    row.get_by_role("button", name="Revocar").click()
    revoked = page.locator(".token", has_text="script de inventario")
    expect(revoked.locator(".chip")).to_have_text("Revocado")
    assert revoked.get_by_role("button", name="Revocar").count() == 0
    assert page.request.get(api, headers={"authorization": f"Bearer {token}"}).status == 401


def test_an_admin_sees_and_revokes_everyones_tokens(
    new_page: Callable[..., Any], sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    member = new_page()
    sign_in(member, "ana")
    member.goto(member.url.replace("/workshop/", "/workshop/tokens"))
    member.get_by_label("Nombre (para qué es)").fill("hoja de cálculo")
    member.get_by_role("button", name="Crear token").click()
    member.locator("#new-token").wait_for()

    admin = new_page()
    sign_in(admin, "admin")
    admin.get_by_role("link", name="API tokens").click()
    admin.wait_for_url("**/workshop/tokens")
    expect(admin.get_by_role("heading", name="Everyone's tokens in the workshop")).to_be_visible()
    row = admin.locator(".token", has_text="hoja de cálculo")
    assert "Ana Morocho" in row.inner_text()
    axe(admin)
    row.get_by_role("button", name="Revoke").click()
    expect(admin.locator(".token", has_text="hoja de cálculo").locator(".chip")).to_have_text("Revoked")

    member.reload()
    expect(member.locator(".token", has_text="hoja de cálculo").locator(".chip")).to_have_text("Revocado")
    # A member's list holds only their own tokens.
    assert member.get_by_role("heading", name="Sus tokens").is_visible()
