"""The tool calls of a run so far, with their results, as the offline reader reads them from the request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    ToolCall,
    ToolResults,
)


@dataclass
class History:
    """Every tool call made so far in the run, with its result."""

    pairs: list[tuple[ToolCall, Any, bool]] = field(default_factory=list)  # (call, content, is_error)
    turns: int = 0

    def calls(self, *names: str) -> list[tuple[ToolCall, Any, bool]]:
        """The calls of these tools, in order, with their results."""
        return [p for p in self.pairs if p[0].name in names]


def history_of(request: ModelRequest) -> History:
    """The calls made so far in ``request``'s messages, paired with their results."""
    history = History()
    pending: dict[str, ToolCall] = {}
    for message in request.messages:
        if isinstance(message, AssistantTurn):
            history.turns += 1
            pending.update({c.id: c for c in message.turn.tool_calls})
        elif isinstance(message, ToolResults):
            for result in message.results:
                call = pending.get(result.call_id)
                if call is not None:
                    # A result trimmed to a stub (or any non-object) counts as a failed call: never guess from it.
                    failed = bool(result.is_error) or not isinstance(result.content, dict)
                    history.pairs.append((call, result.content, failed))
    return history
