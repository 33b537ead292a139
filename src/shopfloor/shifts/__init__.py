"""Shift Investigator: read-only tools answer questions about a corrugator's shift records with cited figures.

This module is the app's public face; code outside ``shopfloor.shifts`` imports these names from here, not
from the wings (docs/shifts-agent.md, "Layout"). The names load on first use, so importing the package (as
every ``shopfloor`` command does) costs nothing: the investigation pulls in the core loop, DuckDB and the
tool catalog, the app pulls in FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shopfloor.shifts.answers.answer import Answer
    from shopfloor.shifts.answers.reports import period_report
    from shopfloor.shifts.api import create_app
    from shopfloor.shifts.catalog import model_registry as tool_registry
    from shopfloor.shifts.investigation import investigate, investigate_address
    from shopfloor.shifts.planning.plans import AddressError, parse_address
    from shopfloor.shifts.plant.scope import Scope, ScopeError
    from shopfloor.shifts.records.store import StoreUnavailable
    from shopfloor.shifts.records.store import open_existing as open_records
    from shopfloor.shifts.tools.context import RunContext as ToolContext

__all__ = [
    "AddressError",
    "Answer",
    "Scope",
    "ScopeError",
    "StoreUnavailable",
    "ToolContext",
    "create_app",
    "investigate",
    "investigate_address",
    "open_records",
    "parse_address",
    "period_report",
    "tool_registry",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its wing on first use."""
    if name == "Answer":
        from shopfloor.shifts.answers import answer

        return answer.Answer
    if name in ("investigate", "investigate_address"):
        from shopfloor.shifts import investigation

        return getattr(investigation, name)
    if name in ("Scope", "ScopeError"):
        from shopfloor.shifts.plant import scope

        return getattr(scope, name)
    # The read-only tools as a live model is offered them, for a client outside the app (the MCP server).
    if name == "tool_registry":
        from shopfloor.shifts import catalog

        return catalog.model_registry
    if name == "ToolContext":
        from shopfloor.shifts.tools import context

        return context.RunContext
    if name in ("AddressError", "parse_address"):
        from shopfloor.shifts.planning import plans

        return getattr(plans, name)
    if name in ("open_records", "StoreUnavailable"):
        from shopfloor.shifts.records import store

        return store.open_existing if name == "open_records" else store.StoreUnavailable
    if name == "period_report":
        from shopfloor.shifts.answers import reports

        return reports.period_report
    if name == "create_app":
        from shopfloor.shifts import api

        return api.create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
