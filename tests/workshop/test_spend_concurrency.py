"""Sixteen simultaneous runs near the cap never spend past it (docs/pricing.md, "Spend under a cap"): threads
of one process and two server processes, on SQLite and PostgreSQL, through the core loop and the workshop
store's ledger.

Each run is one model call on Gemini 2.5 Flash-Lite. Worked out by hand from the price table: the request is
9 bytes ("sys", "[]" tools, "note") plus 1,024 overhead tokens, so its worst case is 1,033 × $0.10/M +
1,000 × $0.40/M = $0.0005033; its real cost is 1,000 × $0.10/M + 200 × $0.40/M = $0.00018. Under a $0.0015
cap a sixth run still fits (5 × 0.00018 + 0.0005033 ≤ 0.0015) and a seventh never does, however they
interleave."""

from __future__ import annotations

import multiprocessing
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers.base import ModelRequest, StopReason, Turn, Usage
from shopfloor.agent.spend import LedgerBudget, month_of
from shopfloor.agent.tools import ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.spend import ledger_of
from shopfloor.workshop.store import Store, open_store

FLASH = "gemini-2.5-flash-lite"
CAP = 0.0015
COST = 0.00018
MOST_RUNS = 6
RUNS = 16
LIMITS = LoopLimits(max_tokens=1000)


class SlowModel:
    """A provider that takes a moment to answer, so reservations overlap."""

    name = "scripted"
    model = FLASH

    def complete(self, request: ModelRequest) -> Turn:
        time.sleep(0.05)
        return Turn(StopReason.END_TURN, text="done", usage=Usage(1000, 200), model=FLASH)


def one_run(store: Store, start: Any) -> str:
    start.wait()
    budget = LedgerBudget(ledger_of(store), "workshop", WORKSHOP_A, None)
    outcome = run_loop(
        SlowModel(), "sys", "note", ToolRegistry([]), None, Trace(), limits=LIMITS, budget=budget
    )
    return outcome.outcome.value


def runs_in_threads(store: Store, count: int, start: Any) -> list[str]:
    results: list[str] = []
    lock = threading.Lock()

    def work() -> None:
        value = one_run(store, start)
        with lock:
            results.append(value)

    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def child(url: str, count: int, start: Any, out: Any) -> None:
    """One server process: its own store (engine, pool, SQLite write queue) and ``count`` runs at once."""
    store = open_store(url)
    try:
        out.put(runs_in_threads(store, count, start))
    finally:
        store.dispose()


def check(store: Store, outcomes: list[str]) -> None:
    assert len(outcomes) == RUNS
    admitted = outcomes.count(Outcome.END_TURN.value)
    refused = outcomes.count(Outcome.BUDGET_EXHAUSTED.value)
    assert admitted + refused == RUNS and 1 <= admitted <= MOST_RUNS
    (total,) = ledger_of(store).months(month_of(datetime.now(UTC).date()), None, "workshop", WORKSHOP_A)
    assert total.reserved_usd == 0  # every hold settled
    assert total.spent_usd == pytest.approx(admitted * COST)
    assert total.spent_usd <= CAP


def test_sixteen_threads_never_spend_past_the_cap(store: Store) -> None:
    ledger_of(store).set_cap("workshop", WORKSHOP_A, CAP)
    start = threading.Barrier(RUNS)
    check(store, runs_in_threads(store, RUNS, start))


@pytest.mark.slow
def test_two_processes_never_spend_past_the_cap(store: Store) -> None:
    ledger_of(store).set_cap("workshop", WORKSHOP_A, CAP)
    url = store.engine.url.render_as_string(hide_password=False)
    spawn = multiprocessing.get_context("spawn")
    start = spawn.Barrier(RUNS)
    out = spawn.Queue()
    processes = [spawn.Process(target=child, args=(url, RUNS // 2, start, out)) for _ in range(2)]
    for process in processes:
        process.start()
    outcomes = out.get(timeout=120) + out.get(timeout=120)
    for process in processes:
        process.join(30)
        assert process.exitcode == 0
    check(store, outcomes)
