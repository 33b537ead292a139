"""Scanning a hat tag (docs/workshop-pages.md, "Scanning a hat tag"): a tag from the tags PDF, rendered with
pdftoppm, is what Chromium's fake camera films (``--use-file-for-fake-video-capture``, an MJPEG file of that
picture); the page reads its QR code and the code becomes the note's hat tag, or the hat's page opens. A denied
camera, no camera, a decoder that cannot load, a picture with no QR code and a QR code that is not a hat tag
each say so in the page's language; every test in Spanish and English, each at phone and desktop widths.

Chromium reads the camera file each time a page starts the camera, so the tests change the picture by
rewriting the file. Chromium on Linux has no ``BarcodeDetector``: the vendored jsQR reads the picture; one test
stands in a detector for the browsers that have one.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import expect

from shopfloor.workshop.pages.tags import MARGIN, TAG_H, TAG_W, Tag, tags_pdf
from tests.e2e.conftest import (
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    Server,
    allow_console,
    axe_violations,
    chromium_path,
    format_violations,
)
from tests.e2e.workshop.conftest import sign_in_as

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")

DPI = 150
FRAME = (640, 480)  # the fake camera's picture size
JSQR = "**/static/vendor/jsqr-1.4.0.js*"
SCANNER = "**/static/scan.js*"

WORDS = {
    "es": {
        "header": "es-EC,es;q=0.9",
        "scan": "Escanear etiqueta",
        "read": "Código leído de la etiqueta: {code}",
        "looking": "Apunte la cámara al código QR de la etiqueta.",
        "nothing": "Todavía no se encuentra un código QR.",
        "not-a-tag": "Este código QR no es de la etiqueta de un sombrero.",
        "denied": "El navegador no puede usar la cámara.",
        "no-camera": "No se encontró una cámara.",
        "no-decoder": "No se pudo cargar el lector de etiquetas.",
        "cancel": "Cancelar",
        "close": "Cerrar",
        "offline": "Se leyó {code}. La página de un sombrero necesita conexión: intente otra vez cuando haya señal.",
        "note": "Este sombrero pasó a lavado.",
        "send": "Enviar",
    },
    "en": {
        "header": "en-US,en;q=0.9",
        "scan": "Scan tag",
        "read": "Hat tag read from the tag: {code}",
        "looking": "Point the camera at the QR code on the tag.",
        "nothing": "No QR code found yet.",
        "not-a-tag": "This QR code is not a hat tag.",
        "denied": "The browser may not use the camera.",
        "no-camera": "No camera was found.",
        "no-decoder": "The tag reader could not be loaded.",
        "cancel": "Cancel",
        "close": "Close",
        "offline": "Read {code}. A hat's page needs a connection: try again when online.",
        "note": "This hat went to washing.",
        "send": "Send",
    },
}


@dataclass(frozen=True)
class Pictures:
    """What the fake camera can film: a printed tag, the same tag with its QR code covered, a foreign QR code."""

    code: str
    tag: bytes
    covered: bytes
    foreign: bytes


def _mjpeg(picture: Image.Image) -> bytes:
    """An MJPEG stream (JPEG pictures one after another) of one picture, centred on a white camera frame."""
    frame = Image.new("RGB", FRAME, "white")
    picture.thumbnail(FRAME)
    frame.paste(picture, ((FRAME[0] - picture.width) // 2, (FRAME[1] - picture.height) // 2))
    one = io.BytesIO()
    frame.save(one, "JPEG", quality=90)
    return one.getvalue() * 10


def _first_tag(pdf: Path, folder: Path) -> Image.Image:
    """The first tag of a tags PDF as printed (pdftoppm at 150 dpi), cut out along its cut lines and a margin."""
    out = folder / pdf.stem
    subprocess.run(
        ["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile", str(pdf), str(out)],
        check=True,
    )
    page = Image.open(out.with_suffix(".png")).convert("RGB")

    def px(points: float) -> int:
        return round(points * DPI / 72)

    pad = px(MARGIN / 2)
    return page.crop((px(MARGIN) - pad, px(MARGIN) - pad, px(MARGIN + TAG_W) + pad, px(MARGIN + TAG_H) + pad))


@pytest.fixture(scope="module")
def camera_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file Chromium's fake camera films; a blank picture until a test writes one."""
    path = tmp_path_factory.mktemp("camera") / "camera.mjpeg"
    path.write_bytes(_mjpeg(Image.new("RGB", FRAME, "white")))
    return path


@pytest.fixture(scope="module")
def browser(playwright_driver: Any, camera_file: Path) -> Iterator[Any]:
    """This module's Chromium: the harness's arguments and a fake camera filming ``camera_file``."""
    args = [
        *CHROMIUM_ARGS,
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={camera_file}",
    ]
    b = playwright_driver.chromium.launch(executable_path=chromium_path(), headless=True, args=args)
    yield b
    b.close()


@pytest.fixture(scope="module")
def pictures(browser: Any, workshop_server: Server, tmp_path_factory: pytest.TempPathFactory) -> Pictures:
    """A tag printed by the app: a note makes a hat, its card is approved, "Print tags" gives the PDF."""
    folder = tmp_path_factory.mktemp("tags")
    context = browser.new_context(extra_http_headers={"Accept-Language": "es-EC"})
    page = sign_in_as(context.new_page(), workshop_server, "ana")
    page.fill("#note", "Doña Rosa Pillco terminó 1 fino de 18 hileras")
    page.click("#composer button[type=submit]")
    card = page.locator("article.card[data-card=create_hat]")
    card.get_by_role("button", name="Aprobar").click()
    page.locator("article.card[data-status=approved]").wait_for()
    with page.expect_download() as info:
        page.get_by_role("link", name="Imprimir etiquetas").click()
    pdf = folder / "tags.pdf"
    info.value.save_as(pdf)
    context.close()
    # The code as printed in words on the tag (the QR code is what the page must read).
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    codes = re.findall(r"TQ-[0-9A-Z]{5}", text)
    assert len(codes) == 1, text
    tag = _first_tag(pdf, folder)
    covered = tag.copy()
    # The QR code sits in the tag's right half: a thumb over it.
    covered.paste((255, 255, 255), (covered.width // 2, 0, covered.width, covered.height))
    # A QR code that names no hat, printed the same way.
    other = folder / "other.pdf"
    other.write_bytes(
        tags_pdf(
            [Tag("MENU-2026", "-", "-", "-", date(2026, 1, 1))],
            "t",
            dict.fromkeys(("weaver", "grade", "rows", "date"), "-"),
        )
    )
    return Pictures(codes[0], _mjpeg(tag), _mjpeg(covered), _mjpeg(_first_tag(other, folder)))


@dataclass(frozen=True)
class Scanner:
    """What a scanning test works with: the pictures, the fake camera's file and the workshop's pages."""

    new_page: Callable[..., Any]
    server: Server
    pictures: Pictures
    camera_file: Path

    def film(self, picture: bytes) -> None:
        """Put ``picture`` before the fake camera (Chromium reads it when a page starts the camera)."""
        self.camera_file.write_bytes(picture)

    def open(self, language: str, viewport: dict[str, int], picture: bytes, *, camera: bool = True) -> Any:
        """An admin's dashboard (an admin's pages follow the browser's language) in ``language`` at
        ``viewport``, with or without the camera permission, the camera filming ``picture``."""
        self.film(picture)
        page = self.new_page(
            viewport=viewport,
            extra_http_headers={"Accept-Language": WORDS[language]["header"]},
            permissions=["camera"] if camera else [],
            # The worker would answer jsQR from its cache, out of the tests' reach (page.route): these tests
            # hold the decoder back or refuse it. The worker's own keeping is tested in test_outbox.py.
            service_workers="block",
        )
        return sign_in_as(page, self.server, "admin")


@pytest.fixture
def scanner(
    new_page: Callable[..., Any], workshop_server: Server, pictures: Pictures, camera_file: Path
) -> Scanner:
    """The module's pictures and camera, and new pages on its workshop server."""
    return Scanner(new_page, workshop_server, pictures, camera_file)


def languages_and_widths(first: str) -> pytest.MarkDecorator:
    """Each test runs in both languages at both widths: ``first`` at a phone's width, the other language at a
    desktop's, then ``first`` at a desktop's and the other at a phone's."""
    other = "en" if first == "es" else "es"
    runs = [(first, PHONE), (other, DESKTOP), (first, DESKTOP), (other, PHONE)]
    return pytest.mark.parametrize(
        ("language", "viewport"),
        runs,
        ids=[f"{language}-{'phone' if viewport == PHONE else 'desktop'}" for language, viewport in runs],
    )


def _axe_clean(page: Any) -> None:
    """No axe-core violation of any impact on the page as it is now."""
    axe_violations(page)  # injects axe-core when the page has none yet
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    assert result["violations"] == [], format_violations(result["violations"])


def _decoder_requests(page: Any) -> list[str]:
    """The page's requests for jsQR from now on."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if "jsqr-1.4.0.js" in request.url else None)
    return seen


@languages_and_widths("es")
def test_a_scanned_tag_becomes_the_notes_hat_tag(
    language: str, viewport: dict[str, int], scanner: Scanner, shoot: Callable[..., list[Path]]
) -> None:
    words = WORDS[language]
    pictures = scanner.pictures
    page = scanner.open(language, viewport, pictures.tag)
    decoder = _decoder_requests(page)
    # The picture shows while the decoder loads: held back here until the dialog has been photographed.
    held: list[Any] = []
    page.route(JSQR, lambda route: held.append(route))
    scan = page.get_by_role("button", name=words["scan"])
    scan.focus()
    page.keyboard.press("Enter")  # the keyboard opens it as well as a tap
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("video")).to_have_js_property("readyState", 4)
    # The picture and where to point it come before the decoder.
    expect(dialog.get_by_role("status")).to_have_text(words["looking"])
    if (language, viewport) == ("es", PHONE):  # shoot() takes both widths
        shoot(page, "scan-tag")
    for route in held:
        route.continue_()
    page.unroute(JSQR)
    field = page.locator("#hat_tag")
    expect(field).to_have_value(pictures.code)
    expect(dialog).to_be_hidden()
    expect(field).to_be_focused()
    expect(page.locator("#scan-result")).to_have_text(words["read"].format(code=pictures.code))
    has_detector = page.evaluate("() => 'BarcodeDetector' in window")
    assert bool(decoder) != has_detector, "jsQR is loaded only where the browser cannot read QR codes itself"
    _axe_clean(page)
    if (language, viewport) == ("es", PHONE):
        shoot(page, "scan-tag-read")
    # The note goes with the scanned hat tag, and its card is about that hat.
    page.fill("#note", words["note"])
    with page.expect_request("**/workshop/notes") as sent:
        page.get_by_role("button", name=words["send"], exact=True).click()
    assert f"hat_tag={pictures.code}" in (sent.value.post_data or "")
    expect(page.locator("#result article.card").first).to_contain_text(pictures.code)
    expect(page.locator("#scan-result")).to_have_text("")  # the composer was emptied, and so was the line


@languages_and_widths("en")
def test_a_scanned_tag_opens_its_hat_from_the_hats_page(
    language: str, viewport: dict[str, int], scanner: Scanner
) -> None:
    words = WORDS[language]
    pictures = scanner.pictures
    page = scanner.open(language, viewport, pictures.covered)
    page.goto(scanner.server.url("/workshop/hats"))
    scan = page.get_by_role("button", name=words["scan"])
    with page.expect_response(JSQR):
        scan.click()
    page.keyboard.press("Escape")
    # Offline the tag is read, but a hat's page (not kept for offline reading) is not opened.
    page.context.set_offline(True)
    scanner.film(pictures.tag)
    scan.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("status")).to_have_text(words["offline"].format(code=pictures.code))
    dialog.get_by_role("button", name=words["close"]).click()
    assert page.url.endswith("/workshop/hats")
    page.context.set_offline(False)
    scan.click()
    page.wait_for_url(f"**/workshop/hats/{pictures.code}")
    expect(page.locator("h1")).to_have_text(pictures.code)


@languages_and_widths("es")
def test_no_qr_code_and_a_foreign_one_say_so(
    language: str, viewport: dict[str, int], scanner: Scanner
) -> None:
    words = WORDS[language]
    pictures = scanner.pictures
    page = scanner.open(language, viewport, pictures.covered)
    scan = page.get_by_role("button", name=words["scan"])
    scan.click()
    dialog = page.get_by_role("dialog")
    status = dialog.get_by_role("status")
    expect(status).to_have_text(words["looking"])
    _axe_clean(page)
    # Nothing to read: after a while the page says how to hold the tag, and keeps looking.
    expect(status).to_contain_text(words["nothing"], timeout=15_000)
    # Escape closes it as Cancel does; the camera stops and the keyboard is back on the button.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(scan).to_be_focused()
    expect(page.locator("#scanner video")).to_have_js_property("srcObject", None)
    expect(page.locator("#hat_tag")).to_have_value("")
    # A QR code that names no hat is not taken.
    scanner.film(pictures.foreign)
    scan.click()
    expect(status).to_contain_text(words["not-a-tag"])
    _axe_clean(page)
    dialog.get_by_role("button", name=words["cancel"]).click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#hat_tag")).to_have_value("")


NO_CAMERA = """
navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
"""


@languages_and_widths("es")
def test_a_denied_or_missing_camera_and_a_missing_decoder_say_so(
    language: str, viewport: dict[str, int], scanner: Scanner
) -> None:
    words = WORDS[language]
    pictures = scanner.pictures
    # No permission for the camera (the browser refuses, as when a person taps "Block").
    page = scanner.open(language, viewport, pictures.tag, camera=False)
    scan = page.get_by_role("button", name=words["scan"])
    scan.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("status")).to_contain_text(words["denied"])
    expect(dialog.locator("video")).to_be_hidden()
    _axe_clean(page)
    dialog.get_by_role("button", name=words["close"]).click()
    expect(scan).to_be_focused()
    # The decoder cannot be fetched (offline before the worker kept it), on a page that has not loaded it yet.
    page.context.grant_permissions(["camera"])
    allow_console(page, r"Failed to load resource")
    page.route(JSQR, lambda route: route.abort())
    page.reload()
    # First the scanner's own script: the page says so, and the next press tries again.
    page.route(SCANNER, lambda route: route.abort())
    scan.click()
    expect(page.locator("#scan-result")).to_contain_text(words["no-decoder"])
    expect(dialog).to_be_hidden()
    page.unroute(SCANNER)
    scan.click()
    expect(dialog.get_by_role("status")).to_contain_text(words["no-decoder"])
    dialog.get_by_role("button", name=words["close"]).click()
    page.unroute(JSQR)
    # No camera at all.
    page.context.add_init_script(NO_CAMERA)
    page.reload()
    page.get_by_role("button", name=words["scan"]).click()
    expect(dialog.get_by_role("status")).to_contain_text(words["no-camera"])
    expect(page.locator("#hat_tag")).to_have_value("")


# Stands in for the BarcodeDetector of the browsers that have one (Chrome on Android, for one): it reads the
# QR code the test names.
DETECTOR = """
class StandInDetector {
  static getSupportedFormats() { return Promise.resolve(['qr_code', 'ean_13']); }
  constructor(options) { window.__detectorFormats = options.formats; }
  detect(video) { return Promise.resolve(video.videoWidth ? [{rawValue: window.__qrText, format: 'qr_code'}] : []); }
}
window.BarcodeDetector = StandInDetector;
"""


@languages_and_widths("es")
def test_the_browsers_own_detector_is_used_where_it_reads_qr_codes(
    language: str, viewport: dict[str, int], scanner: Scanner
) -> None:
    words = WORDS[language]
    pictures = scanner.pictures
    page = scanner.open(language, viewport, pictures.covered)
    page.context.add_init_script(DETECTOR + f"window.__qrText = {pictures.code.lower()!r};")
    page.reload()
    decoder = _decoder_requests(page)
    page.get_by_role("button", name=words["scan"]).click()
    expect(page.locator("#hat_tag")).to_have_value(pictures.code)  # read in lower case, written as a code
    expect(page.locator("#scan-result")).to_have_text(words["read"].format(code=pictures.code))
    assert page.evaluate("() => window.__detectorFormats") == ["qr_code"]
    assert decoder == []
