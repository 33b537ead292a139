"""Answer wording held from outside: a volume question leads with volume, counts read as counts, a window's
stop bucket names its leading reason only when ranked, and a repeated statement is read once per run."""

from datetime import date

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.answers import window_shapes as shapes
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.tools import context

DAY = date(2026, 9, 16)
SHIFT1 = Scope(day=DAY, shift=1, include="shift")
SHIFT2 = Scope(day=DAY, shift=2, include="shift")


def _texts(answer):
    return [s["text"] for s in answer.sections]


def test_volume_question_leads_with_lineal_footage_not_speed(conn):
    answer = investigate("how much did we make", SHIFT2, conn)
    head = answer.sections[1]["text"]
    # Shift 2 ran 84,000 + 150,000 ft (conftest SETUPS).
    assert "**234,000.0 ft**" in head and "speed" not in head
    assert "200,000 ft is a bad shift" in head
    assert any("**2** paper changes" in t for t in _texts(answer))
    assert invariants(answer.as_dict()) == []


def test_volume_by_grade_leads_with_the_grade_volume(conn):
    answer = investigate("throughput by grade", SHIFT2, conn)
    head = answer.sections[1]["text"]
    assert head.startswith("The largest volume was") and "MSF**" in head
    assert invariants(answer.as_dict()) == []


def test_setup_matrix_counts_setups_and_paper_changes(conn):
    answer = investigate("how many paper changes", SHIFT1, conn)
    texts = _texts(answer)
    # The count asked leads (docs/shifts-agent.md, rule 3): one paper change, both setups on W001.
    assert answer.sections[1]["text"].startswith("**1** paper change (wet-end runs)")
    assert any(
        t.startswith("**2** setups in the matrix") or "**2** setups" in t for t in texts
    )  # S1-00, S1-01
    assert any(t.startswith("- **0** setups over the 3.25 % trim flag") for t in texts)
    assert invariants(answer.as_dict()) == []


def test_one_stop_is_singular(conn):
    answer = investigate("show the downtime by reason", SHIFT2, conn)
    assert "over 1 stop (" in answer.sections[1]["text"] or "over 1 stop " in answer.sections[1]["text"]
    assert not any("1 stops" in t for t in _texts(answer))


def _variance_env(status):
    rows = [
        {"bucket": "grade mix", "class": "schedule-driven", "fpm": 40.0, "details": [{"grade": "26-C"}]},
        {
            "bucket": "stops",
            "class": "controllable",
            "fpm": 29.2,
            "details": [{"reason": "Knife jam", "kind": "Maintenance", "ft": 900.0}],
        },
    ]
    return {
        "query": 4,
        "shift_fpm": 551.0,
        "reference_fpm": 601.6,
        "against": "baseline",
        "coverage": {"status": status},
        "rows": rows,
    }


def test_window_stop_bucket_names_its_leading_reason_when_ranked():
    _, lines = shapes.variance(_variance_env("complete"))
    assert "- stops (controllable), led by Knife jam: **29.2 ft/min** (query 4 · row 2)" in [
        s["text"] for s in lines
    ]


def test_partial_window_stop_bucket_names_no_leading_reason():
    _, lines = shapes.variance(_variance_env("partial"))
    assert "- stops (controllable): **29.2 ft/min** (query 4 · row 2)" in [s["text"] for s in lines]
    assert not any("led by" in s["text"] for s in lines)


def test_real_window_diagnosis_cites_its_rows(conn):
    answer = investigate("why was this shift slow this week", SHIFT2, conn)
    assert answer.status == "complete" and invariants(answer.as_dict()) == []


def test_a_statement_repeated_in_one_run_is_read_once_and_listed_twice(conn, monkeypatch):
    ran: list[str] = []
    real = context.bounded_query

    def counting(c, sql, params=(), **kw):
        ran.append(" ".join(sql.split()))
        return real(c, sql, params, **kw)

    monkeypatch.setattr(context, "bounded_query", counting)
    answer = investigate("why was second shift slow", SHIFT2, conn)
    listed = [s["sql"] for e in answer.evidence for s in e["sql"]]
    downtime = [s for s in listed if s.startswith("SELECT reason AS key")]
    assert len(downtime) == 2  # the overview and the downtime breakdown each list it
    assert len([s for s in ran if s.startswith("SELECT reason AS key")]) == 1
    assert len(ran) == len(set(ran))
    # Each tool got its own rows: the breakdown's added column never leaks into the overview's component.
    overview = next(e for e in answer.evidence if e["tool"] == "get_shift_overview")
    component = next(c for c in overview["components"] if c["id"] == "downtime_by_reason")
    assert all("pct_of_scheduled" not in r for r in component["rows"])


def test_all_shift_speed_headline_names_its_shift(conn):
    answer = investigate("which shift lost the most speed", Scope(day=DAY), conn)
    head = answer.sections[1]["text"]
    assert head.startswith("Shift 1 ran at") and "(query 1 · row" in head
    assert not any(" runs runs " in s["text"] for s in answer.sections)
    assert invariants(answer.as_dict()) == []


def test_a_trend_names_its_metric_in_words(conn):
    answer = investigate("trim trend over 2 weeks", SHIFT2, conn)
    head = answer.sections[1]["text"]
    assert "for side trim (query 1 · row 2)" in head and "trim_pct" not in head
    assert invariants(answer.as_dict()) == []
