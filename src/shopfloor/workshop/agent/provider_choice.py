"""Which provider serves a workshop run: the offline note reader, or a live model through the core factory.

With no key (or ``offline`` asked for) the offline reader runs. When no model is chosen explicitly and a key
is set, the first provider with a key serves its default model (Gemini 2.5 Flash-Lite when
``GEMINI_API_KEY`` is set). A local OpenAI-compatible server has no default model, so
``SHOPFLOOR_PROVIDER=openai-compatible`` needs ``SHOPFLOOR_MODEL`` (docs/providers.md).
"""

from __future__ import annotations

from shopfloor.agent.providers.base import Provider
from shopfloor.agent.providers.factory import (
    LOCAL_PROVIDER,
    ProviderConfigError,
    default_live_model,
    make_provider,
)
from shopfloor.settings import Settings
from shopfloor.workshop.agent.offline import OfflineReader

OFFLINE = "offline"


def chosen_model(option: str | None, settings: Settings) -> str:
    """The model name a run will use: the option, else an explicit setting, else a live default or offline.

    Raises ``ProviderConfigError`` when a local server is chosen without a model name: running the offline
    reader instead would hide that the setting is incomplete."""
    if option:
        return option
    if "model" in settings.model_fields_set or settings.model != OFFLINE:
        return settings.model
    if settings.provider == LOCAL_PROVIDER:
        raise ProviderConfigError(
            f"SHOPFLOOR_PROVIDER={LOCAL_PROVIDER} needs SHOPFLOOR_MODEL, the name of the model the local "
            "server serves (there is no default model for a local server)"
        )
    return default_live_model(settings) or OFFLINE


def choose_provider(option: str | None, settings: Settings) -> Provider:
    """The provider for a run (raises ``ProviderConfigError`` when a live model has no key, is retired or
    names no provider, or a local server has no model name)."""
    model = chosen_model(option, settings)
    if model == OFFLINE:
        return OfflineReader()
    return make_provider(model, settings)
