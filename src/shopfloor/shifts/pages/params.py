"""What the /shifts routes read from a request: the scope controls, the follow-up chain, an address, the
page's ask body, and the OpenAPI description of the query parameters a route reads itself (docs/URLS.md)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field

from shopfloor.shifts.pages import scope_view
from shopfloor.shifts.planning.plans import ADDRESS_KEYS, AddressError, CalendarError, Plan, parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from shopfloor.shifts.plant.scope import Scope, ScopeError
from shopfloor.web.errors import ApiError

REPORT_PERIODS = ("week", "month", "fiscal")
SCOPE_PARAMS = ("day", "shift", "include", "period")


def query_params(*names: str) -> dict[str, Any]:
    """The OpenAPI description of query parameters a route reads itself (every value is text: the route checks
    it and answers 400 in the envelope), so the document says what the route takes (docs/URLS.md)."""
    return {
        "parameters": [
            {"name": name, "in": "query", "required": False, "schema": {"type": "string"}} for name in names
        ]
    }


ADDRESS_PARAMS = query_params(*sorted(ADDRESS_KEYS), "format")


def parsed_scope(day: str, shift: int | str | None, include: str | None, period: str) -> Scope:
    """The request's scope parameters, each rule broken reported in the error envelope (docs/URLS.md)."""
    if isinstance(shift, str):
        if shift.strip() == "":
            shift = None
        elif shift.strip().isdigit():
            shift = int(shift)
        else:
            raise ApiError(400, "bad_scope", "shift must be 1, 2 or 3.")
    if shift is None and include == "shift":
        include = "day"  # "this shift" with every shift selected is every shift
    try:
        return Scope.parse(day, shift, include or None, period or "day")
    except ScopeError as error:
        raise ApiError(400, "bad_scope", f"{error}.") from None


def usable_after(after: str | None, scope: Scope) -> str | None:
    """The follow-up's previous address, unless it belongs to another production day: changing the day
    clears the chain, as it clears the history (docs/shifts-agent.md, "Context and history")."""
    if not after:
        return None
    try:
        plan = parse_address(after)
    except CalendarError as error:
        raise ApiError(400, "bad_scope", f"{error}.") from None
    except AddressError as error:
        raise ApiError(400, "bad_address", str(error)) from None
    return plan.address() if plan.day == scope.day else None


def scope_of_plan(plan: Plan) -> Scope:
    """The scope controls' values for the answer at ``plan``'s address."""
    return plan.scope()


def scope_for_question(question: str, scope: Scope) -> Scope:
    """The page's "Compare all shifts" button also switches the include control to every shift."""
    if question in scope_view.DAY_SCOPE_EXAMPLES and scope.shift is not None:
        return Scope(day=scope.day, shift=scope.shift, include="day", period=scope.period)
    return scope


def plan_of(request: Request) -> Plan:
    """The plan at the request's address (its query string); 400 ``bad_address`` when it is not one."""
    try:
        return parse_address("/a?" + request.url.query)
    except CalendarError as error:  # a date past the calendar's ends is a scope outside it (docs/URLS.md)
        raise ApiError(400, "bad_scope", f"{error}.") from None
    except AddressError as error:
        raise ApiError(400, "bad_address", str(error)) from None


class AskBody(BaseModel):
    """The page's ask: the question and the scope controls."""

    model_config = ConfigDict(extra="forbid")

    # The one question limit, the router's (docs/errors.md, question_too_long): advertised in the schema and
    # checked by ask_body, so a longer question is answered with its own error code, not a validation error.
    question: str = Field(min_length=1, json_schema_extra={"maxLength": MAX_QUESTION_CHARS})
    day: str
    shift: int | str | None = None
    include: str | None = None
    period: str = "day"
    after: str | None = None
    planner: str | None = Field(default=None, max_length=100)


def attachment(name: str) -> dict[str, str]:
    """The headers that make a browser save a response as ``name``."""
    return {"Content-Disposition": f'attachment; filename="{name}"'}
