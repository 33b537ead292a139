"""Small pieces every SDK adapter shares: result rendering, argument parsing and safe, uniformly worded errors."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from shopfloor.agent.providers.base import ProviderError

# How many characters of a provider's own error message we keep (enough to act on, short for logs).
MAX_ERROR_CHARS = 300
# Retries of a failed call, made by the loop's policy (shopfloor.agent.retry), never by the SDK.
DEFAULT_MAX_RETRIES = 2
# Each model call gets 25 s (docs/architecture.md, "Bounds"); the loop passes less when the run budget is nearly spent.
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


# What reading an SDK's answer raises when the server sent a shape the SDK did not validate (the SDKs build
# response objects without checking them): each adapter maps these to a ``bad_response`` error.
PARSE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError)


def count(value: object) -> int:
    """A token count from an answer: absent, null or not a number reads as 0 (servers leave fields out)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return max(0, int(value))


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


@dataclass(frozen=True)
class CallErrors:
    """The errors of one adapter's calls, worded alike for every SDK; any text the provider sent is
    passed through ``safe_message`` so the key never reaches a message."""

    label: str  # the provider as people name it: "Claude", "OpenAI", "Gemini"
    key: str | None

    def timeout(self) -> ProviderError:
        """The call ran past its timeout."""
        return ProviderError("timeout", f"{self.label} did not answer within the call timeout")

    def connection(self, detail: object) -> ProviderError:
        """The server could not be reached."""
        return ProviderError("connection", f"could not reach {self.label}: {safe_message(detail, self.key)}")

    def status(
        self, code: int | None, name: str | None, detail: object, retry_after_s: float | None = None
    ) -> ProviderError:
        """An HTTP error answer, with the pause the provider asked for before another attempt (if any)."""
        suffix = f" {name}" if name else ""
        text = f"{self.label} API error {code}{suffix}: {safe_message(detail, self.key)}"
        return ProviderError(error_kind(code), text, code, retry_after_s)

    def bad_response(self, error: object) -> ProviderError:
        """The answer could not be read."""
        return ProviderError(
            "bad_response", f"{self.label} answered in an unexpected shape: {safe_message(error, self.key)}"
        )
