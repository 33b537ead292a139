"""NUL characters, unpaired surrogates, text that is not UTF-8 and deeply nested JSON are refused at the edge
with a 400 in the envelope, before any route reads them, the same on SQLite and PostgreSQL; nothing changes."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from shopfloor.web.input_guard import json_too_deep, text_problem
from tests.workshop.conftest import snapshot
from tests.workshop.helpers import bearer, login

AGENT = "/workshop/functions/v1/workshop-agent"
APPLY = "/workshop/functions/v1/apply-proposals"
JSON = {"content-type": "application/json"}
RID = {"x-request-id": "req_00000000bad0"}


def assert_refused(r, where: str) -> None:
    assert r.status_code == 400, (where, r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error"}, where
    assert body["error"]["code"] == "bad_request" and body["error"]["request_id"] == "req_00000000bad0"
    assert body["error"]["message"], where


# Bodies as raw text: JSON escapes make the bad characters; a few are raw bytes the JSON decoder would accept.
BODIES: list[tuple[str, str, bytes]] = [
    ("login email NUL", "/workshop/auth/login", b'{"email": "ana@taller.example\\u0000", "password": "x"}'),
    ("login password surrogate", "/workshop/auth/login", b'{"email": "a@b.c", "password": "\\ud800"}'),
    ("agent note NUL", AGENT, b'{"note": "El TQ-7F3K2 \\u0000 lavado", "input_mode": "typed"}'),
    ("agent note low surrogate", AGENT, b'{"note": "hola \\udfff", "input_mode": "typed"}'),
    ("agent key NUL", AGENT, b'{"note": "hola", "in\\u0000put_mode": "typed"}'),
    ("apply id NUL", APPLY, b'{"decisions": [{"proposal_id": "p\\u0000", "action": "approve"}]}'),
    ("encoded surrogate bytes", AGENT, b'{"note": "hola \xed\xa0\x80"}'),
    ("not UTF-8", AGENT, b'{"note": "hola \xff"}'),
    ("UTF-8 BOM then NUL", AGENT, b'\xef\xbb\xbf{"note": "\\u0000"}'),
    ("UTF-16", AGENT, '{"note": "\\u0000"}'.encode("utf-16")),
]


@pytest.mark.parametrize(("name", "path", "raw"), BODIES, ids=[b[0] for b in BODIES])
def test_bad_text_in_a_json_body_is_400_and_changes_nothing(client, owner, name, path, raw):
    headers = {**bearer(client, "ana@taller.example"), **JSON, **RID}
    before = snapshot(owner)
    assert_refused(client.post(path, content=raw, headers=headers), name)
    assert snapshot(owner) == before


def test_bad_text_in_a_session_request_body_is_400(client, owner):
    csrf = login(client, "ana@taller.example")
    before = snapshot(owner)
    r = client.post(
        "/workshop/auth/tokens",
        content=b'{"name": "t\\u0000"}',
        headers={"x-csrf-token": csrf, **JSON, **RID},
    )
    assert_refused(r, "token name")
    assert snapshot(owner) == before


@pytest.mark.parametrize(
    "path",
    [
        "/workshop/api/hats?code=TQ%00",
        "/workshop/api/hats?weaver_id=%00",
        "/workshop/api/hats?co%00de=x",
        "/workshop/api/hats/TQ-7F3K2%00",
        "/workshop/api/proposals?run_id=%ED%A0%80",
        "/workshop/api/hats?code=%FF",
        "/shifts/q?question=%00&day=2026-03-02",
        "/shifts/a?day=2026-03-02%00",
    ],
)
def test_bad_text_in_the_path_or_query_is_400(client, path):
    assert_refused(client.get(path, headers={**bearer(client, "ana@taller.example"), **RID}), path)


def test_a_nul_in_a_header_is_400(client):
    token = bearer(client, "ana@taller.example")["authorization"]
    r = client.get("/workshop/api/hats", headers={"authorization": token + "\x00", **RID})
    assert_refused(r, "bearer token")
    r = client.get("/workshop/api/hats", headers={"cookie": "tt_session=a\x00b", **RID})
    assert_refused(r, "cookie")


def test_a_form_body_is_checked_too(client):
    r = client.post(
        "/workshop/auth/login",
        content=b"email=a%00%40b.c&password=x",
        headers={"content-type": "application/x-www-form-urlencoded", **RID},
    )
    assert_refused(r, "form body")


@pytest.mark.parametrize("path", [AGENT, APPLY, "/workshop/auth/login"])
def test_json_nested_5000_levels_is_400_not_a_recursion_error(client, owner, path):
    headers = {**bearer(client, "ana@taller.example"), **JSON, **RID}
    before = snapshot(owner)
    deep = '{"note": ' + "[" * 5000 + "]" * 5000 + "}"
    r = client.post(path, content=deep.encode(), headers=headers)
    assert_refused(r, path)
    assert "nested" in r.json()["error"]["message"]
    assert snapshot(owner) == before


def test_ordinary_text_still_passes(client):
    headers = {**bearer(client, "ana@taller.example"), **JSON}
    note = {"note": "El TQ-7F3K2 pasó a lavado 🎩 — «bien»", "input_mode": "typed"}
    r = client.post(AGENT, content=json.dumps(note).encode(), headers=headers)
    assert r.status_code == 200, r.text
    nested = {"note": "x", "extra": [[[[[[[[[[1]]]]]]]]]]}
    r = client.post(AGENT, content=json.dumps(nested).encode(), headers=headers)
    assert r.status_code == 400 and "nested" not in r.json()["error"]["message"]  # the route's own answer
    assert client.get("/workshop/api/hats?code=TQ-7F3K2", headers=headers).status_code == 200


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("plain", None),
        ("ñandú 🎩", None),
        ("a\x00b", "a NUL character"),
        ("\ud800", "an unpaired surrogate"),
        ("x\udfff", "an unpaired surrogate"),
    ],
)
def test_text_problem(text, problem):
    assert text_problem(text) == problem


@pytest.mark.parametrize(
    ("text", "limit", "too_deep"),
    [
        ("[[1]]", 2, False),
        ("[[[1]]]", 2, True),
        ('{"a": {"b": [1]}}', 3, False),
        ('{"a": {"b": [1]}}', 2, True),
        ('["[[[[[[[[[["]', 2, False),  # brackets inside a string do not nest
        ('["\\"[[[[[["]', 2, False),  # nor after an escaped quote
        ("not json [[[[", 2, True),
    ],
)
def test_json_too_deep(text, limit, too_deep):
    assert json_too_deep(text, limit) is too_deep


def test_the_guard_answers_before_the_route_reads_anything(tmp_path):
    """Without a store at all, refused input never reaches the app (it would fail to open the store)."""
    from shopfloor.server.app import create_app
    from shopfloor.settings import Settings

    missing = tmp_path / "missing" / "w.db"
    c = TestClient(create_app(Settings(var_dir=tmp_path, workshop_db=f"sqlite:///{missing}")))
    assert_refused(c.get("/workshop/api/hats?code=%00", headers=RID), "no store")
