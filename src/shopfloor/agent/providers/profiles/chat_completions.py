"""A local server speaking Chat Completions (llama.cpp, Ollama, vLLM, LM Studio, LocalAI, TGI); chosen only by
setting.

Local servers document no strict mode; OpenAI's rules and request cap are the closest description. What a
server must be told, because the answer cannot be read off its replies, is a :class:`ServerProfile`: whether
it takes ``strict: true`` on a function tool, whether it takes ``tool_choice``, and its context size, which
bounds the output budget (docs/providers.md, "Server profiles").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from shopfloor.agent.providers.profiles.base import ModelProfile
from shopfloor.agent.providers.profiles.openai import OPENAI, OPENAI_STRICT

if TYPE_CHECKING:
    from shopfloor.settings import Settings

LOCAL = ModelProfile(
    family="openai-compatible",
    label="the server",
    strict=OPENAI_STRICT,
    max_request_bytes=OPENAI.max_request_bytes,
)

# The settings a server's refusal points to; a 400 from the server names them (chat_completions_provider).
SERVER_SETTINGS = (
    "SHOPFLOOR_SERVER_PROFILE",
    "SHOPFLOOR_SERVER_STRICT",
    "SHOPFLOOR_SERVER_TOOL_CHOICE",
    "SHOPFLOOR_SERVER_CONTEXT_TOKENS",
)

# Tokens a server needs beyond the serialized request (chat template, role markers) and the least output
# worth asking for; with a known context, a request leaving less than that is refused before the call.
TEMPLATE_TOKENS = 256
MIN_OUTPUT_TOKENS = 256
# Serialized request bytes per token, on the low side for English and JSON, so the prompt estimate is high.
BYTES_PER_TOKEN = 3


@dataclass(frozen=True)
class ServerProfile:
    """What an OpenAI-compatible server must be told: ``strict`` (send ``strict: true`` on function tools),
    ``tool_choice`` (send ``tool_choice: "auto"``) and ``context_tokens`` (None: unknown, ``max_tokens`` is
    sent as the loop asks)."""

    name: str
    strict: bool = True
    tool_choice: bool = True
    context_tokens: int | None = None

    def output_budget(self, prompt_bytes: int, max_tokens: int) -> int | None:
        """``max_tokens`` bounded by what the context leaves after the prompt; None when it leaves less than
        :data:`MIN_OUTPUT_TOKENS` (the call would fail on the server)."""
        if self.context_tokens is None:
            return max_tokens
        prompt = -(-prompt_bytes // BYTES_PER_TOKEN) + TEMPLATE_TOKENS
        room = self.context_tokens - prompt
        if room < MIN_OUTPUT_TOKENS:
            return None
        return min(max_tokens, room)


SERVER_PROFILES: dict[str, ServerProfile] = {
    p.name: p
    for p in (
        ServerProfile("openai"),  # takes the request as OpenAI documents it
        ServerProfile("no-strict", strict=False),  # refuses or mishandles ``strict: true``
        ServerProfile("minimal", strict=False, tool_choice=False),  # also refuses ``tool_choice``
    )
}


def server_profile(settings: Settings) -> ServerProfile | None:
    """The named profile of ``settings.server_profile`` with the ``server_*`` overrides applied; None when
    the name is none of :data:`SERVER_PROFILES` (the factory refuses it)."""
    found = SERVER_PROFILES.get(settings.server_profile)
    if found is None:
        return None
    changes: dict[str, object] = {}
    if settings.server_strict is not None:
        changes["strict"] = settings.server_strict
    if settings.server_tool_choice is not None:
        changes["tool_choice"] = settings.server_tool_choice
    if settings.server_context_tokens is not None:
        changes["context_tokens"] = settings.server_context_tokens
    return replace(found, **changes) if changes else found  # type: ignore[arg-type]
