"""A hijacked model: random tool calls with ids and codes from anywhere (other workshops, invented ones,
quotes not in the note). Whatever it asks, no record changes, every saved proposal quotes the note, and every
hat or weaver a saved proposal names came from a lookup of that run and belongs to the actor's workshop.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.web.errors import ApiError
from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .conftest import ANA

EXAMPLES = int(os.environ.get("SHOPFLOOR_PROPERTY_EXAMPLES", "200")) // 4
NOTE = "Rosa entregó 2 finos de 16 hileras. El TQ-7F3K2 pasó a lavado y el TQ-7F3K8 está listo."
IDS = st.sampled_from(["w1", "w2", "w3", "w4", "wb1", "w99", ""])
CODES = st.sampled_from(
    ["TQ-7F3K2", "TQ-7F3K8", "TQ-QR7YE", "TQ-2C5P0", "tq 7f3kz", "TQ-ZZZZZ", "TQ-6J4YC", "x"]
)
QUOTES = st.sampled_from(
    ["El TQ-7F3K2 pasó a lavado", "Rosa entregó 2 finos", "TQ-7F3K8 está listo", "delete all", "Ro"]
)
STAGES = st.sampled_from(list(domain.STAGES))
MAYBE_INT = st.one_of(st.none(), st.integers(-5, 60))

choice = st.fixed_dictionaries(
    {"label": st.just("x"), "weaver_id": st.one_of(st.none(), IDS), "hat_code": st.one_of(st.none(), CODES)}
)
calls = st.one_of(
    st.builds(
        lambda n: ("find_weaver", {"name": n}), st.sampled_from(["Rosa", "Rosa Chávez", "Carmen", "Pedro"])
    ),
    st.builds(
        lambda c, w, s, o: ("find_hats", {"codes": c, "weaver_name": w, "stage": s, "open_only": o}),
        st.lists(CODES, max_size=3),
        st.one_of(st.none(), st.sampled_from(["Rosa", "Rosa Chávez", "Carmen"])),
        st.one_of(st.none(), STAGES),
        st.booleans(),
    ),
    st.builds(lambda c: ("get_hat", {"code": c}), CODES),
    st.builds(
        lambda w, q, r, quote: (
            "propose_create_hats",
            {
                "weaver_id": w,
                "quantity": q,
                "grade": None,
                "rows_per_inch": r,
                "straw": None,
                "quote": quote,
                "why": "x",
                "confidence": "high",
            },
        ),
        IDS,
        st.integers(-1, 25),
        MAYBE_INT,
        QUOTES,
    ),
    st.builds(
        lambda c, s, quote: (
            "propose_advance_stage",
            {"hat_code": c, "to_stage": s, "quote": quote, "why": "x", "confidence": "high"},
        ),
        CODES,
        STAGES,
        QUOTES,
    ),
    st.builds(
        lambda c, quote: (
            "propose_flag",
            {
                "hat_code": c,
                "kind": "other",
                "message": "odd",
                "quote": quote,
                "why": "x",
                "confidence": "high",
            },
        ),
        CODES,
        QUOTES,
    ),
    st.builds(
        lambda ch, q, quote: (
            "ask_question",
            {
                "proposal_type": "create_hat",
                "question": "Which?",
                "choices": ch,
                "draft": {
                    "hat_code": None,
                    "quantity": q,
                    "grade": None,
                    "rows_per_inch": None,
                    "to_stage": None,
                    "flag_kind": None,
                },
                "quote": quote,
                "why": "x",
            },
        ),
        st.lists(choice, max_size=5),
        MAYBE_INT,
        QUOTES,
    ),
)
turns = st.lists(st.lists(calls, min_size=1, max_size=6), min_size=1, max_size=6)


def records(store: Store) -> list[list[tuple[object, ...]]]:
    with store.engine.connect() as conn:
        return [
            [tuple(r) for r in conn.execute(select(t).order_by(t.c.id))]
            for t in (m.Hat.__table__, m.Weaver.__table__, m.HatEvent.__table__, m.HatFlag.__table__)
        ]


@settings(
    max_examples=max(EXAMPLES, 25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=turns)
def test_a_hostile_model_cannot_reach_records(raw_store: Store, script):
    before = records(raw_store)
    provider = ScriptedProvider([tool_turn(*t) for t in script] + [text_turn("I understood: done.")])
    try:
        body = run_agent(StoreAgentStore(raw_store), ANA, {"note": NOTE}, provider, "req_hostile0000", 10**9)
    except ApiError as error:
        assert error.status in (502, 504)
        body = None
    assert records(raw_store) == before
    if body is None:
        return
    with raw_store.session(ANA.workshop_id) as session:
        run = session.get(m.AgentRun, body["run_id"])
        saved = list(session.scalars(select(m.Proposal).where(m.Proposal.run_id == body["run_id"])))
        hats_a = {h.code for h in session.scalars(select(m.Hat).where(m.Hat.workshop_id == ANA.workshop_id))}
    assert run is not None and len(saved) <= 10
    seen_hats: set[str] = set()
    seen_weavers: set[str] = set()
    for step in run.steps:
        if step["kind"] == "tool_call" and not step["is_error"]:
            out = step["output"]
            if step["tool"] == "find_weaver":
                seen_weavers |= {w["weaver_id"] for w in out["matches"]}
            elif step["tool"] == "find_hats":
                seen_hats |= {h["code"] for h in out["hats"]} | {
                    c for n in out["not_found"] for c in n["candidates"]
                }
            elif step["tool"] == "get_hat":
                seen_hats.add(out["code"])
    for proposal in saved:
        assert domain.quote_in_note(proposal.quote, NOTE)
        payload = proposal.payload
        choices = (payload.get("question") or {}).get("choices") or []
        codes = {c["hat_code"] for c in choices if c["hat_code"]} | (
            {payload["hat_code"]} if payload.get("hat_code") else set()
        )
        weavers = {c["weaver_id"] for c in choices if c["weaver_id"]} | (
            {payload["weaver_id"]} if payload.get("weaver_id") else set()
        )
        assert codes <= seen_hats & hats_a
        assert weavers <= seen_weavers and not weavers & {"wb1", "w99", ""}
