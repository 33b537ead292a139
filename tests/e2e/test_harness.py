"""The harness itself can fail: it sees a CSP violation, a console error, an accessibility violation, an
uncompressed answer and a versioned static file that is not immutable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.e2e.conftest import axe_violations, clear_issues, page_issues, watch_wire

STRICT_CSP = "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'"


def _serve(page: Any, body: str, script: str | None = None) -> None:
    # Answered inside the browser: no socket, and the page still gets the response headers it would get.
    page.route(
        "http://harness.test/**",
        lambda route: route.fulfill(
            status=200, body=body, content_type="text/html", headers={"content-security-policy": STRICT_CSP}
        ),
    )
    if script is not None:  # the route added last is matched first
        page.route(
            "http://harness.test/app.js", lambda r: r.fulfill(body=script, content_type="text/javascript")
        )
    page.goto("http://harness.test/")


def test_an_inline_script_is_reported_as_a_csp_violation(page: Any) -> None:
    _serve(page, "<!doctype html><html lang=en><title>t</title><script>console.log(1)</script><p>x</p>")
    page.wait_for_timeout(100)
    issues = page_issues(page)
    assert any("CSP violation: script-src" in i for i in issues), issues
    clear_issues(page)  # seen; the fixture's own check would fail the test otherwise


def test_a_console_error_is_reported(page: Any) -> None:
    _serve(
        page,
        '<!doctype html><html lang=en><title>t</title><script src="/app.js"></script>',
        script="console.error('boom')",
    )
    page.wait_for_timeout(100)
    assert any("boom" in i for i in page_issues(page))
    clear_issues(page)


def test_axe_finds_an_image_without_text(page: Any, axe: Callable[[Any], None]) -> None:
    _serve(
        page,
        '<!doctype html><html lang=en><title>t</title><main><img src="data:image/png;base64,iVBORw0KGgo="></main>',
    )
    assert "image-alt" in {v["id"] for v in axe_violations(page)}
    _serve(
        page,
        '<!doctype html><html lang=en><title>t</title><main><h1>t</h1><img alt="logo" src="data:image/png;base64,iVBORw0KGgo="></main>',
    )
    axe(page)


def test_the_wire_check_sees_an_uncompressed_page_and_a_static_file_that_is_not_immutable(page: Any) -> None:
    wire = watch_wire(page, "http://harness.test/")
    html = "<!doctype html><html lang=en><title>t</title><script src='/static/app.js?v=0123456789abcdef'></script>"

    def answer(route: Any) -> None:
        if "/static/" in route.request.url:
            route.fulfill(body="//", content_type="text/javascript", headers={"cache-control": "no-cache"})
        else:
            route.fulfill(body=html + "<p>" + "x" * 2000 + "</p>", content_type="text/html")

    page.route("http://harness.test/**", answer)
    page.goto("http://harness.test/")
    found, seen = wire.problems()
    assert seen == {"compressed": 0, "immutable": 0}
    assert len(found) == 2 and found[0].startswith("uncompressed ") and "not immutable (no-cache)" in found[1]
