"""Provider-neutral request, turn and usage types, and the provider protocol."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from shopfloor.agent.tools import ToolResult


class StopReason(StrEnum):
    """Why a model turn ended, mapped from each provider's own vocabulary."""

    TOOL_USE = "tool_use"
    END_TURN = "end_turn"
    MAX_TOKENS = "max_tokens"
    REFUSAL = "refusal"
    OTHER = "other"


@dataclass(frozen=True)
class ToolCall:
    """One tool call requested by the model. ``arguments`` is untrusted until dispatch validates it.

    ``local`` is what an in-process planner (a provider marked ``local``, such as the workshop's offline reader)
    attaches for the app's handler beside the arguments, never in them: no model sees it, no adapter fills it,
    and the loop hands it on only from a local provider (``dispatch.planner_data``); from any other provider it
    is ignored. It is not part of the call's identity (equality) nor of what is sent back to a model.
    """

    id: str
    name: str
    arguments: Any
    local: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Usage:
    """Tokens of one call. ``input_tokens`` excludes cached tokens on every provider, so the total prompt is
    ``input_tokens + cache_read + cache_write``; ``output_tokens`` includes reasoning/thinking tokens."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cache_write: int = 0

    @property
    def prompt_tokens(self) -> int:
        """Every input token, cached or not."""
        return self.input_tokens + self.cache_read + self.cache_write

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
        )


@dataclass(frozen=True)
class Turn:
    """One model response in neutral form.

    ``native`` is the provider's own assistant content (thinking blocks, signatures, reasoning items);
    the adapter sends it back unchanged on the next request.
    """

    stop_reason: StopReason
    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    raw_id: str | None = None
    raw_stop_reason: str | None = None
    native: Any = None
    refusal_category: str | None = None


@dataclass(frozen=True)
class UserText:
    """A user message with plain text (the first message of a run carries the untrusted data)."""

    text: str


@dataclass(frozen=True)
class AssistantTurn:
    """The model's earlier turn, replayed unchanged."""

    turn: Turn


@dataclass(frozen=True)
class ToolResults:
    """All results of one turn's tool calls, sent back in one message, in call order."""

    results: tuple[ToolResult, ...]


Message = UserText | AssistantTurn | ToolResults


class Closable(Protocol):
    """A connection a call is waiting on (``providers.transport``); ``abort`` closes it from another thread."""

    def abort(self) -> None:
        """Close the connection now; the call waiting on it fails at once."""
        ...


class CallCancel:
    """Cancels one model call from another thread (docs/providers.md, "Retries, timeouts, errors").

    The SDKs take no abort signal, so the pooled transport registers the connection a call is reading or
    writing here while it does so; :meth:`cancel` closes it, and any later read, write or connect of the same
    call (an SDK retry) fails at once. Once the call is over nothing is registered, so a late cancel never
    touches a connection that went back to the pool.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._busy: set[Closable] = set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancelled

    def cancel(self) -> None:
        """Close every connection the call is using and refuse it any further I/O."""
        with self._lock:
            self._cancelled = True
            busy = list(self._busy)
        for stream in busy:
            stream.abort()

    def enter(self, stream: Closable) -> bool:
        """Register ``stream`` for one read, write or connect; False (nothing registered) once cancelled."""
        with self._lock:
            if self._cancelled:
                return False
            self._busy.add(stream)
            return True

    def leave(self, stream: Closable) -> None:
        """The read, write or connect on ``stream`` is over."""
        with self._lock:
            self._busy.discard(stream)


@dataclass(frozen=True)
class ModelRequest:
    """Everything a provider needs for one call. ``tools`` are neutral specs in fixed order. ``cancel``, set
    by the loop when it waits on a worker, lets an abort close the call's connection."""

    system: str
    tools: Sequence[dict[str, Any]]
    messages: list[Message]
    max_tokens: int = 8000
    timeout_s: float = 25.0
    model: str | None = None
    cancel: CallCancel | None = None


class ProviderError(Exception):
    """One provider call that failed (the SDKs make no retries of their own; the loop's policy, in
    ``shopfloor.agent.retry``, decides whether to try again). The message never contains a key.

    ``kind`` is one of ``api`` (HTTP error), ``rate_limit``, ``timeout``, ``connection``, ``aborted``
    and ``bad_response``; ``retry_after_s`` is the pause the provider asked for before another attempt
    (``Retry-After``, ``retry-after-ms``, Gemini's ``RetryInfo``), if it asked.
    """

    def __init__(
        self, kind: str, message: str, status: int | None = None, retry_after_s: float | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.retry_after_s = retry_after_s

    def as_dict(self) -> dict[str, Any]:
        """JSON form for traces and error envelopes."""
        data: dict[str, Any] = {"type": self.kind, "message": str(self)}
        if self.status is not None:
            data["status"] = self.status
        return data


class Provider(Protocol):
    """Something that answers one model request with one neutral turn (or raises ProviderError).

    An offline provider that computes its turn in process may also set ``local = True``; the loop then
    calls it directly instead of waiting on a worker thread.
    """

    name: str

    def complete(self, request: ModelRequest) -> Turn:
        """Make one model call."""
        ...
