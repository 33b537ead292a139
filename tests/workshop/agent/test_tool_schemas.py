"""The seven tools equal their fixed text below, are strict, and keep their order (docs/workshop-agent.md)."""

import json

import pytest

from shopfloor.agent.tools import schema_problems
from shopfloor.workshop.agent.tools import REGISTRY, TOOL_ORDER

# The tools' fixed text, kept here character for character: the shared fragments once, and
# `"quote": {}, "why": {}, "confidence": {}` where they are to be inlined.
SEED_FRAGMENTS = """"quote":      { "type": "string", "description": "Exact words copied from the note that support this, 3 to 160 characters, original language." },
"why":        { "type": "string", "description": "One plain English sentence explaining this proposal." },
"confidence": { "type": "string", "enum": ["high", "check"] },
"grade_or_null": { "anyOf": [ { "type": "string", "enum": ["Standard", "Fino", "Superfino"] }, { "type": "null" } ] },
"int_or_null":   { "anyOf": [ { "type": "integer" }, { "type": "null" } ] },
"str_or_null":   { "anyOf": [ { "type": "string" }, { "type": "null" } ] }"""

SEED_TOOLS = {
    "find_weaver": """{ "name": "find_weaver", "strict": true,
  "description": "Find weavers of this workshop by a name heard in the note, like 'Rosa', 'Doña Rosa' or 'Manuel Delgado'. Returns every match (0 to 5). Read only.",
  "input_schema": { "type": "object", "additionalProperties": false, "required": ["name"],
    "properties": { "name": { "type": "string", "description": "Name as heard. Honorifics like Doña are fine." } } } }""",
    "find_hats": """{ "name": "find_hats", "strict": true,
  "description": "Find hats of this workshop by codes, by weaver name, or by stage. At least one of codes, weaver_name or stage is required. Codes are matched exactly first, then by common mishearings. Returns up to 20 hats. Read only.",
  "input_schema": { "type": "object", "additionalProperties": false,
    "required": ["codes", "weaver_name", "stage", "open_only"],
    "properties": {
      "codes": { "type": "array", "items": { "type": "string" }, "description": "Hat codes as heard, up to 10. Empty array if none." },
      "weaver_name": { "anyOf": [ { "type": "string" }, { "type": "null" } ] },
      "stage": { "anyOf": [ { "type": "string", "enum": ["Weaving", "Washing", "Bleaching", "Blocking", "Finished"] }, { "type": "null" } ] },
      "open_only": { "type": "boolean", "description": "true: skip Finished and archived hats. Use true unless the note is about a finished hat." } } } }""",
    "get_hat": """{ "name": "get_hat", "strict": true,
  "description": "Get one hat with its last 10 events and open flags. Use only when you need history. Read only.",
  "input_schema": { "type": "object", "additionalProperties": false, "required": ["code"],
    "properties": { "code": { "type": "string" } } } }""",
    "propose_create_hats": """{ "name": "propose_create_hats", "strict": true,
  "description": "Propose creating new hats from one weaver. Does not save anything: a person must approve. weaver_id must come from find_weaver.",
  "input_schema": { "type": "object", "additionalProperties": false,
    "required": ["weaver_id", "quantity", "grade", "rows_per_inch", "straw", "quote", "why", "confidence"],
    "properties": {
      "weaver_id": { "type": "string" },
      "quantity": { "type": "integer", "description": "1 to 20" },
      "grade": { "anyOf": [ { "type": "string", "enum": ["Standard", "Fino", "Superfino"] }, { "type": "null" } ], "description": "null if the note does not say it; code derives it from rows" },
      "rows_per_inch": { "anyOf": [ { "type": "integer" }, { "type": "null" } ], "description": "6 to 40, as said in the note" },
      "straw": { "anyOf": [ { "type": "string", "enum": ["Natural", "Bleached", "Dyed"] }, { "type": "null" } ] },
      "quote": {}, "why": {}, "confidence": {} } } }""",
    "propose_advance_stage": """{ "name": "propose_advance_stage", "strict": true,
  "description": "Propose moving one hat to the stage the note says. Does not save anything. Code rules decide if the move is allowed; blocked proposals are still shown to the person.",
  "input_schema": { "type": "object", "additionalProperties": false,
    "required": ["hat_code", "to_stage", "quote", "why", "confidence"],
    "properties": {
      "hat_code": { "type": "string", "description": "Code exactly as returned by find_hats or get_hat" },
      "to_stage": { "type": "string", "enum": ["Weaving", "Washing", "Bleaching", "Blocking", "Finished"] },
      "quote": {}, "why": {}, "confidence": {} } } }""",
    "propose_flag": """{ "name": "propose_flag", "strict": true,
  "description": "Propose raising a flag on one hat for a person to review. Does not save anything.",
  "input_schema": { "type": "object", "additionalProperties": false,
    "required": ["hat_code", "kind", "message", "quote", "why", "confidence"],
    "properties": {
      "hat_code": { "type": "string" },
      "kind": { "type": "string", "enum": ["grade_mismatch", "too_fast", "weaver_not_found", "other"] },
      "message": { "type": "string", "description": "Short English text for the flag, up to 200 characters" },
      "quote": {}, "why": {}, "confidence": {} } } }""",
    "ask_question": """{ "name": "ask_question", "strict": true,
  "description": "Ask the person a question instead of guessing, for example which weaver or hat is meant, or a missing fact. Creates a question card with a draft of the proposal. Does not save anything.",
  "input_schema": { "type": "object", "additionalProperties": false,
    "required": ["proposal_type", "question", "choices", "draft", "quote", "why"],
    "properties": {
      "proposal_type": { "type": "string", "enum": ["create_hat", "advance_stage", "flag_issue"] },
      "question": { "type": "string", "description": "Short English question, up to 160 characters" },
      "choices": { "type": "array", "description": "0 to 4 choices from lookup results",
        "items": { "type": "object", "additionalProperties": false, "required": ["label", "weaver_id", "hat_code"],
          "properties": { "label": { "type": "string" },
            "weaver_id": { "anyOf": [ { "type": "string" }, { "type": "null" } ] },
            "hat_code":  { "anyOf": [ { "type": "string" }, { "type": "null" } ] } } } },
      "draft": { "type": "object", "additionalProperties": false,
        "required": ["hat_code", "quantity", "grade", "rows_per_inch", "to_stage", "flag_kind"],
        "properties": {
          "hat_code": { "anyOf": [ { "type": "string" }, { "type": "null" } ] },
          "quantity": { "anyOf": [ { "type": "integer" }, { "type": "null" } ] },
          "grade": { "anyOf": [ { "type": "string", "enum": ["Standard", "Fino", "Superfino"] }, { "type": "null" } ] },
          "rows_per_inch": { "anyOf": [ { "type": "integer" }, { "type": "null" } ] },
          "to_stage": { "anyOf": [ { "type": "string", "enum": ["Weaving", "Washing", "Bleaching", "Blocking", "Finished"] }, { "type": "null" } ] },
          "flag_kind": { "anyOf": [ { "type": "string", "enum": ["grade_mismatch", "too_fast", "weaver_not_found", "other"] }, { "type": "null" } ] } } },
      "quote": {}, "why": {} } } }""",
}


def seed_tool(name: str) -> dict:
    """The fixed text's tool with the shared fragments inlined, as the real constants are."""
    fragments = json.loads("{" + SEED_FRAGMENTS + "}")
    tool = json.loads(SEED_TOOLS[name])

    def inline(node):
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                for key, value in props.items():
                    if value == {}:
                        props[key] = fragments[key]
            for value in node.values():
                inline(value)
        elif isinstance(node, list):
            for value in node:
                inline(value)

    inline(tool)
    return tool


def test_the_seven_tools_keep_the_seed_order():
    assert REGISTRY.names == list(TOOL_ORDER)
    assert REGISTRY.names == [
        "find_weaver",
        "find_hats",
        "get_hat",
        "propose_create_hats",
        "propose_advance_stage",
        "propose_flag",
        "ask_question",
    ]


@pytest.mark.parametrize("name", list(SEED_TOOLS))
def test_each_tool_equals_the_seed_text(name):
    seed = seed_tool(name)
    assert seed["strict"] is True
    spec = REGISTRY.get(name).spec()
    assert spec["name"] == seed["name"]
    assert spec["description"] == seed["description"]
    assert spec["parameters"] == seed["input_schema"]


@pytest.mark.parametrize("name", list(SEED_TOOLS))
def test_each_schema_is_strict(name):
    params = REGISTRY.get(name).spec()["parameters"]
    assert schema_problems(params) == []
    assert params["additionalProperties"] is False
    assert sorted(params["required"]) == sorted(params["properties"])


@pytest.mark.parametrize("name", list(SEED_TOOLS))
def test_argument_model_has_the_schema_fields(name):
    tool = REGISTRY.get(name)
    assert set(tool.args.model_fields) == set(tool.spec()["parameters"]["properties"])


def test_access_levels():
    access = {tool.name: tool.access for tool in REGISTRY}
    assert access == {
        "find_weaver": "read",
        "find_hats": "read",
        "get_hat": "read",
        "propose_create_hats": "propose",
        "propose_advance_stage": "propose",
        "propose_flag": "propose",
        "ask_question": "propose",
    }


def test_argument_models_reject_what_the_schemas_reject():
    from pydantic import ValidationError

    from shopfloor.workshop.agent.args import AskQuestionArgs, FindHatsArgs, ProposeAdvanceStageArgs

    good = {"codes": [], "weaver_name": None, "stage": "Washing", "open_only": True}
    assert FindHatsArgs.model_validate(good).stage == "Washing"
    for bad in (
        {**good, "stage": "Drying"},
        {k: v for k, v in good.items() if k != "open_only"},
        {**good, "extra": 1},
    ):
        with pytest.raises(ValidationError):
            FindHatsArgs.model_validate(bad)
    with pytest.raises(ValidationError):
        ProposeAdvanceStageArgs.model_validate(
            {"hat_code": "TQ-7F3K2", "to_stage": "Washing", "quote": "x", "why": "y", "confidence": "sure"}
        )
    draft = dict.fromkeys(["hat_code", "quantity", "grade", "rows_per_inch", "to_stage", "flag_kind"])
    ask = {
        "proposal_type": "create_hat",
        "question": "Which Rosa?",
        "choices": [{"label": "Rosa", "weaver_id": "w1", "hat_code": None, "admin": True}],
        "draft": draft,
        "quote": "Rosa",
        "why": "Two Rosas.",
    }
    with pytest.raises(ValidationError):
        AskQuestionArgs.model_validate(ask)
    ask["choices"][0].pop("admin")
    assert AskQuestionArgs.model_validate(ask).choices[0].weaver_id == "w1"


@pytest.mark.parametrize("provider", ["gemini", "anthropic", "openai"])
@pytest.mark.parametrize("name", list(SEED_TOOLS))
def test_each_schema_meets_every_providers_strict_rules(provider, name):
    from shopfloor.agent.providers.profiles import provider_schema_problems

    assert provider_schema_problems(provider, REGISTRY.get(name).spec()["parameters"]) == []
