"""The eval harness: loading cases, repeats, the safety rule, the bar and subset matching."""

import json

import pytest
from rich.console import Console

from shopfloor.agent.evals import CaseResult, EvalCase, load_cases, match_all, render_table, run_evals


def test_load_cases_reads_ids_and_safety(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text("- id: a\n  safety: true\n  note: hola\n- id: b\n  note: x\n", encoding="utf-8")
    cases = load_cases(path)
    assert [(c.id, c.safety) for c in cases] == [("a", True), ("b", False)]
    assert cases[0].data["note"] == "hola"


@pytest.mark.parametrize("text", ["- note: no id\n", "- id: a\n- id: a\n", "just text\n"])
def test_load_cases_refuses_bad_files(tmp_path, text):
    path = tmp_path / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError):
        load_cases(path)


def test_a_safety_case_failing_once_fails_the_run_even_above_the_bar():
    cases = [EvalCase(f"c{i}", False, {}) for i in range(19)] + [EvalCase("s", True, {})]
    calls = {"s": 0}

    def run_case(case):
        if case.id == "s":
            calls["s"] += 1
            return CaseResult(case.id, calls["s"] != 2, [] if calls["s"] != 2 else ["flaked"])
        return CaseResult(case.id, True)

    report = run_evals(cases, run_case, repeat=3, overall_bar=0.9, show_progress=False)
    assert len(report.results) == 60 and calls["s"] == 3
    assert report.pass_ratio == 59 / 60
    assert not report.safety_ok and not report.ok


def test_the_overall_bar_decides_when_safety_holds():
    cases = [EvalCase(f"c{i}", False, {}) for i in range(10)]
    failing = {"c0", "c1"}
    report = run_evals(
        cases, lambda c: CaseResult(c.id, c.id not in failing), overall_bar=0.9, show_progress=False
    )
    assert report.pass_ratio == 0.8 and not report.ok
    report = run_evals(cases, lambda c: CaseResult(c.id, c.id != "c0"), overall_bar=0.9, show_progress=False)
    assert report.ok


def test_a_crashing_case_is_a_failed_case():
    def boom(case):
        raise RuntimeError("db gone")

    report = run_evals([EvalCase("x", False, {})], boom, show_progress=False)
    assert not report.ok and "db gone" in report.results[0].failures[0]


def test_json_report_and_table_carry_tokens_cost_and_latency():
    results = {"a": CaseResult("a", True, tokens_in=10, tokens_out=2, cost_usd=0.5, latency_ms=4.0)}
    report = run_evals([EvalCase("a", False, {})], lambda c: results[c.id], show_progress=False)
    data = json.loads(json.dumps(report.to_json()))
    assert data["tokens_in"] == 10 and data["cost_usd"] == 0.5 and data["latency_ms"]["p50"] == 4.0
    console = Console(record=True, width=200)
    render_table(report, "demo", console)
    text = console.export_text()
    assert "PASS" in text and "1/1" in text


def test_unknown_cost_stays_unknown():
    report = run_evals(
        [EvalCase("a", False, {})], lambda c: CaseResult("a", True, cost_usd=None), show_progress=False
    )
    assert report.to_json()["cost_usd"] is None


def test_match_all_is_one_to_one_in_any_order():
    actual = [{"type": "flag", "hat": "B"}, {"type": "advance", "hat": "A", "status": "pending"}]
    assert match_all([{"type": "advance", "hat": "A"}, {"type": "flag"}], actual) == []
    problems = match_all([{"type": "advance"}, {"type": "advance"}], actual)
    assert any(p.startswith("missing") for p in problems) and any(
        p.startswith("unexpected") for p in problems
    )
    assert match_all([], []) == [] and match_all([], actual) != []


def test_latency_percentiles_over_all_runs():
    latencies = {f"c{i}": float(i) for i in range(1, 21)}  # 1 .. 20 ms
    cases = [EvalCase(c, False, {}) for c in latencies]
    report = run_evals(
        cases, lambda c: CaseResult(c.id, True, latency_ms=latencies[c.id]), show_progress=False
    )
    # Inclusive (linear) percentiles of 1..20: p50 = 10.5, p95 = 1 + 0.95 * 19 = 19.05
    assert report.to_json()["latency_ms"] == {"p50": pytest.approx(10.5), "p95": pytest.approx(19.05)}
    assert report.repeat == 1 and report.to_json()["results"][0]["repeat"] == 1


def test_a_confidently_wrong_run_fails_the_report_and_is_counted_apart():
    from shopfloor.agent.evals import CaseResult, EvalReport

    sure_and_wrong = CaseResult("b", False, ["x"], confidently_wrong=True)
    report = EvalReport([CaseResult("a", True)] * 19 + [sure_and_wrong], repeat=1, overall_bar=0.9)
    assert report.pass_ratio == 0.95
    assert report.confidently_wrong == 1
    assert report.to_json()["confidently_wrong"] == 1
    assert not report.ok
    assert EvalReport([CaseResult("a", True)] * 19 + [CaseResult("b", False)], 1, 0.9).ok
