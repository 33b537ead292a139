"""Core overheads: one dispatch, and a scripted run of 6 turns and 12 tool calls (tool bodies are trivial)."""

from pydantic import BaseModel

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.loop import LoopLimits, run_loop
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.agent.tools import Tool, ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.bench import Figure


class Args(BaseModel):
    name: str
    count: int | None


REGISTRY = ToolRegistry([Tool("lookup", "Find.", "read", Args, lambda ctx, args: {"ok": True})])
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
