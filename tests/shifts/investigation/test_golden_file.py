"""The golden file is well formed and every recorded address is what the router gives today."""

from pathlib import Path

from shopfloor.agent.evals import load_cases
from shopfloor.shifts import Scope
from shopfloor.shifts.evals import parse_case_day
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.router import route

GOLDEN = Path(__file__).resolve().parents[3] / "evals" / "shifts.yaml"
KNOWN = {"status", "url", "tools_include", "tools_exclude", "charts_min", "text_includes", "cause"}


def test_golden_cases_route_to_their_addresses():
    cases = load_cases(GOLDEN)
    assert len(cases) >= 40
    for case in cases:
        data = case.data
        assert set(data["expect"]) <= KNOWN, case.id
        scope = Scope(
            day=parse_case_day(data["day"]),
            shift=data.get("shift"),
            include=data.get("include") or ("shift" if data.get("shift") else "day"),
            period=data.get("period", "day"),
        )
        previous = parse_address(data["after"]) if data.get("after") else None
        routed = route(data["question"], scope, previous)
        if "url" in data["expect"]:
            assert isinstance(routed, Plan), case.id
            assert routed.address() == data["expect"]["url"], case.id
            assert parse_address(routed.address()) == routed
        else:
            assert data["expect"]["status"] == "unavailable", case.id


def test_every_planted_scenario_has_a_case():
    causes = {c.data["expect"].get("cause") for c in load_cases(GOLDEN)}
    assert {
        "slow_crew",
        "upper_knife_jam",
        "humid_month_warp",
        "bad_paper_lot",
        "power_outage",
        "pm_schedule",
        "corrupt_setup",
    } <= causes
