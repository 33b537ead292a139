"""Which provider serves a workshop run: the offline note reader, or a live model through the core factory.

With no key (or ``offline`` asked for) the offline reader runs. When no model is chosen explicitly and a key
is set, the first provider with a key serves its default model (Gemini 2.5 Flash-Lite when
``GEMINI_API_KEY`` is set).
"""

from __future__ import annotations

from shopfloor.agent.providers.base import Provider
from shopfloor.agent.providers.factory import default_live_model, make_provider
from shopfloor.settings import Settings
from shopfloor.workshop.agent.offline import OfflineReader

OFFLINE = "offline"


def chosen_model(option: str | None, settings: Settings) -> str:
    """The model name a run will use: the option, else an explicit setting, else a live default or offline."""
    if option:
        return option
    if "model" in settings.model_fields_set or settings.model != OFFLINE:
        return settings.model
    return default_live_model(settings) or OFFLINE


def choose_provider(option: str | None, settings: Settings) -> Provider:
    """The provider for a run (raises ``ProviderConfigError`` when a live model has no key)."""
    model = chosen_model(option, settings)
    if model == OFFLINE:
        return OfflineReader()
    return make_provider(model, settings)
