"""The Shift Investigator mounted at another prefix: every link, redirect and pushed address on its pages
starts at that prefix, and following them answers (src/shopfloor/shifts/pages/README.md, "Links")."""

from __future__ import annotations

import json
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from shopfloor.settings import Settings
from shopfloor.shifts.api import create_app as create_shifts_app

BASE = "http://127.0.0.1:8000"
PREFIX = "/plant/investigator"
LINK = re.compile(r'(?:href|src|action|hx-get|hx-post)="([^"#][^"]*)"')


@pytest.fixture()
def client(store_path, tmp_path):
    outer = FastAPI()
    outer.mount(PREFIX, create_shifts_app(Settings(shifts_db=store_path, var_dir=tmp_path)))
    return TestClient(outer, raise_server_exceptions=False, base_url=BASE)


def links(text: str) -> list[str]:
    """The page's own links (not data: images, not fragments), unescaped."""
    found = [m.replace("&amp;", "&") for m in LINK.findall(text)]
    return [link for link in found if not link.startswith("data:")]


def test_every_link_of_the_pages_starts_at_the_mount_and_answers(client):
    seen: set[str] = set()
    pages = [
        f"{PREFIX}/?day=2026-09-16&shift=2",
        f"{PREFIX}/guide",
        f"{PREFIX}/a?day=2026-09-16&shift=2&measure=overview",
    ]
    pages.append(f"{PREFIX}/report?period=week&day=2026-09-16&format=html")
    for path in pages:
        page = client.get(path)
        assert page.status_code == 200, (path, page.text[:200])
        found = links(page.text)
        assert found, path
        for link in found:
            assert link.startswith(PREFIX + "/"), (path, link)
            seen.add(link)
    for link in sorted(seen):
        if link.endswith(("/ask", "/q", "/scope")):
            continue  # the form's targets, asked below
        r = client.get(link, follow_redirects=False)
        assert r.status_code in (200, 303), (link, r.status_code, r.text[:200])
        if r.status_code == 303:
            # A question goes to its answer's address; the language switch back to the page it was on.
            back = "/language?" in link and r.headers["location"].startswith(PREFIX + "/")
            assert r.headers["location"].startswith(PREFIX + "/a?") or back, link


def test_a_question_redirects_and_an_ask_pushes_an_address_under_the_mount(client):
    r = client.get(
        f"{PREFIX}/q",
        params={"question": "why was second shift slow", "day": "2026-09-16", "shift": 2},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"] == f"{PREFIX}/a?day=2026-09-16&shift=2&measure=overview"
    page = client.get(f"{PREFIX}/?day=2026-09-16&shift=2")
    token = re.search(r'"x-request-token": "([^"]+)"', page.text)
    assert token, "the page carries its request token"
    body = {"question": "why was second shift slow", "day": "2026-09-16", "shift": 2, "include": "shift"}
    fragment = client.post(
        f"{PREFIX}/ask",
        content=json.dumps(body),
        headers={
            "content-type": "application/json",
            "origin": BASE,
            "x-request-token": token.group(1),
            "hx-request": "true",
        },
    )
    assert fragment.status_code == 200, fragment.text[:300]
    assert fragment.headers["hx-push-url"] == f"{PREFIX}/a?day=2026-09-16&shift=2&measure=overview"
    for link in links(fragment.text):
        assert link.startswith(PREFIX + "/"), link
