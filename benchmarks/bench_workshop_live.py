"""Toquilla Trace, live models: model calls and cost per run for the workshop sample note, per provider.

Each figure replays a recorded exchange (``tests/workshop/agent/recordings/<provider>/sample_note.json``,
hand-written in the provider's documented wire format, not captured from a live API) through the provider's
real SDK and the whole workshop run on a freshly seeded store: the loop, the seven tools, the rules and the
save. Counts are the HTTP requests the SDK sent; costs come from the replayed usage priced by the model table,
so they describe the recordings, not a live answer. Costs are shown in US cents (the table prints three
decimals). The replay helper is the Shift Investigator's
(``shopfloor.agent.providers.replay``), so both apps' live figures are replayed the same way.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from shopfloor.agent.providers.replay import REPLAY_MODELS as MODELS
from shopfloor.agent.providers.replay import recording, replayed_provider
from shopfloor.bench import Figure
from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store

RECORDINGS = Path(__file__).resolve().parents[1] / "tests" / "workshop" / "agent" / "recordings"
SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)
ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
# The four cards the sample note must give (docs/workshop-agent.md); a replay that gives others is an error.
EXPECTED_CARDS = {
    ("create_hat", None): "pending",
    ("advance_stage", "TQ-7F3K2"): "pending",
    ("advance_stage", "TQ-2C5P0"): "blocked",
    ("flag_issue", "TQ-4K9D1"): "pending",
}
# Goals for the default provider (Gemini 2.5 Flash-Lite): at most 3 model calls and under $0.002 per note.
GOAL_CALLS = 3.0
GOAL_GEMINI_CENTS = 0.2  # $0.002
_dir = Path(tempfile.mkdtemp(prefix="bench-workshop-live-"))
_runs: dict[str, dict[str, float]] = {}


def sample_note_run(provider: str) -> dict[str, float]:
    """One replayed sample-note run on ``provider``'s default model: model calls, cost (US cents), tool calls and
    tokens. Raises when the replay went wrong or the cards are not the four expected ones."""
    if provider in _runs:
        return _runs[provider]
    wire = recording(RECORDINGS, provider, "sample_note")
    store = fresh_sample_store(_dir / f"{provider}.db")
    try:
        body: dict[str, Any] = run_agent(
            StoreAgentStore(store),
            ANA,
            {"note": SAMPLE_NOTE},
            replayed_provider(provider, wire),
            "req_benchlive000",
            20,
        )
    finally:
        store.dispose()
    cards = {(p["type"], p["payload"].get("hat_code")): p["status"] for p in body.get("proposals", [])}
    if wire.problems or wire.remaining or cards != EXPECTED_CARDS:
        raise RuntimeError(f"{provider}/sample_note: {wire.problems or cards}")
    meta = body["meta"]
    _runs[provider] = {
        "median": float(len(wire.calls)),
        "cost_cents": float(meta["cost_usd"]) * 100,
        "tool_calls": float(meta["tool_calls"]),
        "tokens_in": float(meta["tokens_in"]),
        "tokens_out": float(meta["tokens_out"]),
    }
    return _runs[provider]


def sample_note_cost(provider: str) -> dict[str, float]:
    """The cost of the same run (US cents) as the figure's value."""
    return {"median": sample_note_run(provider)["cost_cents"]}


FIGURES = [
    Figure(
        f"workshop sample note, gemini ({MODELS['gemini']}): model calls per run (cost below)",
        unit="calls",
        goal=GOAL_CALLS,
        measure=lambda: sample_note_run("gemini"),
    ),
    Figure(
        f"workshop sample note, gemini ({MODELS['gemini']}): cost per run (goal: under $0.002)",
        unit="¢",
        goal=GOAL_GEMINI_CENTS,
        measure=lambda: sample_note_cost("gemini"),
    ),
    *(
        Figure(
            f"workshop sample note, {provider} ({MODELS[provider]}): model calls per run (cost below)",
            unit="calls",
            measure=lambda provider=provider: sample_note_run(provider),  # type: ignore[misc]
        )
        for provider in ("anthropic", "openai")
    ),
]
