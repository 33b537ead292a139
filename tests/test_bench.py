"""The benchmark runner: medians, p95, ratios to goals and verdicts per figure, and name filtering."""

import textwrap

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
