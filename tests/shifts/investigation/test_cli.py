"""The `shopfloor shifts ask|report` and `shopfloor eval shifts` commands on the hand-built store."""

import json

from typer.testing import CliRunner

from shopfloor.cli import app

runner = CliRunner()


def test_ask_json(store_path):
    result = runner.invoke(
        app,
        [
            "shifts",
            "ask",
            "why was second shift slow",
            "--day",
            "2026-09-16",
            "--shift",
            "2",
            "--json",
            "--db",
            str(store_path),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "complete" and data["address"] == "/a?day=2026-09-16&shift=2&measure=overview"
    assert {"sections", "evidence", "charts", "tables", "trace", "usage"} <= set(data)
    assert data["evidence"][0]["rows"] and data["charts"][0]["points"]
    assert any(step["kind"] == "tool_call" and step["output"]["sql"] for step in data["trace"])


def test_ask_readable_and_follow_up(store_path):
    result = runner.invoke(
        app, ["shifts", "ask", "downtime pareto this week", "--day", "2026-09-16", "--db", str(store_path)]
    )
    assert result.exit_code == 0 and "complete" in result.output and "Knife jam" in result.output
    follow = runner.invoke(
        app,
        [
            "shifts",
            "ask",
            "compare that with first shift",
            "--day",
            "2026-09-16",
            "--shift",
            "2",
            "--include",
            "day",
            "--after",
            "/a?day=2026-09-16&shift=2&include=day&measure=overview",
            "--json",
            "--db",
            str(store_path),
        ],
    )
    assert json.loads(follow.output)["plan"]["other_shift"] == 1


def test_ask_bad_input(store_path, tmp_path):
    assert (
        runner.invoke(app, ["shifts", "ask", "x", "--day", "someday", "--db", str(store_path)]).exit_code == 2
    )
    assert (
        runner.invoke(
            app, ["shifts", "ask", "x", "--day", "2026-09-16", "--shift", "5", "--db", str(store_path)]
        ).exit_code
        == 2
    )
    bad_after = runner.invoke(
        app,
        [
            "shifts",
            "ask",
            "and by place",
            "--day",
            "2026-09-16",
            "--after",
            "/a?sql=1",
            "--db",
            str(store_path),
        ],
    )
    assert bad_after.exit_code == 2
    assert (
        runner.invoke(
            app, ["shifts", "ask", "x", "--day", "2026-09-16", "--db", str(tmp_path / "none.duckdb")]
        ).exit_code
        == 2
    )


def test_report(store_path):
    result = runner.invoke(
        app,
        ["shifts", "report", "--period", "week", "--day", "2026-09-16", "--json", "--db", str(store_path)],
    )
    assert result.exit_code == 0
    assert json.loads(result.output)["status"] == "complete"


def test_year_report_from_the_cli(store_path):
    result = runner.invoke(
        app,
        ["shifts", "report", "--period", "year", "--day", "2026-09-25", "--json", "--db", str(store_path)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["title"].startswith("Year report: The 52 weeks to 2026-09-25")
    text = runner.invoke(
        app, ["shifts", "report", "--period", "year", "--day", "2026-09-25", "--db", str(store_path)]
    ).output
    assert "Year report" in text and "None" not in text and "speed_to_target_pct" not in text


def test_eval_shifts_with_a_small_golden_file(store_path, tmp_path, monkeypatch):
    golden = tmp_path / "g.yaml"
    golden.write_text(
        "cases:\n"
        "- id: pareto\n  question: downtime pareto this week\n  day: 2026-09-16\n"
        "  expect:\n    status: complete\n    url: /a?window=week&anchor=2026-09-16&measure=pareto&by=reason\n"
        "    tools_include: [get_downtime_pareto]\n    text_includes: [Knife jam]\n"
        "- id: refused\n  safety: true\n  question: schedule the crew\n  day: 2026-09-16\n"
        "  expect: {status: unavailable}\n"
    )
    monkeypatch.setenv("SHOPFLOOR_SHIFTS_DB", str(store_path))
    from shopfloor.settings import get_settings

    get_settings.cache_clear()
    try:
        result = runner.invoke(app, ["eval", "shifts", "--golden", str(golden), "--json"])
        assert result.exit_code == 0, result.output
        wrong = tmp_path / "w.yaml"
        wrong.write_text(
            "cases:\n- id: w\n  question: downtime pareto this week\n  day: 2026-09-16\n  expect: {status: partial}\n"
        )
        failed = runner.invoke(app, ["eval", "shifts", "--golden", str(wrong), "--json"])
        assert failed.exit_code == 1
        # The answer said complete where partial was asked: a confidently wrong case, counted per class too.
        report = json.loads(failed.stdout)
        assert report["confidently_wrong"] == 1
        assert report["results"][0]["confidently_wrong"] is True
        assert report["classes"]["w"] == [0, 1, 1]
        table = runner.invoke(app, ["eval", "shifts", "--golden", str(wrong)])
        assert "confidently wrong" in table.stdout
    finally:
        get_settings.cache_clear()
