"""The /shifts page's planner control: which planners the server can run, the one in use and why a
disabled one is, in the page's language."""

from __future__ import annotations

from typing import Any

from shopfloor.settings import Settings
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words

PLANNER_LABELS = {
    "offline": N_("Offline planner (rule-based, no model)"),
    "loop": N_("tool loop"),
    "analyst": N_("analyst plan"),
}


def planner_choices(
    available: list[dict[str, Any]], default: str, public: bool, public_rounds: int = 0
) -> list[dict[str, Any]]:
    """The planner control's options: each planner ``available_planners`` lists, enabled when its key is set
    on the server (in public mode only when a daily round guard is configured, ``public_rounds`` > 0), with
    why a disabled one is; ``default`` is selected when it can run, else the offline planner."""
    out = []
    for planner in available:
        offline = planner["kind"] == "offline"
        if offline:
            why = None
        elif public and public_rounds == 0:
            why = "public demo: offline only"
        elif not planner["ready"]:
            why = f"needs {planner['needs']} on the server"
        else:
            why = None
        label = (
            PLANNER_LABELS["offline"]
            if offline
            else f"{planner['model']} · {PLANNER_LABELS[planner['kind']]}"
        )
        out.append({"name": planner["name"], "label": label, "enabled": why is None, "why": why})
    names = {c["name"] for c in out if c["enabled"]}
    chosen = default if default in names else "offline"
    for choice in out:
        choice["selected"] = choice["name"] == chosen
    return out


def page_view(settings: Settings) -> dict[str, Any]:
    """What every page shows of the server's settings (plain data, for the worker processes): the planner
    control's choices and the one in use, and the mode."""
    from shopfloor.shifts.live.live import available_planners

    choices = planner_choices(
        available_planners(settings), settings.model, settings.public, settings.public_live_rounds_per_day
    )
    chosen = next(c["name"] for c in choices if c["selected"])
    return {
        "planner": "offline-planner" if chosen == "offline" else chosen,
        "planners": choices,
        "public": settings.public,
    }


def planner_options(choices: list[dict[str, Any]], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """The planner control's options in the page's language (:func:`planner_choices` names them in
    English)."""
    out = []
    for choice in choices:
        label, why = choice["label"], choice["why"]
        if label == PLANNER_LABELS["offline"]:
            label = words._(label)
        else:
            model, _, kind = label.partition(" · ")
            label = f"{model} · {words._(kind)}" if kind else label
        if why == "public demo: offline only":
            why = words._("public demo: offline only")
        elif why and why.startswith("needs ") and why.endswith(" on the server"):
            why = words._("needs {key} on the server").format(key=why[len("needs ") : -len(" on the server")])
        out.append({**choice, "label": label, "why": why})
    return out
