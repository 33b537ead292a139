"""What the reader's round test files share: an answer held to the global invariants, a question routed to a
plan, an answer's text and the tools its trace called (docs/shifts-agent.md, "Golden evals")."""

from __future__ import annotations

from typing import Any

import duckdb

from shopfloor.shifts import Scope
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route


def ask(conn: duckdb.DuckDBPyConnection, question: str, scope: Scope) -> dict[str, Any]:
    """The answer to ``question`` as a dict, after checking it holds every global invariant."""
    answer: dict[str, Any] = investigate(question, scope, conn).as_dict()
    assert invariants(answer) == []
    return answer


def routed(question: str, scope: Scope) -> Plan:
    """The plan the router makes of ``question`` (failing when it refuses instead)."""
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def text(answer: dict[str, Any]) -> str:
    """Every section's text of an answer, joined."""
    return " ".join(s["text"] for s in answer["sections"])


def tools(answer: dict[str, Any]) -> list[str]:
    """The tools an answer's trace called, in order."""
    return [s["tool"] for s in answer["trace"] if s.get("kind") == "tool_call"]
