"""The record and run pages read what they show with queries that hold however many proposals and runs the
workshop has: the cards about a hat, the proposal count of each run and the filters are done in SQL, not
in Python over the newest few hundred rows. Through the whole app, on SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import update

from shopfloor.workshop.approvals import ApplyRequest, Decision, apply_decisions
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from tests.workshop.helpers import ADMIN, ANA, advance, card, login, make_run


def test_the_hat_page_finds_an_old_card_behind_many_newer_ones(client: TestClient, store: Store) -> None:
    make_run(
        store,
        ANA,
        [
            card(
                "flag_issue",
                {"hat_code": "TQ-1P9KD", "kind": "other", "message": "x"},
                quote="la copa del viejo",
            )
        ],
    )
    for _ in range(26):  # 520 newer cards about another hat
        make_run(store, ANA, [advance("TQ-7F3K2", "Washing") for _ in range(20)])
    login(client, "ana@taller.example")
    page = client.get("/workshop/hats/TQ-1P9KD")
    assert page.status_code == 200
    assert "la copa del viejo" in page.text


def test_the_hat_page_shows_the_create_card_that_made_the_hat(client: TestClient, store: Store) -> None:
    [pid] = make_run(
        store,
        ANA,
        [
            card(
                "create_hat",
                {"weaver_id": "w1", "quantity": 1, "grade": "Fino", "rows_per_inch": 18},
                quote="terminó un fino",
            )
        ],
    )
    [result] = apply_decisions(
        store, ANA, ApplyRequest(decisions=[Decision(proposal_id=pid, action="approve")])
    )
    [code] = result.applied["hat_codes"]  # type: ignore[index]
    login(client, "ana@taller.example")
    page = client.get(f"/workshop/hats/{code}")
    assert "terminó un fino" in page.text


def test_the_runs_page_counts_and_filters_in_the_query(client: TestClient, store: Store) -> None:
    [first, *_] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing") for _ in range(3)], note="la vieja")
    with store.transaction(ANA.workshop_id) as s:
        old_run = s.get(m.Proposal, first).run_id  # type: ignore[union-attr]
        s.execute(update(m.AgentRun).where(m.AgentRun.id == old_run).values(status="stopped"))
    for _ in range(200):  # 200 newer runs with 2,000 cards
        make_run(store, ADMIN, [advance("TQ-2C5P0", "Bleaching") for _ in range(10)])
    login(client, "admin@taller.example")
    page = client.get("/workshop/runs", params={"status": "stopped"})
    assert page.status_code == 200
    row = page.text.split(f'href="/workshop/runs/{old_run}"', 1)[1].split("</tr>", 1)[0]
    assert "la vieja" in row
    assert "<td>3</td>" in row
    assert page.text.count("<tr>") == 2  # the header and that one run


def test_the_hats_page_filters_grade_and_open_flags_in_the_query(client: TestClient) -> None:
    login(client, "ana@taller.example")
    page = client.get("/workshop/hats", params={"grade": "Fino", "flagged": "true"})
    assert page.status_code == 200
    assert page.text.count('class="hat-row') == 1 and "TQ-9M2XA" in page.text
    superfino = client.get("/workshop/hats", params={"grade": "Superfino"}).text
    assert superfino.count('class="hat-row') == 2 and "TQ-8H6RT" in superfino and "TQ-5B7NW" in superfino
