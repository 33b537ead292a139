"""`shopfloor shifts status | export` and `prepare` caching."""

from __future__ import annotations

import json
import shutil
from datetime import date

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from shopfloor.cli import app as root_app
from shopfloor.settings import Settings
from shopfloor.shifts import cli as shifts_cli
from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, store


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


def plain(output: str) -> str:
    """CLI output with Rich's error box and line wrapping removed."""
    return " ".join(output.replace("│", " ").split())


def test_status_and_export_refuse_a_file_that_is_not_a_store(tmp_path):
    garbage = tmp_path / "notes.duckdb"
    garbage.write_text("not a database\n")
    for command in (["status"], ["status", "--json"], ["export", "--out", str(tmp_path / "pq")]):
        result = CliRunner().invoke(root_app, ["shifts", *command, "--db", str(garbage)])
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "cannot open the record store" in plain(result.output) and "Traceback" not in result.output
    assert not (tmp_path / "pq").exists()
    # prepare treats an unreadable store as one to rebuild, not as a crash
    assert shifts_cli._store_matches(garbage, gen.DEFAULT_SEED, gen.DEFAULT_AS_OF) is False


def test_status_names_a_duckdb_file_that_is_not_a_shift_store(tmp_path):
    other = tmp_path / "other.duckdb"
    conn = duckdb.connect(str(other))
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()
    result = CliRunner().invoke(root_app, ["shifts", "status", "--db", str(other)])
    assert result.exit_code == 2 and "not a shift record store" in plain(result.output)


def test_ingest_refuses_a_directory_without_day_files_before_opening_the_store(tmp_path):
    (tmp_path / "readme.txt").write_text("hello")
    db = tmp_path / "s.duckdb"
    result = CliRunner().invoke(root_app, ["shifts", "ingest", str(tmp_path), "--db", str(db)])
    assert result.exit_code == 2 and "no YYYY-MM-DD.xml day files" in plain(result.output)
    assert not db.exists()


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"days": 5}', "list of days"),
        ('{"days": [{"file": "2026-09-18.xml"}]}', "file name and a sha256"),
    ],
)
def test_a_broken_manifest_loads_nothing_and_says_why(tmp_path, manifest, message):
    xml_dir = tmp_path / "xml"
    gen.generate(xml_dir, as_of=date(2026, 9, 18), days=1, answer_keys=tmp_path / "keys.json")
    (xml_dir / "manifest.json").write_text(manifest)
    db = tmp_path / "s.duckdb"
    result = CliRunner().invoke(root_app, ["shifts", "ingest", str(xml_dir), "--db", str(db)])
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert "Rejected manifest.json" in result.output and message in plain(result.output)
    conn = store.open_read_only(db)
    assert conn.execute("SELECT count(*) FROM days").fetchone() == (0,)
    conn.close()


def test_output_paths_that_cannot_be_written_are_clear_errors(tmp_path, year):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    runs = [
        ["generate", "--days", "1", "--out", str(a_file), "--keys", str(tmp_path / "k.json")],
        ["generate", "--days", "1", "--out", str(tmp_path / "xml"), "--keys", str(tmp_path)],
        ["export", "--db", str(copy_of(year, tmp_path)), "--out", str(a_file)],
    ]
    for args in runs:
        result = CliRunner().invoke(root_app, ["shifts", *args])
        assert result.exit_code == 2, result.output
        assert "cannot write" in plain(result.output) and "Traceback" not in result.output
    days = tmp_path / "days"
    days.mkdir()
    (days / "2026-09-18.xml").write_text("<production/>")
    result = CliRunner().invoke(root_app, ["shifts", "ingest", str(days), "--db", str(a_file / "s.duckdb")])
    assert result.exit_code == 1 and "Cannot open the record store" in result.output


def test_a_day_file_that_cannot_be_read_is_rejected_and_the_rest_load(tmp_path):
    xml_dir = tmp_path / "xml"
    gen.generate(xml_dir, as_of=date(2026, 9, 18), days=1, answer_keys=tmp_path / "keys.json")
    (xml_dir / "manifest.json").unlink()
    (xml_dir / "2026-09-17.xml").mkdir()  # named like a day, but not a readable file
    report = ingest.ingest_directory(store.connect(":memory:"), xml_dir)
    assert report.loaded == [date(2026, 9, 18)]
    assert report.rejected == [("2026-09-17.xml", "cannot be read: not a regular file (a directory)")]
