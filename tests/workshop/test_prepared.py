"""The hot reads sent to SQLite's driver give what SQLAlchemy gives: the same rows, values of the same types,
the same column names, and SQLAlchemy's exceptions (docs/workshop-agent.md, "Benchmarks")."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import Table, bindparam, select, text
from sqlalchemy.exc import OperationalError

from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent import persistence as p
from shopfloor.workshop.agent.context import BufferedProposal
from shopfloor.workshop.agent.persistence import save_proposed_run
from shopfloor.workshop.agent.run import LogRow, RunResult, RunRow
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
from shopfloor.workshop.store import Store, prepared
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.prepared import all_rows, first_row, scalar

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")


def _cases(store: Store) -> list[tuple[Any, dict[str, Any]]]:
    """Every prepared read of the agent and of bearer authentication, with parameters that find rows."""
    w = {"workshop_id": WORKSHOP_A}
    since = {**w, "user_id": ANA.user_id, "since": datetime.now(UTC) - timedelta(days=1)}
    cases: list[tuple[Any, dict[str, Any]]] = [
        (p._WEAVERS_OF, w),
        (p._HATS_OF, w),
        (p._OPEN_HAT_COUNTS, w),
        (p._RECENT_RUNS, since),
        (p._RECENT_INTERRUPTED, since),
        (accounts._ACTOR, {"user_id": ANA.user_id, "workshop_id": WORKSHOP_A}),
    ]
    with store.reading(WORKSHOP_A) as conn:
        hats = conn.execute(p._HATS_OF, w).all()
    for hat in hats:
        cases += [
            (p._HAT_BY_CODE, {**w, "code": hat.code}),
            (p._LATEST_EVENTS, {**w, "hat_id": hat.id, "limit": 2}),
            (p._OPEN_FLAGS, {**w, "hat_id": hat.id}),
            (p._OPEN_PROPOSAL, {**w, "type": "flag_issue", "run_id": "another", "code": hat.code}),
        ]
    return cases


def test_prepared_reads_match_sqlalchemy(sqlite_store: Store) -> None:
    hat = {"hat_code": "TQ-4K9D1", "kind": "stain", "message": "mancha"}
    save_proposed_run(sqlite_store, ANA, [{"type": "flag_issue", "payload": hat, "status": "pending"}])
    found = 0
    with sqlite_store.reading(WORKSHOP_A) as conn:
        for statement, params in _cases(sqlite_store):
            expected = conn.execute(statement, params).all()
            rows = all_rows(conn, statement, params)
            assert [tuple(r) for r in rows] == [tuple(r) for r in expected]
            assert [[type(v) for v in r] for r in rows] == [[type(v) for v in r] for r in expected]
            first, want = first_row(conn, statement, params), conn.execute(statement, params).first()
            assert (first is None) == (want is None)
            if want is not None:
                assert first._fields == want._fields
                assert first._asdict() == want._asdict()
            found += len(rows)
    assert found > 40  # the sample's weavers, hats, events and the open proposal were read


def test_datetimes_come_back_aware(sqlite_store: Store) -> None:
    with sqlite_store.reading(WORKSHOP_A) as conn:
        hat = first_row(conn, p._HATS_OF, {"workshop_id": WORKSHOP_A})
    assert hat.created_at.tzinfo is UTC
    assert isinstance(hat.archived, bool)


def test_bearer_token_read_on_the_driver(sqlite_store: Store) -> None:
    token = accounts.issue_token(sqlite_store, ANA)
    assert accounts.actor_for_token(sqlite_store, token) == ANA
    with sqlite_store.reading(None) as conn:
        row = first_row(conn, accounts._TOKEN_SQLITE, {"h": accounts.token_hash(token)})
    assert row[2] is False  # "revoked_at IS NOT NULL" read as a bool, as SQLAlchemy reads it


def test_scalar_and_empty(sqlite_store: Store) -> None:
    params = {"workshop_id": "no-such-workshop"}
    with sqlite_store.reading(WORKSHOP_A) as conn:
        assert first_row(conn, p._WEAVERS_OF, params) is None
        assert all_rows(conn, p._WEAVERS_OF, params) == []
        count = scalar(conn, p._RECENT_RUNS, {**params, "user_id": "u", "since": datetime.now(UTC)})
    assert count == 0


def test_driver_errors_are_sqlalchemys(sqlite_store: Store) -> None:
    hats = cast(Table, m.Hat.__table__)
    broken = select(hats.c.id).where(hats.c.code == bindparam("code"))
    with pytest.raises(OperationalError, match="no such column"), sqlite_store.writing(None) as conn:
        conn.execute(text("ALTER TABLE hats RENAME COLUMN code TO code_gone"))  # rolled back on the way out
        all_rows(conn, broken, {"code": "TQ-7F3K2"})
    with sqlite_store.reading(WORKSHOP_A) as conn:
        assert first_row(conn, broken, {"code": "TQ-7F3K2"}) is not None


def test_expanding_parameters_are_refused(sqlite_store: Store) -> None:
    hats = cast(Table, m.Hat.__table__)
    listed = select(hats.c.id).where(hats.c.code.in_(["TQ-7F3K2", "TQ-2C5P0"]))
    with sqlite_store.reading(WORKSHOP_A) as conn, pytest.raises(ValueError, match="rendered at execution"):
        all_rows(conn, listed, {})


_NOW = datetime(2026, 12, 4, 12, 30, 15, 123456, tzinfo=UTC)
_TABLES = ("agent_runs", "proposals", "app_logs")


def _one_run(store: Store) -> None:
    """A run row, its first log row, then the save of two proposals and three log rows, at fixed times."""
    agent_store = p.StoreAgentStore(store)
    row = RunRow("run-1", ANA, "nota", "voice", "TQ-7F3K2", "req_1", "offline", _NOW, "key-12345", _NOW)
    log = LogRow(_NOW, "info", "agent.run.start", "req_1", ANA.user_id, WORKSHOP_A, "run-1", {"chars": 4})
    assert agent_store.insert_run(row, [log], limit=10, window=timedelta(hours=1)) is True
    cards = [
        BufferedProposal(
            "p1",
            "flag_issue",
            "pending",
            {"hat_code": "TQ-4K9D1", "kind": "stain"},
            "w",
            "q",
            "check",
            None,
            (1,),
            {"why": {"code": "x"}},
        ),
        BufferedProposal(
            "p2",
            "create_hat",
            "question",
            {"weaver_id": "w1", "grade": None},
            "",
            "",
            "high",
            {"allowed": True, "params": {}},
            (2,),
        ),
    ]
    logs = [replace(log, event=f"agent.step.{i}", payload={"i": i, "ñ": [None, 1.5]}) for i in range(3)]
    result = RunResult(
        "run-1",
        "proposed",
        "Entendí: nada.",
        [{"kind": "model_call", "text": "ü"}],
        cards,
        0,
        0,
        12,
        0.0,
        None,
        None,
        ("id-a", "id-b"),
        {"run_id": "run-1"},
    )
    assert agent_store.save_agent_run(ANA, result, logs) == ["id-a", "id-b"]


def _stored(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """The rows as SQLite holds them (text, numbers, NULLs), read on a connection of its own."""
    path = store.engine.url.database
    assert path is not None
    with sqlite3.connect(path) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in _TABLES}


def test_writes_store_what_sqlalchemy_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(p, "utcnow", lambda: _NOW)
    stores = [fresh_sample_store(tmp_path / name) for name in ("driver.db", "sqlalchemy.db")]
    try:
        _one_run(stores[0])
        with monkeypatch.context() as through_sqlalchemy:
            through_sqlalchemy.setattr(prepared, "_on_sqlite", lambda *_args: None)
            _one_run(stores[1])
        driver, expected = (_stored(store) for store in stores)
    finally:
        for store in stores:
            store.dispose()
    assert driver == expected
    assert len(driver["proposals"]) == 2 and len(driver["app_logs"]) == 4
    assert any("TQ-4K9D1" in row for row in driver["proposals"])  # the hat code column, filled in on insert
