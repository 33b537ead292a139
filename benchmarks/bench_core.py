"""Core overheads: one dispatch, and a scripted run of 6 turns and 12 tool calls (tool bodies are trivial)."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
from anthropic.types.beta import BetaMessage
from google.genai import types as genai_types
from openai.types.responses import Response
from pydantic import BaseModel

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.loop import LoopLimits, run_loop
from shopfloor.agent.providers import anthropic_provider, gemini_provider, openai_provider
from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.base import ModelRequest, ToolCall, UserText
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.openai_provider import OpenAIProvider
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.bench import Figure


class Args(BaseModel):
    name: str
    count: int | None


def lookup(_ctx: None, _args: Args) -> dict[str, bool]:
    return {"ok": True}


REGISTRY = ToolRegistry([Tool("lookup", "Find.", "read", Args, lookup)])
CALL = ToolCall("c1", "lookup", {"name": "Rosa", "count": None})
DISPATCHES = 1000


def many_dispatches() -> None:
    trace = Trace()
    for _ in range(DISPATCHES):
        dispatch(REGISTRY, None, CALL, trace)


def scripted_run() -> None:
    turns = [
        tool_turn(("lookup", {"name": "a", "count": 1}), ("lookup", {"name": "b", "count": 2}))
        for _ in range(5)
    ]
    turns.append(text_turn("I understood: done."))
    limits = LoopLimits(max_iterations=6, max_tool_calls=20)
    run_loop(ScriptedProvider(turns), "system", "note", REGISTRY, None, Trace(), limits)


FIGURES = [
    Figure("dispatch overhead per call", many_dispatches, repeat=20, unit="ms", per=DISPATCHES, goal=0.2),
    Figure("loop overhead, 6 turns + 12 tool calls", scripted_run, repeat=50, unit="ms", goal=10.0),
]


# Provider adapters: one replayed tool-use turn through each real SDK client (request building, the SDK's
# own parsing and our mapping to a neutral Turn), and our mapping alone from an already-parsed answer.
RECORDINGS = Path(__file__).resolve().parent.parent / "tests" / "agent" / "recordings"
REQUEST = ModelRequest(
    "You are the test assistant.", REGISTRY.specs(), [UserText("Rosa came by.")], 8000, 25.0
)


def _fixed_client(provider: str) -> httpx2.Client:
    answer = json.loads((RECORDINGS / provider / "tool_use.json").read_text())["exchanges"][0]["response"]
    return httpx2.Client(transport=httpx2.MockTransport(lambda request: httpx2.Response(200, json=answer)))


def _adapters() -> dict[str, Any]:
    return {
        "gemini": GeminiProvider("bench-key", http_client=_fixed_client("gemini")),
        "anthropic": AnthropicProvider("bench-key", http_client=_fixed_client("anthropic")),
        "openai": OpenAIProvider("bench-key", http_client=_fixed_client("openai")),
    }


ADAPTERS = _adapters()
ANSWERS: dict[str, tuple[Callable[..., Any], Any]] = {
    "gemini": (
        gemini_provider.parse_response,
        genai_types.GenerateContentResponse.model_validate(
            json.loads((RECORDINGS / "gemini" / "tool_use.json").read_text())["exchanges"][0]["response"]
        ),
    ),
    "anthropic": (
        anthropic_provider.parse_message,
        BetaMessage.model_validate(
            json.loads((RECORDINGS / "anthropic" / "tool_use.json").read_text())["exchanges"][0]["response"]
        ),
    ),
    "openai": (
        openai_provider.parse_response,
        Response.model_validate(
            json.loads((RECORDINGS / "openai" / "tool_use.json").read_text())["exchanges"][0]["response"]
        ),
    ),
}
PARSES = 200


def _replayed_turn(name: str) -> Callable[[], object]:
    return lambda: ADAPTERS[name].complete(REQUEST)


def _mapping(name: str) -> Callable[[], object]:
    parse, answer = ANSWERS[name]

    def run() -> None:
        for _ in range(PARSES):
            if name == "gemini":
                parse(answer, "gemini-2.5-flash-lite")
            else:
                parse(answer)

    return run


# Goals: the adapter's share stays negligible next to a model call (hundreds of milliseconds at best).
for _name in ("gemini", "anthropic", "openai"):
    FIGURES.append(
        Figure(
            f"{_name}: replayed tool-use turn through the SDK", _replayed_turn(_name), repeat=30, goal=50.0
        )
    )
    FIGURES.append(
        Figure(
            f"{_name}: answer to neutral Turn (our mapping only)",
            _mapping(_name),
            repeat=20,
            unit="us",
            per=PARSES,
            goal=500.0,
        )
    )
