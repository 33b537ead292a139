"""Every live call path goes through the plant's reservation: ``ask_live``, which ``shopfloor shifts ask
--model`` and ``shopfloor eval shifts`` with a live planner call, holds its model calls to the plant's monthly
cap from the settings (docs/pricing.md, "Spend under a cap"). Replayed through the real SDK; the ledger is
the real SQL one in a migrated workshop store on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime

from shopfloor.agent.providers.replay import REPLAY_MODELS
from shopfloor.agent.spend import ledger_at, month_of
from shopfloor.settings import Settings
from shopfloor.shifts.live.live import ask_live
from shopfloor.workshop.store import open_store
from tests.shifts.investigation.conftest import conn, store_path  # noqa: F401 - the hand-built record store
from tests.shifts.live.conftest import SHIFT2, replay

QUESTION = "why was second shift slow"


def migrated(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'workshop.db'}"
    store = open_store(url)
    store.migrate()
    store.dispose()
    return url


def test_a_live_question_past_the_cap_makes_no_call(conn, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    url = migrated(tmp_path)
    settings = Settings(workshop_db=url, monthly_cap_usd=0.000001)
    wire = replay("gemini", "complete")
    answer = ask_live(
        QUESTION, SHIFT2, conn, REPLAY_MODELS["gemini"], settings, http_client=wire.http_client()
    )
    assert answer.status == "budget_exhausted"
    assert wire.calls == []  # no request reached the provider


def test_a_live_question_under_the_cap_is_recorded_in_the_ledger(conn, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    url = migrated(tmp_path)
    settings = Settings(workshop_db=url, monthly_cap_usd=5.0)
    wire = replay("gemini", "complete")
    answer = ask_live(
        QUESTION, SHIFT2, conn, REPLAY_MODELS["gemini"], settings, http_client=wire.http_client()
    )
    assert answer.status == "complete"
    month = month_of(datetime.now(UTC).date())
    rows = ledger_at(url).by_day(month, app="shifts", tenant="plant")
    assert sum(r.calls for r in rows) == len(wire.calls) > 0  # every call the provider saw is in the ledger
