"""Live planners: a model chooses the tools, through the same core loop, dispatcher, checks and shapes.

Planners (docs/shifts-agent.md, "Live planners"): ``offline`` (the default rule-based planner), ``<model>``
(a tool loop on that model: Claude over the Messages API, OpenAI Responses function calling, Gemini function
calling) and ``analyst`` / ``analyst:<claude model>`` (one JSON plan checked whole before any step runs,
``live/analyst.py``). Code still owns the scope, every number and the answer's sections; the model only
picks tools from its catalog (``live/catalogs.py``) and ends by citing the evidence ids it used.

Bounds of a live run: 10 tool calls, 60 s, 10 model calls, and the serialized request held to 24 KB
(OpenAI and local servers) or 64 KB (Claude, Gemini), the oldest tool results trimmed to a stub first.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from shopfloor.agent.providers.factory import (
    DEFAULT_MODELS,
    LOCAL_PROVIDER,
    ProviderConfigError,
    make_provider,
    provider_for_model,
)
from shopfloor.settings import KEY_ENV, Settings, provider_key
from shopfloor.shifts.answers import refusals
from shopfloor.shifts.answers.answer import Answer
from shopfloor.shifts.investigation import History, Run, investigate, investigate_plan, run_scope
from shopfloor.shifts.live.analyst import investigate_analyst
from shopfloor.shifts.live.catalogs import live_limits, live_registry
from shopfloor.shifts.live.narrative import add_narrative
from shopfloor.shifts.live.prompts import loop_system
from shopfloor.shifts.planning.planner import MODEL as OFFLINE_MODEL
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.refused import action_refusal
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS, route
from shopfloor.shifts.planning.scope_words import normalize
from shopfloor.shifts.plant.scope import Scope

if TYPE_CHECKING:
    import duckdb
    import httpx2

    from shopfloor.agent.providers.base import Provider

OFFLINE = "offline"
ANALYST = "analyst"
PlannerKind = Literal["offline", "loop", "analyst"]


class PlannerError(ValueError):
    """A planner name that names no planner (raised before any call)."""


@dataclass(frozen=True)
class PlannerChoice:
    """Which planner runs: offline, a tool loop on a model, or the analyst on a Claude model."""

    kind: PlannerKind
    model: str | None = None
    provider: str | None = None

    @property
    def name(self) -> str:
        """The planner's name as ``SHOPFLOOR_MODEL`` / ``--model`` spell it."""
        if self.kind == "offline":
            return OFFLINE
        return f"{ANALYST}:{self.model}" if self.kind == "analyst" else str(self.model)

    @property
    def catalog_provider(self) -> str:
        """Whose strict limits and byte cap the catalog is held to (a local server: OpenAI's)."""
        return "openai" if self.provider == LOCAL_PROVIDER else str(self.provider)


def parse_planner(name: str, settings: Settings | None = None) -> PlannerChoice:
    """The planner ``name`` selects: ``offline``, ``analyst``, ``analyst:<claude model>`` or a model name."""
    name = name.strip()
    if not name or name == OFFLINE:
        return PlannerChoice("offline")
    if name == ANALYST or name.startswith(f"{ANALYST}:"):
        model = name.partition(":")[2] or DEFAULT_MODELS["anthropic"]
        if provider_for_model(model) != "anthropic":
            raise PlannerError(f"the analyst plans on a Claude model, not {model!r}")
        return PlannerChoice("analyst", model, "anthropic")
    try:
        provider = provider_for_model(name, settings)
    except ProviderConfigError as error:
        raise PlannerError(str(error)) from None
    return PlannerChoice("loop", name, provider)


def chosen_planner(option: str | None, settings: Settings) -> PlannerChoice:
    """The ``--model`` option, else ``SHOPFLOOR_MODEL``, else the offline planner (never a guess from keys)."""
    return parse_planner(option or settings.model or OFFLINE, settings)


def available_planners(settings: Settings) -> list[dict[str, Any]]:
    """Every planner a person may choose, with whether it can run now (its key is set) and what it needs.

    For the page's planner control and the CLI's help: ``name`` is what ``--model`` takes."""
    out: list[dict[str, Any]] = [
        {"name": OFFLINE, "kind": "offline", "provider": None, "model": None, "ready": True, "needs": None}
    ]
    for provider in ("anthropic", "openai", "gemini"):
        model = DEFAULT_MODELS[provider]
        ready = bool(provider_key(provider))
        out.append(
            {
                "name": model,
                "kind": "loop",
                "provider": provider,
                "model": model,
                "ready": ready,
                "needs": None if ready else KEY_ENV[provider],
            }
        )
        if provider == "anthropic":
            out.append({**out[-1], "name": f"{ANALYST}:{model}", "kind": "analyst"})
    return out


@dataclass(frozen=True)
class LiveScope:
    """The plan the answer is shaped by, the scope the tools run in, and whether the question moved it."""

    plan: Plan
    scope: Scope
    routed: bool
    moved: bool


def refusal(question: str) -> str | None:
    """Why no planner, live or offline, takes ``question`` (empty, too long, or an action), or None."""
    q = normalize(question)
    if not q:
        return "The question is empty."
    if len(q) > MAX_QUESTION_CHARS:
        return f"Questions are limited to {MAX_QUESTION_CHARS} characters."
    return action_refusal(question, q)


def live_scope(question: str, scope: Scope, previous: Plan | None = None) -> LiveScope:
    """The run's scope: the router's when it reads the question (its scope words move the scope, as they do
    offline), else the application's scope as selected, shaped as a KPI answer."""
    routed = route(question, scope, previous)
    if isinstance(routed, Plan):
        tool_scope = run_scope(routed)
        if routed.window != "day" and routed.anchor is not None:
            # A named window ("last week") is held as its own anchor, so the scope check reads that window.
            tool_scope = replace(tool_scope, day=routed.anchor)
        return LiveScope(routed, tool_scope, True, tool_scope != scope)
    anchor = scope.day if scope.period != "day" else None
    plan = Plan(
        measure="kpis",
        day=scope.day,
        shift=scope.shift,
        include=scope.include,
        window=scope.period,
        anchor=anchor,
    )
    return LiveScope(plan, scope, False, False)


def build_provider(
    choice: PlannerChoice, settings: Settings, http_client: httpx2.Client | None = None
) -> Provider:
    """The core provider serving ``choice`` (raises ProviderConfigError for a missing key or retired model)."""
    assert choice.model is not None
    return make_provider(choice.model, settings, http_client=http_client)


def investigate_live(
    question: str,
    scope: Scope,
    conn: duckdb.DuckDBPyConnection,
    choice: PlannerChoice,
    provider: Provider,
    *,
    history: History | None = None,
    after: str | None = None,
    narrative: Provider | None = None,
    budget: Any = None,
    abort: threading.Event | None = None,
) -> Answer:
    """Answer ``question`` with a live planner (a tool loop or the analyst) on ``provider``.

    ``narrative``, when given, is asked after a complete run for a short narrative with fact placeholders
    (``live/narrative.py``); ``budget`` is handed to the core loop's spending reservation; ``abort`` (set when
    the asking client leaves) stops every model call of the run, the narrative's too."""
    refused = refusal(question)
    if refused is not None:
        return _refused(question, scope, refused)
    previous = parse_address(after) if after else (history.previous_plan() if history else None)
    where = live_scope(question, scope, previous)
    if choice.kind == "analyst":
        answer = investigate_analyst(
            question,
            scope,
            conn,
            provider,
            where.plan,
            where.scope,
            routed=where.routed,
            moved=where.moved,
            history=history,
            budget=budget,
            abort=abort,
        )
    else:
        run = Run(
            conn,
            scope,
            history,
            planner=provider,
            registry=live_registry(choice.catalog_provider, where.scope.period),
            system=loop_system(where.scope, where.moved),
            tool_scope=where.scope,
            limits=live_limits(choice.catalog_provider),
            budget=budget,
            abort=abort,
        )
        answer = investigate_plan(question, where.plan, run)
    if not where.routed:
        answer.address = None  # the live answer has no canonical (offline) address
        answer.plan = None
    answer.usage["planner"] = choice.name
    answer.usage["model_calls"] = sum(
        1 for step in answer.trace if step.get("kind") == "model_call" and step.get("model") != OFFLINE_MODEL
    )
    if narrative is not None and answer.status == "complete" and not (abort is not None and abort.is_set()):
        add_narrative(answer, question, narrative, budget=budget, abort=abort)
    return answer


def ask_live(
    question: str,
    scope: Scope,
    conn: duckdb.DuckDBPyConnection,
    planner: str,
    settings: Settings,
    *,
    history: History | None = None,
    after: str | None = None,
    http_client: httpx2.Client | None = None,
    narrative: bool = True,
    budget: Any = None,
) -> Answer:
    """``investigate_live`` with the planner named ``planner`` built from the settings (its key from the
    environment); the same provider writes the narrative unless ``narrative`` is False. Its model calls are
    held to ``budget``, by default the plant's monthly cap (``shopfloor shifts ask --model`` and ``shopfloor
    eval shifts`` come through here; docs/pricing.md, "Spend under a cap")."""
    choice = parse_planner(planner, settings)
    if choice.kind == "offline":
        return investigate(question, scope, conn, history=history, after=after)
    provider = build_provider(choice, settings, http_client)
    if budget is None:
        from shopfloor.agent.spend import budget_for

        budget = budget_for(
            settings.workshop_db_url(), "shifts", settings.shifts_plant_id, settings.monthly_cap_usd
        )
    return investigate_live(
        question,
        scope,
        conn,
        choice,
        provider,
        history=history,
        after=after,
        narrative=provider if narrative else None,
        budget=budget,
    )


def _refused(question: str, scope: Scope, reason: str) -> Answer:
    section = refusals.reason(reason)  # said from its template when it is the router's word for word
    return Answer("unavailable", question, scope.as_dict(), None, [section], reason=reason)


__all__ = [
    "ANALYST",
    "OFFLINE",
    "LiveScope",
    "PlannerChoice",
    "PlannerError",
    "ask_live",
    "available_planners",
    "chosen_planner",
    "investigate_live",
    "live_limits",
    "live_scope",
    "loop_system",
    "parse_planner",
]
