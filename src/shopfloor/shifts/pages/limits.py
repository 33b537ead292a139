"""The shared request limit of the /shifts routes: requests per client address per minute.

The count lives outside the server process, so every process behind one address shares it
(docs/security.md, "The /shifts routes"): in Redis when ``SHOPFLOOR_REDIS_URL`` is set, otherwise in a
SQLite file in the var directory. A fixed one-minute window: the key is the client and the minute.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

WINDOW_S = 60


class Counter(Protocol):
    """Adds one hit to ``key`` in ``window`` and returns the hits counted there so far (this one included)."""

    def hit(self, key: str, window: int) -> int: ...


def current_window(now: float | None = None) -> int:
    """The number of the one-minute window ``now`` falls in."""
    return int((time.time() if now is None else now) // WINDOW_S)


DAY_S = 86_400


def current_day(now: float | None = None) -> int:
    """The number of the UTC day ``now`` falls in (the public demo's daily round guard counts in it)."""
    return int((time.time() if now is None else now) // DAY_S)


def seconds_to_next_day(now: float | None = None) -> int:
    """Whole seconds until the next UTC day (at least 1)."""
    now = time.time() if now is None else now
    return max(1, int(DAY_S - now % DAY_S + 0.999))


def retry_after(now: float | None = None) -> int:
    """Whole seconds until the current window ends (at least 1)."""
    now = time.time() if now is None else now
    return max(1, int(WINDOW_S - now % WINDOW_S + 0.999))


class SqliteCounter:
    """Counts in a SQLite file; one connection per thread, one atomic upsert per hit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._connect() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS hits (key TEXT NOT NULL, window INTEGER NOT NULL, "
                "n INTEGER NOT NULL, PRIMARY KEY (key, window)) WITHOUT ROWID"
            )

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        # A lost count after a power cut costs nothing; a disk flush per request would cost every request.
        conn.execute("PRAGMA synchronous=OFF")
        return conn

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def hit(self, key: str, window: int) -> int:
        """One hit, counted atomically across processes (SQLite's write lock)."""
        conn = self._conn()
        row = conn.execute(
            "INSERT INTO hits (key, window, n) VALUES (?, ?, 1) "
            "ON CONFLICT (key, window) DO UPDATE SET n = n + 1 RETURNING n",
            (key, window),
        ).fetchone()
        if window % 10 == 0 and row[0] == 1:
            # Now and then, forget windows that have passed, so the file stays small.
            conn.execute("DELETE FROM hits WHERE window < ?", (window - 1,))
        return int(row[0])


class RedisCounter:
    """Counts in Redis: INCR on the window's key, which expires after the window."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)

    def hit(self, key: str, window: int) -> int:
        """One hit (INCR and EXPIRE in one round trip)."""
        name = f"shopfloor:shifts:rate:{key}:{window}"
        pipe = self.client.pipeline()
        pipe.incr(name)
        pipe.expire(name, WINDOW_S * 2)
        count, _ = pipe.execute()
        return int(count)


def make_counter(redis_url: str | None, var_dir: Path) -> Counter:
    """Redis when a URL is configured, else the SQLite file ``var_dir/shifts-rate.sqlite3``."""
    if redis_url:
        return RedisCounter(redis_url)
    return SqliteCounter(var_dir / "shifts-rate.sqlite3")
