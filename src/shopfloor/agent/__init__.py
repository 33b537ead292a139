"""The governed-agent core: tools, dispatch, the bounded loop, providers, trace, pricing and evals.

Nothing here knows about hats or corrugators; an app plugs its tools, prompt and planner in.
"""

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.loop import LoopLimits, LoopOutcome, run_loop
from shopfloor.agent.providers.base import (
    ModelRequest,
    Provider,
    ProviderError,
    StopReason,
    ToolCall,
    Turn,
    Usage,
)
from shopfloor.agent.tools import Tool, ToolError, ToolRegistry, ToolResult, strict_schema
from shopfloor.agent.trace import Trace

__all__ = [
    "LoopLimits",
    "LoopOutcome",
    "ModelRequest",
    "Provider",
    "ProviderError",
    "StopReason",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "Trace",
    "Turn",
    "Usage",
    "dispatch",
    "run_loop",
    "strict_schema",
]
