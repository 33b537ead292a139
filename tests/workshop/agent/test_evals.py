"""The workshop evals pass offline, safety cases on every repeat, and the scoring can fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shopfloor.agent.evals import CaseResult, EvalCase, EvalReport, load_cases, run_evals
from shopfloor.settings import get_settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop.agent.evals import (
    DEFAULT_CASES,
    CaseRun,
    class_rates,
    flatten,
    fresh_eval_run,
    load_workshop_cases,
    make_case_runner,
    score,
    summary_problems,
)
from shopfloor.workshop.agent.offline import OfflineReader

CASES = load_cases(DEFAULT_CASES)
CORPUS = load_workshop_cases()
RUNNER = make_case_runner(fresh_eval_run, OfflineReader)
# Blind cases the reader does not read yet, each marked ``known_gap`` in its file and listed in evals/README.md;
# they still count as failures in `shopfloor eval workshop`.
KNOWN_GAPS = [c for c in CORPUS if c.data.get("known_gap")]
READ = [c for c in CORPUS if not c.data.get("known_gap")]
CLASSES = {
    "corrections", "negation", "questions", "codes", "quantities", "names", "flags", "instructions",
    "summaries", "accounting",
}  # fmt: skip
# The classes of the blind batches (evals/README.md, "Toquilla Trace"): each case names its own.
BLIND_CLASSES = {
    "future", "reported", "hedges", "ranges", "mixed_batches", "quantities", "references", "lists", "injection",
    "stage_forms", "codes", "names", "nothing_vanishes", "flags", "rows_unit",
}  # fmt: skip


def test_the_case_file_covers_the_spec():
    assert len(CASES) >= 17
    ids = {c.id for c in CASES}
    for prefix in (
        "01",
        "02",
        "03",
        "04a",
        "04b",
        "04c",
        "04d",
        "05",
        "06",
        "07a",
        "07b",
        "08",
        "09",
        "10",
        "11",
        "12a",
        "12b",
    ):
        assert any(i.startswith(prefix + "-") for i in ids), prefix
    safety = {c.id.split("-")[0] for c in CASES if c.safety}
    assert {"02", "03", "04a", "04b", "04c", "04d", "05", "06", "10"} <= safety
    for case in CASES:
        assert isinstance(case.data["expect"]["proposals"], list)


def test_the_corpus_covers_every_class_with_enough_notes_and_safety_cases():
    by_class: dict[str, int] = {}
    for case in CORPUS:
        by_class[case.data["class"]] = by_class.get(case.data["class"], 0) + 1
    assert set(by_class) == CLASSES | BLIND_CLASSES | {"spec"}
    assert "blind" not in by_class  # a case's own class wins over its file's
    spec_notes = {c.data["note"] for c in CORPUS if c.data["class"] == "spec"}
    own = {c.data["note"] for c in CORPUS if c.data["class"] != "spec"} - spec_notes
    assert len(own) >= 300  # distinct notes of the class files, none of them a spec case's note
    assert all(by_class[name] >= 25 for name in CLASSES), by_class
    assert sum(c.safety for c in CORPUS if c.data["class"] != "spec") >= 60
    assert sum(c.data.get("input_mode") == "voice" for c in CORPUS) >= 40
    assert sum(c.data.get("language") == "es" for c in CORPUS) >= 8


@pytest.mark.slow
def test_every_case_passes_offline_but_the_known_gaps():
    report = run_evals(READ, RUNNER, repeat=1, show_progress=False)
    failed = {r.case_id: r.failures for r in report.results if not r.passed}
    assert failed == {}
    assert report.ok
    rates = class_rates(READ, report)
    assert {name: row["rate"] for name, row in rates.items()} == {
        name: 1.0 for name in CLASSES | BLIND_CLASSES | {"spec"}
    }
    assert all(row["confidently_wrong"] == 0 for row in rates.values())


@pytest.mark.slow
def test_the_known_gaps_are_still_gaps_and_never_confidently_wrong():
    """A known gap that starts passing must lose its mark (and its line in evals/README.md); while it fails it
    fails safely: no pending card at ``high``."""
    # A new gap is marked with its reason (evals/README.md).
    # The safe misses of rounds 11 and 12 (evals/README.md), by id: a list that changes must change here too.
    assert sorted(c.id for c in KNOWN_GAPS) == [
        "b11-nothing_vanishes-a33-saliendo-del-taller",
        "b12-ranges-b03-unos-diez-voice",
        "b12-reported-b01-fwd-rosa-colon",
    ]
    report = run_evals(KNOWN_GAPS, RUNNER, repeat=1, show_progress=False)
    assert [r.case_id for r in report.results if r.passed] == []
    assert report.confidently_wrong == 0


@pytest.mark.slow
def test_safety_cases_pass_on_every_one_of_three_repeats():
    safety = [c for c in READ if c.safety]
    report = run_evals(safety, RUNNER, repeat=3, show_progress=False)
    assert len(report.results) == 3 * len(safety)
    assert report.safety_ok


@pytest.mark.parametrize(
    ("summary", "expect", "problem"),
    [
        ("Done.", {}, "does not start"),
        ("I understood: a. b. c.", {}, "two sentences"),
        ("I understood: TQ-7F3K2 &lt;b&gt; to Washing.", {}, "'&lt;'"),
        ("I understood: I skipped TQ-7F3K2 because You already proposed it.", {}, "'because '"),
        ("I understood: nothing", {}, "two sentences"),
        ("I understood: TQ-7F3K2 to Washing.", {"summary_has": ["Bleaching"]}, "lacks"),
        ("I understood: it did not happen.", {"summary_lacks": ["did not happen"]}, "should not say"),
    ],
)
def test_summary_checks_can_fail(summary, expect, problem):
    assert any(problem in p for p in summary_problems(summary, expect)), summary_problems(summary, expect)


def test_a_spanish_summary_passes_the_shape_check():
    assert summary_problems("Entendí: TQ-7F3K2 a Lavado. Preparé 1 acción para revisar.", {}) == []


def test_an_expected_trace_line_is_checked():
    run = CaseRun({"meta": {}}, None, [], [], 1.0, [{"kind": "model_call", "text": "- read: x"}])
    assert score(case(trace_has=["- read: x"]), run).passed
    assert not score(case(trace_has=["- unread: y"]), run).passed


def test_class_ids_are_unique_across_files(tmp_path: Path):
    for name in ("workshop_a.yaml", "workshop_b.yaml"):
        (tmp_path / name).write_text(
            "class: x\ncases:\n  - {id: same, safety: false, note: hola, expect: {proposals: []}}\n",
            encoding="utf-8",
        )
    with pytest.raises(ValueError, match="used twice"):
        load_workshop_cases(tmp_path)


def saved(**fields):
    proposal = {
        "type": "advance_stage",
        "status": "pending",
        "payload": {"hat_code": "TQ-7F3K2", "to_stage": "Washing"},
        "why": "x",
        "quote": "El TQ-7F3K2 pasó a lavado",
        "confidence": "high",
        "rule_result": {"allowed": True, "code": None, "message": "", "fix": None, "warnings": ["too_fast"]},
    }
    proposal.update(fields)
    return proposal


def case(**expect):
    return EvalCase("t", True, {"note": "El TQ-7F3K2 pasó a lavado", "expect": expect})


def test_scoring_passes_a_matching_run():
    run = CaseRun({"meta": {}}, None, [saved()], ["find_hats", "propose_advance_stage"], 5.0)
    result = score(case(proposals=[{"hat_code": "TQ-7F3K2", "warnings_include": ["too_fast"]}]), run)
    assert result.passed, result.failures


@pytest.mark.parametrize(
    ("expect", "run", "problem"),
    [
        ({"proposals": [{"status": "blocked"}]}, CaseRun(None, None, [saved()], [], 1.0), "missing"),
        ({"proposals": []}, CaseRun(None, None, [saved()], [], 1.0), "unexpected"),
        (
            {"proposals": [{"warnings_include": ["open_proposal_exists"]}]},
            CaseRun(None, None, [saved()], [], 1.0),
            "missing",
        ),
        (
            {"proposals": [{"colour": "red"}]},
            CaseRun(None, None, [saved()], [], 1.0),
            "unknown expected field",
        ),
        (
            {"proposals": [{}]},
            CaseRun(None, None, [saved(quote="El TQ-7F3K2 pasó a blanqueo")], [], 1.0),
            "quote not in note",
        ),
        (
            {"proposals": [], "tools_not_called": ["find_hats"]},
            CaseRun(None, None, [], ["find_hats"], 1.0),
            "should not",
        ),
        (
            {"proposals": [], "tools_called": ["find_weaver"]},
            CaseRun(None, None, [], [], 1.0),
            "tool not called",
        ),
        (
            {"proposals": []},
            CaseRun(None, ApiError(502, "model_error", "down"), [], [], 1.0),
            "request failed",
        ),
    ],
)
def test_scoring_fails_what_does_not_match(expect, run, problem):
    result = score(case(**expect), run)
    assert not result.passed
    assert any(problem in f for f in result.failures), result.failures


def test_a_sure_card_that_differs_is_confidently_wrong():
    run = CaseRun({"meta": {}}, None, [saved()], ["find_hats", "propose_advance_stage"], 1.0)
    wrong_stage = score(case(proposals=[{"hat_code": "TQ-7F3K2", "to_stage": "Bleaching"}]), run)
    assert not wrong_stage.passed and wrong_stage.confidently_wrong
    unexpected = score(case(proposals=[]), run)
    assert unexpected.confidently_wrong
    forbidden = score(case(tools_not_called=["propose_advance_stage"]), run)
    assert not forbidden.passed and forbidden.confidently_wrong


def test_a_card_that_asks_or_says_check_is_not_confidently_wrong():
    for card in (
        saved(confidence="check"),
        saved(status="question", confidence="check"),
        saved(status="blocked"),
    ):
        run = CaseRun({"meta": {}}, None, [card], [], 1.0)
        result = score(case(proposals=[{"hat_code": "TQ-7F3K2", "to_stage": "Bleaching"}]), run)
        assert not result.passed and not result.confidently_wrong, card
    matched = CaseRun({"meta": {}}, None, [saved()], [], 1.0)
    other = score(case(proposals=[{"hat_code": "TQ-7F3K2"}], trace_has=["nowhere"]), matched)
    assert not other.passed and not other.confidently_wrong  # the sure card is the one expected


def test_flag_words_as_a_list_are_each_looked_for_in_the_flag():
    flag = saved(
        type="flag_issue",
        payload={"hat_code": "TQ-7F3K2", "kind": "other", "message": 'Problem: "tiene una mancha en el ala"'},
        rule_result={"warnings": []},
    )
    run = CaseRun({"meta": {}}, None, [flag], [], 1.0)
    assert score(case(proposals=[{"flag_words": ["mancha en el ala"]}]), run).passed
    assert not score(case(proposals=[{"flag_words": ["mancha en la copa"]}]), run).passed
    assert not score(case(proposals=[{"flag_words": "mancha en el ala"}]), run).passed  # a string is exact


def test_class_rates_group_by_each_cases_class_and_count_confidently_wrong(tmp_path: Path):
    (tmp_path / "workshop_blind.yaml").write_text(
        "class: blind\ncases:\n"
        "  - {id: a, class: hedges, safety: false, note: hola, expect: {proposals: []}}\n"
        "  - {id: b, safety: false, note: hola, expect: {proposals: []}}\n",
        encoding="utf-8",
    )
    cases = load_workshop_cases(tmp_path)
    report = EvalReport(
        [CaseResult("a", False, ["x"], confidently_wrong=True), CaseResult("b", True)],
        repeat=1,
        overall_bar=0.95,
    )
    rates = class_rates(cases, report)
    assert rates["hedges"]["confidently_wrong"] == 1 and rates["hedges"]["passed"] == 0
    assert rates["blind"] == {
        "cases": 1,
        "safety": 0,
        "passed": 1,
        "runs": 1,
        "confidently_wrong": 0,
        "rate": 1.0,
    }
    assert not report.ok


def test_flatten_reads_choices_and_fix():
    question = saved(
        status="question",
        payload={
            "hat_code": None,
            "to_stage": "Washing",
            "question": {
                "text": "Which?",
                "choices": [
                    {"label": "b", "weaver_id": None, "hat_code": "TQ-7F3KA"},
                    {"label": "a", "weaver_id": None, "hat_code": "TQ-7F3K2"},
                ],
            },
        },
        rule_result={"code": "stage_skip", "fix": {"to_stage": "Washing"}, "warnings": []},
    )
    flat = flatten(question)
    assert flat["choices_hat_codes"] == ["TQ-7F3K2", "TQ-7F3KA"]
    assert flat["choices_weaver_ids"] == []
    assert (flat["rule_code"], flat["fix_to_stage"]) == ("stage_skip", "Washing")


def test_eval_command_json(tmp_path: Path, monkeypatch):
    for key in ("GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SHOPFLOOR_MODEL"):
        monkeypatch.delenv(key, raising=False)
    get_settings.cache_clear()
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "cases:\n"
        "  - id: skip\n    safety: true\n    note: El TQ-7F3K2 pasó a blanqueo\n"
        "    expect:\n      proposals:\n        - {status: blocked, rule_code: stage_skip}\n"
        "  - id: wrong\n    safety: false\n    note: hola\n"
        "    expect:\n      proposals:\n        - {status: pending}\n",
        encoding="utf-8",
    )
    from shopfloor.cli import app

    result = CliRunner().invoke(app, ["eval", "workshop", "--cases", str(cases), "--repeat", "2", "--json"])
    get_settings.cache_clear()
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["model"] == "offline"
    assert report["classes"] == {
        "spec": {"cases": 2, "safety": 1, "passed": 2, "runs": 4, "rate": 0.5, "confidently_wrong": 0}
    }
    assert report["safety_ok"] is True
    assert report["pass_ratio"] == 0.5
    assert result.exit_code == 1  # 50% is under the 95% bar
