"""Dictation through a scripted stand-in for the browser's speech recognition, the admin's run pages, the
member's 403 page (with axe-core), the hat page with a flag to resolve, the weavers admin, and the hat, run and
not-found pages in both languages at both widths."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, allow_console, screenshot_dir, watch_wire
from tests.e2e.workshop.conftest import BROWSER, LANGUAGES_AND_WIDTHS, SAMPLE_NOTE
from tests.e2e.workshop.test_language_and_review import no_english_in_main
from tests.e2e.workshop.test_member_flow import send

# Stands in for the browser's speech recognition: start() hears one phrase and ends, as a real one would.
FAKE_SPEECH = """
window.__speechLang = null;
class FakeRecognition {
  start() {
    window.__speechLang = this.lang;
    setTimeout(() => {
      const result = [{transcript: 'El TQ-7F3K2 pasó a lavado'}];
      result.isFinal = true;
      this.onresult({resultIndex: 0, results: [result]});
      this.onend();
    }, 50);
  }
  stop() { this.onend(); }
}
window.SpeechRecognition = FakeRecognition;
"""


def test_dictation_fills_the_box_and_sends_voice(
    new_page: Callable[..., Any], sign_in: Callable[[Any, str], Any]
) -> None:
    page = new_page()
    page.context.add_init_script(FAKE_SPEECH)
    sign_in(page, "ana")
    page.get_by_role("button", name="Dictar").click()
    # Playwright's own waiting (wait_for_function polls with eval, which the pages' CSP refuses).
    expect(page.locator("#note")).to_have_value("El TQ-7F3K2 pasó a lavado")
    assert page.evaluate("window.__speechLang") == "es-EC"
    with page.expect_request("**/workshop/notes") as sent:
        page.click("#composer button[type=submit]")
    assert "input_mode=voice" in (sent.value.post_data or "")
    page.wait_for_selector("#result .bubble")
    assert "dictada" in page.locator(".note-echo").inner_text()


def test_the_dictate_button_is_hidden_without_speech_recognition(
    new_page: Callable[..., Any], sign_in: Callable[[Any, str], Any]
) -> None:
    page = new_page()
    page.context.add_init_script(
        "for (const name of ['SpeechRecognition', 'webkitSpeechRecognition'])"
        " Object.defineProperty(window, name, {value: undefined, configurable: true});"
    )
    sign_in(page, "ana")
    assert page.locator("#dictate").is_hidden()


def test_admin_opens_the_run_timeline(
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    axe: Callable[[Any], None],
    shoot: Callable[..., Any],
) -> None:
    member = new_page()
    sign_in(member, "ana")
    member.fill("#note", SAMPLE_NOTE)
    member.click("#composer button[type=submit]")
    member.wait_for_selector("#result .bubble")
    expect(member).to_have_url(re.compile(r"run="))
    run_id = member.url.split("run=")[1]

    admin = new_page(viewport={"width": 1280, "height": 800})
    sign_in(admin, "admin")
    wire = watch_wire(admin, admin.url.split("/workshop/")[0])
    admin.get_by_role("link", name="Agent runs").click()
    admin.wait_for_url("**/workshop/runs")
    axe(admin)
    assert wire.check()["compressed"] >= 1  # the runs page, compressed (issue 26, point 14)
    admin.locator(f"a[href='/workshop/runs/{run_id}']").click()
    admin.wait_for_url(f"**/workshop/runs/{run_id}")
    assert wire.check()["compressed"] >= 1
    steps = admin.locator(".timeline > li")
    assert steps.count() >= 10
    kinds = admin.locator(".timeline .kind").all_inner_texts()
    assert {"Model call", "Tool call", "Rule check", "Proposal"} <= set(kinds)
    assert admin.locator(".chip.read").count() >= 2
    assert admin.locator(".chip.write").count() == 4
    first_tool = admin.locator(".timeline li.kind-tool_call").first
    first_tool.locator("summary").click()
    assert '"name"' in first_tool.locator("pre").first.inner_text()
    assert "stage_skip" in admin.locator(".timeline").inner_text()
    axe(admin)
    shoot(admin, "run-timeline")


def test_a_member_gets_a_403_page_for_runs(
    page: Any, sign_in: Callable[[Any, str], Any], workshop_server: Server, axe: Callable[[Any], None]
) -> None:
    sign_in(page, "ana")
    allow_console(page, "status of 403")
    response = page.goto(workshop_server.url("/workshop/runs"))
    assert response is not None and response.status == 403
    assert "text/html" in response.headers["content-type"]
    assert "Solo un administrador" in page.locator("main").inner_text()
    axe(page)


def test_hat_page_resolves_a_flag_with_a_note(
    page: Any,
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    shoot: Callable[..., Any],
) -> None:
    sign_in(page, "ana")
    page.goto(workshop_server.url("/workshop/hats?flagged=true"))
    assert page.locator(".hat-row").count() == 1
    page.locator(".hat-row a", has_text="TQ-9M2XA").click()
    page.wait_for_url("**/workshop/hats/TQ-9M2XA")
    assert (
        " ".join(page.locator(".stepper [aria-current=step]").inner_text().split())
        == "● Lavado (etapa actual)"
    )
    axe(page)
    shoot(page, "hat-page")
    page.get_by_label("¿Cómo se resolvió?").fill("Se volvió a contar: 15 hileras")
    page.get_by_role("button", name="Resolver").click()
    page.locator("text=No hay alertas abiertas.").wait_for()
    assert "Se volvió a contar: 15 hileras" in page.locator(".events").inner_text()
    axe(page)


def test_admin_adds_edits_and_archives_a_weaver(
    page: Any, sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    sign_in(page, "admin")
    page.get_by_role("link", name="Weavers").click()
    page.wait_for_url("**/workshop/weavers")
    axe(page)
    page.fill("#new-name", "Mercedes Zhunio")
    page.fill("#new-village", "Sígsig")
    page.get_by_role("button", name="Add").click()
    added = page.locator(".weaver", has_text="Mercedes Zhunio")
    added.wait_for()
    added.locator("summary").click()
    added.get_by_label("Archived").check()
    added.get_by_role("button", name="Save").click()
    page.locator(".weaver.archived", has_text="Mercedes Zhunio").wait_for()


def test_tags_pdf_first_page_picture(page: Any, sign_in: Callable[[Any, str], Any], tmp_path: Path) -> None:
    sign_in(page, "ana")
    page.fill("#note", "Doña Rosa Pillco terminó 3 finos de 18 hileras")
    page.click("#composer button[type=submit]")
    page.wait_for_selector("article.card[data-card=create_hat]")
    page.get_by_role("button", name="Aprobar").first.click()
    page.locator("article.card[data-status=approved]").wait_for()
    with page.expect_download() as info:
        page.get_by_role("link", name="Imprimir etiquetas").click()
    pdf = Path(info.value.path())
    assert pdf.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert text.count("TQ-") == 3
    out = screenshot_dir(tmp_path) / "tags-pdf"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(out)], check=True
    )
    assert out.with_suffix(".png").stat().st_size > 1000


PAGE_WORDS = {
    "es": {"hats": "Sombreros", "runs": "Ejecuciones del asistente", "run": "Ejecución del asistente",
           "not_found": "No encontrado", "no_hat": "No hay tal sombrero en este taller.",
           "bad_code": "Los códigos son como TQ-7F3K2.", "no_run": "No hay tal ejecución en este taller."},
    "en": {"hats": "Hats", "runs": "Agent runs", "run": "Agent run", "not_found": "Not found",
           "no_hat": "No such hat in this workshop.", "bad_code": "Codes look like TQ-7F3K2.",
           "no_run": "No such run in this workshop."},
}  # fmt: skip


@LANGUAGES_AND_WIDTHS
def test_the_hat_run_and_not_found_pages_in_each_language_and_width(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
) -> None:
    """The hats list, a hat's page, the runs list, a run's page and the 404 pages of a hat and a run pass
    axe-core in the page's language (an admin's pages follow the browser)."""
    words = PAGE_WORDS[language]
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[language]})
    sign_in(page, "admin")
    send(page, "El TQ-7F3K2 pasó a lavado")  # a run of this test's own, left pending
    run_id = page.url.split("run=")[1]
    for path, heading in (
        ("/workshop/hats", words["hats"]),
        ("/workshop/hats/TQ-9M2XA", "TQ-9M2XA"),
        ("/workshop/runs", words["runs"]),
        (f"/workshop/runs/{run_id}", words["run"]),
    ):
        answer = page.goto(workshop_server.url(path))
        assert answer is not None and answer.status == 200, path
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_text(heading)
        axe(page)
        if language == "es":
            no_english_in_main(page)
    allow_console(page, "status of 404")
    for path, said in (
        ("/workshop/hats/TQ-ZZZZZ", words["no_hat"]),
        ("/workshop/hats/not-a-code", words["bad_code"]),
        ("/workshop/runs/no-such-run", words["no_run"]),
    ):
        answer = page.goto(workshop_server.url(path))
        assert answer is not None and answer.status == 404, path
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_text(words["not_found"])
        expect(page.locator("main")).to_contain_text(said)
        axe(page)
        if language == "es":
            no_english_in_main(page)
