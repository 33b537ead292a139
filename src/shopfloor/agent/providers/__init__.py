"""Model providers behind one neutral turn type.

``base`` holds the neutral types; ``scripted`` is for tests; ``anthropic``, ``openai`` and ``gemini``
adapt the official SDKs (``*_provider`` modules, imported only when used); ``factory`` picks one for a model
name and ``profile_for`` gives the family's profile (``profiles/``); ``replay`` feeds recorded HTTP exchanges through those real SDK clients.
"""

from shopfloor.agent.providers.factory import (
    DEFAULT_MODELS,
    ProviderConfigError,
    close_providers,
    default_live_model,
    make_provider,
    profile_for,
    provider_for_model,
)
from shopfloor.agent.providers.profiles import ModelProfile

__all__ = [
    "DEFAULT_MODELS",
    "ModelProfile",
    "ProviderConfigError",
    "close_providers",
    "default_live_model",
    "make_provider",
    "profile_for",
    "provider_for_model",
]
