"""One question limit everywhere (issue 19, point 7): the router's bound is the one the ask body, the HTTP
routes, the page's question box and the WebMCP schema the page advertises all use (docs/errors.md,
``question_too_long``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shopfloor.shifts.pages.params import AskBody
from shopfloor.shifts.pages.routes.ask import ask_body
from shopfloor.shifts.planning.plans import Unavailable
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS, route
from shopfloor.shifts.plant.scope import Scope
from shopfloor.web.errors import ApiError

BASE = "http://127.0.0.1:8000"
JS = Path(__file__).parents[3] / "src/shopfloor/shifts/pages/static/shifts.js"


def _body(question: str) -> bytes:
    return json.dumps({"question": question, "day": "2026-09-16"}).encode()


def test_the_limit_is_the_seeds_500_characters():
    assert MAX_QUESTION_CHARS == 500


def test_the_ask_body_takes_the_limit_and_refuses_one_character_more_with_its_own_code():
    assert ask_body(_body("x" * 500)).question == "x" * 500
    with pytest.raises(ApiError) as raised:
        ask_body(_body("x" * 501))
    assert (raised.value.status, raised.value.code) == (400, "question_too_long")
    assert "500 characters" in raised.value.message


def test_the_ask_schema_advertises_the_same_limit():
    assert AskBody.model_json_schema()["properties"]["question"]["maxLength"] == 500


def test_the_router_refuses_a_question_over_the_limit():
    scope = Scope.parse("2026-09-16", 2, "shift", "day")
    refused = route("why " + "x" * 497, scope)
    assert isinstance(refused, Unavailable) and "500 characters" in refused.reason
    assert not isinstance(route("why was second shift slow " + " " * 470, scope), Unavailable)


def test_the_page_box_carries_the_limit_and_the_webmcp_schema_reads_it_from_there(page_client):
    page = page_client.get("/shifts/", headers={"accept": "text/html"}).text
    assert re.search(r'id="question"[^>]*maxlength="500"', page)
    script = JS.read_text()
    # No limit of its own in the script: the schema's maxLength is the question box's.
    assert not re.search(r"MAX_QUESTION\s*=\s*\d", script)
    assert "box.maxLength" in script and "maxLength: MAX_QUESTION" in script
