"""A reservation is a lease (docs/pricing.md, "Leases"): a process killed mid-call leaves its hold, and the
next reservation after the lease releases it, counted as spent at its hold; a cost above the hold is recorded
but never passes the cap. The ledger is the real SQL one on a SQLite file shared with a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import date

import pytest
from sqlalchemy import create_engine, text

from shopfloor.agent.budget import BudgetExhausted, to_nano
from shopfloor.agent.spend import METADATA, LedgerBudget, SqlLedger

TODAY = date(2026, 12, 2)
FLASH = "gemini-2.5-flash-lite"
# 976 bytes + 1,024 overhead = 2,000 tokens at $0.10/M, 1,000 output at $0.40/M: $0.0006.
HOLD_NANO = 600_000

CHILD = textwrap.dedent(
    """
    import sys, time
    from datetime import date
    from sqlalchemy import create_engine
    from shopfloor.agent.spend import LedgerBudget, SqlLedger
    ledger = SqlLedger(create_engine(sys.argv[1]))
    budget = LedgerBudget(ledger, "workshop", "ws-a", 0.001, today=lambda: date(2026, 12, 2))
    budget.reserve("gemini-2.5-flash-lite", 976, 1000)
    print("held", flush=True)
    time.sleep(60)  # "mid-call": killed here
    """
)


def standing(engine) -> tuple[int, int]:
    with engine.connect() as conn:
        return tuple(conn.execute(text("SELECT spent_nano, reserved_nano FROM spend_months")).one())  # type: ignore[return-value]


def test_a_sigkill_mid_call_releases_the_hold_after_the_lease(tmp_path):
    url = f"sqlite:///{tmp_path / 'spend.db'}"
    engine = create_engine(url)
    METADATA.create_all(engine)
    child = subprocess.Popen([sys.executable, "-c", CHILD, url], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert standing(engine) == (0, HOLD_NANO)  # the dead process's hold is still there
    # Within the lease a second call is refused: 0.0006 held + 0.0006 > the $0.001 cap.
    ledger = SqlLedger(engine, lease_s=1.0)
    capped = LedgerBudget(ledger, "workshop", "ws-a", 0.001, today=lambda: TODAY)
    with pytest.raises(BudgetExhausted) as refused:
        capped.reserve(FLASH, 976, 1000)
    assert (refused.value.cap_usd, refused.value.spent_usd) == (0.001, 0.0)
    assert str(refused.value) == (
        "The monthly model budget is spent: $0.000600 of $0.001000 is used or held for calls in progress, "
        "and this call could cost up to $0.000600; no call was made."
    )
    assert standing(engine) == (0, HOLD_NANO)  # the refusal held nothing
    # Under a higher cap the second call fits beside the dead hold.
    budget = LedgerBudget(ledger, "workshop", "ws-a", 0.0013, today=lambda: TODAY)
    first = budget.reserve(FLASH, 976, 1000)
    assert first is not None and standing(engine) == (0, 2 * HOLD_NANO)
    budget.settle(first, 0.0001)
    time.sleep(1.2)
    # After the lease the next reservation releases it: no longer held, counted as spent at its hold.
    second = budget.reserve(FLASH, 976, 1000)
    assert second is not None
    assert standing(engine) == (HOLD_NANO + 100_000, HOLD_NANO)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT reserved_nano, cost_nano, charged_nano FROM spend_calls ORDER BY created_at")
        ).all()
    assert [tuple(r) for r in rows] == [
        (HOLD_NANO, None, HOLD_NANO),
        (HOLD_NANO, 100_000, 100_000),
        (HOLD_NANO, None, None),
    ]


def test_a_cost_above_the_hold_is_recorded_but_counts_only_the_hold(tmp_path, caplog):
    engine = create_engine(f"sqlite:///{tmp_path / 'spend.db'}")
    METADATA.create_all(engine)
    budget = LedgerBudget(SqlLedger(engine), "workshop", "ws-a", 0.001, today=lambda: TODAY)
    hold = budget.reserve(FLASH, 976, 1000)
    assert hold is not None
    with caplog.at_level("WARNING", logger="shopfloor.agent.spend"):
        budget.settle(hold, 0.00166)  # a provider reported more output than max_tokens allowed
    assert standing(engine) == (HOLD_NANO, 0)  # the cap ($0.001) is not passed
    with engine.connect() as conn:
        cost, charged = conn.execute(text("SELECT cost_nano, charged_nano FROM spend_calls")).one()
    assert (cost, charged) == (to_nano(0.00166), HOLD_NANO)
    assert any(r.getMessage() == "agent.spend.overrun" for r in caplog.records)


def test_a_lease_left_open_across_the_month_boundary_is_released(tmp_path):
    # A process died mid-call late on 30 November; the next call comes on 1 December. The dead hold is closed
    # in its own month (November stops showing money held for ever), counted as spent at its hold there.
    engine = create_engine(f"sqlite:///{tmp_path / 'spend.db'}")
    METADATA.create_all(engine)
    ledger = SqlLedger(engine, lease_s=1.0)
    november = LedgerBudget(ledger, "workshop", "ws-a", 0.01, today=lambda: date(2026, 11, 30))
    assert november.reserve(FLASH, 976, 1000) is not None  # never settled: the process was killed
    time.sleep(1.2)
    december = LedgerBudget(ledger, "workshop", "ws-a", 0.01, today=lambda: date(2026, 12, 1))
    assert december.reserve(FLASH, 976, 1000) is not None
    with engine.connect() as conn:
        months = conn.execute(
            text("SELECT month, spent_nano, reserved_nano FROM spend_months ORDER BY month")
        ).all()
        calls = conn.execute(
            text("SELECT month, cost_nano, charged_nano FROM spend_calls ORDER BY created_at")
        ).all()
    assert [tuple(r) for r in months] == [("2026-11", HOLD_NANO, 0), ("2026-12", 0, HOLD_NANO)]
    assert [tuple(r) for r in calls] == [("2026-11", None, HOLD_NANO), ("2026-12", None, None)]
    # Another tenant's dead hold is not this tenant's to release.
    other = LedgerBudget(ledger, "workshop", "ws-b", 0.01, today=lambda: date(2026, 11, 30))
    assert other.reserve(FLASH, 976, 1000) is not None
    time.sleep(1.2)
    assert december.reserve(FLASH, 976, 1000) is not None
    with engine.connect() as conn:
        held_b = conn.execute(
            text("SELECT reserved_nano FROM spend_months WHERE tenant = 'ws-b' AND month = '2026-11'")
        ).scalar()
    assert held_b == HOLD_NANO
