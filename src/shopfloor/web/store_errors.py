"""A store that is down, full or read-only answers in the envelope, never as a generic 500.

The workshop store's driver errors (SQLite, PostgreSQL through psycopg) and the disk's own errors are sorted
into three faults (docs/errors.md, docs/security.md):

* ``store_unavailable`` (503, ``Retry-After``): the server refuses connections, the database was dropped or is
  shutting down, the file cannot be opened, the pool has no free connection;
* ``store_full`` (507): the disk or the database is full;
* ``store_read_only`` (503, ``Retry-After``): the file, the disk or the database accepts no writes.

A store's transaction is rolled back when its error leaves the ``with`` block, so nothing is half-written.
"""

from __future__ import annotations

import errno
import sqlite3
from dataclasses import dataclass

from sqlalchemy import exc as sa

# How long a client is told to wait before trying a store that is down or read-only again.
RETRY_AFTER_S = 5

_PG_FULL = {"53100", "53200", "53300"}  # disk_full, out_of_memory, too_many_connections is below
_PG_READ_ONLY = {"25006"}  # read_only_sql_transaction: a standby, or default_transaction_read_only
# connection_exception (08…), admin or crash shutdown, cannot connect now, database dropped, too many connections
_PG_UNAVAILABLE_PREFIXES = ("08", "57P")
_PG_UNAVAILABLE = {"3D000", "53300"}

_SQLITE_FULL = {sqlite3.SQLITE_FULL}
_SQLITE_READ_ONLY = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM}
_SQLITE_UNAVAILABLE = {
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_NOTADB,
    sqlite3.SQLITE_CORRUPT,
}

_OS_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_OS_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


@dataclass(frozen=True)
class StoreFault:
    """What a person is told about a store fault: HTTP status, code, message and whether to retry later."""

    status: int
    code: str
    message: str
    retry: bool


UNAVAILABLE = StoreFault(503, "store_unavailable", "The database is not answering; try again shortly.", True)
FULL = StoreFault(507, "store_full", "The database has no room left; nothing was saved.", False)
READ_ONLY = StoreFault(
    503, "store_read_only", "The database accepts no changes right now; nothing was saved.", True
)


class StoreFaultError(Exception):
    """Raised by store code for a fault found outside the driver (a lock file that cannot be made)."""

    def __init__(self, fault: StoreFault, detail: str) -> None:
        super().__init__(detail)
        self.fault = fault


def _sqlite_fault(error: sqlite3.Error) -> StoreFault | None:
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        text = str(error).lower()
        if "disk is full" in text:
            return FULL
        if "readonly" in text or "read-only" in text:
            return READ_ONLY
        return UNAVAILABLE if isinstance(error, sqlite3.OperationalError) else None
    primary = code & 0xFF
    if primary in _SQLITE_FULL:
        return FULL
    if primary in _SQLITE_READ_ONLY:
        return READ_ONLY
    if primary in _SQLITE_UNAVAILABLE:
        return UNAVAILABLE
    return None


def _postgres_fault(error: BaseException) -> StoreFault | None:
    state = getattr(error, "sqlstate", None)
    if state is None:
        # psycopg gives no SQLSTATE when no server answered at all (refused, unknown host, timed out).
        return UNAVAILABLE if type(error).__name__ in {"OperationalError", "InterfaceError"} else None
    if state in _PG_FULL - _PG_UNAVAILABLE:
        return FULL
    if state in _PG_READ_ONLY:
        return READ_ONLY
    if state in _PG_UNAVAILABLE or state.startswith(_PG_UNAVAILABLE_PREFIXES):
        return UNAVAILABLE
    return None


def os_fault(error: OSError) -> StoreFault | None:
    """The fault an operating-system error on a store's file means, or None."""
    if error.errno in _OS_FULL:
        return FULL
    if error.errno in _OS_READ_ONLY:
        return READ_ONLY
    return None


def store_fault(error: BaseException) -> StoreFault | None:
    """The store fault ``error`` is, or None for any other error (a bug: the generic 500)."""
    if isinstance(error, StoreFaultError):
        return error.fault
    if isinstance(error, sa.TimeoutError | sa.DisconnectionError):
        return UNAVAILABLE  # no pooled connection came free in time; the server is gone
    if isinstance(error, sa.DBAPIError):
        if error.connection_invalidated:
            return UNAVAILABLE
        original = error.orig
        if isinstance(original, sqlite3.Error):
            return _sqlite_fault(original)
        if original is not None and type(original).__module__.startswith("psycopg"):
            return _postgres_fault(original)
        return None
    if isinstance(error, OSError):
        return os_fault(error)
    return None


def fault_headers(fault: StoreFault) -> dict[str, str] | None:
    """``Retry-After`` for the faults that pass."""
    return {"retry-after": str(RETRY_AFTER_S)} if fault.retry else None
