"""The hot reads sent to SQLite's driver give what SQLAlchemy gives: the same rows, values of the same types,
the same column names, and SQLAlchemy's exceptions (docs/workshop-agent.md, "Benchmarks")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest
from sqlalchemy import Table, bindparam, select, text
from sqlalchemy.exc import OperationalError

from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent import persistence as p
from shopfloor.workshop.agent.persistence import save_proposed_run
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
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
