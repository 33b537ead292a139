"""Workshop B reaches nothing of workshop A: every repository method and every read route, with A's ids.

The lists of methods and routes are read from the code, so a new one fails here until it is covered.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import Mount

from shopfloor.workshop.agent.context import BufferedProposal
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import RunResult, RunRow
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo

from .conftest import snapshot
from .helpers import (
    ANA,
    APPLY,
    PEDRO,
    advance,
    assert_envelope,
    bearer,
    hat_row,
    make_run,
)

# Strings that only workshop A's rows contain.
A_MARKERS = (
    WORKSHOP_A,
    "TQ-7F3K2",
    "TQ-2C5P0",
    "TQ-9M2XA",
    "TQ-7F3KA",
    "Rosa Pillco",
    "Carmen Quizhpi",
    "Taller Sígsig",
    "u-ana",
    "u-admin",
    "ana@taller.example",
    "nota de A",
)


def no_row_of_a(value: Any) -> list[str]:
    """Rows (ORM objects) or values in ``value`` that belong to workshop A."""
    if isinstance(value, list | tuple | set):
        return [p for item in value for p in no_row_of_a(item)]
    if isinstance(value, dict):
        return [p for item in [*value.keys(), *value.values()] for p in no_row_of_a(item)]
    if hasattr(value, "__table__"):
        found = getattr(value, "workshop_id", None) or getattr(value, "id", None)
        return [] if found == WORKSHOP_B else [f"{type(value).__name__} of {found}"]
    text = json.dumps(value, ensure_ascii=False, default=str)
    return [m for m in A_MARKERS if m in text]


def test_every_repository_method_stays_in_the_actors_workshop(store: Store, owner: Store) -> None:
    [a_proposal] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)], note="nota de A")
    with store.transaction(WORKSHOP_A, write=False) as s:
        a_run = WorkshopRepo(s, ANA).proposal(a_proposal).run_id
    a_hat = hat_row(store, ANA, "TQ-9M2XA")  # a row B could only hold if it leaked elsewhere
    calls: dict[str, Callable[[WorkshopRepo], object]] = {
        "workshop": lambda r: r.workshop(),
        "profiles": lambda r: r.profiles(),
        "profile": lambda r: r.profile("u-ana"),
        "weavers": lambda r: r.weavers(),
        "weaver": lambda r: r.weaver("w1"),
        "find_weavers": lambda r: r.find_weavers("Rosa Pillco"),
        "open_hat_counts": lambda r: r.open_hat_counts(),
        "hats": lambda r: r.hats(weaver_id="w1", codes=["TQ-7F3K2", "TQ-7F3K8"]),
        "hat_codes": lambda r: r.hat_codes(),
        "hat_by_code": lambda r: r.hat_by_code("TQ-7F3K2"),
        "hat": lambda r: r.hat(a_hat.id),
        "hat_domain": lambda r: r.hat_domain(a_hat).weaver,  # A's weaver stays out of reach
        "events": lambda r: r.events(a_hat.id),
        "events_for": lambda r: [e for rows in r.events_for([a_hat.id]).values() for e in rows],
        "flags": lambda r: r.flags([a_hat.id]),
        "anomalies": lambda r: [a["kind"] for a in r.anomalies(a_hat) if a["kind"] != "weaver_not_found"],
        "runs": lambda r: r.runs(),
        "run": lambda r: r.run(a_run),
        "proposals": lambda r: r.proposals(run_id=a_run),
        "proposal": lambda r: r.proposal(a_proposal),
        "open_proposals_for_hat": lambda r: r.open_proposals_for_hat("TQ-7F3K2"),
        "log": lambda r: r.log("test.isolation"),
        "logs": lambda r: r.logs(run_id=a_run),
        "hat_list": lambda r: r.hat_list(grade="Fino", flagged=True),
        "open_flag_counts": lambda r: r.open_flag_counts(),
        "runs_where": lambda r: r.runs_where(status="proposed"),
        "proposal_counts": lambda r: r.proposal_counts([a_run]),
        "proposals_about_hat": lambda r: r.proposals_about_hat(a_hat.id, "TQ-7F3K2"),
    }
    public = {n for n, f in inspect.getmembers(WorkshopRepo, inspect.isfunction) if not n.startswith("_")}
    assert public == set(calls), f"cover these here: {sorted(public ^ set(calls))}"
    before = snapshot(owner)
    leaks: dict[str, list[str]] = {}
    for name, call in calls.items():
        with store.transaction(WORKSHOP_B) as s:
            try:
                found = call(WorkshopRepo(s, PEDRO))
            except NotFound:
                continue
            if no_row_of_a(found):
                leaks[name] = no_row_of_a(found)
    assert leaks == {}
    after = snapshot(owner)
    # B wrote only its own run and log row; nothing of A changed.
    for table, rows in before.items():
        grown = [row for row in after[table] if row not in rows]
        assert [row for row in rows if row not in after[table]] == [], table
        assert all(WORKSHOP_B in row for row in grown) and (table in ("agent_runs", "app_logs") or not grown)


def test_the_agent_cannot_save_over_another_workshops_run(store: Store, owner: Store) -> None:
    """The agent's own writes are scoped too: saving a run id of workshop A as a workshop-B actor writes nothing,
    and B's hourly count does not see A's runs."""
    [a_proposal] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)], note="nota de A")
    with store.transaction(WORKSHOP_A, write=False) as s:
        a_run = WorkshopRepo(s, ANA).proposal(a_proposal).run_id
    before = snapshot(owner)
    card = advance("TQ-7F3K8", "Washing")
    proposal = BufferedProposal(
        "p1", card["type"], card["status"], card["payload"], "x", "x", "high", None, ()
    )
    result = RunResult(a_run, "proposed", "x", [], [proposal], 0, 0, 0, 0.0, "m", None)
    with pytest.raises(NotFound):
        StoreAgentStore(store).save_agent_run(PEDRO, result, [])
    assert snapshot(owner) == before
    b_row = RunRow("run-of-b", PEDRO, "nota de B", "typed", None, "req_b0000000001", "m", datetime.now(UTC))
    assert StoreAgentStore(store).insert_run(b_row, [], 1, timedelta(hours=1))  # A's run does not count for B


def workshop_get_routes(client: TestClient) -> list[str]:
    """Every GET route of the workshop app under ``/api``, from its OpenAPI description."""
    mount = next(r for r in client.app.routes if isinstance(r, Mount) and r.path == "/workshop")  # type: ignore[attr-defined]
    paths = mount.app.openapi()["paths"]  # type: ignore[attr-defined]
    return sorted("/workshop" + p for p, ops in paths.items() if "get" in ops and p.startswith("/api/"))


def test_every_read_route_as_workshop_b_shows_nothing_of_a(client: TestClient, store: Store) -> None:
    [a_proposal] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)], note="nota de A")
    with store.transaction(WORKSHOP_A, write=False) as s:
        a_run = WorkshopRepo(s, ANA).proposal(a_proposal).run_id
    b_admin = bearer(client, "admin@pile.example")
    ids = {"code": "TQ-7F3K2", "run_id": a_run}
    # A's ids also go in every query string; routes ignore the ones they do not take.
    query = {"weaver_id": "w4", "code": "TQ-9M2XA", "run_id": a_run}  # TQ-9M2XA is w4's
    routes = workshop_get_routes(client)
    assert len(routes) >= 7, routes
    for path in routes:
        r = client.get(path.format(**ids), params=query, headers=b_admin)
        assert r.status_code in (200, 404), (path, r.text)
        if r.status_code == 404:
            # The message may repeat the id that was asked for, and nothing else.
            assert set(assert_envelope(r, 404, "not_found")) == {"error"}
            continue
        leaked = no_row_of_a(r.json())
        assert leaked == [], (path, leaked)
    # The routes do answer workshop B with its own rows (so "nothing of A" is not "nothing at all").
    plain = client.get("/workshop/api/hats", headers=b_admin).json()["hats"]
    assert [h["code"] for h in plain] == ["TQ-7F3K8", "TQ-QR7YE"]


def test_workshop_b_cannot_decide_a_card_over_http(client: TestClient, store: Store, owner: Store) -> None:
    [a_proposal] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)])
    b = bearer(client, "pedro@pile.example")
    before = snapshot(owner)
    for action in ("approve", "reject"):
        r = client.post(APPLY, json={"decisions": [{"proposal_id": a_proposal, "action": action}]}, headers=b)
        assert_envelope(r, 404, "not_found")
    edit = {"proposal_id": a_proposal, "action": "approve", "edits": {"hat_code": "TQ-7F3K8"}}
    assert_envelope(client.post(APPLY, json={"decisions": [edit]}, headers=b), 404, "not_found")
    assert snapshot(owner) == before
