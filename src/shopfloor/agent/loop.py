"""The provider-neutral, bounded tool-use loop.

Bounds: model calls (iterations), per-call timeout, a run budget, a tool-call count and the serialized
request size (oldest tool results are trimmed to a stub before a request is refused). Every stop reason is
handled explicitly, tools never run from a truncated turn, and an abort (client disconnect) ends the run.
The loop reports *what happened* as a :class:`LoopOutcome`; each app maps outcomes to its own statuses.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Generic

from shopfloor.agent.budget import Budget, BudgetExhausted, Hold, settle_cost
from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import (
    AssistantTurn,
    CallCancel,
    Message,
    ModelRequest,
    Provider,
    ProviderError,
    StopReason,
    ToolResults,
    Turn,
    UserText,
)
from shopfloor.agent.retry import NO_RETRIES
from shopfloor.agent.tools import CtxT, ToolRegistry, ToolResult
from shopfloor.agent.trace import ErrorStep, ToolCallStep, Trace

EventHook = Callable[[str, str, dict[str, Any]], None]
# A retry is made only when, after its pause, at least this much of the run's time is left for the call.
MIN_CALL_AFTER_RETRY_S = 1.0
TRIMMED = "[trimmed to keep the request small; call the tool again if you need this result]"

# Live calls can run long; a worker per in-flight call lets the loop notice an abort while it waits.
_executor = ThreadPoolExecutor(max_workers=32, thread_name_prefix="model-call")


class Outcome(StrEnum):
    """How a loop ended."""

    END_TURN = "end_turn"  # the model finished with text
    MAX_ITERATIONS = "max_iterations"  # still calling tools when the model-call cap was reached
    MAX_TOKENS = "max_tokens"  # the last turn was truncated; its tools were not run
    REFUSAL = "refusal"
    UNEXPECTED_STOP = "unexpected_stop"
    TOOL_LIMIT = "tool_limit"
    REQUEST_TOO_LARGE = "request_too_large"
    TIMEOUT = "timeout"  # run budget spent
    PROVIDER_ERROR = "provider_error"
    ABORTED = "aborted"
    BUDGET_EXHAUSTED = "budget_exhausted"  # the next call's worst case would pass the monthly spend cap


@dataclass(frozen=True)
class LoopLimits:
    """The bounds of one run."""

    max_iterations: int = 6
    max_tokens: int = 8000
    call_timeout_s: float = 25.0
    run_budget_s: float = 45.0
    max_tool_calls: int = 20
    max_request_bytes: int = 64 * 1024


@dataclass
class LoopOutcome:
    """What the loop reports: the outcome, the final text (if any) and the error (if any)."""

    outcome: Outcome
    text: str | None = None
    error: dict[str, Any] | None = None
    iterations: int = 0
    messages: list[Message] = field(default_factory=list)
    last_turn: Turn | None = None


def run_loop(
    provider: Provider,
    system: str,
    user_message: str,
    registry: ToolRegistry[CtxT],
    ctx: CtxT,
    trace: Trace,
    limits: LoopLimits = LoopLimits(),
    abort: threading.Event | None = None,
    on_event: EventHook | None = None,
    model: str | None = None,
    tool_batch: Callable[[], AbstractContextManager[Any]] | None = None,
    budget: Budget | None = None,
) -> LoopOutcome:
    """Run the tool-use loop until the model ends its turn or a bound or failure stops it.

    ``budget``, when given, reserves each call's worst case before it is made and settles it with the real
    cost after; a call it refuses is not made and the run ends as ``BUDGET_EXHAUSTED`` (docs/pricing.md,
    "Spend under a cap"). A ``local`` provider (an offline planner) is never counted.

    ``tool_batch``, when given, is entered around the tool calls of each model turn and left before the next
    model call: an app uses it to share one read transaction between those calls without holding anything
    while it waits for a model.
    """
    run = _Run(
        provider,
        system,
        user_message,
        registry,
        ctx,
        trace,
        limits,
        abort,
        on_event or (lambda _event, _level, _payload: None),
        model,
        tool_batch,
        budget,
    )
    for iteration in range(1, limits.max_iterations + 1):
        if abort is not None and abort.is_set():
            return run.finish(Outcome.ABORTED, iteration - 1, error={"type": "aborted"})
        if run.deadline - time.monotonic() <= 0:
            return run.finish(Outcome.TIMEOUT, iteration - 1, error={"type": "timeout"})
        if not _fit(run.messages, run.fixed_bytes, limits.max_request_bytes, run.measured):
            return run.finish(
                Outcome.REQUEST_TOO_LARGE,
                iteration - 1,
                error={"type": "request_too_large", "limit_bytes": limits.max_request_bytes},
            )
        turn = run.model_call(iteration)
        if isinstance(turn, LoopOutcome):
            return turn
        ended = run.ended(turn, iteration)
        if ended is None:
            ended = run.tool_calls(turn, iteration)
        if ended is not None:
            return ended
    return run.finish(Outcome.MAX_ITERATIONS, limits.max_iterations)


class _Run(Generic[CtxT]):
    """One run of :func:`run_loop`: its bounds and the conversation every model call and tool batch adds to."""

    def __init__(
        self,
        provider: Provider,
        system: str,
        user_message: str,
        registry: ToolRegistry[CtxT],
        ctx: CtxT,
        trace: Trace,
        limits: LoopLimits,
        abort: threading.Event | None,
        emit: EventHook,
        model: str | None,
        tool_batch: Callable[[], AbstractContextManager[Any]] | None,
        budget: Budget | None,
    ) -> None:
        started = time.monotonic()
        self.provider, self.system, self.registry, self.ctx = provider, system, registry, ctx
        self.trace, self.limits, self.abort, self.emit = trace, limits, abort, emit
        self.model, self.tool_batch, self.budget = model, tool_batch, budget
        self.messages: list[Message] = [UserText(user_message)]
        self.tools = registry.specs()
        # The system prompt and tool list are the same on every call.
        self.fixed_bytes = _registry_fixed_bytes(system, self.tools)
        # Each message is serialized once per run, not per call.
        self.measured: dict[int, tuple[Message, int]] = {}
        self.deadline = started + limits.run_budget_s
        # Only a local provider (an offline planner, in process) may hand its handlers planner data.
        self.local = bool(getattr(provider, "local", False))
        self.policy = NO_RETRIES if self.local else getattr(provider, "retry", NO_RETRIES)

    def finish(self, outcome: Outcome, iteration: int, **kw: Any) -> LoopOutcome:
        """The run's outcome after ``iteration`` model calls (its error also goes into the trace)."""
        if kw.get("error"):
            self.trace.add(ErrorStep(kw["error"]))
        return LoopOutcome(outcome, iterations=iteration, messages=self.messages, **kw)

    def model_call(self, iteration: int) -> Turn | LoopOutcome:
        """One model call, and the retries the policy allows within the run's time; the turn, recorded in the
        trace and settled against the budget, or the outcome that ends the run."""
        retries = 0
        while True:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                return self.finish(Outcome.TIMEOUT, iteration, error={"type": "timeout"})
            request = ModelRequest(
                system=self.system,
                tools=self.tools,
                messages=list(self.messages),
                max_tokens=self.limits.max_tokens,
                timeout_s=min(self.limits.call_timeout_s, remaining),
                model=self.model,
            )
            hold = self._reserve(iteration)
            if isinstance(hold, LoopOutcome):
                return hold
            t0 = time.monotonic()
            try:
                turn = _call(self.provider, request, self.abort, self.deadline)
            except ProviderError as error:
                if self.budget is not None and hold is not None:
                    self.budget.settle(hold, settle_cost(error.kind, None))
                stop = self._after_error(error, iteration, retries, t0)
                if stop is not None:
                    return stop
                retries += 1
                continue
            duration = int((time.monotonic() - t0) * 1000)
            step = self.trace.record_model_call(turn, iteration, duration)
            if self.budget is not None and hold is not None:
                self.budget.settle(hold, step.cost_usd)
            self.emit("agent.model.call", "info", {k: v for k, v in vars(step).items() if k != "text"})
            return turn

    def _reserve(self, iteration: int) -> Hold | LoopOutcome | None:
        """Reserve the next call's worst case against the budget: the hold, None when nothing is counted, or
        the outcome when the budget refuses the call."""
        if self.budget is None or getattr(self.provider, "local", False):
            return None
        priced = self.model or str(getattr(self.provider, "model", None) or self.provider.name)
        prompt_bytes = self.fixed_bytes + sum(_measure(message, self.measured) for message in self.messages)
        try:
            return self.budget.reserve(priced, prompt_bytes, self.limits.max_tokens)
        except BudgetExhausted as refused:
            self.emit("agent.budget.refused", "warn", {"iteration": iteration, "model": priced})
            return self.finish(Outcome.BUDGET_EXHAUSTED, iteration - 1, error=refused.as_dict())

    def _after_error(
        self, error: ProviderError, iteration: int, retries: int, t0: float
    ) -> LoopOutcome | None:
        """What a failed call (after ``retries`` retries) leads to: None after the pause before a retry, or
        the outcome that ends the run."""
        duration = int((time.monotonic() - t0) * 1000)
        self.emit(
            "agent.model.call",
            "error",
            {"iteration": iteration, "duration_ms": duration, "retry": retries, **error.as_dict()},
        )
        if error.kind == "aborted":
            return self.finish(Outcome.ABORTED, iteration, error={"type": "aborted"})
        if error.kind == "timeout" and time.monotonic() >= self.deadline:
            return self.finish(Outcome.TIMEOUT, iteration, error={"type": "timeout"})
        wait = self.policy.wait_s(error, retries + 1)
        left = self.deadline - time.monotonic()
        if wait is not None and wait + MIN_CALL_AFTER_RETRY_S <= left:
            self.emit(
                "agent.model.retry", "warn", {"iteration": iteration, "retry": retries + 1, "wait_s": wait}
            )
            if _pause(wait, self.abort):
                return self.finish(Outcome.ABORTED, iteration, error={"type": "aborted"})
            return None
        failed = error.as_dict()
        if wait is not None:
            # The provider may answer after the pause, but not within this run: say why we stopped.
            failed["retry_after_s"] = round(wait, 3)
            failed["message"] += (
                f" (a retry after {wait:.1f} s would not fit the {self.limits.run_budget_s:g} s run budget)"
            )
        return self.finish(Outcome.PROVIDER_ERROR, iteration, error=failed)

    def ended(self, turn: Turn, iteration: int) -> LoopOutcome | None:
        """The outcome when ``turn`` ends the run (any stop reason but a tool use with calls), else None."""
        if turn.stop_reason is StopReason.REFUSAL:
            return self.finish(
                Outcome.REFUSAL,
                iteration,
                last_turn=turn,
                error={"type": "refusal", "category": turn.refusal_category},
            )
        if turn.stop_reason is StopReason.MAX_TOKENS:
            # Never run tools from a truncated turn: its calls may be cut off mid-thought.
            return self.finish(Outcome.MAX_TOKENS, iteration, last_turn=turn, text=turn.text)
        if turn.stop_reason is StopReason.END_TURN:
            return self.finish(Outcome.END_TURN, iteration, last_turn=turn, text=turn.text)
        if turn.stop_reason is not StopReason.TOOL_USE or not turn.tool_calls:
            return self.finish(
                Outcome.UNEXPECTED_STOP,
                iteration,
                last_turn=turn,
                error={
                    "type": "unexpected_stop",
                    "stop_reason": turn.raw_stop_reason or turn.stop_reason.value,
                },
            )
        return None

    def tool_calls(self, turn: Turn, iteration: int) -> LoopOutcome | None:
        """Run the turn's tool calls in order (inside the app's ``tool_batch``) and add the turn and all its
        results to the conversation; the outcome when a bound or an abort stops the run, else None."""
        self.messages.append(AssistantTurn(turn))
        results: list[ToolResult] = []
        with self.tool_batch() if self.tool_batch is not None else nullcontext():
            for call in turn.tool_calls:  # in order: handlers share the run context
                if self.trace.tool_calls >= self.limits.max_tool_calls:
                    self.messages.append(ToolResults(tuple(results)))
                    return self.finish(
                        Outcome.TOOL_LIMIT,
                        iteration,
                        last_turn=turn,
                        error={"type": "tool_limit", "limit": self.limits.max_tool_calls},
                    )
                if self.abort is not None and self.abort.is_set():
                    return self.finish(Outcome.ABORTED, iteration, error={"type": "aborted"})
                local = call.local if self.local else None
                result = dispatch(self.registry, self.ctx, call, self.trace, local=local)
                last = self.trace.steps[-1]  # dispatch's own tool_call step
                duration_ms = last.duration_ms if isinstance(last, ToolCallStep) else 0
                self.emit(
                    "agent.tool.call",
                    "warn" if result.is_error else "info",
                    {"tool": call.name, "is_error": result.is_error, "duration_ms": duration_ms},
                )
                results.append(result)
        self.messages.append(ToolResults(tuple(results)))
        return None


def _pause(seconds: float, abort: threading.Event | None) -> bool:
    """Wait ``seconds`` before a retry; True when the client left meanwhile (the wait ends at once)."""
    if abort is None:
        time.sleep(seconds)
        return False
    return abort.wait(seconds)


def _call(provider: Provider, request: ModelRequest, abort: threading.Event | None, deadline: float) -> Turn:
    """Call the provider on a worker, so that the run's deadline and an abort (a disconnect) end the wait at once.

    Either also cancels the call itself: the adapter's pooled transport closes the call's connection, so the
    provider stops generating an answer nobody will read (docs/providers.md). A provider marked ``local`` (an
    offline planner computing its turn in process, in milliseconds) is called directly: the hop to a worker
    would cost more than the call, and the abort and deadline are checked between calls."""
    if getattr(provider, "local", False):
        return provider.complete(request)
    cancel = CallCancel()
    future: Future[Turn] = _executor.submit(provider.complete, replace(request, cancel=cancel))
    try:
        while True:
            try:
                return future.result(timeout=0.05)
            except TimeoutError:
                if abort is not None and abort.is_set():
                    raise ProviderError("aborted", "the client went away") from None
                if time.monotonic() > deadline:
                    raise ProviderError(
                        "timeout", "the model call did not finish within the run budget"
                    ) from None
    except BaseException:
        # An abort, the deadline, or the waiting thread interrupted (Ctrl+C in the CLI): the call must not go
        # on without a reader (a process would also wait for it before exiting). After the call ended
        # (its own error) this touches nothing.
        future.cancel()
        cancel.cancel()
        raise


# The size of a system prompt and tool list, by the list's identity: a registry builds its read-only specs once,
# so the same list comes back on every run, and serializing it was a good part of a run's own work. The list
# is kept with its size, so its id cannot be reused while the entry lives.
_FIXED: dict[tuple[int, str], tuple[Sequence[dict[str, Any]], int]] = {}
_FIXED_KEPT = 64


def _fixed_bytes(system: str, tools: Sequence[dict[str, Any]]) -> int:
    return len(system.encode()) + len(json.dumps(tools).encode())


def _registry_fixed_bytes(system: str, tools: Sequence[dict[str, Any]]) -> int:
    """:func:`_fixed_bytes` of a registry's read-only specs (``ToolRegistry.specs``), computed once per list."""
    key = (id(tools), system)
    known = _FIXED.get(key)
    if known is not None and known[0] is tools:
        return known[1]
    size = _fixed_bytes(system, tools)
    if len(_FIXED) >= _FIXED_KEPT:
        _FIXED.clear()
    _FIXED[key] = (tools, size)
    return size


def _message_bytes(message: Message) -> int:
    if isinstance(message, UserText):
        return len(message.text.encode())
    if isinstance(message, AssistantTurn):
        turn = message.turn
        if turn.native is not None:
            # What goes back is the provider's own content: thinking blocks, signatures, reasoning items.
            return len(json.dumps(turn.native, default=str).encode())
        return len((turn.text or "").encode()) + sum(
            len(json.dumps(c.arguments, default=str).encode()) + len(c.name) for c in turn.tool_calls
        )
    return sum(len(json.dumps(r.content, default=str).encode()) for r in message.results)


def fit_request(messages: list[Message], system: str, tools: Sequence[dict[str, Any]], limit: int) -> bool:
    """Trim the oldest tool results to a stub until the request fits; False when it cannot fit."""
    return _fit(messages, _fixed_bytes(system, tools), limit, {})


def _measure(message: Message, measured: dict[int, tuple[Message, int]]) -> int:
    known = measured.get(id(message))
    if known is not None and known[0] is message:  # the object is kept, so its id cannot be reused
        return known[1]
    size = _message_bytes(message)
    measured[id(message)] = (message, size)
    return size


def _fit(messages: list[Message], fixed: int, limit: int, measured: dict[int, tuple[Message, int]]) -> bool:
    # Each message is measured once per run (``measured``); trimming measures only the stub it made.
    sizes = [_measure(message, measured) for message in messages]
    if fixed + sum(sizes) <= limit:
        return True
    for index, message in enumerate(messages):
        if not isinstance(message, ToolResults):
            continue
        stubbed = tuple(r if r.content == TRIMMED else replace(r, content=TRIMMED) for r in message.results)
        messages[index] = ToolResults(stubbed)
        sizes[index] = _measure(messages[index], measured)
        if fixed + sum(sizes) <= limit:
            return True
    return False
