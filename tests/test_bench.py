"""The benchmark runner: medians, p95, ratios to goals and verdicts per figure, and name filtering."""

import os
import re
import textwrap
from pathlib import Path

import pytest

from shopfloor.bench import Figure, main, time_figure

DEMO = textwrap.dedent(
    """
    from shopfloor.bench import Figure

    FIGURES = [
        Figure("fast one", measure=lambda: {"median": 2.0, "p95": 3.0}, goal=4.0),
        Figure("slow one", measure=lambda: {"median": 6.0, "p95": 7.0, "rows": 12}, unit="s", goal=4.0),
        Figure("no goal", measure=lambda: {"median": 1.5, "p95": 1.5}, unit="MB"),
        Figure("tail", measure=lambda: {"median": 2.0, "p95": 9.0}, goal=4.0, goal_on="p95"),
    ]
    """
)


def run(tmp_path, monkeypatch, capsys, *argv: str) -> str:
    (tmp_path / "benchmarks").mkdir(exist_ok=True)
    (tmp_path / "benchmarks" / "bench_demo.py").write_text(DEMO)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")  # a narrow terminal: names fold, figures are never cut
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_each_figure_gets_its_median_p95_ratio_and_verdict(tmp_path, monkeypatch, capsys):
    lines = run(tmp_path, monkeypatch, capsys).splitlines()
    fast = next(line for line in lines if "fast one" in line)
    slow = next(line for line in lines if "slow one" in line)
    plain = next(line for line in lines if "no goal" in line)
    assert "2.000 ms" in fast and "3.000 ms" in fast and "0.50×" in fast and "meets" in fast
    assert "6.000 s" in slow and "1.50×" in slow and "misses" in slow
    assert "1.500 MB" in plain and "×" not in plain and "goal" not in plain.replace("no goal", "")
    assert any("rows" in line and "12" in line for line in lines)  # extra measured values get a row
    tail = next(line for line in lines if "tail" in line)
    assert "2.25× p95" in tail and "misses" in tail  # a p95 goal is judged on the p95, not the median


def test_arguments_pick_figures_by_name(tmp_path, monkeypatch, capsys):
    out = run(tmp_path, monkeypatch, capsys, "slow")
    assert "slow one" in out and "fast one" not in out and "no goal" not in out


def test_a_timed_figure_warms_up_once_then_runs_its_repeats():
    calls = []
    result = time_figure(Figure("count", lambda: calls.append(1), repeat=7, per=10))
    assert len(calls) == 8
    assert 0 <= result["median"] <= result["p95"]


# Smoke tests of the benchmarks themselves (``BENCH_SMOKE=1``: one run each): each runs and prints its rows
# with a number, its goal and a ratio. They judge no speed; the figures come from `make bench`.
ROOT = Path(__file__).resolve().parents[1]
PG_URL = os.environ.get("SHOPFLOOR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
needs_chromium = pytest.mark.skipif(
    not Path("/usr/bin/chromium").is_file(), reason="Chromium is not installed (apt-get install chromium)"
)


def run_benchmarks(monkeypatch, capsys, *names: str) -> list[str]:
    """The output lines of ``make bench`` limited to ``names``, from the project's benchmarks/."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("BENCH_SMOKE", "1")
    monkeypatch.setenv("COLUMNS", "240")  # one line per figure
    assert main(list(names)) == 0
    return capsys.readouterr().out.splitlines()


def row(lines: list[str], name: str) -> str:
    found = [line for line in lines if name in line]
    assert len(found) == 1, (name, lines)
    return found[0]


def assert_judged(line: str, goal: str) -> None:
    """A measured number (not NaN), the goal and a ratio with its verdict."""
    assert "nan" not in line.lower() and goal in line and "×" in line, line
    assert "meets" in line or "misses" in line, line


@pytest.mark.slow
@needs_chromium
def test_the_dashboard_figures_on_a_slow_phone_print_their_rows(monkeypatch, capsys):
    lines = run_benchmarks(monkeypatch, capsys, "dashboard first")
    assert_judged(row(lines, "dashboard first load on the wire, slow phone (KB)"), "30 KB")
    assert_judged(row(lines, "dashboard first contentful paint, slow phone"), "1200 ms")


@pytest.fixture
def hand_built_store(tmp_path, monkeypatch):
    """The browser tests' small record store as the benchmarks' store (instead of the prepared year)."""
    from shopfloor.settings import get_settings
    from tests.e2e.shifts.conftest import build_store

    monkeypatch.setenv("SHOPFLOOR_SHIFTS_DB", str(build_store(tmp_path / "shifts.duckdb")))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.slow
def test_the_first_visit_figures_print_first_visits_and_kept_answers(hand_built_store, monkeypatch, capsys):
    lines = run_benchmarks(monkeypatch, capsys, "answer page over HTTP", "its JSON", "first visits: page")
    assert_judged(row(lines, "day overview answer page over HTTP, first visit"), "100.0 ms")
    assert_judged(row(lines, "first visits: page median over JSON median"), "2.0 x")
    for name in ("its JSON (format=json), first visit", "answer page over HTTP, kept", "its JSON, kept"):
        assert re.search(r"\d+\.\d{3} ms", row(lines, name)), name
    # two addresses per series, in the extra "visits" row under each of the four series
    assert sum(bool(re.search(r"\bvisits\s*│\s*2\.000", line)) for line in lines) == 4


@pytest.mark.slow
@needs_chromium
def test_the_shifts_slow_phone_figures_print_their_rows(hand_built_store, monkeypatch, capsys):
    lines = run_benchmarks(monkeypatch, capsys, "slow phone: ")
    assert_judged(row(lines, "slow phone: first answer page on the wire (KB)"), "60.0 KB")
    assert_judged(row(lines, "slow phone: first answer page fully loaded"), "2500.0 ms")
    assert_judged(row(lines, "slow phone: an example button's answer on screen"), "1500.0 ms")


@pytest.mark.slow
def test_the_notes_over_http_figure_on_sqlite_prints_runs_per_second_and_cpu(monkeypatch, capsys):
    lines = run_benchmarks(monkeypatch, capsys, "loopback, SQLite")
    assert_judged(
        row(lines, "runs/s over HTTP, 16 clients, `serve --workers 2` on loopback, SQLite"), "200.0"
    )
    assert re.search(r"server CPU ms per run\s*│\s*\d+\.\d{3}", "\n".join(lines))
    assert re.search(r"errors\s*│\s*0\.000", "\n".join(lines))


@pytest.mark.slow
@pytest.mark.postgres
def test_the_notes_over_http_figure_on_postgresql_prints_runs_per_second_and_cpu(monkeypatch, capsys):
    from sqlalchemy import create_engine, text

    from shopfloor.workshop.store.engine import normalize_url

    engine = create_engine(normalize_url(PG_URL))
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL} ({type(exc).__name__})")
    finally:
        engine.dispose()
    lines = run_benchmarks(monkeypatch, capsys, "loopback, PostgreSQL")
    assert_judged(row(lines, "on loopback, PostgreSQL"), "150.0")
    assert re.search(r"server CPU ms per run\s*│\s*\d+\.\d{3}", "\n".join(lines))
    assert re.search(r"errors\s*│\s*0\.000", "\n".join(lines))
