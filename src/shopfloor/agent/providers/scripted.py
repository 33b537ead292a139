"""A scripted provider for unit tests: it returns prepared turns in order and records every request."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from shopfloor.agent.providers.base import ModelRequest, ProviderError, StopReason, ToolCall, Turn, Usage

Step = Turn | BaseException | Callable[[ModelRequest], Turn]


class ScriptedProvider:
    """Plays back ``steps``: a Turn is returned, an exception raised, a callable called with the request."""

    name = "scripted"

    def __init__(self, steps: Iterable[Step], model: str = "scripted-model") -> None:
        self.steps = list(steps)
        self.model = model
        self.requests: list[ModelRequest] = []

    def complete(self, request: ModelRequest) -> Turn:
        """Return the next scripted step."""
        self.requests.append(request)
        if not self.steps:
            raise ProviderError("bad_response", "scripted provider ran out of steps")
        step = self.steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        if callable(step):
            return step(request)
        return step


def tool_turn(
    *calls: tuple[str, dict[str, Any]], usage: Usage | None = None, model: str = "scripted"
) -> Turn:
    """A tool-use turn with the given (name, arguments) calls, ids ``c1``, ``c2``, ..."""
    return Turn(
        stop_reason=StopReason.TOOL_USE,
        tool_calls=tuple(ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(calls, 1)),
        usage=usage or Usage(100, 20),
        model=model,
    )


def text_turn(text: str, stop: StopReason = StopReason.END_TURN, model: str = "scripted") -> Turn:
    """A turn that ends with ``text`` (or another stop reason)."""
    return Turn(stop_reason=stop, text=text, usage=Usage(100, 20), model=model)
