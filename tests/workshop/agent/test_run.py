"""Run orchestration (docs/workshop-agent.md, "One run") with a scripted provider on the real store."""

from __future__ import annotations

import json
import threading
import time

import pytest
from sqlalchemy import event, func, select

from shopfloor.agent.loop import LoopLimits
from shopfloor.agent.providers.base import ModelRequest, ProviderError, StopReason
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.web.errors import ApiError, BodyError
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.run import SOURCE, fallback_summary, run_agent
from shopfloor.workshop.store import models as m

from .conftest import ANA, CREATE_HATS, SAMPLE_NOTE

FIND_ROSA = ("find_weaver", {"name": "Doña Rosa Pillco"})
FIND_HATS = (
    "find_hats",
    {"codes": ["TQ-7F3K2", "TQ-2C5P0"], "weaver_name": None, "stage": None, "open_only": False},
)
ADVANCE = (
    "propose_advance_stage",
    {
        "hat_code": "TQ-7F3K2",
        "to_stage": "Washing",
        "quote": "El TQ-7F3K2 pasó a lavado",
        "why": "The note says it moved to washing.",
        "confidence": "high",
    },
)


def run(agent_store, provider, note=SAMPLE_NOTE, limits=None, abort=None, **body):
    kwargs = {"limits": limits} if limits else {}
    return run_agent(
        agent_store,
        ANA,
        {"note": note, **body},
        provider,
        "req_0123456789ab",
        rate_limit_per_hour=20,
        abort=abort,
        **kwargs,
    )


def runs(raw_store):
    with raw_store.session("ws-sigsig") as session:
        return list(session.scalars(select(m.AgentRun).order_by(m.AgentRun.created_at)))


def proposals(raw_store):
    with raw_store.session("ws-sigsig") as session:
        return list(session.scalars(select(m.Proposal).order_by(m.Proposal.position)))


def logs(raw_store):
    with raw_store.session("ws-sigsig") as session:
        return list(session.scalars(select(m.AppLog).order_by(m.AppLog.id)))


def test_end_turn_saves_proposals_and_the_trace(agent_store, raw_store):
    provider = ScriptedProvider(
        [
            tool_turn(FIND_ROSA, FIND_HATS),
            tool_turn(CREATE_HATS, ADVANCE),
            text_turn("I understood: new hats and a move. I prepared 2 actions for review."),
        ]
    )
    body = run(agent_store, provider)
    assert set(body) == {"run_id", "summary", "proposals", "meta"}
    assert body["summary"] == "I understood: new hats and a move. I prepared 2 actions for review."
    assert [p["type"] for p in body["proposals"]] == ["create_hat", "advance_stage"]
    assert body["meta"]["tool_calls"] == 4
    assert body["meta"]["tokens_in"] == 300 and body["meta"]["tokens_out"] == 60
    (row,) = runs(raw_store)
    assert row.id == body["run_id"]
    assert (row.status, row.request_id, row.input, row.model) == (
        "proposed",
        "req_0123456789ab",
        SAMPLE_NOTE,
        "scripted",
    )
    kinds = [s["kind"] for s in row.steps]
    assert kinds.count("model_call") == 3 and kinds.count("tool_call") == 4
    assert kinds.count("rule_check") == 2 and kinds.count("proposal") == 2
    assert [s["i"] for s in row.steps] == list(range(len(row.steps)))
    saved = proposals(raw_store)
    assert [p.id for p in saved] == [p["id"] for p in body["proposals"]]
    assert all(p.run_id == row.id and p.workshop_id == "ws-sigsig" for p in saved)


def test_logs_share_one_request_id(agent_store, raw_store):
    provider = ScriptedProvider(
        [tool_turn(FIND_ROSA, FIND_HATS), tool_turn(CREATE_HATS, ADVANCE), text_turn("I understood: ok.")]
    )
    body = run(agent_store, provider)
    rows = logs(raw_store)
    events = [r.event for r in rows]
    assert events.count("agent.run.start") == 1
    assert events.count("agent.model.call") == 3
    assert events.count("agent.tool.call") == 4
    assert events.count("agent.rule.check") == 2
    assert events.count("agent.run.end") == 1 and "agent.run.error" not in events
    assert {r.request_id for r in rows} == {"req_0123456789ab"}
    assert {r.run_id for r in rows} == {body["run_id"]}
    assert {r.source for r in rows} == {SOURCE}
    assert {(r.user_id, r.workshop_id) for r in rows} == {("u-ana", "ws-sigsig")}


def test_the_same_events_go_out_as_json_lines(agent_store, raw_store):
    import io
    import logging

    from shopfloor.logs import JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("shopfloor.workshop.agent")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        provider = ScriptedProvider(
            [tool_turn(FIND_ROSA, FIND_HATS), tool_turn(CREATE_HATS, ADVANCE), text_turn("I understood: ok.")]
        )
        body = run(agent_store, provider)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["event"] for line in lines] == [r.event for r in logs(raw_store)]
    events = [line["event"] for line in lines]
    assert events[0] == "agent.run.start" and events[-1] == "agent.run.end"
    assert {line["request_id"] for line in lines} == {"req_0123456789ab"}
    assert {line["run_id"] for line in lines} == {body["run_id"]}
    assert {line["source"] for line in lines} == {SOURCE}


def test_refusal_fails_and_saves_nothing(agent_store, raw_store):
    provider = ScriptedProvider(
        [tool_turn(FIND_ROSA), tool_turn(CREATE_HATS), text_turn("", stop=StopReason.REFUSAL)]
    )
    with pytest.raises(ApiError) as caught:
        run(agent_store, provider)
    assert caught.value.status == 502 and caught.value.code == "model_error"
    (row,) = runs(raw_store)
    assert caught.value.extra == {"run_id": row.id}
    assert row.status == "failed" and row.error["type"] == "refusal"
    assert proposals(raw_store) == []
    assert any(s["kind"] == "proposal" for s in row.steps)  # still visible in the trace
    assert [r.event for r in logs(raw_store)][-1] == "agent.run.error"


def test_max_tokens_with_two_buffered_keeps_them_with_the_code_summary(agent_store, raw_store):
    provider = ScriptedProvider(
        [
            tool_turn(FIND_ROSA, FIND_HATS),
            tool_turn(CREATE_HATS, ADVANCE),
            text_turn("I underst", stop=StopReason.MAX_TOKENS),
        ]
    )
    body = run(agent_store, provider)
    assert body["summary"] == fallback_summary(2)
    assert body["summary"] == (
        "I prepared 2 actions for you to review. I could not finish reading the whole note, so please check it."
    )
    assert len(proposals(raw_store)) == 2
    assert runs(raw_store)[0].status == "proposed"
    end = [r for r in logs(raw_store) if r.event == "agent.run.end"]
    assert end[0].level == "warn"


def test_max_tokens_without_proposals_fails(agent_store, raw_store):
    provider = ScriptedProvider([tool_turn(FIND_ROSA), text_turn("", stop=StopReason.MAX_TOKENS)])
    with pytest.raises(ApiError) as caught:
        run(agent_store, provider)
    assert caught.value.status == 502
    assert runs(raw_store)[0].status == "failed"


def test_seven_tool_turns_stop_at_six_calls(agent_store, raw_store):
    turns = [tool_turn(CREATE_HATS)] + [tool_turn(FIND_ROSA) for _ in range(6)]
    turns[0] = tool_turn(FIND_ROSA, CREATE_HATS)
    provider = ScriptedProvider(turns)
    body = run(agent_store, provider)
    assert len(provider.requests) == 6
    assert len(provider.steps) == 1  # the seventh turn was never asked for
    assert body["summary"] == fallback_summary(1)
    assert len(proposals(raw_store)) == 1
    row = runs(raw_store)[0]
    assert row.status == "proposed"
    assert sum(s["kind"] == "model_call" for s in row.steps) == 6
    assert [r.level for r in logs(raw_store) if r.event == "agent.run.end"] == ["warn"]


def test_api_error_after_one_proposal_saves_nothing(agent_store, raw_store):
    provider = ScriptedProvider(
        [tool_turn(FIND_ROSA), tool_turn(CREATE_HATS), ProviderError("api", "overloaded", 529)]
    )
    with pytest.raises(ApiError) as caught:
        run(agent_store, provider)
    assert caught.value.status == 502
    row = runs(raw_store)[0]
    assert row.status == "failed" and row.error == {"type": "api", "message": "overloaded", "status": 529}
    assert proposals(raw_store) == []


def test_abort_stops_and_saves_nothing(agent_store, raw_store):
    abort = threading.Event()

    def slow(request: ModelRequest):
        abort.set()  # the client goes away while the model is thinking
        time.sleep(0.3)
        return tool_turn(ADVANCE)

    provider = ScriptedProvider([tool_turn(FIND_ROSA), tool_turn(CREATE_HATS), slow])
    run(agent_store, provider, abort=abort)
    row = runs(raw_store)[0]
    assert row.status == "stopped"
    assert proposals(raw_store) == []
    assert [r.payload["status"] for r in logs(raw_store) if r.event == "agent.run.end"] == ["stopped"]


def test_run_budget_gives_504_with_run_id(agent_store, raw_store):
    def slow(request: ModelRequest):
        time.sleep(0.15)
        return tool_turn(FIND_ROSA)

    provider = ScriptedProvider([slow, slow])
    limits = LoopLimits(max_iterations=6, max_tokens=8000, call_timeout_s=25, run_budget_s=0.1)
    with pytest.raises(ApiError) as caught:
        run(agent_store, provider, limits=limits)
    assert caught.value.status == 504 and caught.value.code == "timeout"
    row = runs(raw_store)[0]
    assert caught.value.extra == {"run_id": row.id}
    assert row.status == "failed" and row.error == {"type": "timeout"}


def test_a_crash_leaves_the_run_failed(agent_store, raw_store):
    provider = ScriptedProvider([tool_turn(FIND_ROSA), RuntimeError("bug in an adapter")])
    with pytest.raises(RuntimeError):
        run(agent_store, provider)
    row = runs(raw_store)[0]
    assert row.status == "failed"
    assert row.error["type"] == "crash"
    assert proposals(raw_store) == []


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"note": "   "}, "note", "note must be 1 to 1000 characters after trimming."),
        ({"note": "x" * 1001}, "note", "note must be 1 to 1000 characters after trimming."),
        ({"note": 5}, "note", "note must be a string."),
        ({"note": "hola", "input_mode": "video"}, "input_mode", 'input_mode must be "voice" or "typed".'),
        ({"note": "hola", "hat_tag": "sombrero"}, "hat_tag", "hat_tag must be a hat code like TQ-7F3K2."),
        ({"note": "hola", "hat_tag": "TQ-7F3K8"}, "hat", "No hat TQ-7F3K8 in this workshop."),
        ({"note": "hola", "said_at": "ayer"}, "said_at", "said_at must be an ISO 8601 time with an offset."),
        ({"note": "hola", "admin": True}, None, "Unknown field(s): admin."),
    ],
)
def test_validation_errors_log_and_create_no_run(agent_store, raw_store, body, field, message):
    provider = ScriptedProvider([])
    with pytest.raises(ApiError) as caught:
        run_agent(agent_store, ANA, body, provider, "req_badbadbadbad", rate_limit_per_hour=20)
    assert (caught.value.status, caught.value.code, caught.value.message) == (400, "bad_request", message)
    # A field's error names the field (a page says why by it); a body that is wrong as a whole names none.
    assert getattr(caught.value, "field", None) == field
    assert isinstance(caught.value, BodyError) == (field is not None)
    assert runs(raw_store) == []
    assert provider.requests == []
    (row,) = logs(raw_store)
    assert (row.event, row.level, row.payload["phase"], row.run_id) == (
        "agent.run.error",
        "warn",
        "validate",
        None,
    )


def test_note_is_trimmed_and_1000_chars_is_fine(agent_store, raw_store):
    note = "  " + "hola " * 199 + "hola!  "
    run(agent_store, OfflineReader(), note=note)
    assert runs(raw_store)[0].input == note.strip()


def test_rate_limit_counts_runs_in_the_database(agent_store, raw_store):
    for _ in range(3):
        run_agent(agent_store, ANA, {"note": "hola"}, OfflineReader(), "req_a", rate_limit_per_hour=3)
    with pytest.raises(ApiError) as caught:
        run_agent(agent_store, ANA, {"note": "hola"}, OfflineReader(), "req_b", rate_limit_per_hour=3)
    assert caught.value.status == 429 and caught.value.code == "rate_limited"
    with raw_store.session("ws-sigsig") as session:
        assert session.scalar(select(func.count()).select_from(m.AgentRun)) == 3
    last = logs(raw_store)[-1]
    assert (last.event, last.level, last.payload["phase"], last.request_id) == (
        "agent.run.error",
        "warn",
        "validate",
        "req_b",
    )


def _race_for_the_last_slots(agent_store, limit: int, requests: int) -> list[int]:
    """``requests`` runs of one user at once against ``limit``; the status of each (200 or the error's)."""
    from concurrent.futures import ThreadPoolExecutor

    start = threading.Barrier(requests)

    def one(i: int) -> int:
        start.wait()
        try:
            run_agent(agent_store, ANA, {"note": "hola"}, OfflineReader(), f"req_race{i:08x}", limit)
        except ApiError as error:
            return error.status
        return 200

    with ThreadPoolExecutor(requests) as pool:
        return list(pool.map(one, range(requests)))


def test_rate_limit_holds_when_requests_arrive_together(agent_store, raw_store):
    statuses = _race_for_the_last_slots(agent_store, limit=3, requests=8)
    assert sorted(statuses) == [200, 200, 200, 429, 429, 429, 429, 429]
    assert len(runs(raw_store)) == 3


def test_hat_tag_is_preloaded(agent_store, raw_store):
    provider = ScriptedProvider(
        [
            tool_turn(("propose_advance_stage", {**ADVANCE[1], "quote": "ya pasó a lavado"})),
            text_turn("I understood: done."),
        ]
    )
    body = run(agent_store, provider, note="ya pasó a lavado", hat_tag="tq 7f3k2")
    assert body["proposals"][0]["payload"]["hat_code"] == "TQ-7F3K2"
    assert runs(raw_store)[0].hat_code == "TQ-7F3K2"
    assert "The user tagged this note as about hat TQ-7F3K2." in provider.requests[0].messages[0].text


def test_offline_reader_records_zero_cost_steps(agent_store, raw_store):
    body = run(agent_store, OfflineReader(), input_mode="voice")
    assert body["meta"]["tokens_in"] == 0 and body["meta"]["cost_usd"] == 0.0
    assert len(body["proposals"]) == 4
    row = runs(raw_store)[0]
    assert row.model == "offline-reader"
    assert {s["model"] for s in row.steps if s["kind"] == "model_call"} == {"offline-reader"}
    assert body["summary"].startswith("I understood: ")


def test_a_crashing_handler_is_an_error_result_and_an_error_log(agent_store, raw_store, monkeypatch):
    from shopfloor.workshop.agent.persistence import StoreReads

    def broken(self):
        raise RuntimeError("database file vanished: /secret/path")

    monkeypatch.setattr(StoreReads, "weavers", broken)
    provider = ScriptedProvider([tool_turn(FIND_ROSA), text_turn("I understood: the lookup failed.")])
    body = run(agent_store, provider)
    assert body["proposals"] == []
    step = next(s for s in runs(raw_store)[0].steps if s["kind"] == "tool_call")
    assert step["is_error"] is True
    assert "secret" not in json.dumps(step["output"])
    errors = [r for r in logs(raw_store) if r.event == "agent.tool.call" and r.level == "error"]
    assert [(r.payload["tool"], r.payload["error"]) for r in errors] == [("find_weaver", "RuntimeError")]
    # The model's next request saw the plain message, not the exception.
    assert "secret" not in json.dumps([str(m) for m in provider.requests[1].messages])


def test_offline_reader_never_reads_a_trimmed_result():
    from shopfloor.agent.loop import TRIMMED
    from shopfloor.agent.providers.base import AssistantTurn, ModelRequest, ToolResults, UserText
    from shopfloor.agent.tools import ToolResult
    from shopfloor.workshop.agent.prompt import UserMessage, build_user_message

    message = UserMessage("Rosa entregó 2 finos de 16 hileras", "typed", None)
    reader = OfflineReader().for_message(message)
    first = ModelRequest("system", [], [UserText(build_user_message(message))])
    lookups = reader.complete(first)
    assert [c.name for c in lookups.tool_calls] == ["find_weaver"]
    trimmed = ToolResults(tuple(ToolResult(c.id, c.name, TRIMMED) for c in lookups.tool_calls))
    follow = reader.complete(ModelRequest("system", [], [*first.messages, AssistantTurn(lookups), trimmed]))
    assert follow.tool_calls == ()
    assert follow.text.startswith("I understood: ")
    assert "1 lookup(s) failed" in follow.text


def test_the_tool_calls_of_one_turn_share_one_read_transaction(agent_store, raw_store):
    """Reads inside ``batch()`` use one pooled connection; outside, each read takes and returns its own."""
    checkouts: list[int] = []

    def on_checkout(*_args):
        checkouts.append(1)

    event.listen(raw_store.engine, "checkout", on_checkout)
    reads = agent_store.reads(ANA)
    with reads.batch():
        hat = reads.hat_by_code("TQ-7F3K2")
        assert hat is not None
        reads.events(hat, 5)
        reads.open_flags(hat)
        assert not reads.open_proposal_exists("TQ-7F3K2", "advance_stage", "no-run")
    assert len(checkouts) == 1
    reads.hat_by_code("TQ-7F3K2")
    reads.open_flags(hat)
    assert len(checkouts) == 3
    event.remove(raw_store.engine, "checkout", on_checkout)


def test_an_offline_run_opens_a_read_transaction_per_turn_not_per_read(agent_store, raw_store):
    connects: list[int] = []

    def on_begin(_conn):
        connects.append(1)

    event.listen(raw_store.engine, "begin", on_begin)
    run_agent(agent_store, ANA, {"note": SAMPLE_NOTE}, OfflineReader(), "req-batch", 100)
    event.remove(raw_store.engine, "begin", on_begin)
    with raw_store.transaction(ANA.workshop_id, write=False) as session:
        run = session.scalars(select(m.AgentRun)).one()
    tool_turns = sum(1 for s in run.steps if s["kind"] == "model_call" and s["stop_reason"] == "tool_use")
    tool_calls = sum(1 for s in run.steps if s["kind"] == "tool_call")
    assert tool_calls > tool_turns >= 2
    # One transaction per tool turn, the hat-tag-free start (none), and the two writes (run row, save).
    assert len(connects) == tool_turns + 2
