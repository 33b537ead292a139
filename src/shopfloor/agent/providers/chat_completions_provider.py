"""OpenAI-compatible local servers (llama.cpp, Ollama, vLLM, LM Studio, LocalAI, TGI) through the ``openai``
SDK's Chat Completions API (``chat.completions.create`` → ``POST {base_url}/chat/completions``).

llama.cpp's server has Chat Completions only, so this is the one surface every local server shares. Tools go
out as function tools in registry order (strict when the server profile says so); the assistant's earlier
message (text and ``tool_calls``, normalized) goes back, and results as ``tool`` messages in call order.

Servers differ in small ways whose meaning is unambiguous, and the reader takes them all: a tool call
without ``type``, a missing, empty or repeated call id (one is generated, and sent back so the results
match), the finish variants ``tool_call``, ``function_calls``, ``eos``, ``eos_token`` or none at all when the
message holds tool calls, and arguments as an object instead of a JSON string. What a server must be told
comes from its :class:`~shopfloor.agent.providers.profiles.chat_completions.ServerProfile`
(docs/providers.md, "Server profiles"). A local model has no price: every cost reads as unknown (the model is
reported as ``openai-compatible/<name>``, which no price row matches).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    ProviderError,
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
from shopfloor.agent.providers.profiles.chat_completions import (
    SERVER_PROFILES,
    SERVER_SETTINGS,
    ServerProfile,
)
from shopfloor.agent.providers.transport import bound_to
from shopfloor.agent.retry import RetryPolicy, retry_after_s

MODEL_PREFIX = "openai-compatible/"

# Finish reasons servers send, by meaning. Any of the end or tool-call variants (or none at all) with tool
# calls in the message is a tool-use turn; ``stop`` with calls too (some servers say so).
_TOOL_FINISH = frozenset({"tool_calls", "tool_call", "function_call", "function_calls"})
_END_FINISH = frozenset({"stop", "eos", "eos_token", "end_turn", "stop_sequence"})
_FINISH = {"length": StopReason.MAX_TOKENS, "content_filter": StopReason.REFUSAL}


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
        server: ServerProfile = SERVER_PROFILES["openai"],
    ) -> None:
        self.model = model
        self.server = server
        self.retry = RetryPolicy(max_retries=max_retries)  # the loop's; the SDK makes none
        # Local servers usually take no key; the SDK insists on one, so a placeholder is sent.
        key = api_key or "no-key"
        self._errors = CallErrors("The OpenAI-compatible server", api_key)
        self._client = openai.OpenAI(
            api_key=key,
            base_url=base_url,
            http_client=http_client,
            max_retries=0,
            timeout=timeout_s,
        )

    def close(self) -> None:
        """Close the SDK client (and the connections it holds)."""
        self._client.close()

    def complete(self, request: ModelRequest) -> Turn:
        """One ``chat.completions.create`` call, mapped to a neutral turn."""
        model = request.model or self.model
        params = build_params(request, self.server)  # may refuse a request the server's context cannot take
        try:
            with bound_to(request.cancel):  # an abort closes this call's connection
                completion = self._client.chat.completions.create(
                    model=model, timeout=request.timeout_s, **params
                )
            return parse_completion(completion, model)
        except openai.APITimeoutError:
            raise self._errors.timeout() from None
        except openai.APIConnectionError as error:
            raise self._errors.connection(error) from None
        except openai.APIStatusError as error:
            body = error.body if isinstance(error.body, dict) else {}
            detail = body.get("message") or error.message
            wait = retry_after_s(error.response.headers)
            failure = self._errors.status(error.status_code, error.type, detail, wait)
            if error.status_code in (400, 422):
                # A local server that refuses a well-formed request usually wants to be told something.
                hint = f"{failure} (the server refused the request; {refusal_hint(str(detail))})"
                raise ProviderError(failure.kind, hint, failure.status) from None
            raise failure from None
        except (openai.OpenAIError, *PARSE_ERRORS) as error:
            raise self._errors.bad_response(error) from None


# What a refusal's text says the server wants, and the setting that tells it so, most specific first: a
# message about ``tool_choice`` also says "tool", one about the context also says "tokens".
_REFUSAL_HINTS = (
    (("tool_choice",), "set SHOPFLOOR_SERVER_TOOL_CHOICE=false or SHOPFLOOR_SERVER_PROFILE=minimal"),
    (("strict",), "set SHOPFLOOR_SERVER_STRICT=false or SHOPFLOOR_SERVER_PROFILE=no-strict"),
    (
        ("context", "n_ctx", "too long", "max_tokens", "maximum length"),
        "set SHOPFLOOR_SERVER_CONTEXT_TOKENS to the server's context size",
    ),
    (
        ("support tools", "support tool", "tools are not supported", "tool calling"),
        "the server's model takes no tools: set SHOPFLOOR_MODEL to a model with tool calling "
        "(SHOPFLOOR_SERVER_PROFILE cannot turn tools off)",
    ),
)


def refusal_hint(detail: str) -> str:
    """Which setting a server's refusal ``detail`` points to (docs/providers.md, "Server profiles"); every
    server setting when the text names none of them."""
    text = detail.lower()
    for words, hint in _REFUSAL_HINTS:
        if any(word in text for word in words):
            return hint
    return f"see {', '.join(SERVER_SETTINGS)}"


def build_params(request: ModelRequest, server: ServerProfile = SERVER_PROFILES["openai"]) -> dict[str, Any]:
    """The body of one Chat Completions call, without ``model``: strict tools and ``tool_choice`` as the
    ``server`` profile allows, ``max_tokens`` bounded by what its context leaves after the prompt (measured
    only when the profile knows its context size)."""
    messages = build_messages(request)
    params: dict[str, Any] = {"messages": messages}
    if request.tools:
        tools = []
        for spec in request.tools:
            function: dict[str, Any] = {
                "name": spec["name"],
                "description": spec["description"],
                "parameters": spec["parameters"],
            }
            if server.strict:
                function["strict"] = True
            tools.append({"type": "function", "function": function})
        params["tools"] = tools
        if server.tool_choice:
            params["tool_choice"] = "auto"
    if server.context_tokens is None:
        # No context size known: max_tokens as the loop asks, and the request is not serialized to measure it.
        params["max_tokens"] = request.max_tokens
        return params
    prompt_bytes = len(json.dumps(params, ensure_ascii=False).encode())
    budget = server.output_budget(prompt_bytes, request.max_tokens)
    if budget is None:
        raise ProviderError(
            "api",
            f"the request (about {prompt_bytes} bytes) leaves no room for an answer in the server's context "
            f"of {server.context_tokens} tokens (SHOPFLOOR_SERVER_CONTEXT_TOKENS)",
        )
    params["max_tokens"] = budget
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
        message["tool_calls"] = [_wire_call(c.id, c.name, c.arguments) for c in turn.tool_calls]
    return message


def _wire_call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    """One tool call as every server takes it back: an id, ``type: function`` and JSON-string arguments."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


def _arguments(raw: Any) -> Any:
    """Arguments as a JSON string (the documented form) or as an object (some servers); none at all is
    an empty object. Anything else goes to dispatch as it is, which rejects it with an actionable error."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        return parse_json_arguments(raw)
    return raw


def _text(content: Any) -> str | None:
    """The message text: a string, or a list of text parts (some servers), joined."""
    if isinstance(content, list):
        parts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        content = "".join(str(part) for part in parts)
    return content or None if isinstance(content, str) else None


def parse_completion(completion: ChatCompletion, requested_model: str) -> Turn:
    """A neutral turn from a ``ChatCompletion``, read from the body as the server sent it (the SDK does not
    validate it): tool calls with or without ``type``, ids generated where missing, empty or repeated."""
    raw_body: dict[str, Any] = completion.to_dict(warnings=False)
    choice: dict[str, Any] = raw_body["choices"][0]
    message = choice.get("message") or {}
    calls: list[ToolCall] = []
    wire: list[dict[str, Any]] = []
    seen: set[str] = set()
    for call in message.get("tool_calls") or []:
        if call.get("type") not in (None, "function") or not isinstance(call.get("function"), dict):
            continue  # another kind of tool (none that we offer)
        function = call["function"]
        call_id = call.get("id")
        if not isinstance(call_id, str) or not call_id or call_id in seen:
            call_id = f"call_{uuid.uuid4().hex[:24]}"  # sent back with the results, so they match
        seen.add(call_id)
        name = str(function.get("name") or "")
        sent = function.get("arguments")
        arguments = _arguments(sent)
        calls.append(ToolCall(call_id, name, arguments))
        # A JSON string goes back exactly as it came; an object or nothing goes back as a JSON string.
        wire.append(_wire_call(call_id, name, sent if isinstance(sent, str) and sent else arguments))
    raw = choice.get("finish_reason")
    if message.get("refusal"):
        stop = StopReason.REFUSAL
    elif calls and (raw is None or raw in _TOOL_FINISH or raw in _END_FINISH):
        stop = StopReason.TOOL_USE
    elif raw in _TOOL_FINISH:
        stop = StopReason.TOOL_USE  # no calls: the loop ends it as an unexpected stop
    elif raw in _END_FINISH:
        stop = StopReason.END_TURN
    else:
        stop = _FINISH.get(str(raw), StopReason.OTHER)
    text = _text(message.get("content"))
    native: dict[str, Any] = {"role": "assistant", "content": text}
    if wire:
        native["tool_calls"] = wire
    return Turn(
        stop_reason=stop,
        text=text,
        tool_calls=tuple(calls),
        usage=parse_usage(raw_body.get("usage")),
        model=MODEL_PREFIX + str(raw_body.get("model") or requested_model),
        raw_id=str(raw_body["id"]) if isinstance(raw_body.get("id"), str) else None,
        raw_stop_reason=str(raw) if raw is not None else "none",
        native=native,
        refusal_category="content_filter" if raw == "content_filter" else None,
    )


def parse_usage(usage: Any) -> Usage:
    """``prompt_tokens`` includes cached tokens when a server reports them; absent counts read as 0."""
    if not isinstance(usage, dict):
        return Usage()
    details = usage.get("prompt_tokens_details")
    cached = count(details.get("cached_tokens") if isinstance(details, dict) else None)
    return Usage(
        input_tokens=max(0, count(usage.get("prompt_tokens")) - cached),
        output_tokens=count(usage.get("completion_tokens")),
        cache_read=cached,
    )
