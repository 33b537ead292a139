"""Bad input: each fault gives its documented result, and the store is unchanged where it should be."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from typer.testing import CliRunner

from shopfloor.cli import app as root_app
from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, intake, store

DAY = date(2026, 9, 15)  # an ordinary Tuesday: no planted scenario, no corrupt setup


@pytest.fixture(scope="module")
def clean_xml() -> str:
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    assert DAY not in plan.corrupt_days
    return gen.to_xml(gen.simulate_day(DAY, gen.DEFAULT_SEED, plan))


def setup_span(xml: str, record_id: str) -> tuple[int, int]:
    start = xml.index(f'<setup id="{record_id}"')
    return start, xml.index("</setup>", start)


def set_attr(xml: str, record_id: str, attr: str, value: str) -> str:
    """Change one attribute of the <setup> start tag of ``record_id``."""
    start = xml.index(f'<setup id="{record_id}"')
    end = xml.index(">", start)
    tag = re.sub(rf'\b{attr}="[^"]*"', f'{attr}="{value}"', xml[start:end], count=1)
    return xml[:start] + tag + xml[end:]


def snapshot(conn) -> dict[str, list[tuple]]:
    return {
        t: conn.execute(
            f"SELECT * EXCLUDE (ingested_at) FROM {t}" if t == "days" else f"SELECT * FROM {t}"
        ).fetchall()
        for t in store.DAY_TABLES
    }


def load(tmp_path, text: str | bytes, conn=None):
    conn = conn or store.connect(":memory:")
    path = tmp_path / f"{DAY.isoformat()}.xml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    excluded = ingest.ingest_file(conn, path)
    return conn, excluded


def test_the_clean_day_loads_with_nothing_excluded(tmp_path, clean_xml):
    conn, excluded = load(tmp_path, clean_xml)
    assert excluded == 0
    assert conn.execute("SELECT count(*) FROM setups").fetchone()[0] == clean_xml.count("<setup ")
    assert {c for (c,) in conn.execute("SELECT coverage FROM shifts").fetchall()} == {"complete"}


def test_ingesting_the_same_day_twice_replaces_it(tmp_path, clean_xml):
    conn, _ = load(tmp_path, clean_xml)
    first = snapshot(conn)
    load(tmp_path, clean_xml, conn)
    assert snapshot(conn) == first


def two_knife_setup(xml: str, shift: int = 1) -> str:
    for m in re.finditer(rf'<setup id="(S{shift}-\d+)"', xml):
        s, e = setup_span(xml, m.group(1))
        if xml[s:e].count("<knife ") == 2 and 'continued="false"' in xml[s:e]:
            return m.group(1)
    raise AssertionError("no two-knife setup")


def later_setup_in_a_run(xml: str) -> tuple[str, str]:
    """A setup whose wet-end run already had a setup before it, and that run's grade."""
    seen: dict[str, str] = {}
    for m in re.finditer(r'<setup id="(S1-\d+)" setup_id="[^"]+" run="([^"]+)" grade="([^"]+)"', xml):
        if m.group(2) in seen:
            return m.group(1), m.group(3)
        seen[m.group(2)] = m.group(3)
    raise AssertionError("no run with two setups")


def mutate_cuts(xml: str, record_id: str) -> str:
    s, e = setup_span(xml, record_id)
    block = xml[s:e]
    lower = block.index('level="lower"')
    cuts = re.search(r'cuts="(\d+)"', block[lower:])
    assert cuts
    new = block[:lower] + block[lower:].replace(cuts.group(0), f'cuts="{int(cuts.group(1)) + 1}"', 1)
    return xml[:s] + new + xml[e:]


def change_grade(xml: str) -> tuple[str, str]:
    record_id, grade = later_setup_in_a_run(xml)
    other = "275-BC" if grade != "275-BC" else "26-C"
    target = "500" if other == "275-BC" else "900"
    return set_attr(set_attr(xml, record_id, "grade", other), record_id, "target_fpm", target), record_id


def knife_edit(xml: str, record_id: str, level: str, edit) -> str:
    s, e = setup_span(xml, record_id)
    block = xml[s:e]
    k_start = block.index(f'level="{level}"')
    k_end = block.index("/>", k_start)
    return xml[:s] + block[:k_start] + edit(block[k_start:k_end]) + block[k_end:] + xml[e:]


def shift_attr(tag: str, name: str, delta: float) -> str:
    m = re.search(rf'\b{name}="([^"]+)"', tag)
    assert m
    value = float(m.group(1)) + delta
    return tag.replace(m.group(0), f'{name}="{value:g}"', 1)


def continuing_fragment(xml: str) -> str:
    """A setup whose upper order started in an earlier setup (remaining_before below planned)."""
    for m in re.finditer(r'<setup id="(S1-\d+)"', xml):
        s, e = setup_span(xml, m.group(1))
        k = re.search(r'level="upper".*?planned_sheets="(\d+)".*?remaining_before="(\d+)"', xml[s:e])
        if k and k.group(1) != k.group(2):
            return m.group(1)
    raise AssertionError("no continuing fragment")


def ledger_break(x: str) -> tuple[str, str]:
    rid = continuing_fragment(x)
    edit = lambda tag: shift_attr(shift_attr(tag, "remaining_before", 1), "remaining_after", 1)  # noqa: E731
    return knife_edit(x, rid, "upper", edit), rid


EXCLUDED_CASES = {
    "order ledger": (ledger_break, "Order identity or remaining quantity changed"),
    "produced is not cuts x outs": (
        lambda x: (knife_edit(x, "S1-07", "upper", lambda t: shift_attr(t, "produced_sheets", 1)), "S1-07"),
        "Order quantities do not reconcile",
    ),
    "spans not contiguous": (
        lambda x: (
            knife_edit(x, two_knife_setup(x), "upper", lambda t: shift_attr(t, "start_in", 0.5)),
            two_knife_setup(x),
        ),
        "Knife spans do not fit the web",
    ),
    "nan": (lambda x: (set_attr(x, "S1-03", "gross_feet", "nan"), "S1-03"), "Invalid gross_feet"),
    "infinity": (lambda x: (set_attr(x, "S1-03", "gross_feet", "Infinity"), "S1-03"), "Invalid gross_feet"),
    "negative": (lambda x: (set_attr(x, "S1-04", "trim_sqft", "-5"), "S1-04"), "Invalid trim_sqft"),
    "giant trim": (
        lambda x: (set_attr(x, "S1-05", "trim_sqft", "99999999"), "S1-05"),
        "Waste/gross area out of bounds",
    ),
    "wrong width": (lambda x: (set_attr(x, "S1-06", "width_in", "100"), "S1-06"), "Invalid web width"),
    "cuts do not reconcile": (
        lambda x: (mutate_cuts(x, two_knife_setup(x)), two_knife_setup(x)),
        "Knife footage does not reconcile",
    ),
    "grade change inside a run": (change_grade, "Grade or width changed inside wet-end run"),
}


@pytest.mark.parametrize("case", list(EXCLUDED_CASES))
def test_bad_setup_is_excluded_and_kept(tmp_path, clean_xml, case):
    mutate, error = EXCLUDED_CASES[case]
    bad, record_id = mutate(clean_xml)
    original_attrs = re.search(rf'<setup id="{record_id}"[^>]*>', bad).group(0)
    conn, excluded = load(tmp_path, bad)
    assert excluded >= 1
    row = conn.execute(
        "SELECT shift, error, raw FROM excluded_records WHERE record_id = ?", [record_id]
    ).fetchone()
    assert row is not None and row[1] == error
    raw = json.loads(row[2])
    for name, value in re.findall(r'(\w+)="([^"]*)"', original_attrs):
        assert raw["attributes"][name] == value  # kept exactly as written, never clamped
    assert conn.execute("SELECT count(*) FROM setups WHERE record_id = ?", [record_id]).fetchone()[0] == 0
    coverage = dict(conn.execute("SELECT shift, coverage FROM shifts").fetchall())
    assert coverage[row[0]] == "incomplete"
    total = conn.execute("SELECT count(*) FROM setups").fetchone()[0]
    assert total + excluded == clean_xml.count("<setup ")


def with_doctype(x: str) -> str:
    return x.replace("?>\n", '?>\n<!DOCTYPE production [<!ENTITY who "crew">]>\n', 1).replace(
        "Normal running", "&who; running", 1
    )


def billion_laughs(_: str) -> str:
    entities = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    return f'<?xml version="1.0"?><!DOCTYPE production [<!ENTITY l0 "lol">{entities}]><production>&l9;</production>'


def deep(x: str) -> str:
    return x.replace("</shift>", "<note>" + "<a>" * 50 + "</a>" * 50 + "</note></shift>", 1)


def pad_to(x: str, size: int) -> bytes:
    raw = x.encode()
    filler = size - len(raw) - len("<!---->")
    return raw.replace(b"<production ", b"<!--" + b"x" * filler + b"--><production ", 1)


def overlapping_stop(x: str) -> str:
    stop = re.search(r'<stop id="(D1-\d+)"[^>]*/>', x)
    assert stop
    copy = stop.group(0).replace(f'id="{stop.group(1)}"', 'id="D1-99"')
    return x.replace(stop.group(0), stop.group(0) + copy, 1)


def wrong_shift_length(x: str) -> str:
    return x.replace(f'end="{DAY.isoformat()}T23:00:00" crew', f'end="{DAY.isoformat()}T23:30:00" crew', 1)


REJECTED_CASES = {
    "DTD entity": (with_doctype, "DOCTYPE"),
    "billion laughs": (billion_laughs, "DOCTYPE"),
    "depth 50": (deep, "deeper than 8"),
    "1 MB + 1 byte": (lambda x: pad_to(x, intake.MAX_DAY_BYTES + 1), "1,000,000 bytes"),
    "UTF-16": (lambda x: x.encode("utf-16"), "byte-order mark"),
    "UTF-16 without BOM": (lambda x: x.encode("utf-16-le"), "NUL"),
    "declared UTF-16": (lambda x: x.replace('encoding="UTF-8"', 'encoding="UTF-16"'), "encoding"),
    "unknown element": (lambda x: x.replace("</shift>", "<bonus/></shift>", 1), "unknown element <bonus>"),
    "unknown attribute": (lambda x: set_attr(x, "S1-02", "id", 'S1-02" speed="1'), "unknown attribute"),
    "overlapping stops": (overlapping_stop, "overlap"),
    "wrong shift length": (wrong_shift_length, "480 minutes"),
    "timezone": (
        lambda x: x.replace(
            f'start="{DAY.isoformat()}T07:00:00"', f'start="{DAY.isoformat()}T07:00:00+00:00"', 1
        ),
        "naive",
    ),
    "weekend day": (
        lambda x: x.replace(f'production_day="{DAY.isoformat()}"', 'production_day="2026-09-19"'),
        "Saturday",
    ),
    "gap between setups": (
        lambda x: set_attr(x, "S1-02", "start", f"{DAY.isoformat()}T07:00:00"),
        "partition",
    ),
    "duplicate id": (lambda x: set_attr(x, "S1-02", "id", "S1-01"), "duplicate record id"),
    "unknown stop kind": (
        lambda x: re.sub(r'kind="(Maintenance|Operator)"', 'kind="Sabotage"', x, count=1),
        "kind",
    ),
    "long note": (lambda x: x.replace("</shift>", "<note>" + "n" * 1001 + "</note></shift>", 1), "1,000"),
}


@pytest.fixture(scope="module")
def loaded(tmp_path_factory, clean_xml):
    """One store holding the clean day; every rejected case must leave it exactly as it is."""
    conn, _ = load(tmp_path_factory.mktemp("loaded"), clean_xml)
    return conn, snapshot(conn)


@pytest.mark.parametrize("case", list(REJECTED_CASES))
def test_structural_fault_rejects_the_day_and_leaves_the_store_as_it_was(tmp_path, clean_xml, loaded, case):
    mutate, message = REJECTED_CASES[case]
    conn, before = loaded
    with pytest.raises(intake.DayRejected, match=re.escape(message)):
        load(tmp_path, mutate(clean_xml), conn)
    assert snapshot(conn) == before


def test_exactly_one_megabyte_is_accepted(tmp_path, clean_xml):
    raw = pad_to(clean_xml, intake.MAX_DAY_BYTES)
    assert len(raw) == intake.MAX_DAY_BYTES
    _conn, excluded = load(tmp_path, raw)
    assert excluded == 0


def test_a_rejected_day_never_reaches_an_empty_store(tmp_path, clean_xml):
    conn = store.connect(tmp_path / "s.duckdb")
    with pytest.raises(intake.DayRejected):
        load(tmp_path, deep(clean_xml), conn)
    assert all(rows == [] for rows in snapshot(conn).values())


def test_ingest_command_reports_rejected_days_and_loads_the_rest(tmp_path, clean_xml):
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    (xml_dir / f"{DAY.isoformat()}.xml").write_text(clean_xml)
    other = clean_xml.replace(DAY.isoformat(), "2026-09-16")
    (xml_dir / "2026-09-16.xml").write_text(overlapping_stop(other))
    db = tmp_path / "s.duckdb"
    result = CliRunner().invoke(root_app, ["shifts", "ingest", str(xml_dir), "--db", str(db)])
    assert result.exit_code == 3  # some files rejected, the others loaded
    assert "Rejected 2026-09-16.xml" in result.output and "overlap" in result.output
    conn = store.open_read_only(db)
    assert conn.execute("SELECT day FROM days").fetchall() == [(DAY,)]


def test_manifest_hash_mismatch_rejects_the_day(tmp_path, clean_xml):
    path = tmp_path / f"{DAY.isoformat()}.xml"
    path.write_text(clean_xml)
    conn = store.connect(tmp_path / "s.duckdb")
    with pytest.raises(intake.DayRejected, match="manifest"):
        ingest.ingest_file(conn, path, expected_sha256="0" * 64)


def test_a_stray_xml_name_is_reported_not_guessed(tmp_path, clean_xml):
    (tmp_path / "monday.xml").write_text(clean_xml)
    report = ingest.ingest_directory(store.connect(":memory:"), tmp_path)
    assert report.loaded == [] and report.rejected[0][0] == "monday.xml"


def test_the_documented_example_setup_passes_every_check():
    from pathlib import Path
    from xml.etree.ElementTree import fromstring

    doc = (Path(__file__).resolve().parents[2] / "docs" / "record-format.md").read_text()
    start = doc.index('<setup id="S1-00"')
    block = doc[start : doc.index("</setup>", start) + len("</setup>")]
    checked = intake.check_setup(fromstring(block), intake.Ledger())
    assert checked["travel"] == 5760 and checked["occupied"] == 94.5
