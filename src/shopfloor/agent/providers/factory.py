"""Pick and build the live provider for a model name. SDK modules are imported only when needed."""

from __future__ import annotations

import copy
import hashlib
import threading
from datetime import date
from typing import TYPE_CHECKING, Any

from shopfloor.agent.capabilities import retirement_problem
from shopfloor.agent.providers.profiles import PROFILES, ModelProfile, family_serving, profile_named
from shopfloor.agent.providers.profiles.chat_completions import (
    LOCAL,
    SERVER_PROFILES,
    ServerProfile,
    server_profile,
)
from shopfloor.settings import KEY_ENV, Settings, provider_key

if TYPE_CHECKING:
    import httpx2

    from shopfloor.agent.providers.base import Provider

# The model each provider serves when only its key is known, from the profiles. Gemini comes first: it is the
# default live provider (cheapest for the short, tool-heavy runs both apps make).
DEFAULT_MODELS = {p.family: p.default_model for p in PROFILES.values() if p.default_model is not None}


# A local server speaking Chat Completions (llama.cpp, Ollama, vLLM, LM Studio); chosen only by setting.
LOCAL_PROVIDER = LOCAL.family


class ProviderConfigError(ValueError):
    """A live provider cannot be built: unknown model family, a retired model or a missing key. Raised before
    any call."""


def provider_for_model(model: str, settings: Settings | None = None) -> str:
    """``gemini``, ``anthropic`` or ``openai`` for ``model``; ``settings.provider`` overrides the name."""
    if settings is not None and settings.provider:
        if settings.provider not in (*DEFAULT_MODELS, LOCAL_PROVIDER):
            raise ProviderConfigError(
                f"unknown provider {settings.provider!r}; use one of {', '.join(DEFAULT_MODELS)} "
                f"or {LOCAL_PROVIDER}"
            )
        return settings.provider
    family = family_serving(model)
    if family is None:
        raise ProviderConfigError(
            f"cannot tell which provider serves model {model!r}; use a gemini-*, claude-*, gpt-* or o<N> "
            "model, or set SHOPFLOOR_PROVIDER"
        )
    return family


def profile_for(model: str, settings: Settings | None = None) -> ModelProfile:
    """The profile of the family serving ``model`` (``settings.provider`` overrides the name): its strict
    limits, schema transformer and request cap. Apps ask this instead of testing a provider name; raises
    :class:`ProviderConfigError` as :func:`provider_for_model` does."""
    return profile_named(provider_for_model(model, settings))


def make_provider(
    model: str, settings: Settings, http_client: httpx2.Client | None = None, today: date | None = None
) -> Provider:
    """The live provider for ``model``, with its key from the environment.

    Raises :class:`ProviderConfigError` naming the environment variable to set when the key is missing, and
    naming the replacement when the model table says the model is retired on ``today`` (default: today).
    """
    if model == "offline":
        raise ProviderConfigError("'offline' is served by the app's own planner, not a live provider")
    retired = retirement_problem(model, today or date.today())
    if retired:
        raise ProviderConfigError(retired)
    kind = provider_for_model(model, settings)
    retries = settings.provider_max_retries
    if kind == LOCAL_PROVIDER:
        if not settings.base_url:
            raise ProviderConfigError(
                f"SHOPFLOOR_PROVIDER={LOCAL_PROVIDER} needs SHOPFLOOR_BASE_URL (e.g. http://127.0.0.1:8080/v1)"
            )
        found = server_profile(settings)
        if found is None:
            raise ProviderConfigError(
                f"unknown SHOPFLOOR_SERVER_PROFILE {settings.server_profile!r}; use one of "
                + ", ".join(SERVER_PROFILES)
            )
        server = found
        # A local server rarely takes a key; OPENAI_API_KEY is sent when set (some gateways want one).
        key = provider_key("openai")
    else:
        key = provider_key(kind)
        if not key:
            raise ProviderConfigError(f"model {model!r} needs {KEY_ENV[kind]} in the environment")
        server = SERVER_PROFILES["openai"]
    if http_client is not None:  # a test's recorded exchanges: a client of its own, never shared
        return _build(kind, model, key, settings.base_url, retries, http_client, server)
    return _shared(kind, model, key, settings.base_url, retries, server)


def _build(
    kind: str,
    model: str,
    key: str | None,
    base_url: str | None,
    retries: int,
    http_client: httpx2.Client,
    server: ServerProfile,
) -> Provider:
    """A new adapter for ``kind`` on ``http_client``."""
    if kind == LOCAL_PROVIDER:
        from shopfloor.agent.providers.chat_completions_provider import ChatCompletionsProvider

        assert base_url is not None
        return ChatCompletionsProvider(
            base_url, model, key, http_client=http_client, max_retries=retries, server=server
        )
    assert key is not None
    if kind == "gemini":
        from shopfloor.agent.providers.gemini_provider import GeminiProvider

        return GeminiProvider(key, model=model, http_client=http_client, max_retries=retries)
    if kind == "anthropic":
        from shopfloor.agent.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(key, model=model, http_client=http_client, max_retries=retries)
    from shopfloor.agent.providers.openai_provider import OpenAIProvider

    return OpenAIProvider(key, model=model, http_client=http_client, max_retries=retries)


# One SDK client per provider (and key, server and retry setting) per process: runs reuse its connections.
# The adapters keep no per-run state, so runs on other models of the same provider share the client too
# (a shallow copy with another default model). Closed by close_providers() on shutdown.
_lock = threading.Lock()
_clients: dict[tuple[str, str, str | None, int, ServerProfile], tuple[Any, httpx2.Client]] = {}


def _shared(
    kind: str, model: str, key: str | None, base_url: str | None, retries: int, server: ServerProfile
) -> Provider:
    from shopfloor.agent.providers.transport import pooled_client

    # The key is part of the identity (a rotated key gets a new client) but is kept only as a digest.
    digest = hashlib.sha256((key or "").encode()).hexdigest()
    with _lock:
        identity = (kind, digest, base_url, retries, server)
        found = _clients.get(identity)
        if found is None:
            http = pooled_client()
            built: Any = _build(kind, model, key, base_url, retries, http, server)
            found = (built, http)
            _clients[identity] = found
    adapter = found[0]
    if adapter.model == model:
        return adapter  # type: ignore[no-any-return]
    other = copy.copy(adapter)
    other.model = model
    return other  # type: ignore[no-any-return]


def close_providers() -> None:
    """Close every shared SDK client and its connections (the web app's shutdown and the CLI's exit call
    this). A later :func:`make_provider` builds new ones."""
    with _lock:
        entries = list(_clients.values())
        _clients.clear()
    for adapter, http in entries:
        adapter.close()
        http.close()  # the Gemini SDK leaves a client it was given open


def default_live_model(settings: Settings) -> str | None:
    """The default model of the first provider whose key is set (``settings.provider`` first, then
    Gemini, Anthropic, OpenAI), or None when no key is set and callers use their offline planner."""
    if settings.provider == LOCAL_PROVIDER:
        return None  # a local server has no default model: SHOPFLOOR_MODEL names the one it serves
    order = list(DEFAULT_MODELS)
    if settings.provider in DEFAULT_MODELS:
        order.remove(settings.provider)
        order.insert(0, settings.provider)
    for kind in order:
        if provider_key(kind):
            return DEFAULT_MODELS[kind]
    return None
