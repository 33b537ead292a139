"""Where /shifts work runs: the investigator's own pool of worker processes, and the answers kept by address.

Investigations, period reports, the page's layout with its charts, and the PDFs run in worker processes
(:mod:`shopfloor.shifts.pages.work`), never in the server process: there they would share its interpreter
lock with every other app, and a flood of /shifts requests would slow the workshop (docs/security.md,
"The /shifts routes"). At most ``shifts_max_concurrency`` jobs run at once, at most ``shifts_max_waiting``
more wait, and the rest are answered 503 with ``Retry-After`` at once. The workers are started by a fork
server (no state of the server process, its threads or its connections is inherited), each job opens its
own read-only connection to the record store, and each worker runs at a lower scheduling priority.

A job a client may leave (a live ask) is given a cancel flag: one byte of memory the server process shares with
every worker process (handed to each worker when it starts, :class:`CancelFlags`). When the client goes away
the server sets the job's flag; the worker, watching it, sets the run's abort event, which ends the run's
model call at once (its connection is closed) and makes no further one (docs/shifts-agent.md, "The page").

An address answers the same sections every time for one state of the record store, so the answer is kept
here, in the server process, by (address, store version), and the same answer serves the page, its JSON and
its PDF; requests for an address already being answered wait for that one run instead of starting another
(docs/shifts-agent.md, "The page").
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from shopfloor.logs import get_logger
from shopfloor.shifts.pages import work
from shopfloor.web.errors import ApiError

T = TypeVar("T")
log = get_logger("shopfloor.shifts.runner")


def store_version(path: Path) -> tuple[int, int]:
    """The record store's version as its file's (modification time, size): an ingest changes it."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        raise ApiError(
            503, "no_store", "The record store is not prepared; run `shopfloor prepare`."
        ) from None
    return stat.st_mtime_ns, stat.st_size


def busy() -> ApiError:
    """The 503 past the waiting limit (the guard adds ``Retry-After``)."""
    return ApiError(503, "busy", "The investigator is busy; try again in a moment.")


# Imported by the fork server once, so a worker process starts with them loaded.
PRELOAD = [
    "shopfloor.shifts.pages.work",
    "shopfloor.shifts.pages.views",
    "shopfloor.shifts.investigation",
    "shopfloor.shifts.answers.reports",
    "shopfloor.shifts.answers.pdf",
    "shopfloor.shifts.pages.pdf_view",
]

_pools: dict[int, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()

# Jobs that can be cancelled at once, per server process: far more than its workers plus their queue.
CANCEL_SLOTS = 256


class CancelFlags:
    """One cancel flag per cancellable job, in memory shared with every worker process of the server process.

    A job takes a free slot (its flag cleared) before it is submitted and gives it back once it has ended, so a
    flag is never read by two jobs. With every slot taken, a job runs without one (it cannot be cancelled)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("forkserver")
        # Plain shared bytes (no lock): one writer (the server) and one reader (the job's worker) per slot.
        self.flags: Any = context.RawArray("b", CANCEL_SLOTS)
        self._free = list(range(CANCEL_SLOTS))
        self._lock = threading.Lock()

    def take(self) -> int | None:
        """A free slot with its flag cleared, or None when every slot is taken."""
        with self._lock:
            if not self._free:
                return None
            slot = self._free.pop()
        self.flags[slot] = 0
        return slot

    def cancel(self, slot: int) -> None:
        """Ask the job holding ``slot`` to stop."""
        self.flags[slot] = 1

    def release(self, slot: int) -> None:
        """The job holding ``slot`` has ended."""
        with self._lock:
            self._free.append(slot)


_cancel_flags: CancelFlags | None = None


def cancel_flags() -> CancelFlags:
    """The server process's cancel flags (made once, before its first pool, which hands them to its workers)."""
    global _cancel_flags
    with _pools_lock:
        if _cancel_flags is None:
            _cancel_flags = CancelFlags()
        return _cancel_flags


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """The process's pool of ``workers`` worker processes, started on first use.

    One per server process and size, whichever sub-app asks (an app built only to answer one test shares
    it too), so an app that never ran its lifespan cannot leave processes of its own behind."""
    flags = cancel_flags()
    with _pools_lock:
        pool = _pools.get(workers)
        if pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=context,
                initializer=work.init_worker,
                initargs=(os.getpid(), flags.flags),
            )
            _pools[workers] = pool
        return pool


def discard_pool(pool: ProcessPoolExecutor) -> None:
    """Forget ``pool`` (broken or shut down) so the next job starts a new one, and stop what is left of it."""
    with _pools_lock:
        for size, known in list(_pools.items()):
            if known is pool:
                del _pools[size]
    pool.shutdown(wait=False, cancel_futures=True)


class Runner:
    """The investigator's admission count and kept answers (one per sub-app), over the process's pool."""

    def __init__(self, workers: int, waiting: int, keep: int) -> None:
        self.workers = workers
        self.capacity = workers + waiting
        self.keep_count = keep
        self._lock = threading.Lock()
        self._admitted = 0
        self._kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._running: dict[tuple[Any, ...], Future[Any]] = {}

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

    def start(self) -> None:
        """Start the worker processes now (the app's lifespan), so the first request does not wait for them."""
        pool = worker_pool(self.workers)
        for _ in range(self.workers):
            pool.submit(work.ready)

    async def run(self, fn: Callable[..., T], *args: Any, cancel: asyncio.Event | None = None) -> T:
        """``fn(*args)`` in a worker process (``fn`` a function of :mod:`~shopfloor.shifts.pages.work`), or
        503 ``busy`` at once when the pool and its queue are full.

        ``cancel``, when given, is set when the client goes away: the job's cancel flag is then raised, the
        worker stops the job's model calls (``work.job_abort``), and this waits for the job to end."""
        with self._lock:
            if self._admitted >= self.capacity:
                raise busy()
            self._admitted += 1
        try:
            return await self._submit(fn, *args, cancel=cancel)
        finally:
            with self._lock:
                self._admitted -= 1

    async def _submit(self, fn: Callable[..., T], *args: Any, cancel: asyncio.Event | None = None) -> T:
        flags = cancel_flags() if cancel is not None else None
        for attempt in (1, 2):
            pool = worker_pool(self.workers)
            slot = flags.take() if flags is not None else None
            try:
                future = pool.submit(work.call, fn, *args, cancel_slot=slot)
            except (BrokenProcessPool, RuntimeError):
                if flags is not None and slot is not None:
                    flags.release(slot)
                # A pool whose worker died, or one shut down by another app's lifespan: start a new one.
                discard_pool(pool)
                if attempt == 2:
                    raise busy() from None
                continue
            if flags is not None and slot is not None:
                # Given back only once the job has ended, so no other job reads this flag meanwhile.
                future.add_done_callback(_releases(flags, slot))
            try:
                waiting = asyncio.wrap_future(future)
                if cancel is not None and slot is not None and flags is not None:
                    await _until_done_or_cancelled(waiting, cancel, partial(flags.cancel, slot))
                return work.outcome(await waiting)  # type: ignore[no-any-return]
            except BrokenProcessPool:
                discard_pool(pool)
                log.error("shifts.worker_lost", extra={"job": getattr(fn, "__name__", str(fn))})
                raise busy() from None
        raise busy()  # not reached: the second attempt returns or raises

    async def once(self, key: tuple[Any, ...], fn: Callable[..., T], *args: Any, keep: bool = True) -> T:
        """The kept result for ``key``, else ``fn(*args)``'s, run once however many requests ask at once
        (``keep=False``: shared only by the requests that ask while it runs, then not kept)."""
        found = self.kept(key) if keep else None
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
            result = await self.run(fn, *args)
        except BaseException as exc:
            mine.set_exception(exc)
            with self._lock:
                self._running.pop(key, None)
            # Nobody else may be waiting; read the exception so it is not reported as never retrieved.
            mine.exception()
            raise
        if keep:
            self.keep(key, result)
        with self._lock:
            self._running.pop(key, None)
        mine.set_result(result)
        return result

    def close(self) -> None:
        """Stop the worker processes (the app's lifespan ends; queued work is dropped)."""
        with _pools_lock:
            pool = _pools.pop(self.workers, None)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _releases(flags: CancelFlags, slot: int) -> Callable[[Future[Any]], None]:
    """A done-callback that gives ``slot`` back."""

    def release(_done: Future[Any]) -> None:
        flags.release(slot)

    return release


async def _until_done_or_cancelled(
    job: asyncio.Future[Any], cancel: asyncio.Event, on_cancel: Callable[[], None]
) -> None:
    """Wait until ``job`` ends; if ``cancel`` is set first, call ``on_cancel`` (the job's flag) once."""
    gone = asyncio.ensure_future(cancel.wait())
    try:
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        if cancel.is_set() and not job.done():
            on_cancel()
    finally:
        gone.cancel()
