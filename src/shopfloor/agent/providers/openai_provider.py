"""OpenAI models through the official ``openai`` SDK (Responses API, ``responses.create``).

Each call sends the system prompt as ``instructions``, strict function tools in registry order,
``tool_choice: auto`` and ``store: false`` (nothing kept server-side; every request carries the whole
conversation). Output items go back unchanged as input items on the next request; for reasoning models
the encrypted reasoning content is requested so those items can be echoed without server-side storage.
The SDK makes no retries (``max_retries=0``); ``max_retries`` here is the loop's retry policy for calls on
this adapter (``shopfloor.agent.retry``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import httpx2
import openai
from openai.types.responses import Response

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
    parse_json_arguments,
    result_text,
)
from shopfloor.agent.providers.transport import bound_to
from shopfloor.agent.retry import RetryPolicy, retry_after_s

DEFAULT_MODEL = "gpt-6.1-terra"

Effort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]


@dataclass(frozen=True)
class OpenAIOptions:
    """Options for reasoning models (ignored for the others; an effort the model does not accept is not
    sent, so the model's own default applies)."""

    effort: Effort | None = "medium"


def is_reasoning_model(model: str) -> bool:
    """Whether the model table marks ``model`` as a reasoning model (it then returns reasoning items).
    A model missing from the table is treated as not reasoning: nothing is sent that it could refuse."""
    info = model_info(model)
    return info is not None and info.reasoning


def accepted_effort(model: str, effort: str | None) -> str | None:
    """``effort`` when the model table says the model accepts it, else None."""
    info = model_info(model)
    return effort if info is not None and effort in info.efforts else None


class OpenAIProvider:
    """A :class:`~shopfloor.agent.providers.base.Provider` over ``openai``."""

    name = "openai"

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        http_client: httpx2.Client | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        options: OpenAIOptions = OpenAIOptions(),
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.model = model
        self.options = options
        self.retry = RetryPolicy(max_retries=max_retries)
        self._errors = CallErrors("OpenAI", api_key)
        # Each call passes its own (smaller) timeout; the client's bounds any call that does not. The SDK's own
        # retries are off: they would sleep past the run's deadline and a client that left.
        self._client = openai.OpenAI(
            api_key=api_key, http_client=http_client, max_retries=0, timeout=timeout_s
        )

    def close(self) -> None:
        """Close the SDK client (and the connections it holds)."""
        self._client.close()

    def complete(self, request: ModelRequest) -> Turn:
        """One ``responses.create`` call, mapped to a neutral turn."""
        model = request.model or self.model
        try:
            with bound_to(request.cancel):  # an abort closes this call's connection
                response = self._client.responses.create(
                    model=model, timeout=request.timeout_s, **build_params(request, model, self.options)
                )
            # Reading the answer is inside the error mapping: the SDK does not validate what it was sent.
            return parse_response(response)
        except openai.APITimeoutError:
            raise self._errors.timeout() from None
        except openai.APIConnectionError as error:
            raise self._errors.connection(error) from None
        except openai.APIStatusError as error:
            body = error.body if isinstance(error.body, dict) else {}
            detail = body.get("message") or error.message
            wait = retry_after_s(error.response.headers)
            raise self._errors.status(error.status_code, error.type, detail, wait) from None
        except (openai.OpenAIError, *PARSE_ERRORS) as error:
            raise self._errors.bad_response(error) from None


def build_params(request: ModelRequest, model: str, options: OpenAIOptions) -> dict[str, Any]:
    """The body of one Responses call, without ``model``."""
    params: dict[str, Any] = {
        "instructions": request.system,
        "input": build_input(request),
        "max_output_tokens": request.max_tokens,
        "store": False,
    }
    if request.tools:
        params["tools"] = [
            {
                "type": "function",
                "name": spec["name"],
                "description": spec["description"],
                "parameters": spec["parameters"],
                "strict": True,
            }
            for spec in request.tools
        ]
        params["tool_choice"] = "auto"
    if is_reasoning_model(model):
        # With store false, a reasoning item can only go back with its encrypted content (else the API
        # answers "Item with id 'rs_...' not found"), so every reasoning model is asked for it.
        params["include"] = ["reasoning.encrypted_content"]
        effort = accepted_effort(model, options.effort)
        if effort:
            params["reasoning"] = {"effort": effort}
    return params


def build_input(request: ModelRequest) -> list[dict[str, Any]]:
    """Neutral messages as Responses input items; earlier output items go back exactly as they came."""
    items: list[dict[str, Any]] = []
    for message in request.messages:
        if isinstance(message, UserText):
            items.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantTurn):
            # With store false, a reasoning item without its encrypted content is refused on the next call
            # ("Item with id 'rs_...' not found"): it only comes back so for a model the table does not mark
            # as reasoning (no include was asked), and it is dropped rather than failing call two.
            items.extend(
                item
                for item in message.turn.native or _items_from_turn(message.turn)
                if not (
                    isinstance(item, dict)
                    and item.get("type") == "reasoning"
                    and not item.get("encrypted_content")
                )
            )
        elif isinstance(message, ToolResults):
            items.extend(
                {
                    "type": "function_call_output",
                    "call_id": result.call_id,
                    # The Responses API has no error flag on an output: the error is said in the output.
                    "output": result_text({"error": result.content} if result.is_error else result.content),
                }
                for result in message.results
            )
    return items


def _items_from_turn(turn: Turn) -> list[dict[str, Any]]:
    """Input items for a turn that did not come from OpenAI (no native output items)."""
    items: list[dict[str, Any]] = [{"role": "assistant", "content": turn.text}] if turn.text else []
    items += [
        {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": json.dumps(c.arguments)}
        for c in turn.tool_calls
    ]
    return items


def parse_response(response: Response) -> Turn:
    """A neutral turn from a ``Response``. ``arguments`` arrive as JSON strings and are parsed here."""
    texts: list[str] = []
    refused = False
    calls: list[ToolCall] = []
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "output_text":
                    texts.append(part.text)
                elif part.type == "refusal":
                    refused = True
        elif item.type == "function_call":
            calls.append(ToolCall(item.call_id, item.name, parse_json_arguments(item.arguments)))
    stop, raw, category = _stop(response, refused, bool(calls))
    return Turn(
        stop_reason=stop,
        text="".join(texts) or None,
        tool_calls=tuple(calls),
        usage=parse_usage(response),
        model=str(response.model),
        raw_id=response.id,
        raw_stop_reason=raw,
        native=[item.to_dict() for item in response.output],
        refusal_category=category,
    )


def _stop(response: Response, refused: bool, has_calls: bool) -> tuple[StopReason, str, str | None]:
    status = response.status or "completed"
    if status == "incomplete":
        reason = response.incomplete_details.reason if response.incomplete_details else None
        if reason == "max_output_tokens":
            return StopReason.MAX_TOKENS, "max_output_tokens", None
        if reason == "content_filter":
            return StopReason.REFUSAL, "content_filter", "content_filter"
        return StopReason.OTHER, f"incomplete:{reason}", None
    if status != "completed":
        return StopReason.OTHER, status, None
    if refused:
        return StopReason.REFUSAL, "refusal", None
    if has_calls:
        return StopReason.TOOL_USE, "function_call", None
    return StopReason.END_TURN, "completed", None


def parse_usage(response: Response) -> Usage:
    """OpenAI's ``input_tokens`` includes cached and cache-written tokens; neutral input excludes them."""
    usage = response.usage
    if usage is None:
        return Usage()
    # Any field may be missing (typed by the SDK, not validated): absent counts read as 0.
    details = getattr(usage, "input_tokens_details", None)
    cached = count(getattr(details, "cached_tokens", None))
    written = count(getattr(details, "cache_write_tokens", None))
    return Usage(
        input_tokens=max(0, count(getattr(usage, "input_tokens", None)) - cached - written),
        output_tokens=count(getattr(usage, "output_tokens", None)),
        cache_read=cached,
        cache_write=written,
    )
