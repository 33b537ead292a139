"""The MCP server driven by the official MCP Python client, over stdio (``shopfloor mcp --as``) and over
streamable HTTP at ``/mcp`` on a real uvicorn (docs/mcp.md)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from sqlalchemy import func, select

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts.catalog import model_registry
from shopfloor.workshop import accounts
from shopfloor.workshop.agent.tools import REGISTRY as WORKSHOP_TOOLS
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from tests.web.live import serving

pytestmark = pytest.mark.slow

ANA = Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
CLIENT_INFO = types.Implementation(name="pytest-desk", version="1.0")
NOTE = "El TQ-7F3K2 pasó a lavado."
QUESTION = {"question": "why was second shift slow", "day": "2026-09-16", "shift": 2, "include": "shift"}
SHIFT_ONE = {"day": "2026-09-16", "shift": 1, "include": "shift"}
# Every tool the server should offer, written out (never read from the registry under test): the
# investigator's 23 read tools (not render_chart: a chart draws over one investigation's results), ask, the
# workshop's three reads and propose_from_note (docs/mcp.md). A tool added to a catalog must be added here.
EXPECTED_TOOLS = {
    "compare_periods",
    "get_downtime_breakdown",
    "get_downtime_pareto",
    "get_downtime_review",
    "get_grade_totals",
    "get_opportunities",
    "get_order_matrix",
    "get_overrun",
    "get_period_kpis",
    "get_quality_breakdown",
    "get_rankings",
    "get_rollstock",
    "get_setup_matrix",
    "get_shift_dollars",
    "get_shift_kpis",
    "get_shift_notes",
    "get_shift_overview",
    "get_speed_opportunity",
    "get_speed_variance",
    "get_stops_profile",
    "get_trend",
    "get_waste_breakdown",
    "get_wet_end_performance",
    "ask",
    "find_weaver",
    "find_hats",
    "get_hat",
    "propose_from_note",
}

# The installed command, beside the interpreter running the tests.
SHOPFLOOR = Path(sys.executable).parent / "shopfloor"


def leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


def counts(store: Store) -> dict[str, int]:
    """How many records, events and flags the workshop holds (a proposal must change none)."""
    with store.session(WORKSHOP_A) as s:
        return {
            name: s.scalar(select(func.count()).select_from(model)) or 0
            for name, model in (("hats", m.Hat), ("events", m.HatEvent), ("flags", m.HatFlag))
        }


async def check_lists(client: Client) -> None:
    listed = (await client.list_tools()).tools
    names = {t.name for t in listed}
    assert names == EXPECTED_TOOLS
    assert not [n for n in names if any(w in n for w in ("approve", "edit", "delete", "apply", "reject"))]
    by_name = {t.name: t for t in listed}
    for tool in listed:
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (tool.name != "propose_from_note"), tool.name
        assert tool.annotations.destructive_hint is False
    # One registry: the investigator's tool schema and the workshop's are the apps' own, unchanged.
    kpis = by_name["get_shift_kpis"].input_schema
    assert kpis["properties"]["arguments"] == model_registry().get("get_shift_kpis").parameters  # type: ignore[union-attr]
    assert by_name["find_hats"].input_schema == WORKSHOP_TOOLS.get("find_hats").parameters  # type: ignore[union-attr]
    resources = (await client.list_resources()).resources
    assert {str(r.uri) for r in resources} == {
        f"shopfloor://shifts/report/{p}/2026-09-21" for p in ("week", "month", "fiscal")
    }
    templates = (await client.list_resource_templates()).resource_templates
    assert {t.uri_template for t in templates} == {
        "shopfloor://shifts/a?{query}",
        "shopfloor://shifts/report/{period}/{day}",
    }


async def check_refusals(client: Client) -> None:
    # A shift outside the scope: the tool's own refusal, as the planners get it.
    out = await client.call_tool("get_shift_kpis", {"scope": SHIFT_ONE, "arguments": {"shift": 2}})
    assert out.is_error is True
    assert out.content[0].text == "Shift 2 is outside the selected scope: only shift 1 may be read."  # type: ignore[union-attr]
    # Another workshop's hat: the 404 GET /workshop/api/hats/TQ-7F3K8 answers Ana.
    with pytest.raises(MCPError) as caught:
        await client.call_tool("get_hat", {"code": "TQ-7F3K8"})
    assert (caught.value.code, caught.value.message) == (404, "No hat TQ-7F3K8 in this workshop.")
    assert caught.value.data["code"] == "not_found"
    # A bad scope: the /shifts routes' 400 bad_scope.
    with pytest.raises(MCPError) as caught:
        await client.call_tool("get_shift_kpis", {"scope": {"day": "yesterday"}, "arguments": {"shift": 1}})
    assert caught.value.code == 400 and caught.value.data["code"] == "bad_scope"
    assert caught.value.message == "day must be a date (YYYY-MM-DD)."
    # No approve, edit or delete can be reached, whatever it is called.
    for name in ("apply_proposals", "approve_proposal", "propose_create_hats", "delete_hat"):
        with pytest.raises(MCPError) as caught:
            await client.call_tool(name, {"proposal_id": "p1"})
        assert caught.value.code == 404 and caught.value.data["code"] == "not_found"


async def check_reads(client: Client) -> None:
    found = await client.call_tool("find_weaver", {"name": "Rosa"})
    assert found.is_error is False
    assert {w["name"] for w in found.structured_content["matches"]} == {"Rosa Pillco", "Rosa Guamán"}  # type: ignore[index]
    hat = await client.call_tool("get_hat", {"code": "TQ-7F3K2"})
    assert hat.structured_content["code"] == "TQ-7F3K2"  # type: ignore[index]
    kpis = await client.call_tool("get_shift_kpis", {"scope": SHIFT_ONE, "arguments": {"shift": 1}})
    assert kpis.is_error is False
    envelope = kpis.structured_content
    assert envelope is not None and envelope["tool"] == "get_shift_kpis" and envelope["shift"] == 1
    assert envelope["sql"] and envelope["rows"]  # the evidence envelope: its rows and the SQL behind them
    report = await client.read_resource("shopfloor://shifts/report/week/2026-09-16")
    assert '"window"' in report.contents[0].text  # type: ignore[union-attr]


async def ask(client: Client) -> dict[str, Any]:
    answered = await client.call_tool("ask", QUESTION)
    assert answered.is_error is False
    body = answered.structured_content
    assert body is not None and body["status"] in ("complete", "partial"), body
    assert body["address"].startswith("/a?") and body["url"] == "/shifts" + body["address"]
    assert body["citations"]
    read = await client.read_resource(body["resource"])
    kept = read.contents[0].text  # type: ignore[union-attr]
    assert body["address"] in kept
    return body


async def propose(client: Client, store: Store) -> dict[str, Any]:
    before = counts(store)
    result = await client.call_tool("propose_from_note", {"note": NOTE})
    assert result.is_error is False
    body = result.structured_content
    assert body is not None and body["proposals"]
    assert {p["status"] for p in body["proposals"]} <= {"pending", "question"}
    assert counts(store) == before  # nothing written to the records
    with store.session(WORKSHOP_A) as s:
        run = s.get(m.AgentRun, body["run_id"])
        assert run is not None and run.status == "proposed" and run.steps
        cards = list(s.scalars(select(m.Proposal).where(m.Proposal.run_id == body["run_id"])))
        assert cards and {c.status for c in cards} <= {"pending", "question"}
        start = s.scalars(
            select(m.AppLog).where(m.AppLog.run_id == body["run_id"], m.AppLog.event == "agent.run.start")
        ).one()
        assert start.payload["client"] == "mcp:pytest-desk"
    return body


def stdio_params(
    env: dict[str, str], tmp_path: Path, email: str = "ana@taller.example"
) -> StdioServerParameters:
    return StdioServerParameters(
        command=str(SHOPFLOOR), args=["mcp", "--as", email], env=env, cwd=str(tmp_path)
    )


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    anyio.run(scenario)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_stdio_lists_reads_asks_proposes_and_refuses(env, tmp_path, store, mode):
    async def scenario() -> None:
        async with Client(stdio_params(env, tmp_path), client_info=CLIENT_INFO, mode=mode) as client:
            await check_lists(client)
            await check_reads(client)
            await check_refusals(client)
            await ask(client)
            await propose(client, store)

    run(scenario)


@pytest.fixture
def developer_keys(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A developer's shell with provider keys set (set before ``env`` is built from it)."""
    names = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "SOME_NEW_PROVIDER_API_KEY"]
    for name in names:
        monkeypatch.setenv(name, "sk-developer-key-not-for-tests")
    return names


def test_the_servers_environment_holds_no_provider_key(developer_keys, env):
    assert [name for name in developer_keys if name in env] == []
    assert "sk-developer-key-not-for-tests" not in env.values()
    assert env["SHOPFLOOR_MODEL"] == "offline" and "PATH" in env


def test_stdio_refuses_an_unknown_user(env, tmp_path):
    done = subprocess.run(
        [str(SHOPFLOOR), "mcp", "--as", "nobody@example.com"],
        env=env,
        cwd=tmp_path,
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == b""  # stdout is the protocol: nothing but messages goes there
    assert b"No active user 'nobody@example.com'" in done.stderr


@asynccontextmanager
async def http_client(port: int, token: str, mode: str = "auto") -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=120)
    )
    transport = streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)
    async with http, Client(transport, client_info=CLIENT_INFO, mode=mode) as client:  # type: ignore[arg-type]
        yield client


@pytest.fixture
def server(workshop_db, records, tmp_path):
    settings = Settings(
        workshop_db=f"sqlite:///{workshop_db}", shifts_db=records, var_dir=tmp_path, model="offline"
    )
    with serving(create_app(settings), lifespan="on") as port:
        yield port


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_http_cites_the_rows_of_the_address_and_proposes_pending_cards(server, store, mode):
    token = accounts.issue_token(store, ANA, "desk")

    async def scenario() -> None:
        async with http_client(server, token, mode) as client:
            await check_lists(client)
            await check_refusals(client)
            body = await ask(client)
            card = await propose(client, store)
        async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{server}") as http:
            page = await http.get("/shifts" + body["address"].replace("/a?", "/a.json?", 1))
            assert page.status_code == 200
            evidence = page.json()["evidence"]
            assert [e["rows"] for e in body["citations"]] == [e["rows"] for e in evidence]
            assert [e["tool"] for e in body["citations"]] == [e["tool"] for e in evidence]
            listed = await http.get(
                "/workshop/api/proposals",
                params={"run_id": card["run_id"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert {p["status"] for p in listed.json()["proposals"]} <= {"pending", "question"}
            assert len(listed.json()["proposals"]) == len(card["proposals"])

    run(scenario)


def test_http_refuses_a_missing_or_revoked_token(server, store):
    token, info = accounts.create_token(store, ANA, "desk")

    async def scenario() -> None:
        with pytest.raises(BaseException) as caught:
            async with http_client(server, "tt_not-a-token"):
                pass
        error = leaf(caught.value)
        assert isinstance(error, MCPError) and error.code == 401
        assert error.data["code"] == "unauthorized"
        async with http_client(server, token, "legacy") as client:
            assert (await client.call_tool("find_weaver", {"name": "Rosa"})).is_error is False
            accounts.revoke_token(store, ANA, info.id)
            with pytest.raises(MCPError) as refused:
                await client.call_tool("find_weaver", {"name": "Rosa"})
            assert refused.value.code == 401
            assert refused.value.message == "The bearer token is not valid."

    run(scenario)


def recent_runs(store: Store) -> int:
    """Ana's runs of the last hour (the sample may hold some)."""
    since = m.utcnow() - timedelta(hours=1)
    with store.session(WORKSHOP_A) as s:
        query = select(func.count()).where(m.AgentRun.user_id == ANA.user_id, m.AgentRun.created_at > since)
        return s.scalar(query) or 0


def test_http_the_21st_run_in_an_hour_is_refused(server, store):
    token = accounts.issue_token(store, ANA, "desk")
    already = recent_runs(store)
    assert already < 20

    async def scenario() -> None:
        async with http_client(server, token) as client:
            for _ in range(20 - already):
                done = await client.call_tool("propose_from_note", {"note": NOTE})
                assert done.is_error is False
            with pytest.raises(MCPError) as refused:
                await client.call_tool("propose_from_note", {"note": NOTE})
            assert refused.value.code == 429 and refused.value.data["code"] == "rate_limited"
            assert refused.value.message == "At most 20 notes per hour. Try again later."
            # Bad input: the contract's 400, nothing run.
            with pytest.raises(MCPError) as bad:
                await client.call_tool("propose_from_note", {"note": "x", "colour": "red"})
            assert bad.value.code == 400 and bad.value.message == "Unknown field(s): colour."

    run(scenario)
    assert recent_runs(store) == 20
