"""``shopfloor spend`` prints the month by app, model and day from the ledger in the workshop store."""

from __future__ import annotations

import json
from datetime import date

from typer.testing import CliRunner

from shopfloor.agent.spend import ledger_at
from shopfloor.cli import app
from shopfloor.settings import get_settings
from shopfloor.workshop.store import open_store

FLASH = "gemini-2.5-flash-lite"


def test_spend_prints_the_month_by_app_model_and_day(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'workshop.db'}"
    store = open_store(url)
    store.migrate()
    store.dispose()
    monkeypatch.setenv("SHOPFLOOR_WORKSHOP_DB", url)
    monkeypatch.setenv("SHOPFLOOR_MONTHLY_CAP_USD", "2.5")
    get_settings.cache_clear()
    try:
        book = ledger_at(url)
        book.set_cap("shifts", "plant", 1.0)
        for app_name, tenant, day, nano in (
            ("workshop", "ws-a", date(2026, 12, 1), 180_000),
            ("workshop", "ws-a", date(2026, 12, 1), 20_000),
            ("shifts", "plant", date(2026, 12, 2), 3_000_000),
            ("workshop", "ws-a", date(2026, 11, 30), 9_000_000),  # another month: not shown
        ):
            hold = book.reserve(app_name, tenant, day, FLASH, 9_000_000, None)
            book.settle(app_name, tenant, hold, nano)
        runner = CliRunner()
        result = runner.invoke(app, ["spend", "--month", "2026-12", "--json"])
        assert result.exit_code == 0, result.output
        body = json.loads(result.output)
        totals = {(t["app"], t["tenant"]): (t["spent_usd"], t["cap_usd"]) for t in body["totals"]}
        assert totals == {("shifts", "plant"): (0.003, 1.0), ("workshop", "ws-a"): (0.0002, 2.5)}
        rows = [(r["app"], r["model"], r["day"], r["calls"], r["charged_usd"]) for r in body["rows"]]
        assert rows == [
            ("shifts", FLASH, "2026-12-02", 1, 0.003),
            ("workshop", FLASH, "2026-12-01", 2, 0.0002),
        ]
        table = runner.invoke(app, ["spend", "--month", "2026-12"])
        assert table.exit_code == 0, table.output
        assert "By app, model and day" in table.output and "$0.000200" in table.output
        assert "2026-12-02 " in table.output and "█" in table.output
        bad = runner.invoke(app, ["spend", "--month", "12-2026"])
        assert bad.exit_code != 0 and "2026-12" in bad.output
    finally:
        get_settings.cache_clear()
