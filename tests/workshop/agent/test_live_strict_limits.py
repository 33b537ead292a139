"""The tools a live model sees in a workshop run fit every provider's strict limits (docs/providers.md,
"Strict schemas, per provider"): Claude refuses a request with more than 20 strict tools, 24 optional
parameters or 16 parameters with union types, Gemini refuses integer enums, OpenAI limits nesting and size."""

from __future__ import annotations

import copy

import pytest

from shopfloor.agent.providers.profiles import is_union, parameters, registry_problems
from shopfloor.workshop.agent.tools import REGISTRY


@pytest.mark.parametrize("provider", ["gemini", "anthropic", "openai"])
def test_the_workshop_registry_fits_the_providers_strict_limits(provider):
    assert registry_problems(provider, REGISTRY.specs()) == []


def test_the_registry_is_seven_strict_tools_with_thirteen_nullable_fields():
    # Counted by hand from the seven schemas (docs/workshop-agent.md, "The seven tools"): the nullable fields
    # are Claude's union parameters, 13 of the 16 one request may hold.
    specs = REGISTRY.specs()
    params = [p for spec in specs for p in parameters(spec["parameters"])]
    assert len(specs) == 7
    assert sum(1 for _schema, required in params if not required) == 0
    assert sum(1 for schema, _required in params if is_union(schema)) == 13


def test_a_registry_grown_past_claudes_union_limit_would_be_refused():
    # Two more copies of find_hats (two nullable fields each) take the request to 17 union parameters.
    specs = [copy.deepcopy(s) for s in REGISTRY.specs()]
    extra = [dict(copy.deepcopy(REGISTRY.get("find_hats").spec()), name=f"find_hats_{n}") for n in (2, 3)]
    assert registry_problems("anthropic", specs + extra) == [
        "request: 17 parameters with union types, Claude accepts at most 16"
    ]
