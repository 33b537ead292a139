"""A first visit of an overview page draws its metric cards in the job that investigates the answer, the
cards' KPI statements read from the answer's own run (``work.page``). The cards are the figures a separate
investigation of the cards' address gives: both are held to values worked out by hand from the hand-built
store (tests/shifts/investigation/conftest.py), and the KPI answer the page kept is that investigation's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts.investigation import investigate_address
from shopfloor.shifts.pages.deps import json_answer
from shopfloor.shifts.records.store import open_read_only

BASE = "http://127.0.0.1:8000"
ENGLISH = {"accept": "text/html", "accept-language": "en-US"}
OVERVIEW = "/a?day=2026-09-14&shift=2&measure=overview"
KPIS = "/a?day=2026-09-14&shift=2&measure=kpis"

# Shift 2 of 2026-09-14 by hand: setups S2-00 (275-BC, 500 ft/min target, 92 in, 4 h, 84,000 ft, trim
# 25,760 sq ft, 2,000 sq ft of bond rejects) and S2-01 (200-C, 800 ft/min, 87 in, 4 h, 150,000 ft, trim
# 21,750 sq ft), 17 ft of shear each, runs W002 and W003, a 20-minute maintenance knife jam, 480 scheduled
# minutes. Gross area 84,000 x 92 / 12 + 150,000 x 87 / 12 = 1,731,500 sq ft.
GROSS = 84_000 * 92 / 12 + 150_000 * 87 / 12
BY_HAND: dict[str, float] = {
    "shift_fpm": 234_000 / 480,  # 487.5
    "speed_to_target_pct": 100 * 234_000 / (500 * 240 + 800 * 240),  # 75.0
    "valid_setups": 2,
    "paper_changes": 2,
    "maintenance_pct": 100 * 20 / 480,  # 4.17, over the 2.5 % band
    "operator_pct": 0.0,
    "dry_end_pct": 100 * 2_000 / GROSS,  # 0.12
    "trim_pct": 100 * (25_760 + 21_750) / GROSS,  # 2.74
    "shear_pct": 100 * (17 * 92 / 12 + 17 * 87 / 12) / GROSS,  # 0.01
    "throughput_in": 12 * GROSS / 234_000,  # 88.8
    "lineal_per_setup": 234_000 / 2,
}
# As the cards write them.
SHOWN = {
    "shift_fpm": "487.5 ft/min",
    "speed_to_target_pct": "75.00 %",
    "valid_setups": "2 setups",
    "paper_changes": "2 runs",
    "maintenance_pct": "4.17 %",
    "operator_pct": "0.00 %",
    "dry_end_pct": "0.12 %",
    "trim_pct": "2.74 %",
    "shear_pct": "0.01 %",
    "throughput_in": "88.8 in",
    "lineal_per_setup": "117,000.0 ft",
}
FLAGGED = {"speed_to_target_pct", "maintenance_pct"}
CARD = re.compile(
    r'<li class="card( flagged)?[^"]*" data-measure="(\w+)">\s*<span class="card-label">[^<]*</span>\s*'
    r'<span class="card-value">([^<]*)</span>'
)


@pytest.fixture
def fresh(store_path: Path, tmp_path: Path) -> Iterator[TestClient]:
    """An app of its own: nothing is kept yet, so the page's visit is a first visit of both addresses."""
    app = create_app(Settings(shifts_db=store_path, var_dir=tmp_path))
    with TestClient(app, raise_server_exceptions=False, base_url=BASE) as c:
        yield c


def _separate(store_path: Path, address: str) -> dict[str, Any]:
    conn = open_read_only(store_path)
    try:
        return investigate_address(address, conn).as_dict()
    finally:
        conn.close()


def _without_run(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what differs between two runs of one address: its result ids and its times."""
    text = repr({k: v for k, v in answer.items() if k != "usage"})
    text = re.sub(r"'duration_ms': \d+", "'duration_ms': 0", re.sub(r"r\d+-[0-9a-f]{6}", "r-id", text))
    return {"answer": text, "tool_calls": answer["usage"]["tool_calls"]}


def test_a_first_visits_cards_are_a_separate_investigations_figures(fresh, store_path):
    response = fresh.get("/shifts" + OVERVIEW, headers=ENGLISH)
    assert response.status_code == 200
    cards = {m.group(2): (m.group(3), bool(m.group(1))) for m in CARD.finditer(response.text)}
    assert {measure: text for measure, (text, _) in cards.items()} == SHOWN
    assert {measure for measure, (_, flagged) in cards.items() if flagged} == FLAGGED

    # A separate investigation of the cards' address, over its own connection: the same figures.
    separate = _separate(store_path, KPIS)
    (kpis,) = [e for e in separate["evidence"] if e["tool"] == "get_shift_kpis"]
    values = {row["measure"]: row["value"] for row in kpis["rows"]}
    assert {measure: values[measure] for measure in BY_HAND} == pytest.approx(BY_HAND, abs=1e-4)

    # The KPI answer the page kept for the cards' address is that investigation's answer, its trace listing
    # every statement (the two read from the overview's run among them).
    kept = fresh.get("/shifts" + KPIS + "&format=json").json()
    assert _without_run(kept) == _without_run(separate)
    (kept_kpis,) = [e for e in kept["evidence"] if e["tool"] == "get_shift_kpis"]
    assert [s["sql"].split()[0] for s in kept_kpis["sql"]] == ["SELECT", "WITH"]  # the coverage, the sums


def test_the_overview_is_the_same_answer_drawn_first_or_asked_alone(fresh, store_path):
    """The overview's answer kept by the page's first visit is the one its own investigation gives."""
    assert fresh.get("/shifts" + OVERVIEW, headers=ENGLISH).status_code == 200
    kept = fresh.get("/shifts" + OVERVIEW + "&format=json").json()
    assert _without_run(kept) == _without_run(_separate(store_path, OVERVIEW))


def test_an_answer_is_sent_as_the_same_json_without_the_encoders_walk(store_path):
    """``json_answer`` sends an answer as it is (plain JSON data): the same bytes as through
    ``jsonable_encoder``; data that is not plain JSON (a date) still goes through it."""
    answer = _separate(store_path, OVERVIEW)
    assert json_answer(answer).body == JSONResponse(jsonable_encoder(answer)).body
    dated = {"day": date(2026, 9, 14), "rows": [(1, 2.5)]}
    assert json_answer(dated).body == b'{"day":"2026-09-14","rows":[[1,2.5]]}'
