"""Static files from an allowlist, the shared way (shopfloor.web.static): a listed name is served with its
media type and ``no-cache``, anything else is the 404 envelope, and the route documents its media types."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.testclient import TestClient

from shopfloor.web.errors import install_error_handlers
from shopfloor.web.static import VENDOR, StaticAllowlist, media_type, vendor_files


def test_an_allowlist_serves_what_it_lists_and_nothing_else(tmp_path):
    (tmp_path / "a.css").write_text("p { color: black }")
    (tmp_path / "secret.txt").write_text("no")
    files = StaticAllowlist({"a.css": (tmp_path / "a.css", "text/css"), **vendor_files("htmx-2.0.11.min.js")})
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/static/{name:path}", response_class=FileResponse, responses=files.responses())
    def static(name: str) -> FileResponse:
        return files.response(name)

    client = TestClient(app)
    r = client.get("/static/a.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
    assert r.headers["cache-control"] == "no-cache"
    assert (
        client.get("/static/vendor/htmx-2.0.11.min.js").headers["content-type"].startswith("text/javascript")
    )
    for name in ("secret.txt", "../a.css", "vendor/README.md"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", name
    documented = app.openapi()["paths"]["/static/{name}"]["get"]["responses"]["200"]["content"]
    assert set(documented) == {"text/css", "text/javascript"}


def test_media_types_by_suffix():
    assert media_type(VENDOR / "htmx-2.0.11.min.js") == "text/javascript"
    assert media_type(VENDOR / "x.svg") == "image/svg+xml"
