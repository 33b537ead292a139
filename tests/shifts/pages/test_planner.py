"""The page's planner control over HTTP: which choices are enabled (a key set on the server; public mode
offline only), the ask refusing a planner that cannot run before anything is called, and a live planner's
answer showing its model calls, tokens and cost under "How the agent got here" (a recorded answer's usage,
no model call)."""

from __future__ import annotations

import copy
import json
import re

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts.pages import planner_view, scope_view, views
from shopfloor.shifts.pages.limits import current_day, make_counter
from shopfloor.shifts.plant.scope import Scope

BASE = "http://127.0.0.1:8000"
QUESTION = {"question": "why was second shift slow", "day": "2026-09-16", "shift": 2, "include": "shift"}
KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)


def client_for(store_path, tmp_path, **settings) -> TestClient:
    app = create_app(Settings(shifts_db=store_path, var_dir=tmp_path, **settings))
    return TestClient(app, raise_server_exceptions=False, base_url=BASE)


def options(page: str) -> dict[str, tuple[bool, bool, str]]:
    """The planner control's options: name -> (selected, disabled, text)."""
    select = re.search(r'<select id="planner".*?</select>', page, re.S)
    assert select, "the page has a planner control"
    out = {}
    for attrs, text in re.findall(r"<option ([^>]*)>([^<]*)</option>", select.group(0)):
        name = re.search(r'value="([^"]+)"', attrs).group(1)
        out[name] = (" selected" in f" {attrs}", " disabled" in f" {attrs}", text)
    return out


def token_of(page: str) -> str:
    found = re.search(r"&#34;x-request-token&#34;: &#34;([^&]+)&#34;|\"x-request-token\": \"([^\"]+)\"", page)
    assert found, "the page carries its request token"
    return found.group(1) or found.group(2)


def ask(client: TestClient, token: str, **body):
    return client.post(
        "/shifts/ask",
        content=json.dumps({**QUESTION, **body}),
        headers={"content-type": "application/json", "origin": BASE, "x-request-token": token},
    )


def test_without_keys_the_live_planners_stay_out_of_the_way_in_one_line(store_path, tmp_path):
    page = client_for(store_path, tmp_path).get("/shifts/", params={"day": "2026-09-16"}).text
    # No control with disabled options: the ask carries the offline planner, and one line says why.
    assert '<select id="planner"' not in page
    assert '<input type="hidden" id="planner" name="planner" value="offline">' in page
    assert "Live models: none configured." in page and "Planner: offline-planner" in page
    # What each planner needs is still said where it is asked for: the ask names it.
    choices = {c["name"]: c for c in planner_view.page_view(Settings()).get("planners", [])}
    assert choices["claude-opus-5-5"]["why"] == "needs ANTHROPIC_API_KEY on the server"


def test_a_key_enables_its_planners_and_offline_stays_the_choice(store_path, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-used")
    page = client_for(store_path, tmp_path).get("/shifts/", params={"day": "2026-09-16"}).text
    found = options(page)
    assert found["offline"][:2] == (True, False)
    assert found["claude-opus-5-5"][:2] == (False, False)
    assert found["analyst:claude-opus-5-5"][:2] == (False, False)
    # The planners without their key are not offered at all.
    assert "gpt-6.1-terra" not in found and "gemini-2.5-flash-lite" not in found


def test_public_mode_is_offline_only_even_with_a_key(store_path, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-used")
    client = client_for(store_path, tmp_path, public=True, shifts_origins=BASE)
    page = client.get("/shifts/", params={"day": "2026-09-16"}).text
    assert '<select id="planner"' not in page and "Public demo: the offline planner only" in page
    r = ask(client, token_of(page), planner="claude-opus-5-5")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_planner"
    assert "public demo" in r.json()["error"]["message"]


def test_public_mode_with_a_daily_round_guard_runs_live_rounds_until_the_days_are_used(
    store_path, tmp_path, monkeypatch
):
    """With the server's key and a round guard, public mode offers the keyed planners; once the day's rounds
    are used (counted in the store every server process shares), a live ask is 429 before any model call."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-used")
    client = client_for(store_path, tmp_path, public=True, shifts_origins=BASE, public_live_rounds_per_day=2)
    page = client.get("/shifts/", params={"day": "2026-09-16"}).text
    found = options(page)
    assert found["claude-opus-5-5"][1] is False  # the server's key and the guard: a live round may run
    assert "gpt-6.1-terra" not in found  # no key for it: not offered
    # Two rounds already ran today, in this or another server process (the shared counter of the var dir).
    shared = make_counter(None, tmp_path)
    for _ in range(2):
        shared.hit("public-live-rounds", current_day())
    r = ask(client, token_of(page), planner="claude-opus-5-5")
    assert r.status_code == 429 and r.json()["error"]["code"] == "rounds_exhausted"
    assert 1 <= int(r.headers["retry-after"]) <= 86_400
    # The offline planner still answers.
    assert ask(client, token_of(page)).status_code == 200


def test_the_ask_refuses_a_planner_that_cannot_run_and_changes_nothing(store_path, tmp_path):
    client = client_for(store_path, tmp_path)
    page = client.get("/shifts/", params={"day": "2026-09-16"}).text
    token = token_of(page)
    for planner, words in (("claude-opus-5-5", "needs ANTHROPIC_API_KEY"), ("gpt-9", "No planner is named")):
        r = ask(client, token, planner=planner)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["code"] == "bad_planner" and words in error["message"] and error["request_id"]
    ok = ask(client, token, planner="offline")
    assert ok.status_code == 200 and ok.json()["usage"]["cost_usd"] == 0
    assert ask(client, token).json()["sections"] == ok.json()["sections"]  # no planner named: offline


def test_a_live_planners_answer_shows_its_model_calls_tokens_and_cost(store_path, tmp_path):
    client = client_for(store_path, tmp_path)
    answer = client.get("/shifts/a.json?day=2026-09-16&shift=2&measure=overview").json()
    live = copy.deepcopy(answer)
    # The usage and the model turn a live tool loop records (investigate_live), with figures of our own.
    live["question"] = "why was second shift slow"
    live["usage"].update(
        {
            "planner": "claude-opus-5-5",
            "model": "claude-opus-5-5",
            "model_calls": 3,
            "tokens_in": 18250,
            "tokens_out": 912,
            "cost_usd": 0.1142,
        }
    )
    live["trace"].insert(
        0,
        {
            "kind": "model_call",
            "iteration": 1,
            "stop_reason": "tool_use",
            "model": "claude-opus-5-5",
            "tokens_in": 6100,
            "tokens_out": 300,
            "cost_usd": 0.0381,
        },
    )
    pages = views.Pages({"planner": "claude-opus-5-5", "planners": [], "public": False})
    scope = Scope.parse("2026-09-16", 2, "shift")
    ctx = pages.context(
        live,
        live,
        None,
        scope,
        scope_view.form_state(scope, "", None),
        {"first": "2026-09-07", "last": "2026-09-21"},
    )
    text = pages.render("_main.html", ctx)
    usage = re.search(r'<p class="usage">(.*?)</p>', text, re.S).group(1)
    assert "Planner claude-opus-5-5" in usage and "3 model calls" in usage
    assert "tokens 18250 in, 912 out" in usage and "cost $0.1142" in usage
    assert "Model turn 1: tool_use · claude-opus-5-5 · 6100 in / 300 out · $0.0381" in text
    offline = pages.render("_main.html", pages.context(answer, answer, None, scope, ctx["form"], ctx["days"]))
    line = re.search(r'<p class="usage">(.*?)</p>', offline, re.S).group(1)
    assert "cost $0.0000" in line and "model calls" not in line  # the offline planner calls no model
