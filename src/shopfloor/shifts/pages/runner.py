"""Where /shifts work runs: its own bounded pool of threads, and the answers kept by address.

The investigator never borrows the server's shared thread pool (the one sync routes of every app run in), so
a flood of /shifts requests cannot hold the threads the workshop needs: at most ``shifts_max_concurrency``
investigations run at once in their own pool, at most ``shifts_max_waiting`` more wait, and the rest are
answered 503 at once. An address answers the same sections every time for one state of the record store,
so the answer is kept by (address, store version) and the same answer serves the page, its JSON and its PDF;
requests for an address already being answered wait for that one run instead of starting another
(docs/shifts-agent.md, "Speed").
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from shopfloor.web.errors import ApiError

T = TypeVar("T")


def store_version(path: Path) -> tuple[int, int]:
    """The record store's version as its file's (modification time, size): an ingest changes it."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        raise ApiError(
            503, "no_store", "The record store is not prepared; run `shopfloor prepare`."
        ) from None
    return stat.st_mtime_ns, stat.st_size


class Runner:
    """The investigator's pool, admission count and kept answers (one per sub-app)."""

    def __init__(self, workers: int, waiting: int, keep: int) -> None:
        self.workers = workers
        self.capacity = workers + waiting
        self.keep_count = keep
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._admitted = 0
        self._kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._running: dict[tuple[Any, ...], Future[Any]] = {}

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="shifts")
            return self._pool

    def kept(self, key: tuple[Any, ...]) -> Any | None:
        """A kept result, or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def keep(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` for ``key`` (the oldest kept result goes when the cache is full)."""
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.keep_count:
                self._kept.popitem(last=False)

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the investigator's pool, or refuse with 503 when the pool and its queue are full."""
        with self._lock:
            if self._admitted >= self.capacity:
                raise ApiError(
                    503, "busy", "The investigator is busy; try again in a moment.", retry_after_s=1
                )
            self._admitted += 1
        try:
            return await asyncio.wrap_future(self._executor().submit(fn))
        finally:
            with self._lock:
                self._admitted -= 1

    async def once(self, key: tuple[Any, ...], fn: Callable[[], T]) -> T:
        """The kept result for ``key``, else ``fn``'s, run once however many requests ask at the same time."""
        found = self.kept(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        with self._lock:
            running = self._running.get(key)
        if running is not None:
            return await asyncio.wrap_future(running)  # type: ignore[no-any-return]
        mine: Future[Any] = Future()
        with self._lock:
            running = self._running.setdefault(key, mine)
        if running is not mine:
            return await asyncio.wrap_future(running)  # type: ignore[no-any-return]
        try:
            result = await self.run(fn)
        except BaseException as exc:
            mine.set_exception(exc)
            with self._lock:
                self._running.pop(key, None)
            # Nobody else may be waiting; read the exception so it is not reported as never retrieved.
            mine.exception()
            raise
        self.keep(key, result)
        with self._lock:
            self._running.pop(key, None)
        mine.set_result(result)
        return result

    def close(self) -> None:
        """Stop the pool's threads (queued work is dropped)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
