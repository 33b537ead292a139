"""The account pages: API tokens (create with the secret shown once, copy, revoke; an admin sees everyone's)
and the admins' spend page, its 400 page for a malformed month and a member's 403 page (each with axe-core);
the tokens and spend pages in both languages at both widths."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from playwright.sync_api import expect
from sqlalchemy import create_engine

from shopfloor.agent.budget import to_nano
from shopfloor.agent.spend import SqlLedger
from shopfloor.workshop.sample import WORKSHOP_A
from tests.e2e.conftest import Server, allow_console, watch_wire
from tests.e2e.workshop.conftest import BROWSER, LANGUAGES_AND_WIDTHS
from tests.e2e.workshop.test_language_and_review import no_english_in_main


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


def _charge(server: Server, day: date, model: str, usd: float, calls: int = 1) -> None:
    """Record model calls in the server's own spend ledger, as a live model's runs would."""
    engine = create_engine(f"sqlite:///{server.log.parent / 'workshop.db'}")
    ledger = SqlLedger(engine)
    for _ in range(calls):
        hold = ledger.reserve("workshop", WORKSHOP_A, day, model, to_nano(usd), None)
        ledger.settle("workshop", WORKSHOP_A, hold, to_nano(usd))
    engine.dispose()


def test_an_admin_reads_the_months_spend_and_a_member_gets_403(
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    shoot: Callable[..., Any],
) -> None:
    engine = create_engine(f"sqlite:///{workshop_server.log.parent / 'workshop.db'}")
    SqlLedger(engine).set_cap("workshop", WORKSHOP_A, 5.0)
    engine.dispose()
    _charge(workshop_server, date(2026, 3, 2), "claude-haiku-4-5", 0.40, calls=2)
    _charge(workshop_server, date(2026, 3, 2), "gemini-2.5-flash-lite", 0.05)
    _charge(workshop_server, date(2026, 3, 9), "claude-haiku-4-5", 0.2125)

    admin = new_page()
    sign_in(admin, "admin")
    admin.get_by_role("link", name="Spend").click()
    admin.wait_for_url("**/workshop/spending")
    wire = watch_wire(admin, workshop_server.base_url)
    admin.goto(workshop_server.url("/workshop/spending?month=2026-03"))
    assert wire.check()["compressed"] >= 1  # issue 26, point 14
    totals = admin.locator(".spend-totals")
    # 2 × 0.40 + 0.05 + 0.2125 = 1.0625 spent of 5.00; 3.9375 left.
    assert " ".join(totals.inner_text().split()) == (
        "Spent $1.06 Held for calls in progress $0.00 Monthly cap $5.00 Left $3.94"
    )
    days = admin.locator(".spend-days tbody tr")
    assert days.count() == 2
    assert " ".join(days.nth(0).inner_text().split()) == "2026-03-02 3 $0.85"
    assert " ".join(days.nth(1).inner_text().split()) == "2026-03-09 1 $0.21"
    # Bars scale to the dearest day: 0.85 → full width, 0.2125 → a quarter.
    bars = admin.locator(".spend-days rect")
    widths = [int(bars.nth(i).get_attribute("width") or -1) for i in range(bars.count())]
    assert widths == [200, 50]
    rows = admin.locator(".spend-rows tbody tr")
    assert rows.count() == 3
    assert "gemini-2.5-flash-lite" in admin.locator(".spend-rows").inner_text()
    axe(admin)
    shoot(admin, "spend")

    # Another month: nothing spent, the cap still shown.
    admin.get_by_role("link", name="2026-02").first.click()
    admin.wait_for_url("**month=2026-02")
    assert "No model calls this month." in admin.locator("main").inner_text()
    assert "$5.00" in totals.inner_text()

    allow_console(admin, "status of 400")
    bad = admin.goto(workshop_server.url("/workshop/spending?month=2026-13"))
    assert bad is not None and bad.status == 400
    assert "A month looks like 2026-05." in admin.locator("main").inner_text()
    axe(admin)  # the error page
    wire.check()

    member = new_page()
    sign_in(member, "ana")
    assert member.get_by_role("link", name="Gasto").count() == 0
    allow_console(member, "status of 403")
    response = member.goto(workshop_server.url("/workshop/spending"))
    assert response is not None and response.status == 403
    assert "text/html" in response.headers["content-type"]
    assert "Solo un administrador" in member.locator("main").inner_text()
    axe(member)


ACCOUNT_WORDS = {
    "es": {"tokens": "Tokens de API", "name": "Nombre (para qué es)", "create": "Crear token",
           "spend": "Gasto en modelos, 2026-03", "bad_month": "Un mes se escribe así: 2026-05."},
    "en": {"tokens": "API tokens", "name": "Name (what it is for)", "create": "Create token",
           "spend": "Model spend, 2026-03", "bad_month": "A month looks like 2026-05."},
}  # fmt: skip


@LANGUAGES_AND_WIDTHS
def test_the_account_pages_in_each_language_and_width(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    """The tokens page (with a new token's secret shown once) and the spend page and its 400 page pass
    axe-core in the page's language (an admin's pages follow the browser); a member's tokens page too."""
    words = ACCOUNT_WORDS[language]
    admin = new_page(viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]})
    sign_in(admin, "admin")
    people = [admin]
    if language == "es":  # a member's pages are Spanish whatever the browser says
        member = new_page(viewport=viewport)
        sign_in(member, "ana")
        people.append(member)
    for page in people:
        page.goto(workshop_server.url("/workshop/tokens"))
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_text(words["tokens"])
        axe(page)
        page.get_by_label(words["name"]).fill(f"axe {language} {viewport['width']}")
        page.get_by_role("button", name=words["create"]).click()
        page.locator("#new-token").wait_for()
        axe(page)
        if language == "es":
            no_english_in_main(page)

    admin.goto(workshop_server.url("/workshop/spending?month=2026-03"))
    expect(admin.locator("h1")).to_have_text(words["spend"])
    axe(admin)
    if language == "es":
        no_english_in_main(admin)
    allow_console(admin, "status of 400")
    bad = admin.goto(workshop_server.url("/workshop/spending?month=2026-13"))
    assert bad is not None and bad.status == 400
    expect(admin.locator("main")).to_contain_text(words["bad_month"])
    axe(admin)
    if language == "es":
        no_english_in_main(admin)
