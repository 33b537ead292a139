"""Toquilla Trace with no connection (docs/workshop-pages.md, "Offline"): the manifest and the service worker,
the dashboard opened offline from the cache, notes kept in the outbox and sent in order once when the
connection returns (also when an answer is cut on the way), the controls that need the server, and the
outbox being one person's: kept across an ended session, never sent as someone else, deleted at sign-out."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, allow_console
from tests.e2e.workshop.conftest import BROWSER, LANGUAGES_AND_WIDTHS, SAMPLE_NOTE
from tests.e2e.workshop.test_admin_and_dictation import FAKE_SPEECH

NOTES = ("Lucía terminó 2 finos de 18 hileras", "El TQ-7F3K2 pasó a lavado", "El TQ-2C5P0 ya está listo")

# The console errors these tests expect, each whole (any other console error fails the test): the answer the
# test cuts on the way, and the notes route refusing a session that ended while notes waited. Being offline
# itself logs nothing: the worker answers from the cache and the outbox sends nothing until `online`.
CUT_ANSWER = r"^console error: Failed to load resource: net::ERR_CONNECTION_RESET$"
ENDED_SESSION = (
    r"^console error: Failed to load resource: the server responded with a status of 401 \(Unauthorized\)$"
)


def db_rows(server: Server, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Rows of the server's own SQLite store, read beside it (the server keeps running)."""
    path = server.log.parent / "workshop.db"
    with sqlite3.connect(path) as conn:
        return list(conn.execute(sql, args))


def worker_ready(page: Any) -> None:
    """Wait for the service worker to be active, then reload so it controls the page."""
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null"), (
        "the worker does not control the page"
    )
    page.wait_for_selector("body[data-pages-kept]", state="attached")


def send_offline(page: Any, text: str, hat: str = "") -> None:
    page.fill("#note", text)
    if hat:
        page.fill("#hat_tag", hat)
    page.click("#composer button[type=submit]")
    expect(page.locator("#note")).to_have_value("")


@pytest.fixture
def offline_page(new_page: Callable[..., Any]) -> Iterator[Callable[[], Any]]:
    """Watched pages with service workers allowed (the outbox and the kept pages need one)."""

    def make() -> Any:
        return new_page(service_workers="allow")

    yield make


def test_manifest_is_valid_in_both_languages(page: Any, workshop_server: Server) -> None:
    for lang, name_lang in (("es", "es-EC"), ("en", "en")):
        answer = page.request.get(workshop_server.url(f"/workshop/manifest.webmanifest?lang={lang}"))
        assert answer.status == 200 and answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert manifest["name"] == "Toquilla Trace" and manifest["lang"] == name_lang
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/workshop/"
        assert manifest["start_url"].startswith(manifest["scope"])
        sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
        for size in ("192x192", "512x512"):
            icon = page.request.get(workshop_server.url(sizes[size]["src"]))
            assert icon.status == 200 and icon.headers["content-type"] == "image/png"
            width, height = (
                int.from_bytes(icon.body()[16:20], "big"),
                int.from_bytes(icon.body()[20:24], "big"),
            )
            assert f"{width}x{height}" == size
    es = page.request.get(workshop_server.url("/workshop/manifest.webmanifest?lang=es")).json()
    assert es["description"].startswith("Notas del taller")
    worker = page.request.get(workshop_server.url("/workshop/sw.js"))
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert re.match(r'var BUILD = "[0-9a-f]{12}";', worker.text())


def test_offline_dashboard_notes_wait_and_go_once_in_order(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = offline_page()
    allow_console(page, CUT_ANSWER)
    page.context.add_init_script(FAKE_SPEECH)
    sign_in(page, "ana")
    # One online visit: a note with cards, and the worker in control.
    page.fill("#note", SAMPLE_NOTE)
    page.click("#composer button[type=submit]")
    page.wait_for_selector("#result .card")
    worker_ready(page)
    build = re.search(r'"([0-9a-f]{12})"', page.request.get(workshop_server.url("/workshop/sw.js")).text())
    assert build is not None
    names = page.evaluate("caches.keys()")
    assert f"tt-static-{build.group(1)}" in names and f"tt-pages-{build.group(1)}" in names

    page.context.set_offline(True)
    opened = page.goto(workshop_server.url("/workshop/"))
    page.wait_for_selector("#composer")
    # Offline, the dashboard comes from the worker's cache (nothing reached the network).
    assert opened is not None and opened.ok and opened.from_service_worker
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # What needs the server says so and cannot be pressed; the cards stay readable.
    expect(page.locator("#offline-line")).to_be_visible()
    expect(page.locator("#offline-line")).to_contain_text("Sin conexión")
    approve = page.locator("#result .card button").first
    expect(approve).to_be_disabled()
    expect(page.locator("header a[href='/workshop/tokens']")).to_have_attribute("aria-disabled", "true")
    axe(page)
    # The hats and weavers lists open from the cache.
    page.goto(workshop_server.url("/workshop/hats"))
    expect(page.locator("main")).to_contain_text("TQ-7F3K2")
    page.goto(workshop_server.url("/workshop/weavers"))
    expect(page.locator("main")).to_contain_text("Rosa Pillco")
    page.goto(workshop_server.url("/workshop/"))

    send_offline(page, NOTES[0])
    page.click("#dictate")  # the dictation button's own code path, with the stand-in recognition
    expect(page.locator("#note")).to_have_value(NOTES[1])
    page.click("#composer button[type=submit]")
    expect(page.locator("#note")).to_have_value("")
    send_offline(page, NOTES[2], hat="TQ-2C5P0")
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox.locator("[data-outbox-count]")).to_have_text("3 notas por enviar")
    items = outbox.locator("li.outbox-note")
    expect(items).to_have_count(3)
    for i, text in enumerate(NOTES):
        expect(items.nth(i).locator(".outbox-text")).to_have_text(text)
    expect(items.nth(1).locator(".outbox-meta")).to_contain_text("dictada")
    expect(items.nth(2).locator(".outbox-meta")).to_contain_text("TQ-2C5P0")
    keys = [items.nth(i).get_attribute("data-key") for i in range(3)]
    axe(page)
    # The waiting notes survive a reload.
    page.reload()
    expect(page.locator("#outbox li.outbox-note")).to_have_count(3)

    # The first answer is lost on the way: the server made the run, the page never heard back.
    cut: list[str] = []

    def lose_first_answer(route: Any) -> None:
        if not cut:
            route.fetch()  # the server receives it and answers...
            cut.append(route.request.post_data or "")
            route.abort("connectionreset")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route("**/workshop/notes", lose_first_answer)
    worker = from_the_worker(page.context)
    page.context.set_offline(False)  # the Background Sync fires too: with this page in sight, it sends
    page.evaluate("window.dispatchEvent(new Event('online'))")
    sent = page.locator("#outbox-sent article.outbox-sent")
    expect(sent).to_have_count(3, timeout=15000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert cut and keys[0] in cut[0]
    assert worker == [], (
        "a page in sight sends the notes itself (the cut is on its route): the worker sent none"
    )
    for i, text in enumerate(NOTES):
        expect(sent.nth(i).locator(".note-echo")).to_contain_text(text)
        expect(sent.nth(i).locator(".note-echo .said")).to_be_visible()
        expect(sent.nth(i).locator("article.card .said").first).to_contain_text("Nota dicha el")
    expect(sent.nth(1).locator(".note-echo")).to_contain_text("dictada")
    expect(page.locator("#offline-line")).to_be_hidden()
    expect(page.locator("#result .card button").first).to_be_enabled()
    axe(page)
    rows = db_rows(
        workshop_server,
        "SELECT idempotency_key, input, input_mode, hat_code, user_id, said_at, created_at FROM agent_runs"
        " WHERE idempotency_key IN (?, ?, ?) ORDER BY created_at",
        *keys,
    )
    assert [r[0] for r in rows] == keys, "one run per key, in the order said"
    assert [r[1] for r in rows] == list(NOTES)
    assert [r[2] for r in rows] == ["typed", "voice", "typed"] and rows[2][3] == "TQ-2C5P0"
    assert {r[4] for r in rows} == {"u-ana"}
    assert all(r[5] is not None and r[5] <= r[6] for r in rows), "said before it reached the server"


def _lapse_with_a_waiting_note(page: Any, axe: Callable[[Any], None], text: str) -> str:
    """Ana keeps a note offline, then her session ends (the cookie is gone) before the signal returns."""
    worker_ready(page)
    page.context.set_offline(True)
    send_offline(page, text)
    key = page.locator("#outbox li.outbox-note").first.get_attribute("data-key")
    page.context.clear_cookies()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-outbox-lapsed]")).to_be_visible()
    expect(page.locator("#outbox li.outbox-note")).to_have_count(1)
    axe(page)
    assert key
    return key


def test_an_ended_session_keeps_the_notes_for_their_author_only(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = offline_page()
    allow_console(page, ENDED_SESSION)
    sign_in(page, "ana")
    key = _lapse_with_a_waiting_note(page, axe, "Carmen entregó 1 fino")
    # Another member signs in on the same phone: nothing of Ana's is sent, nor shown to him.
    sign_in(page, "admin")
    page.wait_for_timeout(1000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert db_rows(workshop_server, "SELECT id FROM agent_runs WHERE idempotency_key = ?", key) == []
    warnings: list[str] = []

    def note_warning(dialog: Any) -> None:
        warnings.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", note_warning)
    page.click("header form[hx-post$='/signout'] button")
    page.wait_for_url("**/workshop/signin**")
    page.remove_listener("dialog", note_warning)
    assert warnings == [], "the admin has no waiting notes, so no warning"
    # Ana again: her note goes, as her.
    sign_in(page, "ana")
    expect(page.locator("#outbox-sent article.outbox-sent")).to_have_count(1, timeout=10000)
    assert db_rows(workshop_server, "SELECT user_id FROM agent_runs WHERE idempotency_key = ?", key) == [
        ("u-ana",)
    ]


def test_sign_out_says_how_many_notes_it_deletes(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = offline_page()
    allow_console(page, ENDED_SESSION)
    sign_in(page, "ana")
    key = _lapse_with_a_waiting_note(page, axe, "Rosa empezó 2 superfinos")
    said: list[str] = []

    def answer(dialog: Any) -> None:
        said.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.click("header form[hx-post$='/signout'] button")
    page.wait_for_url("**/workshop/signin**")
    assert said and said[0].startswith("1 nota está por enviar")
    # Signing in needs the server: offline the (kept) sign-in page says so and its button waits.
    page.context.set_offline(True)
    page.goto(workshop_server.url("/workshop/signin"))
    expect(page.locator("#offline-line")).to_be_visible()
    expect(page.locator("form button[type=submit]")).to_be_disabled()
    axe(page)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("form button[type=submit]")).to_be_enabled()
    expect(page.locator("#offline-line")).to_be_hidden()
    sign_in(page, "admin")
    page.wait_for_timeout(1000)
    expect(page.locator("#outbox")).to_be_hidden()
    sign_in(page, "ana")
    page.wait_for_timeout(1000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert db_rows(workshop_server, "SELECT id FROM agent_runs WHERE idempotency_key = ?", key) == []


HOURLY = {
    "es": "No se envió: Como máximo 20 notas por hora. Intente más tarde.",
    "en": "Not sent: At most 20 notes per hour. Try again later.",
}


def speak(page: Any, language: str) -> None:
    """Save ``language`` as the signed-in person's choice with the header's switch, unless the page is in it."""
    if page.locator("html").get_attribute("lang") != language:
        page.get_by_role("button", name={"es": "Español", "en": "English"}[language]).click()
        expect(page.locator("html")).to_have_attribute("lang", language)


@LANGUAGES_AND_WIDTHS
def test_a_note_over_the_hourly_limit_stays_with_the_reason(
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    language: str,
    viewport: dict[str, int],
) -> None:
    # Pedro, a member, in the language he chose: the limit is his, so the runs after the first find it spent.
    page = new_page(
        service_workers="allow", viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]}
    )
    sign_in(page, "pedro")
    speak(page, language)
    worker_ready(page)
    csrf = json.loads(page.locator("body").get_attribute("hx-headers") or "{}")["x-csrf-token"]
    used = db_rows(workshop_server, "SELECT count(*) FROM agent_runs WHERE user_id = 'u-pedro'")[0][0]
    for i in range(20 - used):
        answer = page.request.post(
            workshop_server.url("/workshop/notes"), form={"note": f"nota {i}"}, headers={"x-csrf-token": csrf}
        )
        assert answer.headers.get("x-note-outcome") == "sent"
    page.context.set_offline(True)
    send_offline(page, "Una nota más de la cuenta")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    reason = page.locator("#outbox li.outbox-note .outbox-reason")
    expect(reason).to_have_text(HOURLY[language])
    expect(page.locator("#outbox li.outbox-note")).to_have_count(1)
    axe(page)
    # Its author may remove it.
    page.locator("#outbox li.outbox-note button").click()
    expect(page.locator("#outbox")).to_be_hidden()


def test_outbox_screenshots_in_both_languages(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    shoot: Callable[..., list[Path]],
    axe: Callable[[Any], None],
) -> None:
    for who, name, notes in (
        ("ana", "outbox-es", ("Rosa terminó 2 finos de 18 hileras", "El TQ-7F3K2 pasó a lavado")),
        ("admin", "outbox-en", ("Carmen delivered 1 superfino", "TQ-2C5P0 is ready")),
    ):
        page = offline_page()
        sign_in(page, who)
        worker_ready(page)
        page.context.set_offline(True)
        for text in notes:
            send_offline(page, text)
        expect(page.locator("#outbox li.outbox-note")).to_have_count(2)
        title = "Por enviar" if who == "ana" else "Waiting to send"
        expect(page.locator("#outbox-title")).to_have_text(title)
        axe(page)  # the outbox in each language, as the screenshots show it
        for path in shoot(page, name):
            assert path.stat().st_size > 0
        for left in range(len(notes) - 1, -1, -1):  # their author removes them, so nothing is sent later
            page.locator("#outbox li.outbox-note button").first.click()
            expect(page.locator("#outbox li.outbox-note")).to_have_count(left)
        expect(page.locator("#outbox")).to_be_hidden()
        page.context.set_offline(False)


def test_two_tabs_sending_one_outbox_make_one_run_per_note(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
) -> None:
    """Two tabs of the same phone both send the waiting notes when the signal returns: the idempotency key
    makes one run per note, and both tabs show the same runs."""
    first = offline_page()
    sign_in(first, "ana")
    worker_ready(first)
    second = first.context.new_page()  # another tab: the same outbox (IndexedDB), the same session
    second.goto(workshop_server.url("/workshop/"))
    second.wait_for_selector("body[data-pages-kept]", state="attached")
    first.context.set_offline(True)
    notes = ("Rosa empezó 1 fino de 18 hileras", "El TQ-7F3K2 pasó a lavado", "Carmen entregó 2 superfinos")
    for text in notes:
        send_offline(first, text)
    items = first.locator("#outbox li.outbox-note")
    expect(items).to_have_count(3)
    keys = [items.nth(i).get_attribute("data-key") or "" for i in range(3)]

    # The first tab's first sending is held until the second tab has sent the same note, so both tabs send
    # every note (the first tab with the list it read before the second one emptied it).
    held: list[Any] = []
    from_second: list[str] = []

    def hold_the_first(route: Any) -> None:
        if not held:
            held.append(route)  # answered below
        else:
            route.continue_()

    def note_the_second(route: Any) -> None:
        from_second.append(route.request.post_data or "")
        route.continue_()

    first.route("**/workshop/notes", hold_the_first)
    second.route("**/workshop/notes", note_the_second)
    first.context.set_offline(False)
    for tab in (first, second):
        tab.evaluate("window.dispatchEvent(new Event('online'))")
    expect(second.locator("#outbox-sent article.outbox-sent")).to_have_count(3, timeout=15000)
    assert held and keys[0] in (held[0].request.post_data or "")
    assert [key for key in keys if any(key in body for body in from_second)] == keys
    held[0].continue_()
    expect(first.locator("#outbox-sent article.outbox-sent")).to_have_count(3, timeout=15000)
    for tab in (first, second):
        expect(tab.locator("#outbox")).to_be_hidden()

    rows = db_rows(
        workshop_server,
        "SELECT idempotency_key, id FROM agent_runs WHERE idempotency_key IN (?, ?, ?) ORDER BY created_at",
        *keys,
    )
    assert [r[0] for r in rows] == keys, "one run per note, in the order said"
    for tab in (first, second):
        panels = tab.locator("#outbox-sent article.outbox-sent section.panel")
        expect(panels).to_have_count(3)
        assert [panels.nth(i).get_attribute("id") for i in range(3)] == [f"panel-{r[1]}" for r in rows]


LENGTH = {
    "es": ("ana", "No se envió: Escriba una nota de 1 a 1000 caracteres."),
    "en": ("admin", "Not sent: Write a note of 1 to 1000 characters."),
}


@LANGUAGES_AND_WIDTHS
def test_a_note_over_the_length_cap_stays_with_the_reason_in_the_pages_language(
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    language: str,
    viewport: dict[str, int],
) -> None:
    who, reason = LENGTH[
        language
    ]  # a member's page is Spanish, an admin's follows the browser (English here)
    page = new_page(
        service_workers="allow", viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]}
    )
    sign_in(page, who)
    worker_ready(page)
    # The note box's maxlength is the browser's help; the server's cap is the rule. A note longer than the cap
    # (kept by a page without that help) is refused when the outbox sends it.
    page.locator("#note").evaluate("note => note.removeAttribute('maxlength')")
    long = "Rosa terminó 3 finos de 18 hileras. " * 28  # 1,008 characters
    assert len(long) > 1000
    page.context.set_offline(True)
    send_offline(page, long)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    kept = page.locator("#outbox li.outbox-note")
    expect(kept.locator(".outbox-reason")).to_have_text(reason)
    expect(kept).to_have_count(1)
    expect(kept.locator(".outbox-text")).to_have_text(long.rstrip())
    axe(page)
    # The reason is kept with the note: a reload shows it again (and the next sending tries once more).
    page.reload()
    expect(page.locator("#outbox li.outbox-note .outbox-reason")).to_have_text(reason)
    user = "u-ana" if who == "ana" else "u-admin"
    assert (
        db_rows(workshop_server, "SELECT id FROM agent_runs WHERE user_id = ? AND length(input) > 1000", user)
        == []
    )
    page.locator("#outbox li.outbox-note button").click()
    expect(page.locator("#outbox")).to_be_hidden()


def test_each_card_says_when_its_note_was_said_in_the_phones_time(
    new_page: Callable[..., Any], sign_in: Callable[[Any, str], Any], workshop_server: Server
) -> None:
    """The run keeps the time the note was said (the outbox sends it with the phone's offset); every card of
    the run shows it in the browser's own time zone and the page's language, also a card swapped after a
    decision."""
    page = new_page(timezone_id="America/Guayaquil")  # UTC-5 all year
    sign_in(page, "ana")
    csrf = json.loads(page.locator("body").get_attribute("hx-headers") or "{}")["x-csrf-token"]
    said = (datetime.now(UTC) - timedelta(hours=3)).replace(second=0, microsecond=0)
    answer = page.request.post(
        workshop_server.url("/workshop/notes"),
        form={
            "note": "El TQ-7F3K2 pasó a lavado y el TQ-2C5P0 ya está listo",
            "idempotency_key": f"said-{said:%Y%m%d%H%M}",
            "said_at": said.isoformat(),
        },
        headers={"x-csrf-token": csrf},
    )
    assert answer.headers.get("x-note-outcome") == "sent"
    page.goto(workshop_server.url(answer.headers["hx-push-url"]))
    local = said.astimezone(timezone(timedelta(hours=-5)))
    clock = f"{local.hour}:{local:%M}"  # Spanish short time: 9:05, 14:30

    def says_local_time(where: Any, words: str = "Nota dicha el") -> None:
        line = where.locator(".said")
        expect(line).to_contain_text(words)
        text = " ".join((line.inner_text() or "").replace("\u202f", " ").split())
        assert clock in text and str(local.year) in text and "UTC" not in text, text

    cards = page.locator(".panel article.card")
    expect(cards.first).to_be_visible()
    for i in range(cards.count()):
        says_local_time(cards.nth(i))
    says_local_time(page.locator("#result .bubble .note-echo"), "dicha el")
    open_card = cards.filter(has=page.get_by_role("button", name="Rechazar")).first
    decided_id = open_card.get_attribute("id")
    open_card.get_by_role("button", name="Rechazar").click()
    expect(page.locator(f"#{decided_id}")).to_have_attribute("data-status", "rejected")
    says_local_time(page.locator(f"#{decided_id}"))


# --- the service worker sends the outbox with no page open ----------------------------------------------------


def outside_page(context: Any, server: Server) -> Any:
    """A page of the app's origin outside the worker's scope (``/healthz``): no client of the worker, so with
    the app's pages closed none is open, yet it can read the outbox and open a DevTools session. The server has
    no ``/favicon.ico`` (its pages name their icon), so the browser's own request for it is answered here."""
    context.route(server.url("/favicon.ico"), lambda route: route.fulfill(status=204))
    page = context.new_page()
    page.goto(server.url("/healthz"))
    return page


def outbox_rows(page: Any) -> list[dict[str, Any]]:
    """Every record of the outbox (IndexedDB ``toquilla-outbox``), oldest first, read from ``page``."""
    rows: list[dict[str, Any]] = page.evaluate(
        """() => new Promise((resolve, reject) => {
          const open = indexedDB.open('toquilla-outbox', 1);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction('notes').objectStore('notes').getAll();
            all.onsuccess = () => { open.result.close(); resolve(all.result); };
          };
        })"""
    )
    return sorted(rows, key=lambda row: row["queued"])


def from_the_worker(context: Any) -> list[str]:
    """Watch the requests the service worker makes to ``/auth/me`` and ``/notes`` (Playwright routes a worker's
    requests through the context; a page's own go to its page routes first): "GET /workshop/auth/me", ..."""
    seen: list[str] = []

    def note(route: Any) -> None:
        if route.request.service_worker is not None:
            seen.append(f"{route.request.method} {route.request.url.split('/', 3)[3]}")
        route.fallback()

    context.route("**/workshop/auth/me", note)
    context.route("**/workshop/notes", note)
    return seen


def until(page: Any, done: Callable[[], bool], what: str, timeout_ms: int = 15000) -> None:
    """Wait for ``done()`` while Playwright keeps serving the routes (a plain sleep would hold them)."""
    for _ in range(timeout_ms // 100):
        if done():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {what}")


def dispatch_sync(page: Any, server: Server) -> None:
    """Fire the worker's Background Sync "outbox" now (DevTools: ``ServiceWorker.dispatchSyncEvent``)."""
    cdp = page.context.new_cdp_session(page)
    scope = server.url("/workshop/")
    found: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.extend(
            r["registrationId"]
            for r in event["registrations"]
            if r["scopeURL"] == scope and not r["isDeleted"]
        ),
    )
    cdp.send("ServiceWorker.enable")
    until(page, lambda: bool(found), "the worker's registration")
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {"origin": server.base_url, "registrationId": found[0], "tag": "outbox", "lastChance": False},
    )
    cdp.detach()


def runs_of(server: Server, keys: list[str]) -> list[tuple[Any, ...]]:
    marks = ", ".join("?" for _ in keys)
    return db_rows(
        server,
        "SELECT idempotency_key, id, input, input_mode, hat_code, user_id, said_at FROM agent_runs"
        f" WHERE idempotency_key IN ({marks}) ORDER BY created_at",
        *keys,
    )


def test_with_every_page_closed_the_worker_sends_the_notes_and_the_next_visit_shows_them(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = offline_page()
    context = page.context
    sign_in(page, "ana")
    worker_ready(page)
    outside = outside_page(context, workshop_server)
    context.set_offline(True)
    send_offline(page, NOTES[0])
    send_offline(page, NOTES[2], hat="TQ-2C5P0")
    items = page.locator("#outbox li.outbox-note")
    expect(items).to_have_count(2)
    keys = [items.nth(i).get_attribute("data-key") or "" for i in range(2)]
    page.close()  # every page of the app is closed
    worker = from_the_worker(context)
    # The network returns: the Background Sync the outbox registered fires, and the worker sends the notes.
    context.set_offline(False)
    until(outside, lambda: len(runs_of(workshop_server, keys)) == 2, "the worker to send both notes")
    runs = runs_of(workshop_server, keys)
    assert [r[0] for r in runs] == keys, "oldest first"
    assert [r[2] for r in runs] == [NOTES[0], NOTES[2]] and runs[1][4] == "TQ-2C5P0"
    assert {r[5] for r in runs} == {"u-ana"} and all(r[6] is not None for r in runs)
    until(outside, lambda: all(row.get("sent") for row in outbox_rows(outside)), "the notes marked sent")
    assert worker == ["GET workshop/auth/me", "POST workshop/notes", "POST workshop/notes"]
    kept = outbox_rows(outside)
    assert [(row["key"], row["run"]) for row in kept] == [(r[0], r[1]) for r in runs], (
        "each marked with its run"
    )

    # The next visit shows both notes' cards (the newest as the dashboard's own run), and the outbox is empty.
    visit = context.new_page()
    visit.goto(workshop_server.url("/workshop/"))
    sent = visit.locator("#outbox-sent article.outbox-sent")
    expect(sent).to_have_count(1)
    expect(sent.locator(".note-echo")).to_contain_text(NOTES[0])
    expect(visit.locator(f"#panel-{runs[0][1]} article.card").first).to_be_visible()
    expect(visit.locator("#result .note-echo")).to_contain_text(NOTES[2])
    expect(visit.locator(f"#panel-{runs[1][1]} article.card").first).to_be_visible()
    expect(sent.locator("article.card .said").first).to_contain_text("Nota dicha el")
    expect(visit.locator("#outbox")).to_be_hidden()
    until(visit, lambda: outbox_rows(visit) == [], "the outbox to be empty")
    axe(visit)
    # A later visit shows the dashboard as usual: the sent notes are gone from the outbox for good.
    visit.reload()
    expect(visit.locator("#result .note-echo")).to_contain_text(NOTES[2])
    expect(visit.locator("#outbox-sent article.outbox-sent")).to_have_count(0)
    assert len(runs_of(workshop_server, keys)) == 2 and worker.count("POST workshop/notes") == 2


@pytest.mark.parametrize(
    ("who", "reason"),
    [
        ("ana", "Escriba una nota de 1 a 1000 caracteres."),
        ("admin", "Write a note of 1 to 1000 characters."),
    ],
)
def test_a_note_the_server_refuses_to_the_worker_keeps_its_reason_in_the_pages_language(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    who: str,
    reason: str,
) -> None:
    page = offline_page()
    context = page.context
    sign_in(page, who)
    worker_ready(page)
    outside = outside_page(context, workshop_server)
    page.locator("#note").evaluate("note => note.removeAttribute('maxlength')")
    long = "Rosa terminó 3 finos de 18 hileras. " * 28  # over the 1,000-character cap
    context.set_offline(True)
    send_offline(page, long)
    send_offline(page, "El TQ-7F3K2 pasó a lavado")
    items = page.locator("#outbox li.outbox-note")
    expect(items).to_have_count(2)
    keys = [items.nth(i).get_attribute("data-key") or "" for i in range(2)]
    page.close()
    context.set_offline(False)
    # The refused note does not hold back the one after it.
    until(outside, lambda: len(runs_of(workshop_server, keys)) == 1, "the worker to send the second note")
    until(
        outside,
        lambda: [bool(row.get("reason") or row.get("sent")) for row in outbox_rows(outside)] == [True, True],
        "the refused note's reason and the sent one's mark",
    )
    refused, sent = outbox_rows(outside)
    assert refused["key"] == keys[0] and not refused.get("sent") and refused["reason"] == reason
    assert sent["key"] == keys[1] and sent["sent"]
    assert runs_of(workshop_server, keys)[0][0] == keys[1]

    visit = context.new_page()
    visit.goto(workshop_server.url("/workshop/"))
    waiting = visit.locator("#outbox li.outbox-note")
    expect(waiting).to_have_count(1)
    word = "No se envió" if who == "ana" else "Not sent"
    expect(waiting.locator(".outbox-reason")).to_have_text(f"{word}: {reason}")
    expect(visit.locator("#result .note-echo")).to_contain_text("El TQ-7F3K2 pasó a lavado")
    axe(visit)
    waiting.locator("button").click()  # its author removes it
    expect(visit.locator("#outbox")).to_be_hidden()


def test_the_worker_sends_nothing_for_someone_signed_out_nor_as_someone_else(
    offline_page: Callable[[], Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
) -> None:
    page = offline_page()
    context = page.context
    sign_in(page, "ana")
    worker_ready(page)
    outside = outside_page(context, workshop_server)
    context.set_offline(True)
    send_offline(page, "Carmen entregó 1 fino")
    key = page.locator("#outbox li.outbox-note").first.get_attribute("data-key") or ""
    page.close()
    context.clear_cookies()  # her session ends while the note waits
    worker = from_the_worker(context)
    context.set_offline(False)
    until(outside, lambda: worker == ["GET workshop/auth/me"], "the worker to ask who is signed in")
    outside.wait_for_timeout(1000)
    assert worker == ["GET workshop/auth/me"], "signed out: nothing sent"
    assert runs_of(workshop_server, [key]) == []
    [kept] = outbox_rows(outside)
    assert kept["key"] == key and not kept.get("sent")

    # Another member signs in on this phone and closes the app: the worker sends only his notes (none).
    other = context.new_page()
    sign_in(other, "admin")
    other.close()
    worker.clear()
    dispatch_sync(outside, workshop_server)
    until(outside, lambda: worker == ["GET workshop/auth/me"], "the worker to ask who is signed in")
    outside.wait_for_timeout(1000)
    assert worker == ["GET workshop/auth/me"], "signed in as someone else: nothing of Ana's sent"
    assert runs_of(workshop_server, [key]) == []
    assert [row["key"] for row in outbox_rows(outside)] == [key]

    # Ana again: her page sends it, as her.
    back = context.new_page()
    sign_in(back, "ana")
    expect(back.locator("#outbox-sent article.outbox-sent, #result .note-echo").first).to_be_visible()
    until(back, lambda: len(runs_of(workshop_server, [key])) == 1, "Ana's note to be sent")
    assert runs_of(workshop_server, [key])[0][5] == "u-ana"
