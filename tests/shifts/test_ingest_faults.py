"""Hostile day files: each file gets its own verdict with a clear reason, the valid days of the same run load,
the exit code tells "some files rejected" from "the ingest failed", and the field parsers are strict
(docs/record-format.md, section 3)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, intake, store

DAY = date(2026, 9, 15)  # an ordinary Tuesday


@pytest.fixture(scope="module")
def clean_xml() -> str:
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    return gen.to_xml(gen.simulate_day(DAY, gen.DEFAULT_SEED, plan))


def day_file(clean_xml: str, day: str) -> str:
    """The generated file of ``day`` (any text for a day that does not exist)."""
    try:
        real = date.fromisoformat(day)
    except ValueError:
        return clean_xml
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    return gen.to_xml(gen.simulate_day(real, gen.DEFAULT_SEED, plan))


def with_shift_start(xml: str, day: str, value: str, quote: bool = False) -> str:
    """Shift 1's start replaced by ``value``, as written (``&#10;`` stays a character reference) or quoted."""
    written = quoteattr(value) if quote else f'"{value}"'
    return xml.replace(
        f'start="{day}T07:00:00" end="{day}T15:00:00"', f'start={written} end="{day}T15:00:00"', 1
    )


def with_root_attr(xml: str, attr: str, value: str) -> str:
    # A function as the replacement: the value is text, not a template (a backslash in it is no escape).
    written = f"{attr}={quoteattr(value)}"
    return re.sub(rf'(<production [^>]*?){attr}="[^"]*"', lambda m: m.group(1) + written, xml, count=1)


def set_setup_attr(xml: str, record_id: str, attr: str, value: str) -> str:
    start = xml.index(f'<setup id="{record_id}"')
    end = xml.index(">", start)
    written = f"{attr}={quoteattr(value)}"
    tag = re.sub(rf'\b{attr}="[^"]*"', lambda _m: written, xml[start:end], count=1)
    return xml[:start] + tag + xml[end:]


@pytest.mark.slow
def test_hostile_files_are_each_rejected_with_a_reason_and_the_valid_days_load(
    tmp_path: Path, clean_xml: str
):
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    (xml_dir / "2026-09-15.xml").write_text(clean_xml)
    (xml_dir / "2026-09-23.xml").write_text(day_file(clean_xml, "2026-09-23"))
    bad = {
        "2026-09-16.xml": (
            with_shift_start(day_file(clean_xml, "2026-09-16"), "2026-09-16", "2026-09-16T07:00:00&#10;"),
            "not a naive",
        ),
        "2026-09-17.xml": (
            with_shift_start(day_file(clean_xml, "2026-09-17"), "2026-09-17", "2026-09-17T07:00:0\u0660"),
            "not a naive",
        ),
        "2026-09-18.xml": (
            with_shift_start(day_file(clean_xml, "2026-09-18"), "2026-09-18", "2026-09-18T25:00:00"),
            "out of range",
        ),
        "2026-09-21.xml": (with_root_attr(day_file(clean_xml, "2026-09-21"), "seed", "5\u00b2"), "seed"),
        "2026-02-30.xml": (day_file(clean_xml, "2026-02-30"), "file name is not a real date"),
    }
    for name, (text, _) in bad.items():
        (xml_dir / name).write_text(text)
    os.mkfifo(xml_dir / "2026-09-22.xml")  # named like a day; opening it would wait for a writer forever
    db = tmp_path / "s.duckdb"
    command = [
        str(Path(sys.executable).with_name("shopfloor")),
        "shifts",
        "ingest",
        str(xml_dir),
        "--db",
        str(db),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr  # some files rejected, the others loaded
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("Rejected ")]
    reasons = {line.split(":", 1)[0].removeprefix("Rejected "): line for line in lines}
    assert set(reasons) == {*bad, "2026-09-22.xml"}
    for name, (_, reason) in bad.items():
        assert reason in reasons[name], reasons[name]
    assert "not a regular file" in reasons["2026-09-22.xml"]
    conn = store.open_read_only(db)
    assert conn.execute("SELECT day FROM days ORDER BY day").fetchall() == [(DAY,), (date(2026, 9, 23),)]
    conn.close()


@pytest.mark.slow
def test_every_file_loaded_exits_0_and_a_store_that_cannot_be_opened_exits_1(tmp_path: Path, clean_xml: str):
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    (xml_dir / "2026-09-15.xml").write_text(clean_xml)
    shopfloor = str(Path(sys.executable).with_name("shopfloor"))
    ok = subprocess.run(
        [shopfloor, "shifts", "ingest", str(xml_dir), "--db", str(tmp_path / "s.duckdb")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    (tmp_path / "not-a-dir").write_text("x")
    failed = subprocess.run(
        [shopfloor, "shifts", "ingest", str(xml_dir), "--db", str(tmp_path / "not-a-dir" / "s.duckdb")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert failed.returncode == 1 and "Cannot open the record store" in failed.stderr


@pytest.mark.parametrize(
    "value",
    ["1_000", "4.922e3", " 4922", "4922 ", "4922\n", "\u0664\u0669\u0662\u0662", "+4922", "0x10", "inf"],
)
def test_a_number_not_written_plainly_excludes_the_setup(tmp_path: Path, clean_xml: str, value: str):
    path = tmp_path / f"{DAY.isoformat()}.xml"
    path.write_text(set_setup_attr(clean_xml, "S1-00", "gross_feet", value))
    conn = store.connect(":memory:")
    assert ingest.ingest_file(conn, path) >= 1  # a later fragment of its order may follow it out
    found = conn.execute("SELECT error FROM excluded_records WHERE record_id = 'S1-00'").fetchall()
    assert found == [("Invalid gross_feet",)]


def test_an_exponent_where_an_integer_is_meant_excludes_the_setup(tmp_path: Path, clean_xml: str):
    start = clean_xml.index('<setup id="S1-00"')
    knife = clean_xml.index("<knife ", start)
    outs = re.search(r'outs="([0-9]+)"', clean_xml[knife:])
    assert outs
    xml = clean_xml[:knife] + clean_xml[knife:].replace(outs.group(0), f'outs="{outs.group(1)}e0"', 1)
    path = tmp_path / f"{DAY.isoformat()}.xml"
    path.write_text(xml)
    conn = store.connect(":memory:")
    assert ingest.ingest_file(conn, path) >= 1
    found = conn.execute("SELECT error FROM excluded_records WHERE record_id = 'S1-00'").fetchall()
    assert found == [("Invalid upper knife outs",)]


# The field parsers, over generated text.

timestamps = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59))


@given(timestamps)
def test_every_naive_timestamp_reads_back(moment: datetime):
    assert intake.parse_timestamp(moment.isoformat()) == moment


@given(st.dates(min_value=date(1000, 1, 1)))
def test_every_date_reads_back(day: date):
    assert intake.parse_date(day.isoformat()) == day


@given(st.integers(min_value=0, max_value=10**15 - 1), st.integers(min_value=0, max_value=9999))  # 15 digits
def test_every_plain_number_reads_back(whole: int, fraction: int):
    assert intake.parse_integer(str(whole)) == whole
    assert intake.parse_decimal(str(whole)) == whole
    assert intake.parse_decimal(f"{whole}.{fraction:04d}") == float(f"{whole}.{fraction:04d}")


ASCII_TIME = set("0123456789-T:.")


@given(st.text(max_size=40))
def test_any_text_is_a_timestamp_or_a_value_error(text: str):
    try:
        moment = intake.parse_timestamp(text)
    except ValueError:
        return
    assert set(text) <= ASCII_TIME and moment.isoformat().startswith(text[:19])


@given(st.text(max_size=40))
def test_any_text_is_a_plain_number_or_a_value_error(text: str):
    for parse in (intake.parse_decimal, intake.parse_integer):
        try:
            value = parse(text)
        except ValueError:
            continue
        assert set(text) <= set("0123456789.") and value == float(text)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.text(max_size=12), start=st.text(max_size=24))
def test_any_seed_or_shift_start_is_loaded_or_rejected_never_a_crash(clean_xml: str, seed: str, start: str):
    xml = with_shift_start(with_root_attr(clean_xml, "seed", seed), DAY.isoformat(), start, quote=True)
    try:
        intake.read_day(xml.encode("utf-8", "surrogatepass"), file_day=DAY)
    except intake.DayRejected:
        pass
