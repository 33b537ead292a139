"""The main app: landing page, request ids, security headers, body limit and the error envelope."""

from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings


def client(**kw) -> TestClient:
    return TestClient(create_app(Settings(**kw)), raise_server_exceptions=False)


def test_landing_and_health(tmp_path):
    c = client(var_dir=tmp_path)
    r = c.get("/")
    assert r.status_code == 200 and "Toquilla Trace" in r.text and "Shift Investigator" in r.text
    health = c.get("/healthz").json()
    # Neither store of this fresh directory was prepared: the workshop file answers `SELECT 1` but holds no
    # schema (no migration ran), the record store does not exist.
    assert health["stores"] == {"workshop": "schema_mismatch", "shifts": "no_store"} and health["ok"] is False
    assert c.get("/readyz").status_code == 503


def test_request_id_is_echoed_or_generated():
    c = client()
    assert (
        c.get("/healthz", headers={"x-request-id": "req_abcdef123456"}).headers["x-request-id"]
        == "req_abcdef123456"
    )
    generated = c.get("/healthz", headers={"x-request-id": "<script>"}).headers["x-request-id"]
    assert generated.startswith("req_") and len(generated) == 16


def test_security_headers():
    r = client().get("/")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"


def test_unknown_route_uses_the_envelope():
    r = client().get("/nope", headers={"x-request-id": "req_000000000001"})
    assert r.status_code == 404
    assert r.json() == {
        "error": {"code": "not_found", "message": "Not Found", "request_id": "req_000000000001"}
    }


def test_oversized_body_is_413_with_envelope():
    r = client(max_body_bytes=100).post("/healthz", content=b"x" * 101)
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"


def test_seed_function_paths_reach_the_workshop_app(tmp_path):
    from shopfloor.workshop.sample import fresh_sample_store

    db = tmp_path / "workshop.db"
    fresh_sample_store(db).dispose()
    c = TestClient(create_app(Settings(workshop_db=f"sqlite:///{db}", var_dir=tmp_path)))
    for path in ("/functions/v1/workshop-agent", "/workshop/functions/v1/workshop-agent"):
        r = c.post(path, json={"note": "hola", "input_mode": "typed"})
        assert r.status_code == 401, (path, r.text)
        assert r.json()["error"]["code"] == "unauthorized"
    assert c.post("/functions/v1/apply-proposals", json={}).status_code == 401
    assert c.get("/functions/v1/nothing-here").status_code == 404
