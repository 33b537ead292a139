"""The one trace format: typed steps with durations, and per-run token and cost totals.

Step kinds are ``model_call``, ``tool_call``, ``rule_check``, ``proposal`` and ``error``, numbered by ``i``
in order (docs/architecture.md, "Trace"). Both apps store ``Trace.to_list()`` with their runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from shopfloor.agent.pricing import cost_usd
from shopfloor.agent.providers.base import Turn, Usage


@dataclass
class ModelCallStep:
    """One model call."""

    iteration: int
    stop_reason: str
    text: str | None
    tokens_in: int
    tokens_out: int
    cache_read: int
    cache_write: int
    duration_ms: int
    model: str
    cost_usd: float | None = None
    kind: Literal["model_call"] = "model_call"


@dataclass
class ToolCallStep:
    """One tool call with its (validated) input and output."""

    tool: str
    access: str
    input: Any
    output: Any
    is_error: bool
    duration_ms: int
    kind: Literal["tool_call"] = "tool_call"


@dataclass
class RuleCheckStep:
    """One rule decision made by code."""

    rule: str
    hat_code: str | None
    allowed: bool
    code: str | None
    message: str
    duration_ms: int
    kind: Literal["rule_check"] = "rule_check"


@dataclass
class ProposalStep:
    """A proposal buffered by a propose tool."""

    temp_id: str
    type: str
    status: str
    kind: Literal["proposal"] = "proposal"


@dataclass
class ErrorStep:
    """Something that ended or disturbed the run."""

    error: dict[str, Any]
    kind: Literal["error"] = "error"


Step = ModelCallStep | ToolCallStep | RuleCheckStep | ProposalStep | ErrorStep


@dataclass
class Trace:
    """An ordered list of steps plus usage and cost totals for the run."""

    steps: list[Step] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0
    model: str | None = None
    tool_calls: int = 0

    def add(self, step: Step) -> Step:
        """Append ``step``; its index ``i`` is its position."""
        self.steps.append(step)
        if isinstance(step, ToolCallStep):
            self.tool_calls += 1
        return step

    def record_model_call(self, turn: Turn, iteration: int, duration_ms: int) -> ModelCallStep:
        """Add a model-call step and fold its usage and cost into the totals."""
        call_cost = cost_usd(turn.model, turn.usage)
        self.usage = self.usage + turn.usage
        if self.cost_usd is not None:
            self.cost_usd = None if call_cost is None else round(self.cost_usd + call_cost, 8)
        self.model = turn.model or self.model
        step = ModelCallStep(
            iteration=iteration,
            stop_reason=turn.raw_stop_reason or turn.stop_reason.value,
            text=turn.text,
            tokens_in=turn.usage.prompt_tokens,
            tokens_out=turn.usage.output_tokens,
            cache_read=turn.usage.cache_read,
            cache_write=turn.usage.cache_write,
            duration_ms=duration_ms,
            model=turn.model,
            cost_usd=call_cost,
        )
        self.add(step)
        return step

    @property
    def tokens_in(self) -> int:
        """Every prompt token of the run, cached or not (a run's ``tokens_in``)."""
        return self.usage.prompt_tokens

    @property
    def tokens_out(self) -> int:
        """Every output token of the run."""
        return self.usage.output_tokens

    def to_list(self) -> list[dict[str, Any]]:
        """JSON-ready steps, each with its index ``i`` first.

        Shallow: a step's ``input`` and ``output`` are shared, not copied. They are JSON values that nothing
        changes once recorded, and copying them took a tenth of a run's time."""
        return [{"i": i, **vars(step)} for i, step in enumerate(self.steps)]
