"""The service worker's build hash and script (docs/workshop-pages.md, "Offline"): any change to a static file is
a new build, whose worker bytes differ so the browser installs it, and whose caches carry the new hash."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.workshop.pages.routes import offline


@pytest.fixture
def static_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    copy = tmp_path / "static"
    shutil.copytree(offline.STATIC, copy)
    monkeypatch.setattr(offline, "STATIC", copy)
    monkeypatch.setattr(offline, "WORKER", copy / "sw.js")
    offline.build.cache_clear()
    yield copy
    offline.build.cache_clear()


def test_a_changed_static_file_is_a_new_build(static_copy: Path) -> None:
    first, kept = offline.build()
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert "/static/outbox.js" in kept and "/static/app.css" in kept and "/static/icon-512.png" in kept
    assert "/static/sw.js" not in kept and any(path.startswith("/static/vendor/htmx") for path in kept)
    # The tag scanner and its decoder read tags offline too (docs/workshop-pages.md, "Scanning a hat tag").
    assert "/static/scan.js" in kept and "/static/vendor/jsqr-1.4.0.js" in kept
    assert not any(path.endswith(".LICENSE") for path in kept)
    offline.build.cache_clear()
    assert offline.build()[0] == first  # the same bytes, the same build
    (static_copy / "app.css").write_text((static_copy / "app.css").read_text() + "\n/* changed */\n")
    offline.build.cache_clear()
    assert offline.build()[0] != first


def test_the_worker_script_names_its_caches_by_the_build(static_copy: Path) -> None:
    from fastapi import FastAPI

    app = FastAPI()
    app.include_router(offline.router)
    client = TestClient(app, root_path="/workshop")
    served = client.get("/sw.js")
    assert served.status_code == 200 and served.headers["cache-control"] == "no-cache"
    assert served.headers["service-worker-allowed"] == "/workshop/"
    version = re.match(r'var BUILD = "([0-9a-f]{12})";', served.text)
    assert version is not None
    assert 'var ROOT = "/workshop";' in served.text and '"/workshop/static/outbox.js"' in served.text
    assert served.text.endswith((static_copy / "sw.js").read_text())
    assert '"tt-static-" + BUILD' in served.text and '"tt-pages-" + BUILD' in served.text
    before = hashlib.sha256(served.content).hexdigest()
    (static_copy / "outbox.js").write_text((static_copy / "outbox.js").read_text() + "\n// changed\n")
    offline.build.cache_clear()
    again = client.get("/sw.js")
    assert hashlib.sha256(again.content).hexdigest() != before, "a new build must be new worker bytes"
    assert version.group(1) not in again.text
