"""Intake leniency closed: an upper-case `.XML` day file is refused with its reason (exit 3), never skipped in
silence; a count written as a decimal (`outs="1.0"`) excludes its setup with the field's reason
(docs/security.md, "Input limits"; docs/record-format.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, store

DAY = date(2026, 9, 15)


@pytest.fixture(scope="module")
def clean_xml() -> str:
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    return gen.to_xml(gen.simulate_day(DAY, gen.DEFAULT_SEED, plan))


def test_an_upper_case_xml_name_is_said_not_skipped(tmp_path: Path, clean_xml: str) -> None:
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    (xml_dir / "2026-09-15.XML").write_text(clean_xml)
    conn = store.connect(tmp_path / "s.duckdb")
    report = ingest.ingest_directory(conn, xml_dir)
    conn.close()
    assert [name for name, _ in report.rejected] == ["2026-09-15.XML"]
    assert "lower-case .xml" in report.rejected[0][1]


def test_the_command_exits_3_for_an_upper_case_name(tmp_path: Path, clean_xml: str) -> None:
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    (xml_dir / "2026-09-15.XML").write_text(clean_xml)
    shopfloor = str(Path(sys.executable).with_name("shopfloor"))
    run = subprocess.run(
        [shopfloor, "shifts", "ingest", str(xml_dir), "--db", str(tmp_path / "s.duckdb")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 3, (run.stdout, run.stderr)
    assert "2026-09-15.XML" in run.stdout + run.stderr


@pytest.mark.parametrize(
    ("field", "written"), [("outs", "1.0"), ("cuts", "2.0"), ("produced_sheets", "5.00")]
)
def test_a_count_written_as_a_decimal_excludes_the_setup(
    tmp_path: Path, clean_xml: str, field: str, written: str
) -> None:
    start = clean_xml.index('<setup id="S1-00"')
    knife = clean_xml.index("<knife ", start)
    found = re.search(rf'\b{field}="([0-9]+)"', clean_xml[knife:])
    assert found
    value = written if field == "outs" else f"{found.group(1)}.0"
    xml = clean_xml[:knife] + clean_xml[knife:].replace(found.group(0), f'{field}="{value}"', 1)
    path = tmp_path / f"{DAY.isoformat()}.xml"
    path.write_text(xml)
    conn = store.connect(":memory:")
    assert ingest.ingest_file(conn, path) >= 1
    errors = conn.execute("SELECT error FROM excluded_records WHERE record_id = 'S1-00'").fetchall()
    assert errors == [(f"Invalid upper knife {field}",)]
