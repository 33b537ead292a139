"""The first screen says which days the records hold, and a day without records (a weekend, a day outside
the records or missing from them) is said in words with the nearest production day as a link, never as a
tool's error (issue 26, point 8; docs/shifts-agent.md, "The page")."""

from __future__ import annotations

from datetime import date

import pytest

from shopfloor.shifts.pages.i18n import Words
from shopfloor.shifts.pages.scope_view import day_notice, nearest_day
from shopfloor.shifts.plant.scope import Scope

BASE = "http://127.0.0.1:8000"
ENGLISH = {"accept": "text/html", "accept-language": "en-US"}
SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
# A week with a missing Wednesday, and the Monday after.
HELD = ["2026-09-14", "2026-09-15", "2026-09-17", "2026-09-18", "2026-09-21"]
DAYS = {"first": HELD[0], "last": HELD[-1], "count": len(HELD), "weekdays_only": True, "held": HELD}


@pytest.fixture(scope="module")
def client(page_client):
    return page_client


def test_the_nearest_production_day_is_the_earlier_of_two_as_near():
    assert nearest_day(date(2026, 9, 19), HELD) == date(2026, 9, 18)  # Saturday: Friday, a day before
    assert nearest_day(date(2026, 9, 20), HELD) == date(2026, 9, 21)  # Sunday: Monday, a day after
    assert nearest_day(date(2026, 9, 16), HELD) == date(2026, 9, 15)  # Tuesday and Thursday as near
    assert nearest_day(date(2026, 1, 5), HELD) == date(2026, 9, 14)
    assert nearest_day(date(2026, 9, 16), []) is None


def test_each_day_without_records_is_said_in_words_with_a_link():
    weekend = day_notice(Scope(date(2026, 9, 19), 2, "shift", "day"), DAYS, "/shifts")
    assert weekend == {
        "text": "Sat 2026-09-19 is not a production day: the plant runs Monday to Friday.",
        "lead": "The nearest production day in the records:",
        "link": "Fri 2026-09-18",
        "href": "/shifts/?day=2026-09-18&period=day&include=shift&shift=2",
    }
    missing = day_notice(Scope(date(2026, 9, 16), None, "day", "day"), DAYS)
    assert (
        missing is not None
        and missing["text"] == "The records hold no Wed 2026-09-16: that production day is missing."
    )
    outside = day_notice(Scope(date(2026, 8, 3), 1, "shift", "day"), DAYS, "", Words("es"))
    assert outside is not None
    assert (
        outside["text"]
        == "Los registros no tienen el lun 2026-08-03: van del lun 2026-09-14 al lun 2026-09-21."
    )
    assert outside["link"] == "lun 2026-09-14"
    # A day the records hold, or a window period, says nothing.
    assert day_notice(Scope(date(2026, 9, 15), 2, "shift", "day"), DAYS) is None
    assert day_notice(Scope(date(2026, 9, 19), 2, "shift", "week"), DAYS) is None


def test_the_first_screen_says_which_days_the_records_hold(client):
    page = client.get("/shifts/", headers=ENGLISH).text
    assert (
        '<p class="records" id="records">Records: Mon 2026-09-07 – Mon 2026-09-21, 11 production days, Mon–Fri</p>'
        in page
    )
    spanish = client.get("/shifts/", headers=SPANISH).text
    assert "Registros: lun 2026-09-07 – lun 2026-09-21, 11 días de producción, lun–vie" in spanish


@pytest.mark.parametrize(
    ("path", "said", "nearest"),
    [
        ("/shifts/?day=2026-09-12&shift=2", "Sat 2026-09-12 is not a production day", "2026-09-11"),
        (
            "/shifts/a?day=2026-08-03&shift=2&measure=overview",
            "The records hold no Mon 2026-08-03: they run from Mon 2026-09-07 to Mon 2026-09-21.",
            "2026-09-07",
        ),
        ("/shifts/a?day=2026-09-13&measure=kpis", "Sun 2026-09-13 is not a production day", "2026-09-14"),
    ],
)
def test_a_day_without_records_answers_in_words_never_with_a_tools_error(client, path, said, nearest):
    r = client.get(path, headers=ENGLISH)
    assert r.status_code == 200
    main = r.text[r.text.index('<main id="main"') :]
    notice = main[
        main.index('<p class="day-notice"') : main.index("</p>", main.index('<p class="day-notice"'))
    ]
    assert said in notice and f"day={nearest}" in notice
    answer = main.split('<section class="trace"')[0]
    assert "No records for shift" not in answer and "get_shift" not in answer
    link = notice.split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert client.get(link, headers=ENGLISH).status_code == 200
