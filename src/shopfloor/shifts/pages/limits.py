"""The shared request limit of the /shifts routes: requests per client address in any minute.

The count lives outside the server process, so every process behind one address shares it
(docs/security.md, "The /shifts routes"): in Redis when ``SHOPFLOOR_REDIS_URL`` is set, otherwise in a
SQLite file in the var directory. A sliding window (:meth:`Counter.allow`): the time of each allowed request
is kept for a minute, and a request is allowed while fewer than the limit fall in the minute before it, so
no 60 seconds ever hold more than the limit (a fixed window let twice the limit through around the turn of
a minute). The public demo's daily rounds still count in fixed UTC days (:meth:`Counter.hit`).
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

WINDOW_S = 60


class Counter(Protocol):
    """The shared counts: fixed windows (:meth:`hit`) and the sliding request limit (:meth:`allow`)."""

    def hit(self, key: str, window: int) -> int:
        """Adds one hit to ``key`` in ``window``; returns the hits counted there so far (this one included)."""
        ...

    def allow(self, key: str, limit: int, now: float | None = None, span_s: float = WINDOW_S) -> float:
        """Counts one request of ``key`` and returns 0 while fewer than ``limit`` were allowed in the
        ``span_s`` seconds before ``now``; else counts nothing and returns the seconds until one is."""
        ...


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
            # The sliding window: one row per allowed request, kept for the window's span.
            conn.execute("CREATE TABLE IF NOT EXISTS requests (key TEXT NOT NULL, at REAL NOT NULL)")
            conn.execute("CREATE INDEX IF NOT EXISTS requests_key_at ON requests (key, at)")
        self._next_sweep = 0.0

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

    def allow(self, key: str, limit: int, now: float | None = None, span_s: float = WINDOW_S) -> float:
        """One request checked and counted in one write transaction (SQLite's write lock, shared by every
        process on the file)."""
        now = time.time() if now is None else now
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if now >= self._next_sweep:
                # Now and then, forget every client's requests that have left the window.
                conn.execute("DELETE FROM requests WHERE at <= ?", (now - span_s,))
                self._next_sweep = now + span_s
            count, oldest = conn.execute(
                "SELECT count(*), min(at) FROM requests WHERE key = ? AND at > ?", (key, now - span_s)
            ).fetchone()
            if count >= limit:
                conn.execute("COMMIT")
                return max(0.001, float(oldest) + span_s - now)
            conn.execute("INSERT INTO requests (key, at) VALUES (?, ?)", (key, now))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return 0.0


# Check and count in one step on the Redis server: drop the times that left the window, then add this one
# if fewer than the limit remain, else answer how long until the oldest leaves.
_SLIDING_SCRIPT = """
local now = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - span)
if redis.call('ZCARD', KEYS[1]) < limit then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], math.ceil(span * 1000))
    return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + span - now)
"""


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

    def allow(self, key: str, limit: int, now: float | None = None, span_s: float = WINDOW_S) -> float:
        """One request checked and counted atomically by a script on the Redis server (a sorted set of
        the allowed requests' times per client)."""
        now = time.time() if now is None else now
        name = f"shopfloor:shifts:window:{key}"
        member = f"{now:.6f}:{secrets.token_hex(4)}"
        wait = self.client.eval(_SLIDING_SCRIPT, 1, name, repr(now), repr(span_s), str(limit), member)
        seconds = float(wait.decode() if isinstance(wait, bytes) else wait)
        return max(0.001, seconds) if seconds > 0 else 0.0


def make_counter(redis_url: str | None, var_dir: Path) -> Counter:
    """Redis when a URL is configured, else the SQLite file ``var_dir/shifts-rate.sqlite3``."""
    if redis_url:
        return RedisCounter(redis_url)
    return SqliteCounter(var_dir / "shifts-rate.sqlite3")
