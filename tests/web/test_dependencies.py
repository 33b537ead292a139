"""A route that reads its own JSON body refuses other content types as the routes with a body model do."""

from __future__ import annotations

import json

import pytest
from fastapi import Depends, FastAPI, Request
from fastapi.testclient import TestClient
from pydantic import BaseModel

from shopfloor.web.dependencies import NOT_JSON, is_json_media_type, require_json
from shopfloor.web.errors import install_error_handlers


class Note(BaseModel):
    note: str


def _app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/raw", dependencies=[Depends(require_json)])
    async def raw(request: Request) -> dict[str, object]:
        return {"got": json.loads(await request.body())}

    @app.post("/model")
    def model(body: Note) -> dict[str, str]:
        return {"got": body.note}

    return app


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "json"])
def test_a_body_without_a_json_content_type_is_the_same_400_on_both_kinds_of_route(content_type):
    client = TestClient(_app())
    headers = {"content-type": content_type} if content_type else {}
    answers = [client.post(p, content=b'{"note": "x"}', headers=headers) for p in ("/raw", "/model")]
    for r in answers:
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert answers[0].json()["error"]["message"] == answers[1].json()["error"]["message"] == NOT_JSON


def test_a_json_content_type_passes():
    client = TestClient(_app())
    for content_type in ("application/json", "application/json; charset=utf-8", "application/merge+json"):
        r = client.post("/raw", content=b'{"note": "x"}', headers={"content-type": content_type})
        assert r.status_code == 200 and r.json() == {"got": {"note": "x"}}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("application/json", True),
        ("Application/JSON; charset=utf-8", True),
        ("application/problem+json", True),
        ("text/json", False),
        ("application/jsonp", False),
        ("", False),
        (None, False),
    ],
)
def test_is_json_media_type(value, expected):
    assert is_json_media_type(value) is expected
