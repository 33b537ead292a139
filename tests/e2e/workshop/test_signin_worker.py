"""The sign-in page and the service worker (docs/workshop-pages.md, "Offline"; docs/security.md, "Caching"):
the worker installs, and keeps the pages for reading offline, also when its install overlaps the sign-in
post (on a first visit the worker registers on the sign-in page and installs while the person signs in); the
pages, their static files and a note's htmx answer travel compressed, the versioned static files immutable
(docs/workshop-pages.md, "Browser code and its limits")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.e2e.conftest import Server, watch_wire
from tests.e2e.workshop.conftest import ACCOUNTS
from tests.e2e.workshop.test_member_flow import send

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


def test_the_sign_in_page_is_revalidated_not_stored_and_the_signed_in_pages_are_never_stored(
    new_page: Callable[..., Any], workshop_server: Server
) -> None:
    # No service worker: every answer comes over the wire, as on a first visit.
    page = new_page(service_workers="block")
    wire = watch_wire(page, workshop_server.base_url)
    form = page.goto(workshop_server.url("/workshop/signin"))
    assert form is not None and form.headers["cache-control"] == "private, no-cache"
    assert form.headers.get("content-encoding") in ("br", "gzip")
    signin = wire.check()
    assert signin["compressed"] >= 3 and signin["immutable"] >= 2  # the page, htmx, our script and style
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
