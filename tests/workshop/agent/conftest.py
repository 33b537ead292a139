"""Fixtures for the workshop agent tests: a freshly seeded SQLite store per test and a run context on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.tools import ToolResult
from shopfloor.agent.trace import Trace
from shopfloor.workshop.agent.context import RunContext
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.tools import REGISTRY
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B, fresh_sample_store
from shopfloor.workshop.store import Store

ANA = Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
PEDRO = Actor("u-pedro", WORKSHOP_B, "member", "Pedro Anchundia")

SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)
# The first card a model reading the sample note proposes, as a tool call: (name, arguments).
CREATE_HATS = (
    "propose_create_hats",
    {
        "weaver_id": "w1",
        "quantity": 3,
        "grade": "Fino",
        "rows_per_inch": 18,
        "straw": None,
        "quote": "Doña Rosa Pillco terminó 3 finos de 18 hileras",
        "why": "Rosa Pillco delivered three new Fino hats of 18 rows per inch.",
        "confidence": "high",
    },
)


@pytest.fixture
def raw_store(tmp_path: Path) -> Iterator[Store]:
    store = fresh_sample_store(tmp_path / "workshop.db")
    yield store
    store.dispose()


@pytest.fixture
def agent_store(raw_store: Store) -> StoreAgentStore:
    return StoreAgentStore(raw_store)


@pytest.fixture
def make_ctx(agent_store: StoreAgentStore) -> Iterator[Callable[..., RunContext]]:
    made: list[RunContext] = []

    def make(note: str = SAMPLE_NOTE, actor: Actor = ANA, hat_tag: str | None = None) -> RunContext:
        ctx = RunContext(
            run_id="run-test",
            request_id="req_test00000000",
            actor=actor,
            workshop_id=actor.workshop_id,
            note=note,
            input_mode="typed",
            hat_tag=hat_tag,
            reads=agent_store.reads(actor),
            now=datetime.now(UTC),
            trace=Trace(),
        )
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.reads.close()


def call(ctx: RunContext, tool: str, **arguments: Any) -> ToolResult:
    """One tool call through the real dispatcher."""
    return dispatch(REGISTRY, ctx, ToolCall("t1", tool, arguments), ctx.trace)
