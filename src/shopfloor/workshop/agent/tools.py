"""The seven workshop tools: exact strict schemas and a fixed order.

docs/workshop-agent.md, "The seven tools", describes them. The schemas are written out by hand because their
wording is fixed (tested character for character); the argument models in ``args`` validate the same shapes in
code (dispatch re-validates every call), and the handlers re-check every range strict mode cannot express. The
order is part of the cached prompt prefix and never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from shopfloor.agent.tools import Tool, ToolError, ToolRegistry
from shopfloor.workshop.agent import handlers
from shopfloor.workshop.agent.args import (
    AskQuestionArgs,
    FindHatsArgs,
    FindWeaverArgs,
    GetHatArgs,
    ProposeAdvanceStageArgs,
    ProposeCreateHatsArgs,
    ProposeFlagArgs,
)
from shopfloor.workshop.agent.context import RunContext
from shopfloor.workshop.domain import (
    CONFIDENCES,
    FLAG_KINDS,
    GRADES,
    MAX_FLAG_MESSAGE,
    MAX_QUANTITY,
    MAX_ROWS,
    MIN_QUANTITY,
    MIN_ROWS,
    PROPOSAL_TYPES,
    QUOTE_MAX,
    QUOTE_MIN,
    STAGES,
    STRAWS,
)

ArgsT = TypeVar("ArgsT", bound=BaseModel)

TOOL_ORDER = (
    "find_weaver",
    "find_hats",
    "get_hat",
    "propose_create_hats",
    "propose_advance_stage",
    "propose_flag",
    "ask_question",
)

# Fragments shared by several schemas, inlined into each (every schema is self-contained for strict mode).
QUOTE: dict[str, Any] = {
    "type": "string",
    "description": (
        f"Exact words copied from the note that support this, {QUOTE_MIN} to {QUOTE_MAX} characters, "
        "original language."
    ),
}
WHY: dict[str, Any] = {
    "type": "string",
    "description": "One plain English sentence explaining this proposal.",
}
CONFIDENCE: dict[str, Any] = {"type": "string", "enum": list(CONFIDENCES)}


def _grade_or_null() -> dict[str, Any]:
    return {"anyOf": [{"type": "string", "enum": list(GRADES)}, {"type": "null"}]}


def _int_or_null() -> dict[str, Any]:
    return {"anyOf": [{"type": "integer"}, {"type": "null"}]}


def _str_or_null() -> dict[str, Any]:
    return {"anyOf": [{"type": "string"}, {"type": "null"}]}


def _enum_or_null(values: tuple[str, ...]) -> dict[str, Any]:
    return {"anyOf": [{"type": "string", "enum": list(values)}, {"type": "null"}]}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


FIND_WEAVER_DESCRIPTION = (
    "Find weavers of this workshop by a name heard in the note, like 'Rosa', 'Doña Rosa' or 'Manuel Delgado'. "
    "Returns every match (0 to 5). Read only."
)
FIND_WEAVER_SCHEMA = _object(
    ["name"],
    {"name": {"type": "string", "description": "Name as heard. Honorifics like Doña are fine."}},
)

FIND_HATS_DESCRIPTION = (
    "Find hats of this workshop by codes, by weaver name, or by stage. At least one of codes, weaver_name or "
    "stage is required. Codes are matched exactly first, then by common mishearings. Returns up to 20 hats. "
    "Read only."
)
FIND_HATS_SCHEMA = _object(
    ["codes", "weaver_name", "stage", "open_only"],
    {
        "codes": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Hat codes as heard, up to 10. Empty array if none.",
        },
        "weaver_name": _str_or_null(),
        "stage": _enum_or_null(STAGES),
        "open_only": {
            "type": "boolean",
            "description": "true: skip Finished and archived hats. Use true unless the note is about a finished hat.",
        },
    },
)

GET_HAT_DESCRIPTION = (
    "Get one hat with its last 10 events and open flags. Use only when you need history. Read only."
)
GET_HAT_SCHEMA = _object(["code"], {"code": {"type": "string"}})

CREATE_DESCRIPTION = (
    "Propose creating new hats from one weaver. Does not save anything: a person must approve. weaver_id must "
    "come from find_weaver."
)
CREATE_SCHEMA = _object(
    ["weaver_id", "quantity", "grade", "rows_per_inch", "straw", "quote", "why", "confidence"],
    {
        "weaver_id": {"type": "string"},
        "quantity": {"type": "integer", "description": f"{MIN_QUANTITY} to {MAX_QUANTITY}"},
        "grade": {
            **_grade_or_null(),
            "description": "null if the note does not say it; code derives it from rows",
        },
        "rows_per_inch": {**_int_or_null(), "description": f"{MIN_ROWS} to {MAX_ROWS}, as said in the note"},
        "straw": _enum_or_null(STRAWS),
        "quote": dict(QUOTE),
        "why": dict(WHY),
        "confidence": dict(CONFIDENCE),
    },
)

ADVANCE_DESCRIPTION = (
    "Propose moving one hat to the stage the note says. Does not save anything. Code rules decide if the move "
    "is allowed; blocked proposals are still shown to the person."
)
ADVANCE_SCHEMA = _object(
    ["hat_code", "to_stage", "quote", "why", "confidence"],
    {
        "hat_code": {"type": "string", "description": "Code exactly as returned by find_hats or get_hat"},
        "to_stage": {"type": "string", "enum": list(STAGES)},
        "quote": dict(QUOTE),
        "why": dict(WHY),
        "confidence": dict(CONFIDENCE),
    },
)

FLAG_DESCRIPTION = "Propose raising a flag on one hat for a person to review. Does not save anything."
FLAG_SCHEMA = _object(
    ["hat_code", "kind", "message", "quote", "why", "confidence"],
    {
        "hat_code": {"type": "string"},
        "kind": {"type": "string", "enum": list(FLAG_KINDS)},
        "message": {
            "type": "string",
            "description": f"Short English text for the flag, up to {MAX_FLAG_MESSAGE} characters",
        },
        "quote": dict(QUOTE),
        "why": dict(WHY),
        "confidence": dict(CONFIDENCE),
    },
)

ASK_DESCRIPTION = (
    "Ask the person a question instead of guessing, for example which weaver or hat is meant, or a missing "
    "fact. Creates a question card with a draft of the proposal. Does not save anything."
)
ASK_SCHEMA = _object(
    ["proposal_type", "question", "choices", "draft", "quote", "why"],
    {
        "proposal_type": {"type": "string", "enum": list(PROPOSAL_TYPES)},
        "question": {"type": "string", "description": "Short English question, up to 160 characters"},
        "choices": {
            "type": "array",
            "description": "0 to 4 choices from lookup results",
            "items": _object(
                ["label", "weaver_id", "hat_code"],
                {"label": {"type": "string"}, "weaver_id": _str_or_null(), "hat_code": _str_or_null()},
            ),
        },
        "draft": _object(
            ["hat_code", "quantity", "grade", "rows_per_inch", "to_stage", "flag_kind"],
            {
                "hat_code": _str_or_null(),
                "quantity": _int_or_null(),
                "grade": _grade_or_null(),
                "rows_per_inch": _int_or_null(),
                "to_stage": _enum_or_null(STAGES),
                "flag_kind": _enum_or_null(FLAG_KINDS),
            },
        ),
        "quote": dict(QUOTE),
        "why": dict(WHY),
    },
)


def logged(name: str, handler: Callable[[RunContext, ArgsT], Any]) -> Callable[[RunContext, ArgsT], Any]:
    """The handler, logging an ``agent.tool.call`` at error level when it crashes (docs/workshop-agent.md,
    "The seven tools").

    The exception still reaches the dispatcher, which shows the model a plain message, never the exception.
    """

    def run(ctx: RunContext, args: ArgsT) -> Any:
        try:
            return handler(ctx, args)
        except ToolError:
            raise
        except Exception as error:
            ctx.emit(
                "agent.tool.call", "error", {"tool": name, "phase": "handler", "error": type(error).__name__}
            )
            raise

    return run


TOOLS: list[Tool[RunContext, Any]] = [
    Tool(
        "find_weaver",
        FIND_WEAVER_DESCRIPTION,
        "read",
        FindWeaverArgs,
        logged("find_weaver", handlers.find_weaver),
        FIND_WEAVER_SCHEMA,
    ),
    Tool(
        "find_hats",
        FIND_HATS_DESCRIPTION,
        "read",
        FindHatsArgs,
        logged("find_hats", handlers.find_hats),
        FIND_HATS_SCHEMA,
    ),
    Tool(
        "get_hat",
        GET_HAT_DESCRIPTION,
        "read",
        GetHatArgs,
        logged("get_hat", handlers.get_hat),
        GET_HAT_SCHEMA,
    ),
    Tool(
        "propose_create_hats",
        CREATE_DESCRIPTION,
        "propose",
        ProposeCreateHatsArgs,
        logged("propose_create_hats", handlers.propose_create_hats),
        CREATE_SCHEMA,
    ),
    Tool(
        "propose_advance_stage",
        ADVANCE_DESCRIPTION,
        "propose",
        ProposeAdvanceStageArgs,
        logged("propose_advance_stage", handlers.propose_advance_stage),
        ADVANCE_SCHEMA,
    ),
    Tool(
        "propose_flag",
        FLAG_DESCRIPTION,
        "propose",
        ProposeFlagArgs,
        logged("propose_flag", handlers.propose_flag),
        FLAG_SCHEMA,
    ),
    Tool(
        "ask_question",
        ASK_DESCRIPTION,
        "propose",
        AskQuestionArgs,
        logged("ask_question", handlers.ask_question),
        ASK_SCHEMA,
    ),
]

REGISTRY = ToolRegistry(TOOLS)
