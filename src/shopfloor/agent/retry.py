"""The one retry policy of every model call (docs/providers.md, "Retries, timeouts, errors").

The SDK clients are built with their own retries off (``max_retries=0``; no ``HttpRetryOptions`` for Gemini):
a retry the SDK makes on its own can neither see the run's deadline nor the client leaving, so it would sleep
and call past both. The loop retries instead, with this policy: only errors a later attempt can cure (HTTP
408, 409, 429 and 5xx, and connection failures), at most ``max_retries`` times, after the pause the provider
asked for (``Retry-After`` in seconds or as an HTTP date, ``retry-after-ms``, Gemini's ``RetryInfo``) or an
exponential back-off with jitter, and never when the pause would not leave the run time for the call.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from shopfloor.agent.providers.base import ProviderError

# Statuses a later attempt can cure: request timeout, conflict, rate limit and every server error.
RETRY_STATUSES = frozenset({408, 409, 429})
# A provider's own pause longer than this is not a pause a person waits through; the call fails instead.
MAX_ASKED_DELAY_S = 60.0
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and after what pause a failed model call is tried again.

    The ``n``-th retry without a pause asked by the provider waits ``initial_delay_s * 2 ** (n - 1)``, at most
    ``max_delay_s``, cut by up to ``jitter`` of itself at random (so runs that failed together do not retry
    together)."""

    max_retries: int = 2
    initial_delay_s: float = 0.5
    max_delay_s: float = 8.0
    jitter: float = 0.25

    def backoff_s(self, retry: int, rng: Callable[[], float] = random.random) -> float:
        """The pause before retry number ``retry`` (1 for the first) when the provider asked for none."""
        base = min(self.max_delay_s, self.initial_delay_s * float(2 ** max(0, retry - 1)))
        return float(base * (1.0 - self.jitter * rng()))

    def wait_s(self, error: ProviderError, retry: int) -> float | None:
        """The pause before retry number ``retry`` after ``error``, or None when the call is not tried again
        (an error no retry cures, the retries used up, or a provider asking for more than
        :data:`MAX_ASKED_DELAY_S`). Whether the pause fits the run is the caller's to check."""
        if retry > self.max_retries or not retryable(error):
            return None
        if error.retry_after_s is not None:
            return error.retry_after_s if error.retry_after_s <= MAX_ASKED_DELAY_S else None
        return self.backoff_s(retry)


NO_RETRIES = RetryPolicy(max_retries=0)


def retryable(error: ProviderError) -> bool:
    """Whether a later attempt may succeed: HTTP 408, 409, 429 or 5xx, or the server could not be reached.

    A timeout is not retried (the call's time is spent, and it may have been billed); neither is an abort, an
    answer that could not be read, or any other HTTP status."""
    if error.kind == "connection":
        return True
    if error.kind in ("api", "rate_limit") and error.status is not None:
        return error.status in RETRY_STATUSES or 500 <= error.status <= 599
    return False


def retry_after_s(headers: Mapping[str, str] | None, now: datetime | None = None) -> float | None:
    """The pause a response asks for: ``retry-after-ms`` (milliseconds), else ``Retry-After`` in seconds or as
    an HTTP date; None when it asks for none or says it in a form we cannot read."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis)
        except ValueError:
            value = -1.0
        if value >= 0:
            return value / 1000
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
    return seconds if seconds >= 0 else None


def google_retry_delay_s(body: Any) -> float | None:
    """The ``retryDelay`` of a ``google.rpc.RetryInfo`` entry in a Google API error body (``{"error":
    {"details": [...]}}``, or the error object itself), as ``"20s"``, ``"1.5s"`` or ``{seconds, nanos}``."""
    error = body.get("error", body) if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    if not isinstance(details, list):
        return None
    for item in details:
        if not isinstance(item, dict) or not str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            continue
        delay = item.get("retryDelay")
        if isinstance(delay, str):
            found = _DURATION.match(delay)
            if found:
                return float(found.group(1))
        elif isinstance(delay, dict):
            seconds, nanos = delay.get("seconds", 0), delay.get("nanos", 0)
            try:
                return float(seconds) + float(nanos) / 1e9
            except (TypeError, ValueError):
                return None
    return None
