"""The PostgreSQL store's pooled connections: no ping before each checkout, so a connection the server dropped
is found by a transaction's first statement and replaced; read transactions are READ ONLY and keep the
driver's prepared statements (docs/workshop-agent.md, "Benchmarks")."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, Select, create_engine, func, insert, select, text
from sqlalchemy.exc import DBAPIError

from shopfloor.workshop.sample import WORKSHOP_A, load_sample
from shopfloor.workshop.store import Store, open_store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

from .conftest import PgDatabase


@pytest.fixture
def pg_store(pg_database: PgDatabase, pg_owner: Store) -> Iterator[Store]:
    """A store of its own as the app role (a pool no other test shares), over the sample data."""
    load_sample(pg_owner)
    store = open_store(pg_database.app_url)
    yield store
    store.dispose()


def _backend_pid(store: Store) -> int:
    with store.reading(WORKSHOP_A) as conn:
        return int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _drop_connection(pg_database: PgDatabase, pid: int) -> None:
    """What a server restart or an idle timeout does to a pooled connection: the server ends it."""
    admin = create_engine(pg_database.owner_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
            # Wait until the backend is gone, so the pooled connection is surely dead when it is next used.
            deadline = time.monotonic() + 10
            while conn.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE pid = :p"), {"p": pid}
            ).scalar():
                assert time.monotonic() < deadline, "the backend did not end"
                time.sleep(0.01)
    finally:
        admin.dispose()


def _log(request_id: str) -> dict[str, Any]:
    return {
        "ts": utcnow(),
        "level": "info",
        "source": "test",
        "event": "test.connections",
        "request_id": request_id,
        "workshop_id": WORKSHOP_A,
        "payload": {},
    }


def _logged(request_id: str) -> Select[tuple[int]]:
    return select(func.count()).select_from(m.AppLog).where(m.AppLog.request_id == request_id)


def _hat_codes(conn: Connection) -> list[str]:
    return list(conn.execute(select(m.Hat.code).order_by(m.Hat.code)).scalars())


def test_the_store_does_not_ping_before_each_checkout(pg_store: Store) -> None:
    assert pg_store.engine.pool._pre_ping is False  # type: ignore[attr-defined]
    assert pg_store.engine.pool._recycle > 0  # type: ignore[attr-defined]


def test_a_read_after_the_server_dropped_the_pooled_connection_reconnects(
    pg_store: Store, pg_database: PgDatabase
) -> None:
    pid = _backend_pid(pg_store)
    _drop_connection(pg_database, pid)
    with pg_store.reading(WORKSHOP_A) as conn:
        assert "TQ-7F3K2" in _hat_codes(conn)
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid


def test_a_write_after_the_server_dropped_the_pooled_connection_reconnects(
    pg_store: Store, pg_database: PgDatabase
) -> None:
    _drop_connection(pg_database, _backend_pid(pg_store))
    request_id = f"req_{secrets.token_hex(6)}"
    with pg_store.writing(WORKSHOP_A) as conn:
        conn.execute(insert(m.AppLog).values(_log(request_id)))
    with pg_store.reading(WORKSHOP_A) as conn:
        assert conn.execute(_logged(request_id)).scalar_one() == 1


def test_a_session_after_the_server_dropped_the_pooled_connection_reconnects(
    pg_store: Store, pg_database: PgDatabase
) -> None:
    _drop_connection(pg_database, _backend_pid(pg_store))
    with pg_store.transaction(WORKSHOP_A, write=False) as session:
        assert "TQ-7F3K2" in list(session.scalars(select(m.Hat.code)))


def test_a_dropped_connection_mid_transaction_is_not_retried(
    pg_store: Store, pg_database: PgDatabase
) -> None:
    # Only a transaction's first statement is begun again: later ones may follow writes already lost.
    with pytest.raises(DBAPIError), pg_store.writing(WORKSHOP_A) as conn:
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        _drop_connection(pg_database, pid)
        conn.execute(text("SELECT 1"))


def test_a_read_transaction_writes_nothing(pg_store: Store) -> None:
    request_id = f"req_{secrets.token_hex(6)}"
    with pytest.raises(DBAPIError, match="read-only transaction"), pg_store.reading(WORKSHOP_A) as conn:
        conn.execute(insert(m.AppLog).values(_log(request_id)))
    with pg_store.reading(WORKSHOP_A) as conn:
        assert conn.execute(_logged(request_id)).scalar_one() == 0


def test_read_transactions_keep_the_prepared_statements(pg_store: Store) -> None:
    # The driver prepares a statement on its fifth use and forgets every prepared statement at a ROLLBACK:
    # reads that ended with one were parsed and planned again on every request.
    for _ in range(8):
        with pg_store.reading(WORKSHOP_A) as conn:
            _hat_codes(conn)
    with pg_store.reading(WORKSHOP_A) as conn:
        prepared = conn.execute(text("SELECT statement FROM pg_prepared_statements")).scalars().all()
    assert any("FROM hats" in statement for statement in prepared)


def test_a_failed_write_transaction_is_rolled_back_and_its_connection_pooled_as_before(
    pg_store: Store,
) -> None:
    # The store's transactions send their own BEGIN with the workshop's setting, the driver in autocommit
    # mode meanwhile: ROLLBACK must still undo the writes, and the pooled connection must leave that mode.
    request_id = f"req_{secrets.token_hex(6)}"
    with pytest.raises(RuntimeError), pg_store.writing(WORKSHOP_A) as conn:
        conn.execute(insert(m.AppLog).values(_log(request_id)))
        raise RuntimeError("after the write")
    with pg_store.reading(WORKSHOP_A) as conn:
        assert conn.execute(_logged(request_id)).scalar_one() == 0
    with pg_store.engine.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None and driver.autocommit is False
        # A plain connection of the pool is transactional again: its writes wait for a commit.
        conn.execute(text("SELECT set_config('app.workshop_id', :w, true)"), {"w": WORKSHOP_A})
        conn.execute(insert(m.AppLog).values(_log(request_id)))
        conn.rollback()
    with pg_store.reading(WORKSHOP_A) as conn:
        assert conn.execute(_logged(request_id)).scalar_one() == 0


def test_the_workshop_setting_is_quoted(pg_store: Store) -> None:
    # The setting goes as a quoted literal (two statements in one string take no parameters).
    odd = "ws-'; SELECT 1; --"
    with pg_store.reading(odd) as conn:
        assert conn.execute(text("SELECT current_setting('app.workshop_id')")).scalar_one() == odd
        assert conn.execute(select(func.count()).select_from(m.Hat)).scalar_one() == 0
