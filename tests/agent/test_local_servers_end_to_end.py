"""Both apps end to end on each local-server behaviour, through the real Chat Completions adapter.

The stand-in server (tests/agent/chat_server.py) plays a realistic sequence for each app: the workshop sample
note as three turns (look up the weaver and the hats, propose the four cards, say the summary) run by the
real workshop agent on a seeded store, and a shift question as two turns (three daily tools, then the finish
citing their evidence ids) run by the real live investigation on the hand-built record store. Every
behaviour a server profile covers ends with the saved cards or a complete answer (the shift question also on
an 8k-context server left untold: it asks for 4,000 output tokens, not 8,000); the rest fail as the
apps' model error (the workshop's ``model_error``, the investigator's ``planner_error``) whose saved reason
names the setting to change, and nothing is saved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from shopfloor.agent.providers import make_provider
from shopfloor.settings import Settings
from shopfloor.shifts.live.live import investigate_live, parse_planner
from shopfloor.web.errors import ApiError
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from tests.agent.chat_server import Behaviour, Calls, ChatServer, Say, Script
from tests.agent.test_local_servers import COVERED, UNCOVERED
from tests.shifts.live.conftest import SHIFT2, conn, store_path  # noqa: F401 (the record store fixtures)
from tests.workshop.agent.conftest import ANA, CREATE_HATS, SAMPLE_NOTE

MODEL = "qwen3-8b"
SUMMARY = (
    "I understood: Rosa Pillco delivered 3 Fino hats, TQ-7F3K2 moved to Washing, TQ-2C5P0 cannot skip to "
    "Finished, and Carmen's hat in Bleaching has a grade mismatch. I prepared 4 actions for review."
)
# What a model reading the sample note does (the same calls as the hand-written sample-note recordings of
# tests/workshop/agent/recordings), with the quotes taken from the note.
WORKSHOP_SCRIPT: Script = (
    Calls(
        (
            ("find_weaver", {"name": "Doña Rosa Pillco"}),
            (
                "find_hats",
                {"codes": ["TQ-7F3K2", "TQ-2C5P0"], "weaver_name": None, "stage": None, "open_only": True},
            ),
            ("find_hats", {"codes": [], "weaver_name": "Carmen", "stage": "Bleaching", "open_only": True}),
        )
    ),
    Calls(
        (
            CREATE_HATS,
            (
                "propose_advance_stage",
                {
                    "hat_code": "TQ-7F3K2",
                    "to_stage": "Washing",
                    "quote": "El TQ-7F3K2 pasó a lavado",
                    "why": "The note says TQ-7F3K2 moved to washing.",
                    "confidence": "high",
                },
            ),
            (
                "propose_advance_stage",
                {
                    "hat_code": "TQ-2C5P0",
                    "to_stage": "Finished",
                    "quote": "el TQ-2C5P0 ya está listo",
                    "why": "The note says TQ-2C5P0 is finished.",
                    "confidence": "high",
                },
            ),
            (
                "propose_flag",
                {
                    "hat_code": "TQ-4K9D1",
                    "kind": "grade_mismatch",
                    "message": "Open row; the grade does not match the rows per inch.",
                    "quote": "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado",
                    "why": "The note reports a grade mismatch on Carmen's hat in bleaching.",
                    "confidence": "high",
                },
            ),
        )
    ),
    Say(SUMMARY),
)
# The cards the sample note gives (docs/workshop-agent.md): TQ-2C5P0 cannot skip to Finished.
CARDS = {
    ("create_hat", None): "pending",
    ("advance_stage", "TQ-7F3K2"): "pending",
    ("advance_stage", "TQ-2C5P0"): "blocked",
    ("flag_issue", "TQ-4K9D1"): "pending",
}
QUESTION = "why was second shift slow"
SHIFT_TOOLS = ("get_shift_overview", "get_downtime_breakdown", "get_wet_end_performance")
SHIFT_SCRIPT: Script = (
    Calls(
        (
            ("get_shift_overview", {"shift": 2}),
            ("get_downtime_breakdown", {"shift": 2, "kind": None, "group_by": "reason"}),
            ("get_wet_end_performance", {"shift": 2}),
        )
    ),
    Say('{"evidence": ["r1-{run}", "r2-{run}", "r3-{run}"]}'),
)


# A shift question asks for at most 4,000 output tokens (the live planners' limits, docs/shifts-agent.md), so
# its requests fit an 8k context as they are; the workshop asks for 8,000 and needs the context size told.
EIGHT_K = "context_8k_default"
SHIFT_COVERED = [*COVERED, *((b, {}) for b, _ in UNCOVERED if b.name == EIGHT_K)]
SHIFT_UNCOVERED = [(b, setting) for b, setting in UNCOVERED if b.name != EIGHT_K]


def settings_for(server: ChatServer, **overrides: object) -> Settings:
    return Settings(provider="openai-compatible", base_url=server.url, provider_max_retries=0, **overrides)


@pytest.fixture
def store(tmp_path: Path):
    made = fresh_sample_store(tmp_path / "workshop.db")
    yield made
    made.dispose()


def saved_runs(store: Store) -> list[m.AgentRun]:
    with store.session(WORKSHOP_A) as session:
        return list(session.scalars(select(m.AgentRun)))


def saved_proposals(store: Store) -> list[m.Proposal]:
    with store.session(WORKSHOP_A) as session:
        return list(session.scalars(select(m.Proposal)))


def run_note(store: Store, server: ChatServer, **overrides: object) -> dict:
    provider = make_provider(MODEL, settings_for(server, **overrides))
    return run_agent(StoreAgentStore(store), ANA, {"note": SAMPLE_NOTE}, provider, "req_local0000000", 20)


def ask(conn, server: ChatServer, **overrides: object):  # noqa: F811
    settings = settings_for(server, **overrides)
    choice = parse_planner(MODEL, settings)
    assert choice.kind == "loop" and choice.provider == "openai-compatible"
    return investigate_live(QUESTION, SHIFT2, conn, choice, make_provider(MODEL, settings))


@pytest.mark.parametrize(("behaviour", "overrides"), COVERED, ids=[b.name for b, _ in COVERED])
def test_the_sample_note_saves_its_cards_on_a_covered_server(store, behaviour, overrides):
    with ChatServer(behaviour, WORKSHOP_SCRIPT) as server:
        body = run_note(store, server, **overrides)
    assert {(p["type"], p["payload"].get("hat_code")): p["status"] for p in body["proposals"]} == CARDS
    assert body["summary"] == SUMMARY
    assert body["meta"]["tool_calls"] == 7
    assert server.seen.answered == 3
    (run,) = saved_runs(store)
    assert run.status == "proposed" and run.error is None
    assert len(saved_proposals(store)) == 4


@pytest.mark.parametrize(("behaviour", "setting"), UNCOVERED, ids=[b.name for b, _ in UNCOVERED])
def test_the_sample_note_fails_as_a_model_error_naming_the_setting(store, behaviour, setting):
    with ChatServer(behaviour, WORKSHOP_SCRIPT) as server, pytest.raises(ApiError) as caught:
        run_note(store, server)
    assert (caught.value.status, caught.value.code) == (502, "model_error")
    assert server.seen.answered == 0
    (run,) = saved_runs(store)
    assert run.status == "failed"
    assert run.error is not None and setting in run.error["message"]
    assert saved_proposals(store) == []


@pytest.mark.parametrize(("behaviour", "overrides"), SHIFT_COVERED, ids=[b.name for b, _ in SHIFT_COVERED])
def test_a_shift_question_is_answered_on_a_covered_server(conn, behaviour, overrides):  # noqa: F811
    with ChatServer(behaviour, SHIFT_SCRIPT) as server:
        answer = ask(conn, server, **overrides)
    assert answer.status == "complete", (answer.reason, answer.errors)
    assert [e["tool"] for e in answer.evidence] == list(SHIFT_TOOLS)
    # The figure is the code's, from the rows (234,000 ft at 312,000 planned: 75 % of target).
    assert "**75.00 %**" in answer.sections[1]["text"]
    assert answer.usage["model_calls"] == 2 and server.seen.answered == 2
    assert answer.usage["cost_usd"] is None  # a local model has no price
    if behaviour.name == EIGHT_K:
        assert {body["max_tokens"] for body in server.seen.bodies} == {4000}


@pytest.mark.parametrize(("behaviour", "setting"), SHIFT_UNCOVERED, ids=[b.name for b, _ in SHIFT_UNCOVERED])
def test_a_shift_question_fails_as_a_planner_error_naming_the_setting(conn, behaviour, setting):  # noqa: F811
    with ChatServer(behaviour, SHIFT_SCRIPT) as server:
        answer = ask(conn, server)
    assert answer.status == "planner_error"
    assert answer.evidence == [] and server.seen.answered == 0
    assert answer.reason is not None and setting in answer.reason


def test_the_scripts_would_fail_a_server_that_drops_a_call(store):
    # The workshop assertions can fail: a server that answers the first turn without its third call (the
    # Carmen lookup) leaves the flag card unproposed.
    short = (Calls(WORKSHOP_SCRIPT[0].calls[:2]), *WORKSHOP_SCRIPT[1:])  # type: ignore[union-attr]
    with ChatServer(Behaviour("documented"), short) as server:
        body = run_note(store, server)
    cards = {(p["type"], p["payload"].get("hat_code")): p["status"] for p in body["proposals"]}
    assert cards != CARDS
