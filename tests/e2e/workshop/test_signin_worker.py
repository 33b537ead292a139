"""The sign-in page and the service worker (docs/workshop-pages.md, "Offline"; docs/security.md, "Caching"):
the worker installs, and keeps the pages for reading offline, also when its install overlaps the sign-in
post (on a first visit the worker registers on the sign-in page and installs while the person signs in); the
pages, their static files and a note's htmx answer travel compressed, the versioned static files immutable
(docs/workshop-pages.md, "Browser code and its limits"); the sign-in page and its refusals (a wrong password,
too many) pass axe-core; in Spanish and English, at phone and desktop widths."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, allow_console, watch_wire
from tests.e2e.workshop.conftest import ACCOUNTS, BROWSER, LANGUAGES_AND_WIDTHS, start_workshop
from tests.e2e.workshop.test_language_and_review import no_english_in_main
from tests.e2e.workshop.test_member_flow import send

SIGNIN_WORDS = {
    "es": {"button": "Entrar", "wrong": "El correo o la contraseña no son correctos.",
           "throttled": "Demasiados intentos fallidos; pruebe de nuevo en"},
    "en": {"button": "Sign in", "wrong": "Email or password is wrong.",
           "throttled": "Too many failed sign-ins; try again in"},
}  # fmt: skip


@pytest.fixture(scope="module")
def workshop_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's workshop: the sign-in throttle delays an email after its first failure (docs/security.md,
    throttles), so the "too many" form is one wrong password away and the client's own counter, shared by
    every sign-in of the module, stays far from its limit."""
    extra = {"SHOPFLOOR_SIGNIN_EMAIL_FREE_FAILURES": "1"}
    with start_workshop(tmp_path_factory.mktemp("workshop-var"), extra) as server:
        yield server


# Resolves to "ready" once a worker is active, or to "stalled" after 20 s: the test fails rather than hangs.
READY_OR_STALLED = """
Promise.race([
  navigator.serviceWorker.ready.then(r => r.active ? "ready" : "no worker"),
  new Promise(resolve => setTimeout(() => resolve("stalled"), 20000)),
])
"""


def test_the_worker_installs_while_the_sign_in_post_is_on_its_way(
    new_page: Callable[..., Any], workshop_server: Server
) -> None:
    page = new_page(service_workers="allow")
    asked_for_worker: list[str] = []
    page.context.on("request", lambda r: asked_for_worker.append(r.url) if r.url.endswith("/sw.js") else None)
    email, password = ACCOUNTS["ana"]
    page.goto(workshop_server.url("/workshop/signin"))
    page.fill("#email", email)
    page.fill("#password", password)
    # Post as soon as the worker is being fetched: its install (which fetches the sign-in page among the pages
    # it keeps) then runs while the post, slowed by the password hash, is on its way.
    while not asked_for_worker:
        page.wait_for_timeout(10)
    page.click("form button[type=submit]")
    page.wait_for_url("**/workshop/")
    assert page.evaluate(READY_OR_STALLED) == "ready"
    build = page.evaluate("caches.keys()")
    assert any(name.startswith("tt-pages-") for name in build), build


@LANGUAGES_AND_WIDTHS
def test_the_sign_in_page_is_revalidated_not_stored_and_the_signed_in_pages_are_never_stored(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    # No service worker: every answer comes over the wire, as on a first visit.
    page = new_page(
        service_workers="block", viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]}
    )
    wire = watch_wire(page, workshop_server.base_url)
    form = page.goto(workshop_server.url("/workshop/signin"))
    assert form is not None and form.headers["cache-control"] == "private, no-cache"
    assert form.headers.get("content-encoding") in ("br", "gzip")
    expect(page.locator("html")).to_have_attribute("lang", language)
    signin = wire.check()
    assert signin["compressed"] >= 3 and signin["immutable"] >= 2  # the page, htmx, our script and style
    axe(page)
    if language == "es":
        no_english_in_main(page)
    email, password = ACCOUNTS["ana"]
    page.fill("#email", email)
    page.fill("#password", password)
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.click("form button[type=submit]")
    assert posted.value.status == 303 and posted.value.headers["cache-control"] == "no-store"
    page.wait_for_url("**/workshop/")
    assert wire.check()["compressed"] >= 1  # the dashboard (its static files are in the browser's cache)
    dashboard = page.request.get(workshop_server.url("/workshop/"))
    assert dashboard.status == 200 and dashboard.headers["cache-control"] == "no-store"
    # A note's answer, swapped in by htmx (a bubble and four cards), is compressed too.
    with page.expect_response("**/workshop/notes") as answered:
        send(page, "Doña Rosa Pillco terminó 3 finos de 18 hileras.")
    assert answered.value.headers.get("content-encoding") in ("br", "gzip")
    wire.check()


@LANGUAGES_AND_WIDTHS
def test_a_wrong_password_and_too_many_say_so_in_the_pages_language(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    words = SIGNIN_WORDS[language]
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]})
    allow_console(page, r"status of 40[13]|status of 429")
    page.goto(workshop_server.url("/workshop/signin"))
    # An email of this run alone: its failures are its own (an account's email would be delayed for the
    # module's other sign-ins).
    email = f"nadie-{language}-{viewport['width']}@taller.example"
    for status, said in ((401, words["wrong"]), (429, words["throttled"])):
        page.fill("#email", email)
        page.fill("#password", "not-the-password")
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            page.get_by_role("button", name=words["button"]).click()
        assert posted.value.status == status
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_role("alert")).to_contain_text(said)
        expect(page.locator("#email")).to_have_value(email)  # the form again, with the email typed
        axe(page)
        if language == "es":
            no_english_in_main(page)
