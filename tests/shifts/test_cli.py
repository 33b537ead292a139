"""`shopfloor shifts status | export` and `prepare` caching."""

from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
from typer.testing import CliRunner

from shopfloor.cli import app as root_app
from shopfloor.settings import Settings
from shopfloor.shifts import cli as shifts_cli
from shopfloor.shifts import generate as gen
from shopfloor.shifts import store


def copy_of(year, tmp_path):
    """A copy of the session store (DuckDB refuses a second, read-only handle on a file this process
    already has open for writing)."""
    year.conn.execute("CHECKPOINT")
    target = tmp_path / "copy.duckdb"
    shutil.copyfile(year.db, target)
    return target


def test_status_summarises_the_store_without_answers(year, tmp_path):
    db = copy_of(year, tmp_path)
    result = CliRunner().invoke(root_app, ["shifts", "status", "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["days"] == len(year.days)
    assert (
        summary["first_day"] == year.days[0].isoformat() and summary["last_day"] == year.days[-1].isoformat()
    )
    assert summary["shifts"] == 3 * len(year.days)
    assert summary["setups"] == year.conn.execute("SELECT count(*) FROM setups").fetchone()[0]
    assert (
        summary["excluded_records"]
        == year.conn.execute("SELECT count(*) FROM excluded_records").fetchone()[0]
    )
    assert summary["planted_scenarios"] == 7
    assert summary["generator"] == gen.GENERATOR_VERSION and summary["size_bytes"] > 0
    for word in ("slow", "crew", "jam", "humid", "outage"):
        assert word not in result.output
    text = CliRunner().invoke(root_app, ["shifts", "status", "--db", str(db)])
    assert "planted scenarios: 7" in text.output


def test_status_without_a_store(tmp_path):
    result = CliRunner().invoke(root_app, ["shifts", "status", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 0 and "No record store" in result.output


def test_export_writes_parquet(tmp_path, year):
    db = copy_of(year, tmp_path)
    result = CliRunner().invoke(
        root_app, ["shifts", "export", "--db", str(db), "--out", str(tmp_path / "pq")]
    )
    assert result.exit_code == 0, result.output
    setups = pq.read_table(tmp_path / "pq" / "setups.parquet")
    assert setups.num_rows == year.conn.execute("SELECT count(*) FROM setups").fetchone()[0]


def test_prepare_skips_a_store_that_already_holds_the_default_year(tmp_path):
    settings = Settings(var_dir=tmp_path)
    conn = store.connect(settings.shifts_db_path())
    conn.execute("INSERT INTO days (day, sha256) VALUES ('2026-11-27', 'x')")
    store.set_meta(
        conn,
        {
            "generator": gen.GENERATOR_VERSION,
            "seed": str(gen.DEFAULT_SEED),
            "as_of": gen.DEFAULT_AS_OF.isoformat(),
        },
    )
    conn.close()
    shifts_cli.prepare(settings)
    assert not settings.shifts_xml_dir().exists()  # nothing regenerated
