"""Toquilla Trace.

This module is the few names code outside ``shopfloor.workshop`` uses (the MCP server, docs/mcp.md); they load
on first use, so importing the package costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shopfloor.workshop.accounts import actor_by_email, actor_for_token
    from shopfloor.workshop.agent.context import RunContext as ToolContext
    from shopfloor.workshop.agent.persistence import StoreAgentStore as AgentStore
    from shopfloor.workshop.agent.provider_choice import choose_provider
    from shopfloor.workshop.agent.run import run_agent
    from shopfloor.workshop.agent.tools import REGISTRY as tool_registry
    from shopfloor.workshop.store import Store, open_store

__all__ = [
    "AgentStore",
    "Store",
    "ToolContext",
    "actor_by_email",
    "actor_for_token",
    "choose_provider",
    "open_store",
    "run_agent",
    "tool_registry",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name in ("actor_by_email", "actor_for_token"):
        from shopfloor.workshop import accounts

        return getattr(accounts, name)
    if name == "ToolContext":
        from shopfloor.workshop.agent import context

        return context.RunContext
    if name == "AgentStore":
        from shopfloor.workshop.agent import persistence

        return persistence.StoreAgentStore
    if name == "choose_provider":
        from shopfloor.workshop.agent import provider_choice

        return provider_choice.choose_provider
    if name == "run_agent":
        from shopfloor.workshop.agent import run

        return run.run_agent
    if name == "tool_registry":
        from shopfloor.workshop.agent import tools

        return tools.REGISTRY
    if name in ("Store", "open_store"):
        from shopfloor.workshop import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
