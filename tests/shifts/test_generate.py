"""The generator: reproducible bytes, manifest, answer keys kept apart, calibration and record variety."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from shopfloor.cli import app as root_app
from shopfloor.shifts.records import generate as gen

SHIFTS_SRC = Path(__file__).resolve().parents[2] / "src" / "shopfloor" / "shifts"


def test_same_seed_same_bytes_and_a_slice_matches_the_full_run(tmp_path):
    a = gen.generate(tmp_path / "a", days=3, answer_keys=tmp_path / "ka.json")
    gen.generate(tmp_path / "b", days=3, answer_keys=tmp_path / "kb.json")
    last = a.days[-1]
    c = gen.generate(tmp_path / "c", only=[last], answer_keys=tmp_path / "kc.json")
    gen.generate(tmp_path / "d", days=1, seed=gen.DEFAULT_SEED + 1, answer_keys=tmp_path / "kd.json")
    for day in a.days:
        name = f"{day.isoformat()}.xml"
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "a" / "manifest.json").read_bytes() == (tmp_path / "b" / "manifest.json").read_bytes()
    assert (tmp_path / "ka.json").read_bytes() == (tmp_path / "kb.json").read_bytes()
    assert c.days == [last]
    name = f"{last.isoformat()}.xml"
    assert (tmp_path / "c" / name).read_bytes() == (tmp_path / "a" / name).read_bytes()
    assert (tmp_path / "d" / name).read_bytes() != (tmp_path / "a" / name).read_bytes()


def test_manifest_lists_each_day_with_its_hash_and_counts(tmp_path):
    result = gen.generate(tmp_path / "xml", days=2, answer_keys=tmp_path / "keys.json")
    manifest = json.loads(result.manifest.read_text())
    assert manifest["generator"] == gen.GENERATOR_VERSION and manifest["seed"] == gen.DEFAULT_SEED
    assert [e["day"] for e in manifest["days"]] == [d.isoformat() for d in result.days]
    for entry in manifest["days"]:
        raw = (tmp_path / "xml" / entry["file"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(raw).hexdigest()
        text = raw.decode()
        assert entry["counts"]["setups"] == text.count("<setup ")
        assert entry["counts"]["stops"] == text.count("<stop ")
        assert entry["seed"] == gen.day_seed(gen.DEFAULT_SEED, date.fromisoformat(entry["day"]))


def test_default_year_is_a_rolling_monday_to_friday_year():
    days = gen.production_days(gen.DEFAULT_AS_OF)
    assert days[-1] == date(2026, 11, 27)
    assert 255 <= len(days) <= 262
    assert all(d.weekday() < 5 for d in days)
    assert (days[-1] - days[0]).days < 366


def test_answer_keys_live_outside_the_xml_and_name_every_scenario(tmp_path):
    result = gen.generate(tmp_path / "xml", days=2)
    assert result.answer_keys == tmp_path / gen.ANSWER_KEYS_FILENAME
    assert result.answer_keys.parent != tmp_path / "xml"
    keys = json.loads(result.answer_keys.read_text())
    ids = {s["id"] for s in keys["scenarios"]}
    assert ids == {
        "slow_crew",
        "upper_knife_jam",
        "humid_month_warp",
        "bad_paper_lot",
        "power_outage",
        "pm_schedule",
        "corrupt_setup",
    }
    manifest = json.loads(result.manifest.read_text())
    assert manifest["planted_scenarios"] == result.plan.count(result.days)
    blob = result.manifest.read_text() + "".join(p.read_text() for p in (tmp_path / "xml").glob("*.xml"))
    for word in ("slow_crew", "answer", "scenario", "planted"):
        assert word not in blob.replace('"planted_scenarios"', "")


def eval_function_lines(source: str) -> set[int]:
    """Line numbers inside functions whose name says they run evals."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "eval" in node.name:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def test_nothing_in_the_app_reads_the_answer_keys_except_an_eval_runner():
    """Only generate.py (which writes the file) and eval code may name it; generate.py never reads it, and
    the CLI only passes its path to the generator."""
    pattern = re.compile(r"answer.?keys?", re.IGNORECASE)
    offenders = []
    for path in SHIFTS_SRC.rglob("*.py"):
        text = path.read_text()
        if path.name == "generate.py" or path.name.startswith("eval"):
            continue
        allowed = eval_function_lines(text)
        for number, line in enumerate(text.splitlines(), start=1):
            if not pattern.search(line) or number in allowed:
                continue
            passing_to_generator = path.name == "cli.py" and not re.search(
                r"open|read_|json\.load|load_", line
            )
            if not passing_to_generator:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []
    writer = (SHIFTS_SRC / "records" / "generate.py").read_text()
    assert not re.search(r"read_text|read_bytes|json\.load|\.open\(", writer)


def test_crews_rotate_weekly_and_every_shift_has_a_supervisor_slot(year):
    rows = year.conn.execute(
        "SELECT day, shift, crew, supervisor_slot FROM shifts ORDER BY day, shift"
    ).fetchall()
    by_week: dict[tuple[int, int], set[tuple[int, str]]] = {}
    for day, shift, crew, slot in rows:
        assert crew in "ABCD" and slot
        by_week.setdefault(day.isocalendar()[:2], set()).add((shift, crew))
    for pairs in by_week.values():
        assert len(pairs) == 3  # the same crew holds a shift all week
    per_day = Counter((day, crew) for day, _, crew, _ in rows)
    assert max(per_day.values()) == 1


def test_calibration_matches_the_owner_bands(year):
    q = year.conn.execute
    per_day = [n for (n,) in q("SELECT count(*) FROM setups GROUP BY day").fetchall()]
    assert 150 <= sum(per_day) / len(per_day) <= 210
    runs_per_day = [n for (n,) in q("SELECT count(*) FROM wet_end_runs GROUP BY day").fetchall()]
    assert 0.3 < sum(runs_per_day) / sum(per_day) < 0.6
    mean_trim, over_flag = q(
        "SELECT avg(100 * trim_sqft / gross_sqft), avg(CASE WHEN trim_sqft * 100 > 3.25 * gross_sqft THEN 1 ELSE 0 END) FROM setups"
    ).fetchone()
    assert 1.5 <= mean_trim <= 3.5 and 0.05 < over_flag < 0.4
    clean = q(
        "SELECT 100 * sum(reject_sqft) / sum(gross_sqft) FROM setups WHERE day BETWEEN ? AND ? AND shift < 3",
        [year.plan.jam_weeks[0], year.plan.jam_weeks[-1]],
    ).fetchone()[0]
    assert 0.2 <= clean <= 0.7
    maint, oper = q(
        "SELECT 100 * sum(minutes) FILTER (WHERE kind = 'Maintenance') / (480 * ?), "
        "100 * sum(minutes) FILTER (WHERE kind = 'Operator') / (480 * ?) FROM stops WHERE day = ANY(?)",
        [15, 15, [d for d in year.days if d.isocalendar()[:2] == year.plan.bad_lot_week.isocalendar()[:2]]],
    ).fetchone()
    assert 0.5 <= maint <= 2.0 and 0.5 <= oper <= 2.0


def test_records_cover_every_kind_family_and_continuation(year):
    q = year.conn.execute
    assert {k for (k,) in q("SELECT DISTINCT kind FROM stops").fetchall()} == {
        "Maintenance",
        "Operator",
        "PM",
        "External",
    }
    assert {f for (f,) in q("SELECT DISTINCT family FROM rejects").fetchall()} == {
        "warp",
        "bond",
        "misalignment",
        "moisture",
        "bale",
    }
    assert q("SELECT count(*) FROM rejects WHERE reason IS NULL").fetchone()[0] > 0
    assert q("SELECT count(*) FROM notes").fetchone()[0] > 0
    single = q("SELECT count(*) FROM setups WHERE knives = 1").fetchone()[0]
    assert single > 0
    continued = q(
        "SELECT count(*) FROM setups a JOIN setups b ON a.day = b.day AND a.setup_id = b.setup_id "
        "AND b.shift = a.shift + 1 AND b.continued AND b.shear_feet = 0"
    ).fetchone()[0]
    assert continued >= len(year.days)  # most shift boundaries cut through a running setup


def test_generate_command_writes_days_manifest_and_keys(tmp_path):
    result = CliRunner().invoke(
        root_app,
        [
            "shifts",
            "generate",
            "--days",
            "2",
            "--as-of",
            "2026-09-18",
            "--out",
            str(tmp_path / "xml"),
            "--corrupt-days",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "xml").iterdir()) == [
        "2026-09-17.xml",
        "2026-09-18.xml",
        "manifest.json",
    ]
    assert (tmp_path / gen.ANSWER_KEYS_FILENAME).is_file()


def test_generate_command_refuses_a_weekend_as_of(tmp_path):
    result = CliRunner().invoke(
        root_app, ["shifts", "generate", "--as-of", "2026-09-19", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "Monday" in result.output and "Generating days" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_attribute_text_is_escaped_as_data():
    from xml.etree.ElementTree import fromstring

    text = 'jam at "upper" <knife> & stacker\nsecond line'
    element = fromstring(f"<stop {gen._attrs([('notes', text), ('id', 'D1-01')])}/>")
    assert element.attrib == {"notes": text, "id": "D1-01"}


def test_planted_count_covers_only_the_generated_days():
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    assert plan.count() == 7 and plan.count(gen.production_days(gen.DEFAULT_AS_OF)) == 7
    pm_too = gen.is_pm_day(plan.outage_day, plan)
    assert plan.count([plan.outage_day]) == 1 + pm_too
    assert plan.count([]) == 0
