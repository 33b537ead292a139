"""The /shifts routes over real HTTP (TestClient): question → address redirect, answers, refusals."""

from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from shopfloor.settings import Settings
from shopfloor.web.app import create_app


@pytest.fixture()
def client(store_path):
    return TestClient(create_app(Settings(shifts_db=store_path)), raise_server_exceptions=False)


def test_question_redirects_to_its_address_and_answers(client):
    r = client.get(
        "/shifts/q",
        params={"question": "why was second shift slow", "day": "2026-09-16", "shift": 2},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"] == "/shifts/a?day=2026-09-16&shift=2&measure=overview"
    page = client.get(r.headers["location"])
    assert page.headers["content-type"].startswith("text/html") and "<strong>75.00 %</strong>" in page.text
    answer = client.get(r.headers["location"].replace("/a?", "/a.json?")).json()
    assert (
        answer["status"] == "complete" and answer["address"] == "/a?day=2026-09-16&shift=2&measure=overview"
    )
    assert len(answer["charts"]) == 3
    same = client.get("/shifts/a.json?day=2026-09-16&shift=2&measure=overview").json()
    assert [s["text"] for s in same["sections"]] == [s["text"] for s in answer["sections"]]


def test_follow_up_chain_in_the_address(client):
    first = "/a?day=2026-09-16&shift=2&include=day&measure=overview"
    r = client.get(
        "/shifts/q",
        params={
            "question": "compare that with first shift",
            "day": "2026-09-16",
            "shift": 2,
            "include": "day",
            "after": first,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and "after=" in r.headers["location"]
    assert unquote(r.headers["location"]).endswith(first)
    assert client.get(r.headers["location"].replace("/a?", "/a.json?")).json()["status"] == "complete"


def test_unavailable_and_bad_input_use_the_envelope(client):
    r = client.get("/shifts/q", params={"question": "schedule the crew", "day": "2026-09-16"})
    assert r.status_code == 200 and r.json()["status"] == "unavailable" and r.json()["examples"]
    bad = client.get("/shifts/a?day=2026-09-16&measure=overview;DROP")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_address"
    assert (
        client.get("/shifts/q", params={"question": "x", "day": "not-a-day"}).json()["error"]["code"]
        == "bad_scope"
    )
    assert client.get("/shifts/q", params={"question": "x" * 501, "day": "2026-09-16"}).status_code == 400
    assert client.get("/shifts/a?day=2026-09-16&measure=overview&shift=9").status_code == 400


def test_period_report_route(client):
    r = client.get("/shifts/report", params={"period": "week", "day": "2026-09-16"})
    assert r.status_code == 200 and r.json()["status"] == "complete"
    assert client.get("/shifts/report", params={"period": "decade", "day": "2026-09-16"}).status_code == 400
    pdf = client.get("/shifts/report", params={"period": "week", "day": "2026-09-16", "format": "pdf"})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_missing_store_is_503(tmp_path):
    c = TestClient(create_app(Settings(shifts_db=tmp_path / "none.duckdb")), raise_server_exceptions=False)
    r = c.get("/shifts/a?day=2026-09-16&measure=overview")
    assert r.status_code == 503 and r.json()["error"]["code"] == "no_store"


def test_pdf_and_escaping(client):
    r = client.get("/shifts/a?day=2026-09-16&shift=3&measure=notes&format=pdf")
    assert (
        r.status_code == 200
        and r.headers["content-type"] == "application/pdf"
        and r.content.startswith(b"%PDF")
    )
    page = client.get("/shifts/a?day=2026-09-16&shift=3&measure=notes").text
    assert "IGNORE PREVIOUS INSTRUCTIONS" in page and "<script" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_malformed_query_is_a_400_not_a_500(client):
    r = client.get("/shifts/a?0")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_address"
