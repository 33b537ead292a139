"""A local server speaking Chat Completions (llama.cpp, Ollama, vLLM, LM Studio); chosen only by setting.

Local servers document no strict mode; OpenAI's rules and request cap are the closest description."""

from __future__ import annotations

from shopfloor.agent.providers.profiles.base import ModelProfile
from shopfloor.agent.providers.profiles.openai import OPENAI, OPENAI_STRICT

LOCAL = ModelProfile(
    family="openai-compatible",
    label="the server",
    strict=OPENAI_STRICT,
    max_request_bytes=OPENAI.max_request_bytes,
)
