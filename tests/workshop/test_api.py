"""The workshop HTTP API through the main app (middleware included), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from shopfloor.workshop import accounts
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .conftest import snapshot
from .helpers import ADMIN, ANA, APPLY, PASSWORDS, PEDRO, advance, assert_envelope, bearer, login, make_run

# --- accounts ---------------------------------------------------------------------------------------------


def test_sign_in_session_and_csrf(client: TestClient) -> None:
    assert_envelope(client.get("/workshop/api/hats"), 401, "unauthorized")
    bad = client.post(
        "/workshop/auth/login", json={"email": "ana@taller.example", "password": "wrong-password"}
    )
    assert_envelope(bad, 401, "invalid_credentials")
    assert "tt_session" not in client.cookies
    r = client.post(
        "/workshop/auth/login",
        json={"email": "ANA@taller.example", "password": PASSWORDS["ana@taller.example"]},
    )
    assert r.status_code == 200
    csrf = r.json()["csrf_token"]
    set_cookie = r.headers["set-cookie"].lower()
    assert "tt_session=" in set_cookie and "httponly" in set_cookie and "samesite=lax" in set_cookie
    me = client.get("/workshop/auth/me").json()
    assert me["user"] == {
        "user_id": "u-ana",
        "workshop_id": "ws-sigsig",
        "role": "member",
        "name": "Ana Morocho",
    }
    assert me["csrf_token"] == csrf
    body = {"decisions": [{"proposal_id": "nope", "action": "reject"}]}
    assert_envelope(client.post(APPLY, json=body), 403, "csrf_failed")
    assert_envelope(client.post(APPLY, json=body, headers={"x-csrf-token": "forged"}), 403, "csrf_failed")
    assert_envelope(client.post(APPLY, json=body, headers={"x-csrf-token": csrf}), 404, "not_found")
    assert_envelope(client.post("/workshop/auth/logout"), 403, "csrf_failed")
    assert client.post("/workshop/auth/logout", headers={"x-csrf-token": csrf}).status_code == 200
    assert_envelope(client.get("/workshop/api/hats"), 401)


def test_forged_or_tampered_cookie_is_refused(client: TestClient) -> None:
    login(client, "ana@taller.example")
    value = client.cookies.get("tt_session")
    assert value
    client.cookies.clear()
    client.cookies.set("tt_session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert_envelope(client.get("/workshop/api/hats"), 401)


def test_bearer_tokens(client: TestClient) -> None:
    headers = bearer(client, "ana@taller.example")
    r = client.get("/workshop/api/weavers", headers=headers)
    assert r.status_code == 200
    assert [w["id"] for w in r.json()["weavers"]] == ["w1", "w2", "w3", "w4"]
    assert [w["open_hats"] for w in r.json()["weavers"]] == [3, 1, 1, 3]
    # Bearer requests need no CSRF token.
    body = {"decisions": [{"proposal_id": "nope", "action": "reject"}]}
    assert_envelope(client.post(APPLY, json=body, headers=headers), 404)
    assert_envelope(client.get("/workshop/api/weavers", headers={"authorization": "Bearer tt_nope"}), 401)
    assert_envelope(client.get("/workshop/api/weavers", headers={"authorization": "Basic abc"}), 401)


def test_deactivated_user_and_revoked_token_are_out_at_once(
    client: TestClient, store: Store, owner: Store
) -> None:
    headers = bearer(client, "ana@taller.example")
    login(client, "ana@taller.example")
    assert client.get("/workshop/api/weavers").status_code == 200
    assert client.get("/workshop/api/weavers", headers=headers).status_code == 200
    with owner.transaction(WORKSHOP_A) as s:
        s.execute(update(m.Profile).where(m.Profile.id == "u-ana").values(active=False))
    assert_envelope(client.get("/workshop/api/weavers"), 401, "unauthorized")
    assert_envelope(client.get("/workshop/api/weavers", headers=headers), 401, "unauthorized")
    client.cookies.clear()
    wrong = {"email": "ana@taller.example", "password": PASSWORDS["ana@taller.example"]}
    assert_envelope(client.post("/workshop/auth/login", json=wrong), 401, "invalid_credentials")
    # Another user's token stops working once it is revoked, and only that user's.
    admin_headers = bearer(client, "admin@taller.example")
    assert accounts.revoke_tokens(store, ADMIN) == 1
    assert_envelope(client.get("/workshop/api/weavers", headers=admin_headers), 401, "unauthorized")


def test_expired_session_cookie_is_refused() -> None:
    session = accounts.SessionData("u-ana", WORKSHOP_A, "csrf-token")
    fresh = accounts.SessionSigner("secret-key")
    assert fresh.loads(fresh.dumps(session)) == session
    expired = accounts.SessionSigner("secret-key", max_age_s=-1)
    assert expired.loads(expired.dumps(session)) is None
    assert accounts.SessionSigner("another-key").loads(fresh.dumps(session)) is None


def test_admin_only_endpoints(client: TestClient) -> None:
    member = bearer(client, "ana@taller.example")
    admin = bearer(client, "admin@taller.example")
    for path in ("/workshop/api/runs", "/workshop/api/users", "/workshop/api/runs/whatever"):
        assert_envelope(client.get(path, headers=member), 403, "forbidden")
    assert client.get("/workshop/api/runs", headers=admin).status_code == 200
    users = client.get("/workshop/api/users", headers=admin).json()["users"]
    assert {u["email"] for u in users} == {"ana@taller.example", "admin@taller.example"}
    assert_envelope(client.get("/workshop/api/runs/whatever", headers=admin), 404, "not_found")


# --- reads --------------------------------------------------------------------------------------------------


def test_hat_filters_events_and_flags(client: TestClient) -> None:
    h = bearer(client, "ana@taller.example")
    weaving = client.get("/workshop/api/hats", params={"stage": "Weaving"}, headers=h).json()["hats"]
    assert [x["code"] for x in weaving] == ["TQ-1P9KD", "TQ-3D8QV", "TQ-7F3K2", "TQ-7F3KA"]
    by_weaver = client.get("/workshop/api/hats", params={"weaver_id": "w3"}, headers=h).json()["hats"]
    assert [x["code"] for x in by_weaver] == ["TQ-5B7NW", "TQ-8H6RT"]
    open_only = client.get("/workshop/api/hats", params={"open_only": "true"}, headers=h).json()["hats"]
    assert {x["code"] for x in open_only}.isdisjoint({"TQ-5B7NW", "TQ-6J4YC"}) and len(open_only) == 8
    [one] = client.get("/workshop/api/hats", params={"code": "tq 9m2xa"}, headers=h).json()["hats"]
    assert one["weaver"] == {"id": "w4", "name": "Carmen Quizhpi"}
    assert [f["kind"] for f in one["open_flags"]] == ["grade_mismatch"]
    assert [e["type"] for e in one["events"]] == ["created", "stage_changed", "flag_raised"]
    detail = client.get("/workshop/api/hats/TQ-4K9D1", headers=h).json()
    assert [a["kind"] for a in detail["anomalies"]] == ["grade_mismatch"] and detail["open_flags"] == []
    assert_envelope(
        client.get("/workshop/api/hats", params={"stage": "lavado"}, headers=h), 400, "bad_request"
    )
    assert_envelope(client.get("/workshop/api/hats", params={"code": "TQ-1"}, headers=h), 400)
    assert_envelope(client.get("/workshop/api/hats/TQ-ZZZZZ", headers=h), 404, "not_found")


def test_another_workshop_sees_nothing_of_a(client: TestClient, store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)])
    b = bearer(client, "pedro@pile.example")
    hats = client.get("/workshop/api/hats", headers=b).json()["hats"]
    assert [x["code"] for x in hats] == ["TQ-7F3K8", "TQ-QR7YE"]
    assert client.get("/workshop/api/hats", params={"code": "TQ-7F3K2"}, headers=b).json()["hats"] == []
    assert_envelope(client.get("/workshop/api/hats/TQ-7F3K2", headers=b), 404)
    assert [w["name"] for w in client.get("/workshop/api/weavers", headers=b).json()["weavers"]] == [
        "Rosa Chávez"
    ]
    assert client.get("/workshop/api/proposals", headers=b).json()["proposals"] == []
    a = bearer(client, "ana@taller.example")
    run_id = client.get("/workshop/api/proposals", headers=a).json()["proposals"][0]["run_id"]
    assert_envelope(client.get("/workshop/api/proposals", params={"run_id": run_id}, headers=b), 404)
    assert pid


# --- approving over HTTP, and bad input ----------------------------------------------------------------------


def test_apply_over_http(client: TestClient, store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)])
    h = bearer(client, "ana@taller.example")
    r = client.post(APPLY, json={"decisions": [{"proposal_id": pid, "action": "approve"}]}, headers=h)
    assert r.status_code == 200, r.text
    [card] = r.json()["results"]
    assert (card["outcome"], card["status"], card["run_status"]) == ("applied", "approved", "approved")
    hat = client.get("/workshop/api/hats/TQ-7F3K2", headers=h).json()
    assert (hat["stage"], hat["version"]) == ("Washing", 2)
    cards = client.get("/workshop/api/proposals", params={"run_id": card["run_id"]}, headers=h).json()[
        "proposals"
    ]
    assert [(c["id"], c["status"]) for c in cards] == [(pid, "approved")]


def test_bad_input_changes_nothing(client: TestClient, store: Store, owner: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)])
    [b_pid] = make_run(store, PEDRO, [advance("TQ-7F3K8", "Washing", 1)])
    h = bearer(client, "ana@taller.example")
    json_headers = {**h, "content-type": "application/json"}
    before = snapshot(owner)
    cases: list[tuple[str, Any, int, str]] = [
        ("malformed json", b'{"decisions": [', 400, "bad_request"),
        ("not an object", b"[1, 2]", 400, "bad_request"),
        (
            "unknown top field",
            {"decisions": [{"proposal_id": pid, "action": "approve"}], "force": True},
            400,
            "bad_request",
        ),
        (
            "unknown decision field",
            {"decisions": [{"proposal_id": pid, "action": "approve", "as": "admin"}]},
            400,
            "bad_request",
        ),
        (
            "unknown edit field",
            {"decisions": [{"proposal_id": pid, "action": "approve", "edits": {"stage": "Finished"}}]},
            400,
            "bad_request",
        ),
        ("wrong type", {"decisions": [{"proposal_id": 7, "action": "approve"}]}, 400, "bad_request"),
        ("wrong enum", {"decisions": [{"proposal_id": pid, "action": "force"}]}, 400, "bad_request"),
        (
            "rows out of range",
            {"decisions": [{"proposal_id": pid, "action": "approve", "edits": {"rows_per_inch": 99}}]},
            400,
            "bad_request",
        ),
        ("empty list", {"decisions": []}, 400, "bad_request"),
        ("duplicate ids", {"decisions": [{"proposal_id": pid, "action": "approve"}] * 2}, 400, "bad_request"),
        (
            "oversized",
            {"decisions": [{"proposal_id": pid, "action": "reject", "reason": "x" * 20_000}]},
            413,
            "payload_too_large",
        ),
        ("unknown id", {"decisions": [{"proposal_id": "p-unknown", "action": "approve"}]}, 404, "not_found"),
        ("other workshop", {"decisions": [{"proposal_id": b_pid, "action": "approve"}]}, 404, "not_found"),
        (
            "other workshop's hat in an edit",
            {"decisions": [{"proposal_id": pid, "action": "approve", "edits": {"hat_code": "TQ-7F3K8"}}]},
            404,
            "not_found",
        ),
        (
            "edit not allowed",
            {"decisions": [{"proposal_id": pid, "action": "approve", "edits": {"quantity": 2}}]},
            422,
            "invalid_edit",
        ),
    ]
    for name, body, status, code in cases:
        if isinstance(body, bytes):
            r = client.post(APPLY, content=body, headers=json_headers)
        else:
            r = client.post(APPLY, json=body, headers=h)
        assert r.status_code == status, (name, r.text)
        assert_envelope(r, status, code)
        assert snapshot(owner) == before, name
    broken = client.post(APPLY, content=b'{"decisions": [', headers=json_headers)
    assert assert_envelope(broken, 400)["error"]["message"] == (
        "Invalid request: the body is not valid JSON (it breaks at character 15)."
    )
    untyped = client.post(APPLY, content=b'{"decisions": []}', headers={**h, "content-type": "text/plain"})
    assert assert_envelope(untyped, 400)["error"]["message"] == (
        "Invalid request: the body must be a JSON object sent with Content-Type: application/json."
    )
    assert snapshot(owner) == before
    # A replayed approval: the first one applies, the replay is refused and changes nothing.
    first = client.post(APPLY, json={"decisions": [{"proposal_id": pid, "action": "approve"}]}, headers=h)
    assert first.status_code == 200
    after_first = snapshot(owner)
    replay = client.post(APPLY, json={"decisions": [{"proposal_id": pid, "action": "approve"}]}, headers=h)
    body = assert_envelope(replay, 409, "already_approved")
    assert body["results"][0]["applied"] == first.json()["results"][0]["applied"]
    assert snapshot(owner) == after_first


def test_a_bad_note_field_is_the_plain_envelope_and_changes_nothing(client: TestClient, owner: Store) -> None:
    h = bearer(client, "ana@taller.example")
    before = snapshot(owner)
    cases = [
        ({"note": "   "}, "note must be 1 to 1000 characters after trimming."),
        ({"note": "hola", "hat_tag": "sombrero"}, "hat_tag must be a hat code like TQ-7F3K2."),
        ({"note": "hola", "hat_tag": "TQ-7F3K8"}, "No hat TQ-7F3K8 in this workshop."),
        ({"note": "hola", "said_at": "ayer"}, "said_at must be an ISO 8601 time with an offset."),
    ]
    for body, message in cases:
        r = client.post("/workshop/functions/v1/workshop-agent", json=body, headers=h)
        answer = assert_envelope(r, 400, "bad_request")
        # The field a page reads stays in the server: the body is the envelope alone, with its message.
        assert set(answer) == {"error"} and answer["error"]["message"] == message, body
    # Only the refusals' log rows are new (docs/workshop-agent.md, "One run"): no run, no card, no record.
    after = snapshot(owner)
    earlier = before.pop("app_logs")
    logged = [row for row in after.pop("app_logs") if row not in earlier]
    assert [row[4] for row in logged] == ["agent.run.error"] * len(cases)
    assert after == before


def test_repeated_failed_sign_ins_are_throttled(client: TestClient) -> None:
    wrong = {"email": "ana@taller.example", "password": "not-her-password"}
    for _ in range(5):
        assert_envelope(client.post("/workshop/auth/login", json=wrong), 401, "invalid_credentials")
    assert_envelope(client.post("/workshop/auth/login", json=wrong), 429, "rate_limited")
    right = {"email": "ana@taller.example", "password": PASSWORDS["ana@taller.example"]}
    assert_envelope(client.post("/workshop/auth/login", json=right), 429, "rate_limited")
    assert (
        client.post(
            "/workshop/auth/login",
            json={**right, "email": "admin@taller.example", "password": PASSWORDS["admin@taller.example"]},
        ).status_code
        == 200
    )
