"""Small pieces every SDK adapter shares: result rendering, argument parsing and safe error text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from shopfloor.agent.providers.base import ProviderError

# How many characters of a provider's own error message we keep (enough to act on, short for logs).
MAX_ERROR_CHARS = 300
DEFAULT_MAX_RETRIES = 2
# Seed 000: CALL_TIMEOUT_MS = 25000. The loop passes a smaller one when the run budget is nearly spent.
DEFAULT_TIMEOUT_S = 25.0
# Key-shaped strings, masked or not (servers sometimes quote part of a rejected key back).
_KEY_LIKE = re.compile(r"\b(?:sk-|sk_|AIza)[A-Za-z0-9_\-*.]{6,}")


def result_text(content: Any) -> str:
    """A tool result as the text a provider expects: strings as they are, anything else as JSON."""
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False, default=str)


def jsonable(content: Any) -> Any:
    """A tool result as plain JSON values (dates and the like become strings, as in ``result_text``)."""
    return json.loads(json.dumps(content, ensure_ascii=False, default=str))


def parse_json_arguments(raw: str) -> Any:
    """Arguments sent as a JSON string. A malformed string is returned as-is, so dispatch rejects it
    (it is not an object) and the model sees an actionable error instead of the run crashing."""
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return raw


def safe_message(text: object, secret: str | None) -> str:
    """Provider error text cut to a readable length, with the key removed if a server ever echoed it."""
    message = " ".join(str(text).split())
    if secret:
        message = message.replace(secret, "[redacted]")
    message = _KEY_LIKE.sub("[redacted]", message)
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 3] + "..."
    return message


def error_kind(status: int | None) -> str:
    """The ProviderError kind for an HTTP status."""
    return "rate_limit" if status == 429 else "api"


@contextmanager
def stainless_errors(
    sdk: ModuleType, base_error: type[Exception], label: str, secret: str, detail: Callable[[Any], object]
) -> Iterator[None]:
    """Turn the exceptions of the ``anthropic`` and ``openai`` SDKs (one shared hierarchy) into
    ProviderError. ``detail(error)`` picks the provider's own message from a status error."""
    try:
        yield
    except sdk.APITimeoutError:
        raise ProviderError("timeout", f"{label} did not answer within the call timeout") from None
    except sdk.APIConnectionError as error:
        raise ProviderError("connection", f"could not reach {label}: {safe_message(error, secret)}") from None
    except sdk.APIStatusError as error:
        kind = f" {error.type}" if getattr(error, "type", None) else ""
        raise ProviderError(
            error_kind(error.status_code),
            f"{label} API error {error.status_code}{kind}: {safe_message(detail(error), secret)}",
            error.status_code,
        ) from None
    except base_error as error:
        raise ProviderError(
            "bad_response", f"{label} answered in an unexpected shape: {safe_message(error, secret)}"
        ) from None
