"""Gemini through the official ``google-genai`` SDK (``models.generate_content``).

Tools go out as function *declarations* with ``parameters_json_schema``, and automatic function calling
is off, so the SDK never runs Python callables itself: calls come back as ``functionCall`` parts, which
this adapter turns into neutral tool calls for the loop's dispatcher. The SDK makes no retries (no
``HttpRetryOptions``); ``max_retries`` and ``retry_initial_delay_s`` here are the loop's retry policy for calls
on this adapter (``shopfloor.agent.retry``), which also reads the ``RetryInfo`` delay of a 429's body.
"""

from __future__ import annotations

from typing import Any

import httpx2
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

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
    jsonable,
)
from shopfloor.agent.providers.transport import bound_to
from shopfloor.agent.retry import RetryPolicy, google_retry_delay_s, retry_after_s

DEFAULT_MODEL = "gemini-2.5-flash-lite"
API_VERSION = "v1beta"

# Finish reasons that mean the model (or a filter in front of it) declined to answer.
REFUSAL_REASONS = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "MODEL_ARMOR",
    }
)


class GeminiProvider:
    """A :class:`~shopfloor.agent.providers.base.Provider` over ``google-genai``."""

    name = "gemini"

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        http_client: httpx2.Client | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_initial_delay_s: float = RetryPolicy.initial_delay_s,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.model = model
        self._errors = CallErrors("Gemini", api_key)
        self.retry = RetryPolicy(max_retries=max_retries, initial_delay_s=retry_initial_delay_s)
        # Pinned to v1beta (the function-calling surface this adapter and its recordings were checked against),
        # not the SDK default. No retry_options: without them the SDK makes one attempt; the loop retries.
        options = types.HttpOptions(
            api_version=API_VERSION,
            httpx_client=http_client,
            timeout=int(timeout_s * 1000),
        )
        self._client = genai.Client(api_key=api_key, http_options=options)

    def close(self) -> None:
        """Close the SDK client (and the connections it holds)."""
        self._client.close()

    def complete(self, request: ModelRequest) -> Turn:
        """One ``generate_content`` call, mapped to a neutral turn."""
        model = request.model or self.model
        try:
            with bound_to(request.cancel):  # an abort closes this call's connection
                response = self._client.models.generate_content(
                    model=model, contents=build_contents(request), config=build_config(request, model)
                )
            # Reading the answer is inside the error mapping, like the call itself.
            return parse_response(response, model)
        except genai_errors.APIError as error:
            headers = error.response.headers if isinstance(error.response, httpx2.Response) else None
            wait = retry_after_s(headers)
            if wait is None:
                wait = google_retry_delay_s(error.details)
            raise self._errors.status(error.code, error.status, error.message or "", wait) from None
        except httpx2.TimeoutException:
            raise self._errors.timeout() from None
        except httpx2.TransportError as error:
            raise self._errors.connection(type(error).__name__) from None
        except PARSE_ERRORS as error:
            raise self._errors.bad_response(error) from None


def function_calling_mode(model: str) -> types.FunctionCallingConfigMode:
    """VALIDATED (arguments constrained to the schema) where the model table says the model accepts it,
    else AUTO (which does not constrain them; dispatch still validates every call)."""
    info = model_info(model)
    if info is not None and info.validated_calls:
        return types.FunctionCallingConfigMode.VALIDATED
    return types.FunctionCallingConfigMode.AUTO


def build_config(request: ModelRequest, model: str) -> types.GenerateContentConfig:
    """System instruction, function declarations in registry order, and the call's bounds."""
    declarations = [
        types.FunctionDeclaration(
            name=spec["name"], description=spec["description"], parameters_json_schema=spec["parameters"]
        )
        for spec in request.tools
    ]
    return types.GenerateContentConfig(
        system_instruction=request.system,
        tools=[types.Tool(function_declarations=declarations)] if declarations else None,
        tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(mode=function_calling_mode(model))
        )
        if declarations
        else None,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        max_output_tokens=request.max_tokens,
        http_options=types.HttpOptions(timeout=max(1, int(request.timeout_s * 1000))),
    )


def build_contents(request: ModelRequest) -> list[types.Content]:
    """Neutral messages as Gemini contents; earlier model turns go back exactly as they came."""
    contents: list[types.Content] = []
    real_ids: set[str] = set()
    for message in request.messages:
        if isinstance(message, UserText):
            contents.append(types.Content(role="user", parts=[types.Part(text=message.text)]))
        elif isinstance(message, AssistantTurn):
            native = message.turn.native
            content = types.Content.model_validate(native) if native else _content_from_turn(message.turn)
            real_ids = {
                p.function_call.id for p in content.parts or [] if p.function_call and p.function_call.id
            }
            contents.append(content)
        elif isinstance(message, ToolResults):
            parts = [_function_response(result, real_ids) for result in message.results]
            contents.append(types.Content(role="user", parts=parts))
    return contents


def _function_response(result: Any, real_ids: set[str]) -> types.Part:
    content = jsonable(result.content)
    payload = {"error": content} if result.is_error else {"output": content}
    # Only echo an id the model gave; synthesized ids exist for our dispatcher, not for Gemini.
    call_id = result.call_id if result.call_id in real_ids else None
    return types.Part(
        function_response=types.FunctionResponse(id=call_id, name=result.name, response=payload)
    )


def _content_from_turn(turn: Turn) -> types.Content:
    """A model turn that did not come from Gemini (no native parts), rebuilt from neutral fields."""
    parts = [types.Part(text=turn.text)] if turn.text else []
    parts += [
        types.Part(
            function_call=types.FunctionCall(
                name=c.name, args=c.arguments if isinstance(c.arguments, dict) else {}
            )
        )
        for c in turn.tool_calls
    ]
    return types.Content(role="model", parts=parts)


def parse_response(response: types.GenerateContentResponse, requested_model: str) -> Turn:
    """A neutral turn from a ``GenerateContentResponse``: calls are detected from the parts."""
    usage = parse_usage(response.usage_metadata)
    model = _served_model(response.model_version, requested_model)
    candidate = response.candidates[0] if response.candidates else None
    if candidate is None:
        # No candidate at all: the prompt itself was blocked.
        feedback = response.prompt_feedback
        reason = _enum_name(feedback.block_reason) if feedback and feedback.block_reason else "BLOCKED"
        return Turn(
            StopReason.REFUSAL,
            usage=usage,
            model=model,
            raw_id=response.response_id,
            raw_stop_reason=reason,
            refusal_category=reason,
        )
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    texts = [p.text for p in parts if p.text and not p.thought]
    calls = tuple(
        ToolCall(
            p.function_call.id or f"{response.response_id or 'gemini'}-call-{index}",
            p.function_call.name or "",
            p.function_call.args if p.function_call.args is not None else {},
        )
        for index, p in enumerate(parts)
        if p.function_call is not None
    )
    reason = _enum_name(candidate.finish_reason) if candidate.finish_reason else "UNSPECIFIED"
    native = candidate.content.model_dump(mode="json", exclude_none=True) if candidate.content else None
    return Turn(
        stop_reason=_stop_reason(reason, bool(calls)),
        text="".join(texts) or None,
        tool_calls=calls,
        usage=usage,
        model=model,
        raw_id=response.response_id,
        raw_stop_reason=reason,
        native=native,
        refusal_category=reason if reason in REFUSAL_REASONS else None,
    )


def _stop_reason(reason: str, has_calls: bool) -> StopReason:
    if reason == "STOP":
        return StopReason.TOOL_USE if has_calls else StopReason.END_TURN
    if reason == "MAX_TOKENS":
        return StopReason.MAX_TOKENS
    if reason in REFUSAL_REASONS:
        return StopReason.REFUSAL
    return StopReason.OTHER


def parse_usage(meta: types.GenerateContentResponseUsageMetadata | None) -> Usage:
    """Gemini's prompt count includes cached tokens; neutral input excludes them. Thoughts are output."""
    if meta is None:
        return Usage()
    cached = count(meta.cached_content_token_count)
    prompt = count(meta.prompt_token_count) + count(meta.tool_use_prompt_token_count)
    return Usage(
        input_tokens=max(0, prompt - cached),
        output_tokens=count(meta.candidates_token_count) + count(meta.thoughts_token_count),
        cache_read=cached,
        cache_write=0,
    )


def _served_model(version: str | None, requested: str) -> str:
    if not version:
        return requested
    return version.removeprefix("models/")


def _enum_name(value: Any) -> str:
    return str(getattr(value, "value", value))
