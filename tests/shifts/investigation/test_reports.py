"""Period reports on the hand-built store (numbers worked out in conftest.py's docstring and literals)."""

from datetime import date

import pytest

from shopfloor.shifts import period_report


def test_week_report_complete_with_rankings_and_deltas(conn):
    report = period_report(conn, "week", date(2026, 9, 16))
    assert report["status"] == "complete"
    tables = {t["title"]: t["data"] for t in report["tables"]}
    recurring = tables["Recurring downtime, current vs previous"]
    top = recurring[0]
    # Knife jam: 5 x (10 + 20) = 150 min now, 5 x (10 + 40) = 250 min in the week before.
    assert (top["reason"], top["minutes"], top["previous_minutes"], top["minutes_change"]) == (
        "Knife jam",
        150,
        250,
        -100,
    )
    ranks = {r["shift"]: r for r in tables["Shift rankings (1 = best)"]}
    # speed to target: shift 1 83.3 %, shift 2 75 %, shift 3 360,000 / 432,000 = 83.3 % (tie with shift 1)
    assert ranks[1]["speed_to_target_pct_rank"] == 1 and ranks[3]["speed_to_target_pct_rank"] == 1
    assert ranks[2]["speed_to_target_pct_rank"] == 2
    # maintenance: shift 3 has none (0 %) -> best; shift 2 (20 min) worst
    assert ranks[3]["maintenance_pct_rank"] == 1 and ranks[2]["maintenance_pct_rank"] == 3
    assert len(tables["Daily matrix"]) == 15 and len(tables["Reported notes (untrusted text)"]) == 5
    assert len(report["dataset_hashes"]) == 5
    heat = report["heatmap"]
    assert [c["alpha"] for c in heat] == [1.0] * 5  # every day alike
    assert "Most recorded downtime: Upper knife / Knife jam" in " ".join(report["sections"])
    assert report["kpis"]["deltas_withheld"] is False


def test_partial_window_withholds_rankings(conn):
    report = period_report(conn, "week", date(2026, 9, 21), shift=2)
    assert report["status"] == "partial"
    tables = {t["title"]: t["data"] for t in report["tables"]}
    assert tables["Shift rankings (1 = best)"] == []
    assert all(r["minutes_change"] is None for r in tables["Recurring downtime, current vs previous"])
    assert [c["hatched"] for c in report["heatmap"]] == [True] * 5
    assert "Rankings withheld" in " ".join(report["sections"])


@pytest.mark.parametrize("period", ["month", "fiscal", "year"])
def test_other_windows(conn, period):
    report = period_report(conn, period, date(2026, 9, 16))
    assert report["status"] == "partial"  # the store holds only 11 days
    assert report["coverage"]["valid_days"] == 10


def test_a_partial_window_before_is_said_not_shown_as_empty(conn):
    report = period_report(conn, "week", date(2026, 9, 9))  # the week of 2026-08-31 holds no records
    assert report["status"] == "complete" and report["previous_coverage"]["status"] != "complete"
    assert "The window before (Week of 2026-08-31 (Mon–Fri)) is incomplete" in " ".join(report["sections"])
    recurring = report["tables"][0]["data"]
    assert recurring and all(r["previous_minutes"] is None and r["minutes_change"] is None for r in recurring)


def test_complete_windows_say_no_withheld_comparison(conn):
    report = period_report(conn, "week", date(2026, 9, 16))
    assert not any("is incomplete" in s for s in report["sections"])


def test_report_text_says_every_measure_in_words(conn):
    report = period_report(conn, "week", date(2026, 9, 16))
    text = "\n".join(report["sections"])
    # Week A, per day: 954,000 ft against 108,000 + 324,000 + 120,000 + 192,000 + 432,000 = 1,176,000
    # target feet (81.12 %); 4,770,000 ft / 7,200 min = 662.5 ft/min; operator 25 / 7,200 min = 0.35 %;
    # PM 150 / 7,200 min = 2.08 %; five setups a day.
    assert "Speed to target 81.12 % of grade target speed" in text
    assert "shift speed 662.5 ft/min including stops" in text
    assert "Lineal footage 4,770,000 ft" in text and " MSF" in text
    assert "operator downtime 0.35 %" in text
    assert "Side trim" in text and "shear" in text and "dry-end waste" in text
    assert "Setups 25 valid" in text and "paper changes" in text
    # Planned maintenance is the last figure, after the unplanned downtime.
    assert report["sections"][-1].startswith("Planned maintenance 2.08 %")


def test_report_tables_are_in_words(conn):
    report = period_report(conn, "week", date(2026, 9, 9))  # the week before it holds no day
    for table in report["tables"]:
        for row in table["rows"]:
            assert not any("_" in key or key.islower() for key in row), row
            assert None not in row.values()
    recurring = report["tables"][0]["rows"]
    assert recurring[0]["Minutes, window before"] == "Unavailable"
    # Planned maintenance and the power outage sort after the unplanned reasons.
    assert [r["Kind"] for r in recurring][-2:] == ["External", "PM"]


def test_year_report_is_titled_as_a_year(conn):
    report = period_report(conn, "year", date(2026, 9, 25))
    assert report["title"] == "Year report: The 52 weeks to 2026-09-25 (Mon–Fri)"
    assert report["window"]["period"] == "year" and "Week of" not in report["window"]["label"]
