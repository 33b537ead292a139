"""Eight clients approving at once (threads, one transaction each): exactly one change lands."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from shopfloor.workshop.approvals import CardResult, Decision, apply_decision
from shopfloor.workshop.store import Store

from .helpers import (
    ANA,
    APPLY,
    advance,
    advance_seen_at,
    bearer,
    hat_row,
    make_run,
    proposal_row,
    run_status,
    stage_events,
)

CLIENTS = 8


def decide_all_at_once(store: Store, decisions: list[Decision]) -> list[CardResult]:
    barrier = threading.Barrier(len(decisions))

    def one(decision: Decision) -> CardResult:
        barrier.wait()
        return apply_decision(store, ANA, decision)

    with ThreadPoolExecutor(max_workers=len(decisions)) as pool:
        return list(pool.map(one, decisions))


def approve_all_at_once(store: Store, proposal_ids: list[str]) -> list[CardResult]:
    return decide_all_at_once(store, [Decision(proposal_id=pid, action="approve") for pid in proposal_ids])


def test_eight_conflicting_approvals_one_applies(store: Store) -> None:
    # Eight notes, each proposing the same move of the same hat at version 1.
    ids = [make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])[0] for _ in range(CLIENTS)]
    results = approve_all_at_once(store, ids)
    outcomes = sorted(r.outcome for r in results)
    assert outcomes == ["applied"] + ["conflict"] * (CLIENTS - 1), [
        (r.outcome, r.code) for r in results if r.outcome == "blocked"
    ]
    assert all(r.http_status == 409 for r in results if r.outcome == "conflict")
    hat = hat_row(store, ANA, "TQ-7F3K2")
    assert (hat.stage, hat.version) == ("Washing", 2)
    [event] = stage_events(store, ANA, "TQ-7F3K2")
    winner = next(r for r in results if r.outcome == "applied")
    assert event.proposal_id == winner.proposal_id
    # Nothing is lost: every card is still there, the losers blocked with the conflict as their reason.
    for r in results:
        row = proposal_row(store, ANA, r.proposal_id)
        if r is winner:
            assert row.status == "approved" and run_status(store, ANA, r.proposal_id) == "approved"
        else:
            assert row.status == "blocked" and row.rule_result is not None
            assert row.rule_result["code"] == "conflict"
            assert run_status(store, ANA, r.proposal_id) == "proposed"


def test_eight_conflicting_agent_cards_one_applies(store: Store) -> None:
    # The agent records the stage it saw (Weaving), not a version; the losers must still see a conflict.
    ids = [
        make_run(store, ANA, [advance_seen_at("TQ-1P9KD", "Weaving", "Washing")])[0] for _ in range(CLIENTS)
    ]
    results = approve_all_at_once(store, ids)
    assert sorted(r.outcome for r in results) == ["applied"] + ["conflict"] * (CLIENTS - 1)
    hat = hat_row(store, ANA, "TQ-1P9KD")
    assert (hat.stage, hat.version) == ("Washing", 2)
    [event] = stage_events(store, ANA, "TQ-1P9KD")
    assert event.proposal_id == next(r.proposal_id for r in results if r.outcome == "applied")
    assert sorted(proposal_row(store, ANA, r.proposal_id).status for r in results) == ["approved"] + [
        "blocked"
    ] * (CLIENTS - 1)


def test_eight_clicks_on_one_card_apply_once(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-2C5P0", "Bleaching", version=2)])
    results = approve_all_at_once(store, [pid] * CLIENTS)
    outcomes = sorted(r.outcome for r in results)
    assert outcomes == ["applied"] + ["unchanged"] * (CLIENTS - 1)
    assert len(stage_events(store, ANA, "TQ-2C5P0")) == 2  # the sample's move to Washing, and this one
    assert hat_row(store, ANA, "TQ-2C5P0").version == 3


def test_approvals_and_rejections_racing_on_one_card(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-1P9KD", "Washing", version=1)])
    decisions = [Decision(proposal_id=pid, action="approve" if i % 2 else "reject") for i in range(CLIENTS)]
    results = decide_all_at_once(store, decisions)
    winners = [r for r in results if r.outcome in ("applied", "rejected")]
    assert len(winners) == 1
    assert all(r.http_status == 409 for r in results if r not in winners)
    final = proposal_row(store, ANA, pid).status
    moved = len(stage_events(store, ANA, "TQ-1P9KD"))
    if winners[0].outcome == "applied":
        assert (final, moved, hat_row(store, ANA, "TQ-1P9KD").stage) == ("approved", 1, "Washing")
    else:
        assert (final, moved, hat_row(store, ANA, "TQ-1P9KD").stage) == ("rejected", 0, "Weaving")


def test_eight_http_clients_approving_one_hat(client: TestClient, store: Store) -> None:
    """The same race through the API: eight clients, each its own connection and bearer token."""
    headers = bearer(client, "ana@taller.example")
    ids = [
        make_run(store, ANA, [advance_seen_at("TQ-7F3KA", "Weaving", "Washing")])[0] for _ in range(CLIENTS)
    ]
    barrier = threading.Barrier(CLIENTS)

    def one(pid: str) -> tuple[int, dict[str, object]]:
        with TestClient(client.app) as own:
            barrier.wait()
            r = own.post(
                APPLY, json={"decisions": [{"proposal_id": pid, "action": "approve"}]}, headers=headers
            )
            return r.status_code, r.json()

    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        answers = list(pool.map(one, ids))
    assert sorted(status for status, _ in answers) == [200] + [409] * (CLIENTS - 1)
    for status, body in answers:
        if status == 409:
            assert body["error"]["code"] == "conflict"  # type: ignore[index]
    [event] = stage_events(store, ANA, "TQ-7F3KA")
    assert event.from_stage == "Weaving" and event.to_stage == "Washing"
    assert hat_row(store, ANA, "TQ-7F3KA").version == 2
    statuses = sorted(proposal_row(store, ANA, pid).status for pid in ids)
    assert statuses == ["approved"] + ["blocked"] * (CLIENTS - 1)
