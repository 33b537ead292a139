"""Engines and sessions of the workshop store.

SQLite (the default file ``var/workshop.db``) runs in WAL mode with foreign keys on; write transactions take
the write lock up front (``BEGIN IMMEDIATE``) so concurrent approvals wait for each other instead of failing
half-way. On PostgreSQL every transaction of a session starts by setting ``app.workshop_id`` (transaction
scoped) from ``session.info["workshop_id"]``; the row-level security policies read it, and a session without
a workshop sees and writes nothing. That setting is the first statement of every transaction, so it also
serves as the check that a pooled connection is still alive (instead of a ping before every checkout): a
connection the server dropped fails there, before anything was done, and the transaction begins again on a
fresh one (docs/workshop-agent.md, "Benchmarks").
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, RootTransaction, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from shopfloor.web.store_errors import UNAVAILABLE, StoreFaultError, os_fault
from shopfloor.workshop.store.migrate import migrate


def normalize_url(url: str) -> str:
    """Use the psycopg 3 driver for plain ``postgresql://`` URLs."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url`` with the store's connection settings."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
            _guarded(lambda: Path(parsed.database or "").parent.mkdir(parents=True, exist_ok=True))
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **kwargs)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    # A server that never answers fails the connection in seconds, not at the operating system's timeout.
    kwargs.setdefault("connect_args", {"connect_timeout": 5})
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 10)
    # No ping before every checkout (a round trip per transaction): the transaction's first statement finds a
    # dead connection and the store begins again on a fresh one (`_begin_scoped`). Connections are replaced
    # after `POOL_RECYCLE_S`, before a server's or a firewall's idle timeout drops them.
    kwargs.setdefault("pool_pre_ping", False)
    kwargs.setdefault("pool_recycle", POOL_RECYCLE_S)
    # Rows inserted together (a run's proposals and log rows) stay one `executemany`, which psycopg sends in
    # one pipeline: as one multi-row INSERT the server's work fell by 0.15 ms a run, but psycopg parses a
    # statement of over 50 parameters again on every call, which cost the server process 0.6 ms.
    return create_engine(url, **kwargs)


POOL_RECYCLE_S = 600


def _guarded(action: Callable[[], object]) -> None:
    """Run a file operation of the store; an operating-system error becomes the store fault it means."""
    try:
        action()
    except OSError as error:
        raise StoreFaultError(os_fault(error) or UNAVAILABLE, str(error)) from error


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


_BEGIN_WRITE = "BEGIN IMMEDIATE"
_BEGIN_READ = "BEGIN DEFERRED"


def _sqlite_begin(connection: Connection) -> None:
    # The driver runs in autocommit mode (isolation_level=None) so that we, not pysqlite, decide how a
    # transaction starts: IMMEDIATE for writes avoids lock-upgrade deadlocks between concurrent writers.
    # Sent on the driver's connection: through SQLAlchemy's statement machinery (events, a result) the BEGIN
    # of every transaction cost more than most of the statements in it. A failure is wrapped as SQLAlchemy
    # wraps it (``OperationalError`` for a busy database), so the store's fault answers still apply.
    statement = _BEGIN_WRITE if connection.get_execution_options().get("sqlite_write") else _BEGIN_READ
    try:
        connection.connection.driver_connection.execute(statement)  # type: ignore[union-attr]
    except sqlite3.Error as error:
        raise DBAPIError.instance(statement, None, error, sqlite3.Error) from error


# SQLite lets one writer in at a time and makes the others poll with growing sleeps (up to 100 ms each), so
# under concurrent agent runs most of a request was spent asleep. `Store.writing` queues writers instead:
# threads of a process on a lock, server processes (`serve --workers N`) on an exclusive `flock` of a file
# beside the database; the kernel wakes the next waiter the moment the lock is released.
_SQLITE_WRITES = threading.Lock()
_LOCK_FILES: dict[tuple[int, str], int] = {}  # by process: a forked child must open its own


def _lock_file(database: str | None) -> int | None:
    """The open lock file beside a SQLite file (None for an in-memory database)."""
    if not database or database == ":memory:":
        return None
    database = database.removeprefix("file:")  # a URI filename (`sqlite:///file:PATH?mode=ro&uri=true`)
    key = (os.getpid(), os.path.abspath(database) + ".write-lock")
    if key not in _LOCK_FILES:
        _guarded(lambda: _LOCK_FILES.setdefault(key, os.open(key[1], os.O_RDWR | os.O_CREAT, 0o600)))
    return _LOCK_FILES[key]


@contextmanager
def _sqlite_write_turn(database: str | None) -> Iterator[None]:
    """Wait until this process's and every other process's writers are done; hold the turn until the end."""
    with _SQLITE_WRITES:
        handle = _lock_file(database)
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if handle is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)


_SET_WORKSHOP = text("SELECT set_config('app.workshop_id', :w, true)")


def _scope(connection: Connection, workshop_id: str | None) -> None:
    """Set the transaction's workshop for the PostgreSQL row-level security policies (no-op on SQLite)."""
    if connection.dialect.name == "postgresql":
        connection.execute(_SET_WORKSHOP, {"w": workshop_id or ""})


def _bind_workshop(session: Session, _transaction: SessionTransaction, connection: Connection) -> None:
    _scope(connection, session.info.get("workshop_id"))


def _dropped(error: DBAPIError) -> bool:
    """Whether a transaction's first statement failed because the server had dropped the pooled connection
    (SQLAlchemy then discards it and every connection pooled before it)."""
    return bool(error.connection_invalidated)


def _begin_scoped(
    engine: Engine, workshop_id: str | None, read_only: bool = False
) -> tuple[Connection, RootTransaction]:
    """A pooled connection of ``engine`` in a new transaction scoped to ``workshop_id`` (on PostgreSQL
    ``READ ONLY`` when asked; see :func:`_begin_postgres`). When the first statement finds the connection
    dropped, nothing was done yet: the transaction begins once more on a fresh connection. Leave it with
    :func:`_end_scoped`."""
    for attempt in range(2):
        conn = engine.connect()
        try:
            transaction = conn.begin()
            if conn.dialect.name == "postgresql":
                _begin_postgres(conn, workshop_id, read_only)
        except DBAPIError as error:
            _end_scoped(conn)
            conn.close()
            if attempt or not _dropped(error):
                raise
            continue
        except BaseException:
            _end_scoped(conn)
            conn.close()
            raise
        return conn, transaction
    raise AssertionError("unreachable")  # the second attempt returns or raises


def _begin_postgres(conn: Connection, workshop_id: str | None, read_only: bool) -> None:
    """BEGIN and the workshop's setting in one round trip, where psycopg sends its own BEGIN and waits for it
    before the first statement (one round trip more per transaction; docs/workshop-agent.md, "Benchmarks").

    For the transaction the driver is in autocommit mode, so it sends no BEGIN of its own; ``COMMIT`` and
    ``ROLLBACK`` still end the transaction this BEGIN opened. :func:`_end_scoped` puts the mode back before the
    connection returns to the pool. Two statements in one string go in the simple protocol, which takes no
    parameters: the workshop id is quoted by the driver."""
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.autocommit = True
    begin = sql.SQL("BEGIN READ ONLY" if read_only else "BEGIN")
    statement = sql.SQL("{}; SELECT set_config('app.workshop_id', {}, true)").format(
        begin, sql.Literal(workshop_id or "")
    )
    conn.exec_driver_sql(statement.as_string(driver), execution_options={"no_parameters": True})


def _end_scoped(conn: Connection) -> None:
    """After the transaction of :func:`_begin_scoped` ended: the PostgreSQL driver back out of autocommit mode
    (a connection that cannot be reset is discarded, never pooled)."""
    if conn.dialect.name != "postgresql" or conn.invalidated:
        return
    driver = conn.connection.driver_connection
    try:
        if driver is not None and driver.autocommit:
            driver.autocommit = False
    except psycopg.Error as error:
        conn.invalidate(error)


class Store:
    """An engine plus session factories; sessions are bound to one workshop (or none, which sees nothing)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(bind=engine, expire_on_commit=False)
        writer = engine.execution_options(sqlite_write=True) if self.is_sqlite else engine
        self._writer = writer
        self._writers = sessionmaker(bind=writer, expire_on_commit=False)
        event.listen(self._sessions, "after_begin", _bind_workshop)
        event.listen(self._writers, "after_begin", _bind_workshop)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @property
    def is_sqlite(self) -> bool:
        """True for the embedded SQLite file."""
        return self.dialect == "sqlite"

    def session(self, workshop_id: str | None, write: bool = False) -> Session:
        """A new session whose transactions are scoped to ``workshop_id`` (None: no workshop, no rows)."""
        factory = self._writers if write else self._sessions
        session = factory()
        session.info["workshop_id"] = workshop_id
        return session

    @contextmanager
    def transaction(self, workshop_id: str | None, write: bool = True) -> Iterator[Session]:
        """One transaction scoped to ``workshop_id``: committed on success, rolled back on error."""
        session, transaction = self._begin_session(workshop_id, write)
        with session, transaction:
            yield session

    def _begin_session(self, workshop_id: str | None, write: bool) -> tuple[Session, SessionTransaction]:
        """A session in a new transaction. On PostgreSQL its connection is taken and scoped at once, so a
        connection the server dropped is found before the caller's first statement and replaced (see
        :func:`_begin_scoped`); SQLite sessions connect on their first statement."""
        for attempt in range(2):
            session = self.session(workshop_id, write=write)
            transaction = session.begin()
            if self.is_sqlite:
                return session, transaction
            try:
                session.connection()  # the after_begin scope: the first statement
            except DBAPIError as error:
                session.close()
                if attempt or not _dropped(error):
                    raise
                continue
            except BaseException:
                session.close()
                raise
            return session, transaction
        raise AssertionError("unreachable")  # the second attempt returns or raises

    @contextmanager
    def reading(self, workshop_id: str | None) -> Iterator[Connection]:
        """One read-only transaction on a pooled Core connection, scoped to ``workshop_id`` like a session.
        For hot read paths (request authentication, the agent's tools), where rows are never written and an
        ORM session costs more than the query. Nothing is written through it: on SQLite it is always rolled
        back; on PostgreSQL it is ``READ ONLY`` (a write fails) and ends with ``COMMIT``, which keeps the
        driver's prepared statements, or with ``ROLLBACK`` on an error."""
        # PostgreSQL read transactions are READ ONLY and end with COMMIT: the driver forgets its prepared
        # statements at every ROLLBACK, so rolled-back reads made the server parse and plan every statement
        # of every request again (docs/workshop-agent.md, "Benchmarks").
        conn, transaction = _begin_scoped(self.engine, workshop_id, read_only=True)
        with conn:
            try:
                try:
                    yield conn
                except BaseException:
                    transaction.rollback()
                    raise
                if self.is_sqlite:
                    transaction.rollback()
                else:
                    transaction.commit()
            finally:
                _end_scoped(conn)

    @contextmanager
    def writing(self, workshop_id: str | None) -> Iterator[Connection]:
        """One write transaction on a Core connection, scoped to ``workshop_id`` like a session, committed on
        success and rolled back on error. On SQLite it waits its turn in the writers' queue, then takes the
        write lock up front. For the agent's own rows, written as prepared statements where an ORM unit of
        work would cost more than the writes."""
        queue = _sqlite_write_turn(self.engine.url.database) if self.is_sqlite else nullcontext()
        with queue:
            conn, transaction = _begin_scoped(self._writer, workshop_id)
            with conn:
                try:
                    with transaction:
                        yield conn
                finally:
                    _end_scoped(conn)

    def migrate(self) -> None:
        """Bring the schema to the newest revision."""
        migrate(self.engine)

    def dispose(self) -> None:
        """Close pooled connections."""
        self.engine.dispose()


def open_store(url: str, **kwargs: Any) -> Store:
    """A store for ``url`` (not migrated; call ``store.migrate()``)."""
    return Store(make_engine(url, **kwargs))
