"""OpenAI-compatible local servers (llama.cpp, Ollama, vLLM, LM Studio) through the ``openai`` SDK's
Chat Completions API (``chat.completions.create`` → ``POST {base_url}/chat/completions``).

llama.cpp's server has Chat Completions only, so this is the one surface every local server shares. Tools go
out as strict function tools in registry order; the assistant's earlier message (text and ``tool_calls``)
goes back as it came, and results as ``tool`` messages in call order. A local model has no price: every
cost reads as unknown (the model is reported as ``openai-compatible/<name>``, which no price row matches).
"""

from __future__ import annotations

import json
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion

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
    parse_json_arguments,
    result_text,
)
from shopfloor.agent.providers.transport import bound_to

MODEL_PREFIX = "openai-compatible/"

_FINISH = {
    "stop": StopReason.END_TURN,
    "tool_calls": StopReason.TOOL_USE,
    "function_call": StopReason.TOOL_USE,
    "length": StopReason.MAX_TOKENS,
    "content_filter": StopReason.REFUSAL,
}


class ChatCompletionsProvider:
    """A :class:`~shopfloor.agent.providers.base.Provider` over a server speaking Chat Completions."""

    name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        http_client: httpx2.Client | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.model = model
        # Local servers usually take no key; the SDK insists on one, so a placeholder is sent.
        key = api_key or "no-key"
        self._errors = CallErrors("The OpenAI-compatible server", api_key)
        self._client = openai.OpenAI(
            api_key=key,
            base_url=base_url,
            http_client=http_client,
            max_retries=max_retries,
            timeout=timeout_s,
        )

    def close(self) -> None:
        """Close the SDK client (and the connections it holds)."""
        self._client.close()

    def complete(self, request: ModelRequest) -> Turn:
        """One ``chat.completions.create`` call, mapped to a neutral turn."""
        model = request.model or self.model
        try:
            with bound_to(request.cancel):  # an abort closes this call's connection
                completion = self._client.chat.completions.create(
                    model=model, timeout=request.timeout_s, **build_params(request)
                )
            return parse_completion(completion, model)
        except openai.APITimeoutError:
            raise self._errors.timeout() from None
        except openai.APIConnectionError as error:
            raise self._errors.connection(error) from None
        except openai.APIStatusError as error:
            body = error.body if isinstance(error.body, dict) else {}
            detail = body.get("message") or error.message
            raise self._errors.status(error.status_code, error.type, detail) from None
        except (openai.OpenAIError, *PARSE_ERRORS) as error:
            raise self._errors.bad_response(error) from None


def build_params(request: ModelRequest) -> dict[str, Any]:
    """The body of one Chat Completions call, without ``model``."""
    params: dict[str, Any] = {"messages": build_messages(request), "max_tokens": request.max_tokens}
    if request.tools:
        params["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": spec["name"],
                    "description": spec["description"],
                    "parameters": spec["parameters"],
                    "strict": True,
                },
            }
            for spec in request.tools
        ]
        params["tool_choice"] = "auto"
    return params


def build_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """Neutral messages as chat messages: system first, the assistant's message as it came, one ``tool``
    message per result (there is no error flag, so an error is said in the content)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
    for message in request.messages:
        if isinstance(message, UserText):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantTurn):
            messages.append(message.turn.native or _message_from_turn(message.turn))
        elif isinstance(message, ToolResults):
            messages.extend(
                {
                    "role": "tool",
                    "tool_call_id": result.call_id,
                    "content": result_text({"error": result.content} if result.is_error else result.content),
                }
                for result in message.results
            )
    return messages


def _message_from_turn(turn: Turn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.text}
    if turn.tool_calls:
        message["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
            }
            for c in turn.tool_calls
        ]
    return message


def parse_completion(completion: ChatCompletion, requested_model: str) -> Turn:
    """A neutral turn from a ``ChatCompletion``; ``arguments`` arrive as JSON strings and are parsed here."""
    choice = completion.choices[0]
    message = choice.message
    calls = tuple(
        ToolCall(call.id, call.function.name, parse_json_arguments(call.function.arguments))
        for call in message.tool_calls or []
        if call.type == "function"
    )
    raw = choice.finish_reason or "unknown"
    stop = _FINISH.get(raw, StopReason.OTHER)
    category = "content_filter" if raw == "content_filter" else None
    if message.refusal:
        stop = StopReason.REFUSAL
    elif stop is StopReason.END_TURN and calls:
        stop = StopReason.TOOL_USE  # some servers say "stop" with calls in the message
    native: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        native["tool_calls"] = [call.to_dict() for call in message.tool_calls]
    return Turn(
        stop_reason=stop,
        text=message.content or None,
        tool_calls=calls,
        usage=parse_usage(completion),
        model=MODEL_PREFIX + str(completion.model or requested_model),
        raw_id=completion.id,
        raw_stop_reason=raw,
        native=native,
        refusal_category=category,
    )


def parse_usage(completion: ChatCompletion) -> Usage:
    """``prompt_tokens`` includes cached tokens when a server reports them; absent counts read as 0."""
    usage = completion.usage
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = count(getattr(details, "cached_tokens", None))
    return Usage(
        input_tokens=max(0, count(getattr(usage, "prompt_tokens", None)) - cached),
        output_tokens=count(getattr(usage, "completion_tokens", None)),
        cache_read=cached,
    )
