"""`shopfloor workshop init` / `prepare`: migrate, grant and load the sample data idempotently."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from shopfloor.settings import Settings, get_settings
from shopfloor.workshop import cli
from shopfloor.workshop.sample import DEMO_ACCOUNTS, WORKSHOP_A
from shopfloor.workshop.store import WorkshopRepo, open_store

from .conftest import PgDatabase
from .helpers import ANA


def test_init_twice_prints_demo_accounts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOPFLOOR_VAR_DIR", str(tmp_path))
    monkeypatch.delenv("SHOPFLOOR_WORKSHOP_DB", raising=False)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        first = runner.invoke(cli.app, ["init"])
        assert first.exit_code == 0, first.output
        assert "12 hats" in first.output
        for account in DEMO_ACCOUNTS:
            assert account.email in first.output and account.password in first.output
        second = runner.invoke(cli.app, ["init"])
        assert second.exit_code == 0 and "0 hats" in second.output
    finally:
        get_settings.cache_clear()
    store = open_store(f"sqlite:///{tmp_path / 'workshop.db'}")
    with store.transaction(WORKSHOP_A, write=False) as s:
        assert len(WorkshopRepo(s, ANA).hats()) == 10
    store.dispose()


@pytest.mark.postgres
def test_init_on_postgres_uses_the_owner_and_grants_the_app_role(
    pg_database: PgDatabase, pg_store: object
) -> None:
    settings = Settings(workshop_db=pg_database.app_url, workshop_db_owner=pg_database.owner_url)
    settings.workshop_app_role = "sf_workshop_app"
    report = cli.init_store(settings)
    assert report is not None and report.total == 0  # the sample is already there
    app = open_store(settings.workshop_db_url())
    with app.transaction(WORKSHOP_A, write=False) as s:
        assert len(WorkshopRepo(s, ANA).hats()) == 10
    app.dispose()
