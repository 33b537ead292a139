"""Engines and sessions of the workshop store.

SQLite (the default file ``var/workshop.db``) runs in WAL mode with foreign keys on; write transactions take
the write lock up front (``BEGIN IMMEDIATE``) so concurrent approvals wait for each other instead of failing
half-way. On PostgreSQL every transaction of a session starts by setting ``app.workshop_id`` (transaction
scoped) from ``session.info["workshop_id"]``; the row-level security policies read it, and a session without
a workshop sees and writes nothing.
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

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
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
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(url, **kwargs)


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
        with self.session(workshop_id, write=write) as session, session.begin():
            yield session

    @contextmanager
    def reading(self, workshop_id: str | None) -> Iterator[Connection]:
        """One read-only transaction on a pooled Core connection, scoped to ``workshop_id`` like a session
        and always rolled back. For hot read paths (request authentication, the agent's tools), where rows
        are never written and an ORM session costs more than the query."""
        with self.engine.connect() as conn, conn.begin() as transaction:
            try:
                _scope(conn, workshop_id)
                yield conn
            finally:
                transaction.rollback()

    @staticmethod
    def rescope(conn: Connection, workshop_id: str | None) -> None:
        """Move a transaction of :meth:`reading` to ``workshop_id`` for its later statements (PostgreSQL's
        setting is transaction scoped, so it replaces the first; no-op on SQLite). For a read that learns its
        workshop from its first statement (a bearer token), instead of a second transaction."""
        _scope(conn, workshop_id)

    @contextmanager
    def writing(self, workshop_id: str | None) -> Iterator[Connection]:
        """One write transaction on a Core connection, scoped to ``workshop_id`` like a session, committed on
        success and rolled back on error. On SQLite it waits its turn in the writers' queue, then takes the
        write lock up front. For the agent's own rows, written as prepared statements where an ORM unit of
        work would cost more than the writes."""
        queue = _sqlite_write_turn(self.engine.url.database) if self.is_sqlite else nullcontext()
        with queue, self._writer.begin() as conn:
            _scope(conn, workshop_id)
            yield conn

    def migrate(self) -> None:
        """Bring the schema to the newest revision."""
        migrate(self.engine)

    def dispose(self) -> None:
        """Close pooled connections."""
        self.engine.dispose()


def open_store(url: str, **kwargs: Any) -> Store:
    """A store for ``url`` (not migrated; call ``store.migrate()``)."""
    return Store(make_engine(url, **kwargs))
