"""One profile per provider family: strict-schema limits, the schema transformer and the request cap.

``base`` holds :class:`ModelProfile` and :class:`StrictLimits`; one module per family (``gemini``,
``anthropic``, ``openai``, ``chat_completions`` for a local server); ``registry`` lists them; ``checks`` holds
each family's strict-schema rules. An app asks ``shopfloor.agent.providers.profile_for(model, settings)``,
never a provider name (docs/providers.md).
"""

from shopfloor.agent.providers.profiles.base import ModelProfile, SchemaTransformer, StrictLimits, same_schema
from shopfloor.agent.providers.profiles.checks import (
    depth,
    is_union,
    parameters,
    provider_schema_problems,
    registry_problems,
    walk,
)
from shopfloor.agent.providers.profiles.registry import PROFILES, family_serving, profile_named

__all__ = [
    "PROFILES",
    "ModelProfile",
    "SchemaTransformer",
    "StrictLimits",
    "depth",
    "family_serving",
    "is_union",
    "parameters",
    "profile_named",
    "provider_schema_problems",
    "registry_problems",
    "same_schema",
    "walk",
]
