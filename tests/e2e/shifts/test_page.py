"""The /shifts page in Debian's Chromium: every example button on 2026-09-14 shift 2, citations into the
trace, "Where to look", comparisons, the month's heatmap, both PDFs, escaping, WebMCP against a scripted
stand-in, keyboard use, axe-core; no console errors and no CSP violations (the harness checks at teardown)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from shopfloor.shifts.pages.scope_view import EXAMPLES
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from tests.e2e.conftest import DESKTOP, PHONE, Server, free_port, python_command, serve
from tests.e2e.shifts.conftest import POPPLER, build_store, download, pdf_title, shifts_env

START = "/shifts/?day=2026-09-14&shift=2&include=shift&period=day"
HEADERS = {"es": "es-EC,es;q=0.9", "en": "en-US,en;q=0.9"}
LANGUAGES = pytest.mark.parametrize("language", ["es", "en"])
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def language_page(new_page: Any, language: str, viewport: dict[str, int]) -> Any:
    """A watched page whose browser asks for ``language`` (no Accept-Language would be English too)."""
    return new_page(viewport=viewport, extra_http_headers={"Accept-Language": HEADERS[language]})


def open_page(page: Any, server: Server, path: str = START) -> None:
    page.goto(server.url(path))
    page.wait_for_function("() => window.htmx !== undefined")


def ask_by_button(page: Any, question: str) -> dict[str, Any] | None:
    """Click the example button and wait for the answer's swap; the POST's JSON twin of the answer."""
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.get_by_role("button", name=question, exact=True).click()
    response = info.value
    assert response.status == 200, response.text()
    page.wait_for_selector("#main .answer")
    return None


def answer_json(page: Any, server: Server) -> dict[str, Any] | None:
    """The JSON of the answer on screen (its address with format=json), or None for a refusal."""
    link = page.query_selector("#main a.address")
    if link is None:
        return None
    r = page.request.get(server.url(link.get_attribute("href") + "&format=json"))
    assert r.ok
    return dict(r.json())


def test_every_example_button_answers_with_read_as_cards_charts_and_citations(page, shifts_server, axe):
    open_page(page, shifts_server)
    assert page.locator(".scope-line").inner_text() == "Mon 2026-09-14 · 15:00–23:00 · shift 2 only"
    assert (
        page.get_by_text("Synthetic data").is_visible()
        and page.get_by_text("Planner: offline-planner").is_visible()
    )
    for question in EXAMPLES:
        ask_by_button(page, question)
        main = page.locator("#main")
        assert main.locator(".asked q").inner_text() == question
        assert main.locator(".read-as").inner_text().startswith("Read as"), question
        assert main.locator(".cards .card").count() >= 11, question
        # Supervisor words, not ours (issue 26, point 12): no record ids, no "1 rows" as a count (the trace's
        # "Query 1 rows" captions name the query), hidden parts included.
        said = main.text_content() or ""
        assert "from r1-" not in said, question
        assert re.search(r"(?<!Query )(?<!\d)1 rows\b", said) is None, question
        data = answer_json(page, shifts_server)
        if data is None:
            assert main.locator(".status strong").inner_text() == "unavailable", question
            continue
        assert main.locator(".charts svg.chart-svg").count() == len(data["charts"]), question
        cited = sum(len(re.findall(r"\(query \d+ · row \d+\)", s["text"])) for s in data["sections"])
        assert main.locator(".findings a.cite, .notes a.cite").count() >= min(cited, 1), question
        if question.startswith("Why was this shift slow"):
            first = main.locator(".charts svg.chart-svg").first
            assert (
                len(data["charts"]) >= 1
                and first.locator(":scope > title").text_content() == data["charts"][0]["title"]
            )
            assert first.locator(":scope > desc").text_content()
            axe(page)


# Answers of shift 1 on 2026-09-14, whose records hold its knives' order lines (the hand-built store).
KNIFE_ANSWERS = (
    "/shifts/a?day=2026-09-14&shift=1&measure=orders",
    "/shifts/a?day=2026-09-14&shift=1&measure=overrun",
    "/shifts/a?window=week&anchor=2026-09-14&shift=1&measure=overrun",
)
KNIFE = {"es": "cuchilla", "en": "knife"}


def our_words(said: str, language: str) -> list[str]:
    """Words of ours a supervisor should not read (issue 26, point 12): a record's id as a source, "1 rows"
    (the trace's "Query 1 rows" caption names its query), knife "fragments" for a knife's order lines."""
    rows = r"(?<!Query )(?<!\d)1 rows\b" if language == "en" else r"(?<!\d)1 filas\b"
    patterns = (r"\b(from|de) r\d+-", rows, r"(?i)fragment")
    return [m.group(0) for pattern in patterns for m in re.finditer(pattern, said)]


@LANGUAGES
@VIEWPORTS
def test_every_example_and_knife_answer_says_supervisor_words(new_page, shifts_server, language, viewport):
    page = language_page(new_page, language, viewport)
    open_page(page, shifts_server)
    buttons = page.locator(".examples button.example")
    assert buttons.count() == len(EXAMPLES)
    for i in range(len(EXAMPLES)):
        label = buttons.nth(i).inner_text()
        with page.expect_response(lambda r: r.url.endswith("/shifts/ask")) as info:
            buttons.nth(i).click()
        assert info.value.status == 200, label
        page.wait_for_function(
            "(label) => document.querySelector('#main .asked q')?.textContent === label", arg=label
        )
        # Hidden parts (the trace's tables) included.
        assert our_words(page.locator("#main").text_content() or "", language) == [], label
    for path in KNIFE_ANSWERS:
        page.goto(shifts_server.url(path))
        said = page.locator("#main").text_content() or ""
        assert KNIFE[language] in said, path  # the answer does read the knives
        assert our_words(said, language) == [], path


def test_a_citation_opens_its_row_in_the_trace(page, shifts_server):
    open_page(page, shifts_server, "/shifts/a?day=2026-09-14&shift=2&measure=overview")
    first = page.locator(".findings a.cite").first
    target = first.get_attribute("href")
    assert re.fullmatch(r"#q\d+-r\d+", target)
    row = page.locator(target)
    assert not row.is_visible()
    first.click()
    row.wait_for(state="visible")
    assert page.evaluate(f"() => document.querySelector('{target}').closest('details').open")
    assert page.evaluate(f"() => document.querySelector('{target}').classList.contains('cited')")


def test_an_answer_opened_from_its_address_has_its_cards_after_the_headline_and_no_404(page, shifts_server):
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    open_page(page, shifts_server, "/shifts/a?day=2026-09-14&shift=2&measure=overview")
    # Opened from its address, the answer says so rather than showing the address as a question.
    assert page.locator("#main .asked").inner_text() == "Opened from its address"
    assert page.locator("#main .asked q").count() == 0
    # The headline, then the cards, then the findings.
    order = page.evaluate(
        """() => ['.answer .headline', '.answer .cards-block', '.answer .findings'].map(
            s => document.querySelector(s)).map((n, i, all) => i === 0 ||
            Boolean(all[i - 1].compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING))"""
    )
    assert order == [True, True, True]
    # The icon travels inside the page (docs/deploy.md); the file stays served for links from elsewhere.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon.startswith("data:image/svg+xml,")
    r = page.request.get(shifts_server.url("/shifts/static/favicon.svg"))
    assert r.status == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert failed == []
    # Asked from the page, the same answer shows the question.
    ask_by_button(page, "Summarize performance, downtime and waste. Show supporting charts.")
    assert page.locator("#main .asked q").inner_text().startswith("Summarize performance")


def test_where_to_look_links_open_their_address(page, shifts_server):
    open_page(page, shifts_server, "/shifts/a?day=2026-09-14&shift=2&measure=overview")
    link = page.locator("nav.where a").first
    href = link.get_attribute("href")
    assert href.startswith("/shifts/a?") and "measure=setups" in href
    link.click()
    page.wait_for_url("**" + href)
    assert page.locator("#main .answer .status strong").inner_text() in ("complete", "partial")


@pytest.mark.parametrize("include", ["shift", "day"])
@LANGUAGES
@VIEWPORTS
def test_compare_shifts_in_day_scope(new_page, shifts_server, shoot, axe, include, language, viewport):
    """The documented follow-up "compare that with first shift" works in both scopes (issue 26, point 10)."""
    page = language_page(new_page, language, viewport)
    scope = "&include=day" if include == "day" else ""  # the shift alone is the address's default
    open_page(page, shifts_server, f"/shifts/a?day=2026-09-14&shift=2{scope}&measure=overview")
    assert page.locator(f"input[name=include][value={include}]").is_checked()
    page.fill("#question", "compare that with first shift")
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")):
        page.press("#question", "Enter")  # the keyboard submits the ask
    page.wait_for_function("() => location.search.includes('measure=compare_shifts')")
    assert "after=" in page.url and "shift=2" in page.url and "other_shift=1" in page.url
    # From either scope the comparison reads the day, and the controls say so.
    assert page.locator("input[name=include][value=day]").is_checked()
    assert FOLLOW_UP[language] in page.locator("#chain").inner_text()
    data = answer_json(page, shifts_server)
    assert data is not None and data["status"] == "complete"
    # Shift 1 beside shift 2, best and worst said in words.
    headline = page.locator("#main .answer h2.headline").inner_text()
    assert headline.startswith(ALL_SHIFTS[language]["pair"]), headline
    table = page.locator("#main table.side-by-side")
    assert table.locator("thead th[scope=col]").count() == 3
    assert ends(table) == [ALL_SHIFTS[language]["best"], ALL_SHIFTS[language]["worst"]]
    # The charts the comparison's plan drew, each on the page (how many is the planner's choice).
    assert page.locator(".charts svg.chart-svg").count() == len(data["charts"])
    assert page.locator(".cards-block .cards").count() >= 2  # one group of cards per shift
    axe(page)
    if include == "day" and language == "en" and viewport == PHONE:
        shoot(page, "shifts-comparison")


ALL_SHIFTS = {
    "es": {
        "button": "Comparar todos los turnos",
        "read_as": "Leída como comparación de turnos · lun 2026-09-14 · todos los turnos",
        "headline": "El turno 1 fue el mejor de los tres turnos el lun 2026-09-14, con 83.33 % de velocidad",
        "worst": "peor",
        "worst_said": "el turno 2 fue el peor, con 75.00 %, 8.33 puntos menos",
        "caption": "Turnos lado a lado, lun 2026-09-14",
        "columns": ["Turno 1", "Turno 2", "Turno 3"],
        "best": "mejor",
        "pair": "El turno 1 fue mejor que el turno 2 el lun 2026-09-14: 83.33 % de velocidad frente al objetivo",
    },
    "en": {
        "button": "Compare all shifts",
        "read_as": "Read as: shift comparison, shifts 1, 2 and 3, production day Mon 2026-09-14",
        "headline": "Shift 1 was the best of the three shifts on Mon 2026-09-14 at 83.33 % speed to target",
        "worst": "worst",
        "worst_said": "shift 2 was the worst at 75.00 %, 8.33 points lower",
        "caption": "Shifts side by side, Mon 2026-09-14",
        "columns": ["Shift 1", "Shift 2", "Shift 3"],
        "best": "best",
        "pair": "Shift 1 was better than shift 2 on Mon 2026-09-14: 83.33 % speed to target",
    },
}
FOLLOW_UP = {"es": "Seguimiento de la respuesta anterior", "en": "Follow-up of the previous answer"}


def ends(table: Any) -> list[str]:
    """The words that mark each shift's end on the speed-to-target row (best, worst, level)."""
    cells = table.locator("tbody tr[data-measure=speed_to_target_pct] td .end")
    return [str(cells.nth(i).text_content()) for i in range(cells.count())]


@LANGUAGES
@VIEWPORTS
def test_compare_all_shifts_sets_them_side_by_side_with_best_and_worst_in_words(
    new_page, shifts_server, axe, language, viewport
):
    """The "Compare all shifts" button (issue 26, point 9): every shift of the day, and the headline names the
    best and the worst with the gap instead of one shift's figure."""
    words = ALL_SHIFTS[language]
    page = language_page(new_page, language, viewport)
    open_page(page, shifts_server)
    ask_by_button(page, words["button"])
    # The button switches the include control to every shift of the day.
    assert page.locator("input[name=include][value=day]").is_checked()
    assert page.locator("#main .read-as").inner_text() == words["read_as"]
    headline = page.locator("#main .answer h2.headline").inner_text()
    assert headline.startswith(words["headline"]) and words["worst_said"] in headline, headline
    table = page.locator("#main table.side-by-side")
    assert table.locator("caption").inner_text().startswith(words["caption"])
    columns = table.locator("thead th[scope=col]")
    assert [columns.nth(i).inner_text().split("\n")[0] for i in (1, 2, 3)] == words["columns"]
    assert table.locator("tbody th[scope=row]").count() == 7
    # Shift 1 and shift 3 level at the best, shift 2 the worst: in words, not only a tint.
    assert ends(table) == [words["best"], words["worst"], words["best"]]
    speed = table.locator("tbody tr[data-measure=speed_to_target_pct] td")
    assert [speed.nth(i).inner_text().split()[:2] for i in (0, 1, 2)] == [
        ["83.33", "%"],
        ["75.00", "%"],
        ["83.33", "%"],
    ]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    axe(page)


def test_a_question_that_names_another_shift_moves_the_controls(page, shifts_server):
    """The application holds the scope: a named shift moves it, and the controls and scope line say so."""
    open_page(page, shifts_server)
    assert page.locator("#shift").input_value() == "2"
    page.fill("#question", "why was first shift slow?")
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")):
        page.press("#question", "Enter")
    page.wait_for_selector("#main .answer")
    assert page.locator("#shift").input_value() == "1"
    assert page.locator(".scope-line").inner_text() == "Mon 2026-09-14 · 07:00–15:00 · shift 1 only"
    assert "shift 1" in page.locator("#main .read-as").inner_text()


def test_month_heatmap_rankings_and_the_partial_windows_missing_day(page, shifts_server, shoot, axe):
    open_page(page, shifts_server)
    page.select_option("#period", "month")
    page.wait_for_function(
        "() => document.querySelector('#scope-line').textContent.startsWith('September 2026')"
    )
    ask_by_button(page, "Show downtime by equipment")
    heat = page.locator(".heatmap")
    assert heat.is_visible()
    missing = page.locator(".heatmap .heat-cell.missing")
    assert missing.count() >= 10  # 2026-09-01..04, 09-21 (excluded record), 09-22..30
    partial_day = page.locator(".heat-cell[aria-label^='Mon 2026-09-21']")
    assert "missing or incomplete" in partial_day.get_attribute("aria-label")
    # Keyboard: the cells take focus, and the focused cell shows its tooltip, which is its accessible label.
    partial_day.focus()
    tip = page.evaluate("() => getComputedStyle(document.activeElement, '::after').content")
    assert "2026-09-21" in tip and "missing or incomplete" in tip
    rankings = page.locator("details.table", has_text="Shift rankings")
    assert rankings.locator("summary").inner_text().endswith("0 of 0 rows shown")
    assert "withheld" in rankings.inner_text()
    axe(page)
    shoot(page, "shifts-month-report")
    # A complete week ranks its shifts.
    open_page(page, shifts_server, "/shifts/report?period=week&day=2026-09-14&format=html")
    week = page.locator("details.table", has_text="Shift rankings")
    assert week.locator("tbody tr").count() == 3 and page.locator(".heatmap .heat-cell.missing").count() == 0


@POPPLER
def test_both_pdfs_download(page, shifts_server, tmp_path):
    open_page(
        page, shifts_server, "/shifts/a?window=month&anchor=2026-09-14&shift=2&measure=pareto&by=reason"
    )
    pdfs = [
        download(page, name, tmp_path)
        for name in ("Download this answer (PDF)", "Download the period report (PDF)")
    ]
    assert all(path.read_bytes().startswith(b"%PDF") for path in pdfs)
    # The answer's own title names the app once, then what the answer was read as (issue 26, point 12).
    title = pdf_title(pdfs[0])
    assert title == "Shift Investigator answer: downtime pareto by reason, shift 2, September 2026"
    assert title.count("Shift Investigator") == 1


def test_a_question_with_script_shows_as_text(page, shifts_server):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_page(page, shifts_server)
    question = "<script>alert(1)</script><img src=x onerror=alert(2)> why was second shift slow"
    page.fill("#question", question)
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")):
        page.click("button.primary")
    page.wait_for_selector("#main .answer")
    assert page.locator("#main .asked q").inner_text() == question
    assert page.locator("#main script").count() == 0 and page.locator("#main img[src=x]").count() == 0
    assert dialogs == []


def test_the_day_answer_screenshots_and_keyboard_reset(page, shifts_server, shoot, axe):
    open_page(page, shifts_server, "/shifts/a?day=2026-09-14&shift=2&measure=overview")
    axe(page)
    shoot(page, "shifts-day-answer")
    page.locator("a.reset").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/shifts/?*")
    assert page.locator("#main .answer").count() == 0 and page.locator("#after").input_value() == ""


STAND_IN = """
window.__tools = {};
Object.defineProperty(navigator, 'modelContext', {value: {
  registerTool(tool) { window.__tools[tool.name] = tool; }
}});
"""


def test_webmcp_registers_the_visible_investigate_action(new_page, shifts_server):
    page = new_page()
    page.add_init_script(STAND_IN)
    open_page(page, shifts_server)
    page.wait_for_function("() => document.documentElement.dataset.webmcp === 'registered'")
    schema = page.evaluate("() => window.__tools.investigate.inputSchema")
    assert schema["properties"]["question"]["maxLength"] == MAX_QUESTION_CHARS == 500
    assert schema["required"] == ["question"]
    page.select_option("#period", "month")
    result = page.evaluate(
        "async () => await window.__tools.investigate.execute({question: 'Why was second shift slow?'})"
    )
    text = result["content"][0]["text"]
    assert "75.00 %" in text and "/a?day=2026-09-14&shift=2&measure=overview" in text
    # The same visible ask ran: the page shows the answer, on the day period.
    assert page.locator("#period").input_value() == "day"
    assert page.locator("#main .asked q").inner_text() == "Why was second shift slow?"
    for bad in ("{question: 'x'.repeat(2001)}", "{question: 5}", "{}", "{question: 'ok', shift: 1}"):
        error = page.evaluate(
            f"async () => {{ try {{ await window.__tools.investigate.execute({bad}); return null; }}"
            " catch (e) { return String(e.message); } }"
        )
        assert error, bad


def test_without_webmcp_nothing_is_registered(page, shifts_server):
    open_page(page, shifts_server)
    assert page.evaluate("() => document.documentElement.dataset.webmcp") is None


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_pdf_first_page_screenshot(page, shifts_server, tmp_path, shoot):
    r = page.request.get(shifts_server.url("/shifts/a?day=2026-09-14&shift=2&measure=overview&format=pdf"))
    pdf = tmp_path / "answer.pdf"
    pdf.write_bytes(r.body())
    subprocess.run(
        ["pdftoppm", "-r", "110", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")], check=True
    )
    png = next(tmp_path.glob("p*.png"))
    page.set_content(
        "<style>body { margin: 0 } img { display: block; max-width: 100%; height: auto }</style>"
        f"<img alt='First page of the answer PDF' src='data:image/png;base64,{_b64(png)}'>"
    )
    files = shoot(page, "shifts-pdf-first-page")
    assert all(Path(f).stat().st_size > 10_000 for f in files)


def _b64(path: Path) -> str:
    import base64

    return base64.b64encode(path.read_bytes()).decode("ascii")


def planner_states(page: Any) -> dict[str, tuple[bool, bool]]:
    """The planner control's options: value -> (selected, disabled)."""
    return {
        o["value"]: (o["selected"], o["disabled"])
        for o in page.evaluate(
            "() => [...document.querySelectorAll('#planner option')].map("
            "o => ({value: o.value, selected: o.selected, disabled: o.disabled}))"
        )
    }


PLANNER_WORDS = {
    "es": {
        "none": "Modelos en vivo: ninguno configurado.",
        "links": "Los enlaces siempre responden sin conexión.",
        "usage": ("Planificador offline-planner", "costo $0.0000"),
    },
    "en": {
        "none": "Live models: none configured.",
        "links": "Links always answer offline.",
        "usage": ("Planner offline-planner", "cost $0.0000"),
    },
}


@LANGUAGES
@VIEWPORTS
def test_the_planner_control_without_keys_offers_offline_only(new_page, shifts_server, language, viewport):
    words = PLANNER_WORDS[language]
    page = language_page(new_page, language, viewport)
    open_page(page, shifts_server)
    # No live model has its key: no control and no disabled options in the way, one line that says so.
    assert page.locator("select#planner").count() == 0 and page.locator("#planner option").count() == 0
    assert page.locator("input#planner[type=hidden]").get_attribute("value") == "offline"
    help_line = page.locator("#planner-help")
    assert help_line.is_visible()
    assert help_line.inner_text() == f"{words['none']} {words['links']}"
    # The choice travels with the ask.
    with page.expect_request(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.locator("button.example[value='Show setup matrix']").click()
    assert info.value.post_data_json["planner"] == "offline"
    page.wait_for_selector("#main .answer")
    usage = page.locator(".trace .usage").inner_text()
    assert all(said in usage for said in words["usage"]), usage


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server with an Anthropic key in its environment (never used: offline stays the choice)."""
    var_dir = tmp_path_factory.mktemp("shifts-keyed")
    store = build_store(var_dir / "shifts.duckdb")
    port = free_port()
    env = shifts_env(var_dir, store, ANTHROPIC_API_KEY="sk-ant-test-never-sent")
    with serve(
        python_command("serve", "--port", str(port)), env, port, "/healthz", var_dir / "log"
    ) as server:
        yield server


def test_a_key_on_the_server_enables_its_planners_and_offline_stays_chosen(page, keyed_server):
    open_page(page, keyed_server)
    states = planner_states(page)
    assert states["offline"] == (True, False)
    assert states["claude-opus-5-5"] == (False, False) and states["analyst:claude-opus-5-5"] == (False, False)
    # The planners whose key is not set stay out of the way.
    assert "gpt-6.1-terra" not in states and "gemini-2.5-flash-lite" not in states
    with page.expect_request(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.get_by_role("button", name="Show rankings", exact=True).click()
    assert info.value.post_data_json["planner"] == "offline"
    page.wait_for_selector("#main .answer")
    assert "cost $0.0000" in page.locator(".trace .usage").inner_text()
