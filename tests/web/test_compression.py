"""One compression for both apps at the server, and static files linked by their content hash and kept for
good (``Cache-Control: immutable``) when asked for by it (src/shopfloor/web/static.py, docs/deploy.md)."""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop.sample import fresh_sample_store
from shopfloor.workshop.store import open_store
from tests.workshop.helpers import ANA, APPLY, bearer, card, login, make_run

SRC = Path(__file__).resolve().parents[2] / "src" / "shopfloor"
GZIP = {"accept-encoding": "gzip"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    fresh_sample_store(tmp_path / "w.db").dispose()
    settings = Settings(
        var_dir=tmp_path,
        workshop_db=f"sqlite:///{tmp_path / 'w.db'}",
        secret_key="a-test-key-that-is-long-enough-0123456789",  # type: ignore[arg-type]
    )
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as c:
        yield c


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def test_both_apps_answer_compressed(client: TestClient) -> None:
    htmx = SRC / "web" / "static" / "vendor" / "htmx-2.0.11.min.js"
    for url in ("/workshop/static/vendor/htmx-2.0.11.min.js", "/shifts/static/vendor/htmx-2.0.11.min.js"):
        r = client.get(url, headers=GZIP)
        assert r.status_code == 200, url
        assert r.headers["content-encoding"] == "gzip", url
        assert r.content == htmx.read_bytes()  # the client unpacked it: the same file
        assert int(r.headers["content-length"]) < htmx.stat().st_size // 2, url
    page = client.get("/workshop/signin", headers={**GZIP, "accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    # A small answer is not worth compressing.
    assert "content-encoding" not in client.get("/healthz", headers=GZIP).headers


def raw_answer(client: TestClient, url: str, headers: dict[str, str]) -> tuple[dict[str, str], bytes]:
    """The headers and the bytes as they travelled (not unpacked by the client)."""
    with client.stream("GET", url, headers=headers) as r:
        assert r.status_code == 200, url
        return dict(r.headers), b"".join(r.iter_raw())


def test_pages_are_compressed_at_level_6(client: TestClient) -> None:
    page = {**GZIP, "accept": "text/html"}
    headers, raw = raw_answer(client, "/workshop/signin", page)
    assert headers["content-encoding"] == "gzip"
    body = zlib.decompress(raw, 16 + zlib.MAX_WBITS)
    # Level 6 (zlib's default), not Starlette's 9: nearly the size for far less CPU per response. One gzip
    # stream of level 6 over the same bytes is these bytes exactly (its header's XFL byte is 0; level 9 sets 2).
    at_6 = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    assert raw == at_6.compress(body) + at_6.flush()
    assert raw[8] == 0


def test_a_pdf_travels_as_it_is(client: TestClient, tmp_path: Path) -> None:
    # A PDF is compressed inside already: gzip over it costs CPU and saves nothing.
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        payload = {"weaver_id": "w1", "quantity": 3, "grade": "Fino", "rows_per_inch": 18, "straw": None}
        [pid] = make_run(store, ANA, [card("create_hat", payload, quote="terminó 3 finos de 18 hileras")])
    finally:
        store.dispose()
    applied = client.post(
        APPLY,
        json={"decisions": [{"proposal_id": pid, "action": "approve"}]},
        headers=bearer(client, "ana@taller.example"),
    )
    assert applied.status_code == 200, applied.text
    login(client, "ana@taller.example")
    headers, raw = raw_answer(client, f"/workshop/cards/{pid}/tags.pdf", GZIP)
    assert headers["content-type"] == "application/pdf"
    assert "content-encoding" not in headers
    assert raw.startswith(b"%PDF") and len(raw) > 1000  # over the size that would be compressed


def test_a_page_links_static_files_by_content_hash_and_they_are_kept_for_good(client: TestClient) -> None:
    page = client.get("/workshop/signin", headers={"accept": "text/html"}).text
    links = re.findall(r'(?:href|src)="(/workshop/static/[^"?]+)\?v=([0-9a-f]+)"', page)
    files = {
        "/workshop/static/app.css": SRC / "workshop" / "pages" / "static" / "app.css",
        "/workshop/static/app.js": SRC / "workshop" / "pages" / "static" / "app.js",
        "/workshop/static/icon-192.png": SRC / "workshop" / "pages" / "static" / "icon-192.png",
        "/workshop/static/outbox.js": SRC / "workshop" / "pages" / "static" / "outbox.js",
        "/workshop/static/vendor/htmx-2.0.11.min.js": SRC
        / "web"
        / "static"
        / "vendor"
        / "htmx-2.0.11.min.js",
    }
    assert {url for url, _ in links} == set(files)
    for url, version in links:
        assert version == _sha(files[url]), url
        r = client.get(f"{url}?v={version}")
        assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
        # Without the hash, or with another file's, the browser asks again.
        assert client.get(url).headers["cache-control"] == "no-cache"
        assert client.get(f"{url}?v=0123456789abcdef").headers["cache-control"] == "no-cache"


def test_the_shifts_static_files_follow_the_same_rule(client: TestClient) -> None:
    css = SRC / "shifts" / "pages" / "static" / "shifts.css"
    r = client.get(f"/shifts/static/shifts.css?v={_sha(css)}")
    assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/shifts/static/shifts.css").headers["cache-control"] == "no-cache"
    assert client.get("/shifts/static/shifts.css?v=old").headers["cache-control"] == "no-cache"
    assert client.get("/shifts/static/nothing.css?v=x").status_code == 404


BROTLI = {"accept-encoding": "gzip, deflate, br, zstd"}  # what Chromium sends


def test_a_client_that_accepts_brotli_gets_brotli(client: TestClient) -> None:
    import brotli

    htmx = SRC / "web" / "static" / "vendor" / "htmx-2.0.11.min.js"
    for url in ("/workshop/static/vendor/htmx-2.0.11.min.js", "/shifts/static/vendor/htmx-2.0.11.min.js"):
        headers, raw = raw_answer(client, f"{url}?v={_sha(htmx)}", BROTLI)
        assert headers["content-encoding"] == "br", url
        assert headers["vary"] == "Accept-Encoding"
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        assert brotli.decompress(raw) == htmx.read_bytes(), url
        # Packed once at the highest quality: smaller than the gzip the same client used to get.
        assert len(raw) < len(zlib.compress(htmx.read_bytes(), 9)) * 0.93, url
    headers, raw = raw_answer(client, "/workshop/signin", {**BROTLI, "accept": "text/html"})
    assert headers["content-encoding"] == "br"
    assert b"<form" in brotli.decompress(raw)


def test_brotli_refused_with_q_0_falls_back_to_gzip(client: TestClient) -> None:
    from shopfloor.web.static import packed

    url = "/workshop/static/app.css"
    css = packed(SRC / "workshop" / "pages" / "static" / "app.css")
    headers, raw = raw_answer(client, url, {"accept-encoding": "br;q=0, gzip"})
    assert headers["content-encoding"] == "gzip"
    assert zlib.decompress(raw, 16 + zlib.MAX_WBITS) == css
    headers, raw = raw_answer(client, url, {"accept-encoding": "identity"})
    assert "content-encoding" not in headers
    assert raw == css


def test_a_revalidated_brotli_file_is_not_modified(client: TestClient) -> None:
    first = client.get("/workshop/static/app.css", headers=BROTLI)
    assert first.headers["content-encoding"] == "br" and first.headers["etag"].startswith('W/"')
    again = client.get("/workshop/static/app.css", headers={**BROTLI, "if-none-match": first.headers["etag"]})
    assert again.status_code == 304


def test_a_streamed_answer_is_one_brotli_stream() -> None:
    import brotli
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    from shopfloor.web.compression import CompressionMiddleware

    parts = [b"line %d of a long streamed answer\n" % i * 40 for i in range(20)]

    def stream(_request: object) -> StreamingResponse:
        return StreamingResponse(iter(parts), media_type="text/plain")

    app = CompressionMiddleware(Starlette(routes=[Route("/s", stream)]))
    with TestClient(app).stream("GET", "/s", headers=BROTLI) as r:
        assert r.headers["content-encoding"] == "br"
        raw = b"".join(r.iter_raw())
    assert brotli.decompress(raw) == b"".join(parts)


def test_accept_encoding_is_read_as_the_header_says() -> None:
    from shopfloor.web.compression import choose_encoding

    assert choose_encoding("gzip, deflate, br, zstd") == "br"
    assert choose_encoding("br;q=0, gzip;q=0.8") == "gzip"
    assert choose_encoding("BR") == "br"
    assert choose_encoding("gzip;q=0") is None
    assert choose_encoding("br; q=0.0, gzip") == "gzip"
    assert choose_encoding("br;q=0.5") == "br"
    assert choose_encoding("") is None
    assert choose_encoding("identity, *;q=0") is None


def test_document_headers_stay_off_stylesheets_and_page_scripts_but_not_the_worker(
    client: TestClient,
) -> None:
    for url in ("/workshop/static/app.css", "/workshop/static/app.js", "/shifts/static/shifts.css"):
        headers = client.get(url).headers
        assert headers["x-content-type-options"] == "nosniff", url
        assert "content-security-policy" not in headers and "x-frame-options" not in headers, url
    # The worker runs under its own script's policy: the browser asks for it with Service-Worker: script.
    worker = client.get("/workshop/sw.js", headers={"service-worker": "script"})
    assert worker.status_code == 200
    assert "default-src 'self'" in worker.headers["content-security-policy"]
    page = client.get("/workshop/signin", headers={"accept": "text/html"}).headers
    assert "default-src 'self'" in page["content-security-policy"] and page["x-frame-options"] == "DENY"


def test_our_scripts_and_styles_travel_without_their_comments(tmp_path: Path) -> None:
    from shopfloor.web.static import VENDOR, packed

    script = tmp_path / "a.js"
    script.write_text(
        '// why this script exists\n  var a = "http://x//y"; // kept: not a whole line\n\n    // gone\nvar b = 1;\n'
    )
    assert packed(script) == b'var a = "http://x//y"; // kept: not a whole line\nvar b = 1;\n'
    style = tmp_path / "a.css"
    style.write_text("/* the card */\n.card {\n  color: red; /* why */\n}\n")
    assert packed(style) == b".card {\ncolor: red;\n}\n"
    # The vendored files are served byte for byte, as their checksums say.
    htmx = VENDOR / "htmx-2.0.11.min.js"
    assert packed(htmx) == htmx.read_bytes()
    # Read once per version: the same bytes each request, so its Brotli is looked up, not redone.
    assert packed(htmx) is packed(htmx)
    for name in ("app.js", "outbox.js", "scan.js"):
        source = (SRC / "workshop" / "pages" / "static" / name).read_bytes()
        assert b"\n//" not in packed(SRC / "workshop" / "pages" / "static" / name)
        assert len(packed(SRC / "workshop" / "pages" / "static" / name)) < len(source) * 0.9, name


def test_the_icon_travels_inside_the_page(client: TestClient) -> None:
    page = client.get("/workshop/signin", headers={"accept": "text/html"}).text
    [icon] = re.findall(r'<link rel="icon" href="([^"]+)"', page)
    assert icon.startswith("data:image/svg+xml,%3Csvg") and "%23d9b26f" in icon  # '#' written %23
    assert "/static/favicon.svg" not in page
    shifts = client.get("/shifts/", headers={"accept": "text/html"}).text
    assert '<link rel="icon" href="data:image/svg+xml,' in shifts
