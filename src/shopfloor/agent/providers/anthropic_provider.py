"""Claude through the official ``anthropic`` SDK (the beta Messages API; docs/providers.md).

Each call sends: the system prompt as one cached block (``cache_control: ephemeral`` caches system plus
tools), every tool with ``strict: true`` in registry order, ``tool_choice: auto``, the thinking form and
``output_config.effort`` the model table gives the model, and the server-side fallback beta (``fallbacks: "default"``). Thinking blocks go
back unchanged on the next request. The SDK makes no retries (``max_retries=0``); ``max_retries`` here is
the loop's retry policy for calls on this adapter (``shopfloor.agent.retry``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import anthropic
import httpx2
from anthropic.types.beta import BetaMessage

from shopfloor.agent.capabilities import model_info
from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
    Usage,
    UserText,
)
from shopfloor.agent.providers.common import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    PARSE_ERRORS,
    CallErrors,
    count,
    result_text,
)
from shopfloor.agent.providers.transport import bound_to
from shopfloor.agent.retry import RetryPolicy, retry_after_s

DEFAULT_MODEL = "claude-opus-5-5"
FALLBACK_BETA = "server-side-fallback-2026-07-01"

_STOP_REASONS = {
    "end_turn": StopReason.END_TURN,
    "stop_sequence": StopReason.END_TURN,
    "tool_use": StopReason.TOOL_USE,
    "max_tokens": StopReason.MAX_TOKENS,
    # The context window filled up mid-answer: the turn is truncated just like max_tokens.
    "model_context_window_exceeded": StopReason.MAX_TOKENS,
    "refusal": StopReason.REFUSAL,
}

Effort = Literal["low", "medium", "high", "xhigh", "max"]


# The API's smallest thinking budget; a budget must also stay under max_tokens.
MIN_THINKING_BUDGET = 1024


@dataclass(frozen=True)
class ClaudeOptions:
    """The per-call options we send by default; switch them off for a model that rejects them. Thinking and effort are
    sent only in the form the model table gives the model (docs/providers.md)."""

    thinking: bool = True  # thinking (counts toward max_tokens): adaptive, or with a budget on older models
    effort: Effort | None = "medium"
    fallbacks: bool = True  # server-side fallback on a policy decline (beta)
    thinking_budget: int = 4000  # budget_tokens for models without adaptive thinking (at most max_tokens / 2)


def thinking_param(form: str, max_tokens: int, budget: int) -> dict[str, Any] | None:
    """The ``thinking`` option for a model whose table form is ``form`` (adaptive, budget or none): a budget
    is cut to half of ``max_tokens`` so an answer still fits, and dropped when under the API's minimum."""
    if form == "adaptive":
        return {"type": "adaptive"}
    if form == "budget":
        tokens = min(budget, max_tokens // 2)
        if tokens >= MIN_THINKING_BUDGET:
            return {"type": "enabled", "budget_tokens": tokens}
    return None


class AnthropicProvider:
    """A :class:`~shopfloor.agent.providers.base.Provider` over ``anthropic``."""

    name = "anthropic"

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        http_client: httpx2.Client | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        options: ClaudeOptions = ClaudeOptions(),
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.model = model
        self.options = options
        self.retry = RetryPolicy(max_retries=max_retries)
        self._errors = CallErrors("Claude", api_key)
        # Each call passes its own (smaller) timeout; the client's bounds any call that does not. The SDK's own
        # retries are off: they would sleep past the run's deadline and a client that left.
        self._client = anthropic.Anthropic(
            api_key=api_key,
            http_client=http_client,
            max_retries=0,
            timeout=timeout_s,
            open_telemetry=False,
        )

    def close(self) -> None:
        """Close the SDK client (and the connections it holds)."""
        self._client.close()

    def complete(self, request: ModelRequest) -> Turn:
        """One ``beta.messages.create`` call, mapped to a neutral turn."""
        model = request.model or self.model
        try:
            with bound_to(request.cancel):  # an abort closes this call's connection
                message = self._client.beta.messages.create(
                    model=model, timeout=request.timeout_s, **build_params(request, model, self.options)
                )
            # Reading the answer is inside the error mapping: the SDK does not validate what it was sent.
            return parse_message(message)
        except anthropic.APITimeoutError:
            raise self._errors.timeout() from None
        except anthropic.APIConnectionError as error:
            raise self._errors.connection(error) from None
        except anthropic.APIStatusError as error:
            detail = error.api_message or error.type or ""
            wait = retry_after_s(error.response.headers)
            raise self._errors.status(error.status_code, error.type, detail, wait) from None
        except (anthropic.AnthropicError, *PARSE_ERRORS) as error:
            raise self._errors.bad_response(error) from None


def build_params(request: ModelRequest, model: str, options: ClaudeOptions) -> dict[str, Any]:
    """The body of one Messages call for ``model``, without ``model`` itself (the SDK adds headers and the
    version). A model missing from the model table gets no thinking and no effort."""
    info = model_info(model)
    params: dict[str, Any] = {
        "max_tokens": request.max_tokens,
        "system": [{"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}],
        "messages": build_messages(request),
    }
    if request.tools:
        params["tools"] = [
            {
                "name": spec["name"],
                "description": spec["description"],
                "input_schema": spec["parameters"],
                "strict": True,
            }
            for spec in request.tools
        ]
        params["tool_choice"] = {"type": "auto"}
    thinking = thinking_param(info.thinking, request.max_tokens, options.thinking_budget) if info else None
    if options.thinking and thinking is not None:
        # The loop may trim an old tool result to fit the byte cap, which changes the messages before a later
        # thinking block; the API then drops that block instead of refusing the request (docs/providers.md).
        params["thinking"] = {**thinking, "block_binding": {"prefix_mismatch_behavior": "drop_block"}}
    if options.effort and info is not None and options.effort in info.efforts:
        params["output_config"] = {"effort": options.effort}
    if options.fallbacks:
        params["betas"] = [FALLBACK_BETA]
        params["fallbacks"] = "default"
    return params


def build_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """Neutral messages as Messages API turns; assistant content goes back exactly as it came."""
    messages: list[dict[str, Any]] = []
    for message in request.messages:
        if isinstance(message, UserText):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantTurn):
            native = message.turn.native
            content = echo_blocks(native) if native else _blocks_from_turn(message.turn)
            messages.append({"role": "assistant", "content": content})
        elif isinstance(message, ToolResults):
            # All results of a turn in one user message, before any text.
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": result.call_id,
                            "content": result_text(result.content),
                            "is_error": bool(result.is_error),
                        }
                        for result in message.results
                    ],
                }
            )
    return messages


# Blocks of the model that declined, dropped from the echo of a turn a server-side fallback served.
_DECLINED_BLOCKS = frozenset({"thinking", "redacted_thinking", "tool_use"})


def echo_blocks(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Claude turn's content as it goes back on the next request: unchanged, except after a server-side
    fallback, where the thinking and client ``tool_use`` blocks before the last ``fallback`` block are
    dropped and that block and everything after it are kept (docs/providers.md)."""
    last = max((i for i, block in enumerate(blocks) if block.get("type") == "fallback"), default=None)
    if last is None:
        return blocks
    kept = [block for block in blocks[:last] if block.get("type") not in _DECLINED_BLOCKS]
    return kept + blocks[last:]


def _blocks_from_turn(turn: Turn) -> list[dict[str, Any]]:
    """Content blocks for a turn that did not come from Claude (no native content)."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": turn.text}] if turn.text else []
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in turn.tool_calls
    ]
    return blocks


def parse_message(message: BetaMessage) -> Turn:
    """A neutral turn from a ``BetaMessage``."""
    # With a server-side fallback, blocks before the last ``fallback`` block came from a model that
    # declined; only the serving model's text and calls count (all blocks still go back unchanged).
    served = list(message.content)
    for index, block in enumerate(message.content):
        if block.type == "fallback":
            served = list(message.content[index + 1 :])
    texts = [block.text for block in served if block.type == "text"]
    calls = tuple(ToolCall(block.id, block.name, block.input) for block in served if block.type == "tool_use")
    raw = message.stop_reason or "unknown"
    category = None
    if raw == "refusal":
        category = message.stop_details.category if message.stop_details else None
    return Turn(
        stop_reason=_STOP_REASONS.get(raw, StopReason.OTHER),
        text="".join(texts) or None,
        tool_calls=calls,
        usage=parse_usage(message),
        model=served_model(message),
        raw_id=message.id,
        raw_stop_reason=raw,
        native=[block.to_dict() for block in message.content],
        refusal_category=category,
    )


def parse_usage(message: BetaMessage) -> Usage:
    """Claude's ``input_tokens`` already excludes cache reads and writes, as the neutral type does."""
    usage = message.usage
    if usage is None:
        return Usage()
    # Absent counts (typed by the SDK, not validated) read as 0.
    return Usage(
        input_tokens=count(getattr(usage, "input_tokens", None)),
        output_tokens=count(getattr(usage, "output_tokens", None)),
        cache_read=count(getattr(usage, "cache_read_input_tokens", None)),
        cache_write=count(getattr(usage, "cache_creation_input_tokens", None)),
    )


def served_model(message: BetaMessage) -> str:
    """The model that produced the answer: a ``fallback_message`` usage entry names the fallback model."""
    for item in getattr(message.usage, "iterations", None) or []:
        if item.type == "fallback_message":
            return str(item.model)
    return str(message.model)
