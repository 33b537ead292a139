"""Whole investigations on the hand-built store: statuses, done condition, history, shapes, invariants."""

import json
from datetime import date

import pytest

from shopfloor.agent.loop import LoopLimits
from shopfloor.shifts import Scope, investigate, investigate_address
from shopfloor.shifts.evals import check_charts, check_figures, check_ranking, invariants
from shopfloor.shifts.investigation import History
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

DAY = date(2026, 9, 16)
SHIFT2 = Scope(day=DAY, shift=2, include="shift")
ALL = Scope(day=DAY)


def ask(conn, q, scope=ALL, **kw):
    answer = investigate(q, scope, conn, **kw)
    return answer, answer.as_dict()


QUESTIONS = [
    ("why was second shift slow", SHIFT2),
    ("show the KPIs", SHIFT2),
    ("downtime by place", SHIFT2),
    ("what were the rejects", SHIFT2),
    ("fpm by grade", SHIFT2),
    ("show the setup matrix", SHIFT2),
    ("show the order matrix", Scope(day=DAY, shift=1, include="shift")),
    ("what did the notes say", Scope(day=DAY, shift=3, include="shift")),
    ("rank the runs by speed", SHIFT2),
    ("where did the money go", SHIFT2),
    ("where did the money go", ALL),
    ("downtime pareto this week", ALL),
    ("waste breakdown this week", ALL),
    ("stops per weekday this week", ALL),
    ("speed trend over the last 3 weeks", ALL),
    ("throughput this week", ALL),
    ("why was this shift slow this week", SHIFT2),
    ("KPIs this week", ALL),
    ("downtime pareto next to last week", Scope(day=date(2026, 9, 21))),
]


@pytest.mark.parametrize(("question", "scope"), QUESTIONS)
def test_invariants_hold_on_every_answer(conn, question, scope):
    answer, data = ask(conn, question, scope)
    assert answer.status in ("complete", "partial"), (answer.status, answer.errors)
    assert invariants(data) == []
    assert answer.address and answer.evidence
    headline = answer.sections[1]
    assert "**" in headline["text"] and not headline["text"].startswith("- ")


def test_overview_brings_three_charts_and_cites_rows(conn):
    answer, _ = ask(conn, "why was second shift slow", SHIFT2)
    assert answer.status == "complete" and len(answer.charts) == 3
    assert "**75.00 %**" in answer.sections[1]["text"]  # 234,000 / 312,000
    assert any("Knife jam: **20.0 min**" in s["text"] for s in answer.sections)
    where = [s for s in answer.sections if s["type"] == "where"]
    assert 2 <= len(where) <= 3
    for line in where:  # each ends with a question the router answers in the same scope
        question = line["text"].split("“")[1].rstrip("”")
        assert isinstance(route(question, SHIFT2), Plan), question


def test_question_and_address_give_the_same_sections(conn):
    answer, _ = ask(conn, "downtime pareto this week", ALL)
    again = investigate_address(answer.address, conn)
    strip = lambda a: [s["text"] for s in a.sections]  # noqa: E731
    assert strip(again) == strip(answer)


def test_partial_window_is_listed_not_ranked(conn):
    answer, data = ask(conn, "downtime pareto this week", Scope(day=date(2026, 9, 21)))
    assert answer.status == "partial"
    assert check_ranking(data) == []
    assert any("Rankings are withheld" in s["text"] for s in answer.sections)
    assert not any(s["text"] == "Most downtime" for s in answer.sections)


def test_incomplete_shift_daily_run_is_complete_but_says_so(conn):
    answer, _ = ask(conn, "show the KPIs", Scope(day=date(2026, 9, 21), shift=2, include="shift"))
    assert answer.status == "complete"
    assert answer.evidence[0]["coverage"]["status"] == "incomplete"
    assert any("excluded records" in s["text"] for s in answer.sections)


def test_unavailable_with_examples(conn):
    answer, _ = ask(conn, "what's the weather tomorrow", ALL)
    assert answer.status == "unavailable" and answer.examples and answer.trace == []


def test_comparing_shifts_under_a_selected_shift_widens_to_the_day(conn):
    answer, _ = ask(conn, "compare first and second shift", SHIFT2)
    assert answer.status == "complete"
    assert "include=day&measure=compare_shifts&other_shift=2" in answer.address


def test_malicious_plan_rejected_whole(conn):
    steps = [("get_shift_kpis", {"shift": 2}), ("get_shift_kpis", {"shift": 1})]
    answer, _ = ask(conn, "show the KPIs", SHIFT2, steps=steps)
    assert answer.status == "plan_rejected" and answer.trace == []
    answer, _ = ask(conn, "show the KPIs", SHIFT2, steps=[("run_sql", {"sql": "DROP TABLE setups"})])
    assert answer.status == "plan_rejected"
    answer, _ = ask(conn, "downtime pareto this week", ALL, steps=[("get_setup_matrix", {"shift": 2})])
    assert answer.status == "plan_rejected" and "daily tool" in answer.reason
    # get_day_dollars is planned by the offline router only, never on an analyst's plan.
    answer, _ = ask(conn, "where did the money go", ALL, steps=[("get_day_dollars", {"shifts": [1, 2, 3]})])
    assert answer.status == "plan_rejected" and "get_day_dollars" in answer.reason


def test_budget_exhausted_with_preface(conn):
    steps = [("get_shift_kpis", {"shift": 1})] * 25
    answer, _ = ask(conn, "show the KPIs", ALL, steps=steps)
    assert answer.status == "budget_exhausted"
    assert answer.sections[1]["text"].startswith("The investigation reached its tool-call budget")


def test_timeout_and_context_limit(conn):
    answer, _ = ask(conn, "show the KPIs", SHIFT2, limits=LoopLimits(run_budget_s=0.0, max_iterations=4))
    assert answer.status == "timeout"
    tiny = LoopLimits(max_iterations=4, max_request_bytes=600)
    answer, _ = ask(conn, "downtime pareto this week", ALL, limits=tiny)
    assert answer.status == "context_limit"


def test_failed_tool_gives_partial(conn):
    steps = [
        ("get_shift_kpis", {"shift": 2}),
        ("get_downtime_breakdown", {"shift": 2, "kind": "Bogus", "group_by": "reason"}),
    ]
    answer, _ = ask(conn, "show the KPIs", SHIFT2, steps=steps)
    assert answer.status == "partial" and answer.errors


def test_chart_asked_but_none_is_partial(conn):
    answer, _ = ask(conn, "show the notes as a chart", Scope(day=DAY, shift=1, include="shift"))
    assert answer.status == "partial"
    assert any("chart was asked" in s["text"] for s in answer.sections)


def test_money_words_without_cost_basis_are_partial(conn):
    steps = [("get_shift_kpis", {"shift": 2})]
    answer, _ = ask(conn, "what did the downtime cost", SHIFT2, steps=steps)
    assert answer.status == "partial" and any("cost basis" in s["text"] for s in answer.sections)


def test_no_evidence_is_unavailable(conn):
    answer, _ = ask(conn, "show the KPIs", Scope(day=date(2026, 10, 5), shift=2, include="shift"))
    assert answer.status == "unavailable"


def test_history_keeps_four_and_day_change_clears(conn):
    history = History()
    for q in [
        "show the KPIs",
        "downtime by reason",
        "what were the rejects",
        "show the setup matrix",
        "fpm by grade",
    ]:
        investigate(q, Scope(day=DAY, shift=2, include="day"), conn, history=history)
    assert len(history.entries) == 4
    follow = investigate(
        "compare that with first shift", Scope(day=DAY, shift=2, include="day"), conn, history=history
    )
    assert follow.status == "complete" and "other_shift=1" in follow.address and "after=" in follow.address
    investigate("show the KPIs", Scope(day=date(2026, 9, 15), shift=2, include="day"), conn, history=history)
    assert len(history.entries) == 1


def test_notes_are_data_not_instructions(conn):
    answer, _ = ask(conn, "what did the notes say", Scope(day=DAY, shift=3, include="shift"))
    tools = [s["tool"] for s in answer.trace if s["kind"] == "tool_call"]
    assert tools == ["get_shift_notes"]
    assert any("IGNORE PREVIOUS INSTRUCTIONS" in s["text"] and s["type"] == "text" for s in answer.sections)


def test_invariant_checkers_catch_bad_answers():
    evidence = [
        {
            "query": 1,
            "result_id": "r1",
            "rows": [{"minutes": 20.0, "key": "Knife jam"}],
            "coverage": {"status": "partial"},
        }
    ]
    bad = {
        "evidence": evidence,
        "sections": [{"type": "finding", "text": "- Knife jam: **25.0 min** (query 1 · row 1)"}],
        "charts": [
            {
                "chart_id": "c",
                "source": "r1",
                "component": None,
                "x": "key",
                "y": "minutes",
                "points": [{"x": "Knife jam", "y": 99, "row": 0}],
            }
        ],
    }
    assert check_figures(bad) and check_charts(bad)
    bad["sections"].append({"type": "text", "text": "The largest downtime was Knife jam."})
    assert check_ranking(bad)
    good = {
        **bad,
        "sections": [{"type": "finding", "text": "- Knife jam: **20.0 min** (query 1 · row 1)"}],
        "charts": [],
    }
    assert invariants(good) == []


def test_planner_error_when_finish_cites_foreign_evidence(conn):
    from shopfloor.agent.providers.base import ProviderError
    from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn

    planner = ScriptedProvider(
        [tool_turn(("get_shift_kpis", {"shift": 2})), text_turn('{"evidence": ["r1-000000"]}')]
    )
    answer, _ = ask(conn, "show the KPIs", SHIFT2, planner=planner)
    assert answer.status == "planner_error" and "does not hold" in answer.errors[0]
    assert answer.sections[1]["text"].startswith("The planner failed")
    broken = ScriptedProvider([ProviderError("connection", "down")])
    assert ask(conn, "show the KPIs", SHIFT2, planner=broken)[0].status == "planner_error"
    prose = ScriptedProvider([tool_turn(("get_shift_kpis", {"shift": 2})), text_turn("all fine")])
    assert ask(conn, "show the KPIs", SHIFT2, planner=prose)[0].status == "planner_error"


def test_a_model_planner_is_held_to_scope_in_code(conn):
    from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn

    def finish(request):
        ids = [
            r.content["result_id"]
            for m in request.messages
            for r in getattr(m, "results", ())
            if not r.is_error
        ]
        return text_turn(json.dumps({"evidence": ids}))

    planner = ScriptedProvider(
        [
            tool_turn(
                ("get_shift_kpis", {"shift": 2}),
                ("get_shift_kpis", {"shift": 1}),
                ("get_day_dollars", {"shifts": None}),
            ),
            finish,
        ]
    )
    answer, _ = ask(conn, "show the KPIs", SHIFT2, planner=planner)
    assert answer.status == "partial" and len(answer.errors) == 2
    assert [e["shift"] for e in answer.evidence] == [2]


def test_history_clears_on_a_new_dataset_version():
    history = History()
    scope = Scope(day=DAY, shift=2, include="shift")
    history.for_scope(scope, "hash-a")
    history.add("show the KPIs", scope, "/a?day=2026-09-16&shift=2&measure=kpis")
    history.for_scope(scope, "hash-a")
    assert len(history.entries) == 1
    history.for_scope(scope, "hash-b")
    assert len(history.entries) == 0 and history.previous_plan() is None


def test_analyst_json_plan_checked_whole(conn):
    from shopfloor.shifts.investigation import investigate_plan_text

    good = json.dumps({"steps": [{"tool": "get_shift_kpis", "arguments": {"shift": 2}}]})
    assert investigate_plan_text("show the KPIs", SHIFT2, conn, good).status == "complete"
    outside = json.dumps(
        {
            "steps": [
                {"tool": "get_shift_kpis", "arguments": {"shift": 2}},
                {"tool": "get_shift_notes", "arguments": {"shift": 3}},
            ]
        }
    )
    answer = investigate_plan_text("show the KPIs", SHIFT2, conn, outside)
    assert answer.status == "plan_rejected" and answer.trace == [] and "shift 3" in answer.reason
    for text in (
        "not json",
        "[]",
        '{"steps": []}',
        '{"steps": [{"tool": "get_shift_kpis"}]}',
        json.dumps({"steps": [{"tool": "x", "arguments": {}}] * 11}),
    ):
        assert investigate_plan_text("show the KPIs", SHIFT2, conn, text).status == "plan_rejected", text


def test_a_diagnosis_keeps_three_to_five_findings(conn):
    for question, scope in (
        ("why was second shift slow", SHIFT2),
        ("why was this shift slow this week", SHIFT2),
    ):
        answer, _ = ask(conn, question, scope)
        findings = [s for s in answer.sections if s["type"] == "finding"]
        assert 3 <= len(findings) <= 5, question
