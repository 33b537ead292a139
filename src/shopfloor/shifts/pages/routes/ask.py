"""The asking family: ``POST /ask`` the page's ask (JSON body, the page's request token): the answer's
fragment for htmx, otherwise the answer as JSON. Its ``planner`` is the page's planner control (offline unless
a planner whose key is set is chosen; public mode offline only). A client that leaves during a live planner's
run stops its model calls in the worker (``Runner.run``'s ``cancel``) and is answered 499."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from shopfloor.shifts.pages import scope_view, work
from shopfloor.shifts.pages.deps import ShiftsDep, by_address, json_answer, page_locale, root_path
from shopfloor.shifts.pages.guard import GUARDED, POST_GUARDED
from shopfloor.shifts.pages.limits import current_day, seconds_to_next_day
from shopfloor.shifts.pages.params import (
    AskBody,
    parsed_scope,
    scope_for_question,
    scope_of_plan,
    usable_after,
)
from shopfloor.shifts.planning.plans import parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from shopfloor.web.errors import ApiError, envelope
from shopfloor.web.openapi import answered_as, error_responses

router = APIRouter(responses=GUARDED)


ASK_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": AskBody.model_json_schema()}},
    }
}


def ask_body(raw: bytes) -> AskBody:
    """The page's ask from its JSON body; 400 in the envelope when it is not one."""
    try:
        data = json.loads(raw or b"null")
    except ValueError:
        raise ApiError(400, "bad_request", "Invalid request: the body is not valid JSON.") from None
    try:
        body = AskBody.model_validate(data)
    except ValueError as error:
        raise ApiError(400, "bad_request", f"Invalid request: {str(error).splitlines()[0]}.") from None
    if len(body.question) > MAX_QUESTION_CHARS:
        raise ApiError(400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters.")
    return body


async def _disconnect(request: Request, gone: asyncio.Event) -> None:
    """Set ``gone`` when the client disconnects. The body is read, so the next message can only be the
    disconnect: waiting for it costs nothing."""
    while True:
        if (await request.receive())["type"] == "http.disconnect":
            gone.set()
            return


@router.post(
    "/ask",
    response_model=None,
    responses={
        **answered_as(
            "application/json", "text/html", description="The answer: its fragment for htmx, else JSON"
        ),
        **POST_GUARDED,
        **error_responses(499),
    },
    openapi_extra=ASK_BODY,
)
async def ask(request: Request, shifts: ShiftsDep) -> Response:
    """Ask from the page: the answer's fragment (htmx) or JSON, with its address."""
    body = ask_body(await request.body())
    settings = shifts.settings
    scope = scope_for_question(body.question, parsed_scope(body.day, body.shift, body.include, body.period))
    after = usable_after(body.after, scope)
    planner = shifts.chosen_planner(body.planner)
    # The daily round guard: in public mode the server's key pays for a bounded number of live rounds a
    # day, whoever asks (docs/deploy.md); a visitor never brings a key.
    live_in_public = settings.public and planner != "offline"
    if (
        live_in_public
        and shifts.rounds.hit("public-live-rounds", current_day()) > settings.public_live_rounds_per_day
    ):
        return envelope(
            429,
            "rounds_exhausted",
            "Today's live rounds of this demo are used; ask with the offline planner, or tomorrow.",
            headers={"Retry-After": str(seconds_to_next_day())},
        )
    if planner == "offline":
        answer = await shifts.asked(body.question, scope, after)
    else:
        # A live planner's answer costs a model call each time: it is never kept, and its address (if the
        # router reads the question) answers with the offline planner. Its calls stop when the client leaves.
        gone = asyncio.Event()
        watcher = asyncio.create_task(_disconnect(request, gone))
        try:
            answer = await shifts.runner.run(
                work.ask_live, shifts.db, settings, body.question, scope, planner, after, cancel=gone
            )
        finally:
            watcher.cancel()
        if gone.is_set():
            raise ApiError(
                499, "client_closed_request", "The client went away; the investigation was stopped."
            )
    if request.headers.get("hx-request") != "true":
        return json_answer(answer)
    scope_asked = scope
    if answer.get("address"):
        # The controls show the scope the answer used (a named shift or "compare all shifts" moves it);
        # the fragment swaps them out of band.
        scope = scope_of_plan(parse_address(answer["address"]))
    # A refused follow-up keeps the chain: the next one still follows the last answered question.
    form = scope_view.form_state(scope, body.question, answer.get("address") or after)
    # Only an answer its address gives whole is pushed as the page's address (reloading it must show the
    # same answer, not a complete one without the line naming the words left out).
    pushed = planner == "offline" and answer.get("address") and by_address(body.question, scope_asked, after)
    root = root_path(request)
    headers = {"HX-Push-Url": root + answer["address"]} if pushed else {}
    return shifts.html(
        await shifts.drawn("_main.html", answer, scope, form, root, page_locale(request)), headers
    )
