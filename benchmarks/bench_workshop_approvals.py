"""Approvals per second (create_hat cards of quantity 1), on SQLite and PostgreSQL, one client and eight.

Each approval is one transaction: lock the run, re-read the card and the weaver, re-check the rules, insert the
hat and its event, mark the card, update the run. Eight clients each approve the cards of their own run.
PostgreSQL uses a throw-away database on ``SHOPFLOOR_TEST_POSTGRES_URL`` as the non-owner app role.
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from shopfloor.bench import Figure
from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import save_proposed_run
from shopfloor.workshop.approvals import Decision, apply_decision
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store, load_sample
from shopfloor.workshop.store import Store, open_store
from shopfloor.workshop.store.engine import normalize_url
from shopfloor.workshop.store.rls import provision_app_role

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana")
CARDS = 160
ROUNDS = 3
PG_URL = os.environ.get("SHOPFLOOR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def make_cards(store: Store, runs: int, per_run: int) -> list[list[str]]:
    """``runs`` runs of ``per_run`` create_hat cards each; proposal ids per run."""
    out = []
    card = {
        "type": "create_hat",
        "payload": {"weaver_id": "w1", "quantity": 1, "grade": "Fino", "rows_per_inch": 18, "straw": None},
        "status": "pending",
        "why": "bench",
        "quote": "terminó 1 fino",
        "confidence": "high",
        "rule_result": None,
    }
    for _ in range(runs):
        out.append(save_proposed_run(store, ANA, [card] * per_run, note="bench"))
    return out


def approve_rate(store: Store, clients: int) -> float:
    """Approvals per second for ``CARDS`` cards split over ``clients`` threads."""
    batches = make_cards(store, clients, CARDS // clients)

    def work(ids: list[str]) -> int:
        for pid in ids:
            result = apply_decision(store, ANA, Decision(proposal_id=pid, action="approve"))
            assert result.outcome == "applied", result.message
        return len(ids)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        done = sum(pool.map(work, batches))
    return done / (time.perf_counter() - t0)


def summarize(rates: list[float]) -> dict[str, float]:
    return {"median": statistics.median(rates), "p95": min(rates)}


@contextmanager
def sqlite_store() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as tmp:
        store = fresh_sample_store(Path(tmp) / "bench.db")
        try:
            yield store
        finally:
            store.dispose()


@contextmanager
def postgres_store() -> Iterator[Store]:
    admin_url = make_url(normalize_url(PG_URL))
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"sf_wrec_bench_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        owner = open_store(admin_url.set(database=name).render_as_string(hide_password=False))
        owner.migrate()
        provision_app_role(owner.engine, "sf_workshop_app")
        load_sample(owner)
        owner.dispose()
        app_url = admin_url.set(database=name, username="sf_workshop_app", password=None)
        store = open_store(app_url.render_as_string(hide_password=False))
        try:
            yield store
        finally:
            store.dispose()
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def measure(backend: Callable[[], object], clients: int) -> Callable[[], dict[str, float]]:
    def run() -> dict[str, float]:
        try:
            with backend() as store:  # type: ignore[attr-defined]
                return summarize([approve_rate(store, clients) for _ in range(ROUNDS)])
        except Exception as exc:  # the PostgreSQL server may be absent on a laptop
            print(f"skipped: {type(exc).__name__}: {exc}"[:200])
            return {"median": float("nan"), "p95": float("nan")}

    return run


FIGURES = [
    Figure(
        "SQLite approvals/s, 1 client",
        unit="approvals/s",
        higher_is_better=True,
        measure=measure(sqlite_store, 1),
    ),
    Figure(
        "SQLite approvals/s, 8 clients",
        unit="approvals/s",
        higher_is_better=True,
        measure=measure(sqlite_store, 8),
    ),
    Figure(
        "PostgreSQL approvals/s, 1 client",
        unit="approvals/s",
        higher_is_better=True,
        measure=measure(postgres_store, 1),
    ),
    Figure(
        "PostgreSQL approvals/s, 8 clients",
        unit="approvals/s",
        higher_is_better=True,
        measure=measure(postgres_store, 8),
    ),
]
