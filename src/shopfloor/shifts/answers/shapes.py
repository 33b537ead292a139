"""Answer shapes (docs/shifts-agent.md, "Flow", step 7): sections built from the rows the answer already has.

No number is computed here: rows are chosen (the largest reason, the slowest run) and counted. Sections are
plain text with two markers: a **figure** in bold and its evidence ``(query N · row M)`` — step N of the
trace's tool calls and row M of that result (no row: a figure the envelope carries). Shapes:

- headline: the first line with a figure, not a bullet;
- findings: ``- `` bullets with exactly one bold figure each, its citation at the end;
- labels: short lines without digits or final punctuation that introduce bullets;
- where: two or three "Where to look" bullets naming a place in the records and ending with a question the
  offline router answers in the same scope (``→ “…”``);
- text / caveat: plain sentences (window and coverage, notes, rates).

An incomplete window is listed, never ranked: no "slowest", "largest" or "most", rows in the tool's order,
and one line saying rankings are withheld. A shape depends on the plan and scope, never the wording.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from shopfloor.shifts.planning.measures import MEASURES
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.plant.money import COST_NOTE, FORMULAS, RATES

Section = dict[str, str]
# A tool's answer builder: its result's headline (or None) and its findings.
Shaper = Callable[[dict[str, Any]], tuple[Section | None, list[Section]]]


class ToolAnswer(Protocol):
    """What the sections need to know of a tool (its catalog entry, docs/shifts-agent.md "Tools")."""

    @property
    def shape(self) -> Shaper | None: ...

    @property
    def shift_labelled(self) -> bool: ...


WITHHELD = "Rankings are withheld: the evidence is incomplete, so rows are listed in the tool's order."


def fmt(value: Any, unit: str) -> str:
    """A figure with its unit, at a fixed precision per unit."""
    if value is None:
        return "Unavailable"
    if unit == "$":
        return f"${value:,.2f}"
    if unit == "%":
        return f"{value:,.2f} %"
    if unit in ("ft", "sq ft", "MSF"):
        return f"{value:,.1f} {unit}"
    if unit in ("ft/min", "min", "in"):
        return f"{value:,.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f} {unit}".strip()
    return f"{value:,.0f} {unit}".strip()


def cite(query: int, row: int | None) -> str:
    """The evidence marker of a figure."""
    return f"(query {query} · row {row + 1})" if row is not None else f"(query {query})"


def finding(text: str, value: Any, unit: str, query: int, row: int | None) -> Section:
    """A bullet with exactly one bold figure and its citation; ``text`` holds ``{}`` for the figure."""
    return {"type": "finding", "text": f"- {text.format(f'**{fmt(value, unit)}**')} {cite(query, row)}"}


def _count(n: Any, noun: str) -> str:
    """A count with its noun, singular for one ("1 stop", "4 stops")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _money(row: dict[str, Any]) -> str:
    """A priced row's dollars and per-year figure, said beside its quantity."""
    if row.get("usd") is None:
        return "not priced"
    per = row.get("usd_per_year")
    return f"${row['usd']:,.2f}" + (f" (${per:,.2f} a year)" if per is not None else "")


def _ranked(env: dict[str, Any]) -> bool:
    cov = env.get("coverage") or {}
    if env.get("ranked") is False:
        return False
    return cov.get("status") == "complete"


def _kpi(env: dict[str, Any], measure: str) -> tuple[int, dict[str, Any]] | None:
    for index, row in enumerate(env["rows"]):
        if row.get("measure") == measure:
            return index, row
    return None


# --- per tool: the headline (optional) and findings ------------------------------------------------------


def shift_kpis(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a shift kpis result: its headline, if any, and its findings."""
    q = env["query"]
    head = None
    found = _kpi(env, "speed_to_target_pct")
    if found:
        i, row = found
        head = {
            "type": "headline",
            "text": f"Shift {env['shift']} ran at **{fmt(row['value'], '%')}** of grade target speed against "
            f"100 % {cite(q, i)}.",
        }
    out = []
    cov = env.get("coverage") or {}
    if cov.get("crew"):
        out.append(
            {"type": "text", "text": f"Crew {cov['crew']}, supervisor slot {cov.get('supervisor_slot')}."}
        )
    for measure, label in (
        ("shift_fpm", "Shift speed {} including stops"),
        ("lineal_ft", "Lineal footage {}"),
        ("maintenance_pct", "Maintenance downtime {} of scheduled minutes, band 2.5 %"),
        ("operator_pct", "Operator downtime {} of scheduled minutes, band 2.5 %"),
        ("trim_pct", "Side trim {} of gross"),
        ("dry_end_pct", "Dry-end waste {} of gross, flag above 1 %"),
    ):
        found = _kpi(env, measure)
        if found:
            i, row = found
            out.append(finding(label, row["value"], row["unit"], q, i))
    return head, out


def downtime(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a downtime result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = _ranked(env)
    head = None
    out: list[Section] = []
    controllable = [(i, r) for i, r in enumerate(rows) if r["class"] == "controllable"]
    if controllable:
        i, top = controllable[0]
        lead = "The largest downtime" if ranked else "Downtime"
        head = {
            "type": "headline",
            "text": f"{lead} was {top['key']} at **{fmt(top['minutes'], 'min')}** over {_count(top['stops'], 'stop')} "
            f"{cite(q, i)}.",
        }
        out.append({"type": "label", "text": "Most downtime" if ranked else "Recorded downtime"})
    for i, row in controllable[:3]:
        out.append(
            finding(
                f"{row['key']}: {{}} over {_count(row['stops'], 'stop')}, {_money(row)}",
                row["minutes"],
                "min",
                q,
                i,
            )
        )
    for i, row in enumerate(rows):
        if row["class"] != "controllable":
            out.append(
                finding(f"{row['key']} ({row['class']}, carried apart): {{}}", row["minutes"], "min", q, i)
            )
    for j, flag in enumerate(env.get("flags") or []):
        out.append(
            {
                "type": "finding",
                "text": f"- {flag['kind']} downtime at **{fmt(flag['pct_of_scheduled'], '%')}** is over its "
                f"band; supervisor slot {flag['supervisor_slot']}, leading reason {flag['leading_reason']} "
                f"(query {q} · flag {j + 1})",
            }
        )
    return head, out


def wet_end(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a wet end result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    out: list[Section] = []
    if not rows:
        return None, out
    if _ranked(env):
        i, slow = min(
            enumerate(rows), key=lambda p: (p[1]["pct_of_target"] is None, p[1]["pct_of_target"] or 0)
        )
        out.append(
            finding(
                f"Slowest run {slow['run_id']} ({slow['grade']}) at {{}} of its grade target",
                slow["pct_of_target"],
                "%",
                q,
                i,
            )
        )
    else:
        for i, row in enumerate(rows[:3]):
            out.append(
                finding(
                    f"Run {row['run_id']} ({row['grade']}) at {{}} of target", row["pct_of_target"], "%", q, i
                )
            )
    out.append(
        finding(
            "{} runs ran under their grade's trailing-year baseline",
            env["runs_under_baseline"],
            "",
            q,
            None,
        )
    )
    return None, out


def quality(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a quality result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = []
    rows = env["rows"]
    if not rows:
        return None, [{"type": "text", "text": "No dry-end rejects were recorded for this shift."}]
    i, top = 0, rows[0]
    head = {
        "type": "headline",
        "text": f"Rejected area was led by {top['family']} ({top['reason'] or 'not reported'}) at "
        f"**{fmt(top['sqft'], 'sq ft')}** {cite(q, i)}.",
    }
    for i, row in enumerate(rows[:4]):
        out.append(
            finding(
                f"{row['family']} / {row['reason'] or 'not reported'}: {{}} of gross",
                row["pct_of_gross"],
                "%",
                q,
                i,
            )
        )
    out.append({"type": "caveat", "text": "A reported reason is an attribution, not proof of cause."})
    return head, out


def _shift_volume(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """A volume question's shift KPIs: the lineal footage leads, held against the owner's context for a shift
    (about 200,000 ft is a bad shift, 275,000–300,000 ft a good one); speed follows as one finding."""
    q = env["query"]
    head = None
    found = _kpi(env, "lineal_ft")
    if found:
        i, row = found
        head = {
            "type": "headline",
            "text": f"Shift {env['shift']} ran **{fmt(row['value'], 'ft')}** lineal {cite(q, i)}; about 200,000 "
            "ft is a bad shift and 275,000–300,000 ft a good one.",
        }
    out: list[Section] = []
    for measure, label in (
        ("gross_sqft", "Gross area {}"),
        ("estimated_good_sqft", "Estimated good area {} after trim, shear and rejects"),
        ("valid_setups", "{} setups"),
        ("paper_changes", "{} paper changes (wet-end runs)"),
        ("speed_to_target_pct", "Speed to target {} of grade target"),
    ):
        found = _kpi(env, measure)
        if found:
            i, row = found
            unit = row["unit"] if row["unit"] in ("sq ft", "%") else ""
            out.append(finding(label, row["value"], unit, q, i))
    return head, out


def overview(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an overview result: its headline, if any, and its findings."""
    return shift_kpis(env)


def notes(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a notes result: its headline, if any, and its findings."""
    out: list[Section] = [{"type": "label", "text": "Reported notes"}]
    for row in env["rows"]:
        # Untrusted text: quoted as data, with the markers that shapes use removed.
        text = str(row["text"]).replace("**", "").replace("(query", "(q")
        out.append({"type": "text", "text": f"Reported note: “{text}”"})
    n = len(env["rows"])
    out.append(
        finding(f"{{}} {'note' if n == 1 else 'notes'} recorded for the shift", n, "", env["query"], None)
    )
    stop_notes = env.get("stop_notes") or []
    if stop_notes:
        out.append({"type": "label", "text": "Stop notes"})
        for row in stop_notes:
            text = _quoted(row["text"])
            stops = _quoted(row["on_stops"])
            out.append(
                {"type": "text", "text": f"Stop note on {_count(row['stops'], 'stop')} ({stops}): “{text}”"}
            )
        count = env.get("stop_notes_count", 0)
        out.append(
            finding(
                f"{{}} {'stop carries' if count == 1 else 'stops carry'} a note",
                count,
                "",
                env["query"],
                None,
            )
        )
    return None, out


def _quoted(value: Any) -> str:
    """Untrusted record text, with the markers that shapes use removed."""
    return str(value).replace("**", "").replace("(query", "(q")


def count_rows(label: str) -> Shaper:
    """An answer builder that counts a result's rows under ``label`` (the order and setup matrices)."""

    def shape(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
        n = len(env["rows"])
        out = [finding(label, n, "", env["query"], None)]
        cut = "The list was cut at the 1,000-row limit." if env.get("truncated") else "Every row is listed."
        out.append({"type": "text", "text": cut})
        changes = env.get("paper_changes")
        if changes is not None:
            noun = "paper change" if changes == 1 else "paper changes"
            out.append(finding(f"{{}} {noun} (wet-end runs)", changes, "", env["query"], None))
        if env.get("setups_above_trim_flag") is not None:
            out.append(
                finding(
                    "{} setups over the 3.25 % trim flag",
                    env["setups_above_trim_flag"],
                    "",
                    env["query"],
                    None,
                )
            )
        return None, out

    return shape


RANK_LABELS = {
    "speed": "Setups by speed to target, worst first (lowest is worst)",
    "downtime": "Setups by allocated downtime, worst first (most minutes is worst)",
    "quality": "Setups by rejected area, worst first (most area is worst)",
}


def rankings(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a rankings result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = []
    key = {
        "speed": ("pct_of_target", "%"),
        "downtime": ("stop_min", "min"),
        "quality": ("reject_sqft", "sq ft"),
    }[env["metric"]]
    if not env.get("ranked"):
        out.append({"type": "text", "text": WITHHELD})
    elif _ranked(env):
        out.append({"type": "label", "text": RANK_LABELS[env["metric"]]})
    for i, row in enumerate(env["rows"][:5]):
        prefix = f"#{row['rank']} " if "rank" in row else ""
        out.append(
            finding(f"{prefix}setup {row['record_id']} ({row['grade']}): {{}}", row[key[0]], key[1], q, i)
        )
    return None, out


def period_kpis(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a period kpis result: its headline, if any, and its findings."""
    q = env["query"]
    head = None
    out: list[Section] = []
    found = _kpi(env, "speed_to_target_pct")
    if found:
        i, row = found
        # A withheld comparison is not said at all: no "against X % the window before" (docs/METRICS.md).
        withheld = env.get("deltas_withheld") or row["previous"] is None
        against = "" if withheld else f" against {fmt(row['previous'], '%')} the window before"
        head = {
            "type": "headline",
            "text": f"Speed to target was **{fmt(row['current'], '%')}**{against} {cite(q, i)}.",
        }
    for measure, label in (
        ("shift_fpm", "Shift speed {} including stops"),
        ("lineal_ft", "Lineal footage {}"),
        ("maintenance_pct", "Maintenance downtime {} of scheduled minutes"),
        ("operator_pct", "Operator downtime {} of scheduled minutes"),
        ("dry_end_pct", "Dry-end waste {} of gross"),
    ):
        found = _kpi(env, measure)
        if found:
            i, row = found
            change = f", {row['change']} than before" if row.get("change") in ("better", "worse") else ""
            out.append(finding(label + change, row["current"], row["unit"], q, i))
    if env.get("deltas_withheld"):
        out.append({"type": "text", "text": "Deltas are withheld: both windows must be complete."})
    if env.get("crews"):
        names = ", ".join(str(c["crew"]) for c in env["crews"])
        out.append({"type": "text", "text": f"Crews on duty in this window: {names}."})
    return head, out


def pareto(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a pareto result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = _ranked(env)
    measure = "stops" if env.get("measure") == "count" else "minutes"
    unit = "stops" if measure == "stops" else "min"
    head = None
    out: list[Section] = []
    controllable = [(i, r) for i, r in enumerate(rows) if r["class"] == "controllable"]
    if controllable:
        i, top = controllable[0]
        lead = (
            f"The top {env.get('group_by', 'reason')}"
            if ranked
            else f"The first {env.get('group_by', 'reason')} listed"
        )
        head = {
            "type": "headline",
            "text": f"{lead} was {top['key']} at **{fmt(top[measure], unit)}** {cite(q, i)}.",
        }
        out.append({"type": "label", "text": "Most downtime" if ranked else "Recorded downtime"})
    for i, row in controllable[:4]:
        out.append(
            finding(
                f"{row['key']}: {{}}, {_count(row['stops'], 'stop')}, {_money(row)}",
                row[measure] if measure == "minutes" else row["minutes"],
                "min",
                q,
                i,
            )
        )
    for i, row in enumerate(rows):
        if row["class"] != "controllable":
            out.append(
                finding(f"{row['key']} ({row['class']}, carried apart): {{}}", row["minutes"], "min", q, i)
            )
    if not ranked:
        out.append({"type": "text", "text": WITHHELD})
    return head, out


def waste(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a waste result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    head = None
    out: list[Section] = []
    for i, row in enumerate(rows):
        if row["item"] == "trim":
            # The grade or web width the waste was read for is said in the headline.
            of = f" of grade {row['grade']}" if row.get("grade") else ""
            if row.get("width_in") is not None:
                of += f" on the {row['width_in']:.0f} in web"
            head = {
                "type": "headline",
                "text": f"Side trim{of} was **{fmt(row['pct_of_gross'], '%')}** of gross {cite(q, i)}.",
            }
    for i, row in enumerate(rows):
        if row["item"] in ("shear", "dry-end total") or (
            row["group"] == "dry-end" and (row["sqft"] or 0) > 0
        ):
            if row["item"] == "dry-end total":
                continue
            out.append(
                finding(f"{row['item']}: {{}} of gross, ${row['usd']:,.2f}", row["pct_of_gross"], "%", q, i)
            )
    for i, row in enumerate(rows):
        if row["item"] == "dry-end total":
            out.append(
                finding("Dry-end total {} of the yield after trim and shear", row["pct_of_yield"], "%", q, i)
            )
    if env.get("details"):
        out.append({"type": "label", "text": "Reported sub-reasons"})
        for j, d in enumerate(env["details"][:3]):
            out.append(
                {
                    "type": "finding",
                    "text": f"- {d['family']} / {d['reason']}: **{fmt(d['sqft'], 'sq ft')}** (query {q} · detail {j + 1})",
                }
            )
    return head, out


def stops(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a stops result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = [{"type": "label", "text": "Weekday profile"}]
    for j, day in enumerate(env["weekday_profile"]):
        out.append(
            {
                "type": "finding",
                "text": f"- {day['weekday']}: **{fmt(day['stops_per_day'], 'stops')}** per day (query {q} · weekday {j + 1})",
            }
        )
    return None, out


# The trend metrics as a supervisor says them (the tool's identifiers stay in the evidence).
TREND_NAMES = {
    "speed": "speed with stops",
    "speed_to_target": "speed to target",
    "lineal_ft": "lineal footage",
    "downtime_pct": "downtime",
    "maintenance_pct": "maintenance downtime",
    "operator_pct": "operator downtime",
    "trim_pct": "side trim",
    "dry_end_pct": "dry-end waste",
}


def trend(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a trend result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    unit = (
        "%"
        if env["metric"] != "speed" and env["metric"] != "lineal_ft"
        else ("ft/min" if env["metric"] == "speed" else "ft")
    )
    head = None
    out: list[Section] = []
    of = env.get("of") or {}
    # The series of the thing named: "downtime of reason Knife jam", "speed to target of grade 275-BC".
    what = TREND_NAMES.get(env["metric"], env["metric"]) + "".join(f" of {k} {v}" for k, v in of.items())
    stops = "stops" in (rows[0] if rows else {})
    if rows:
        i = len(rows) - 1
        head = {
            "type": "headline",
            "text": f"The week of {rows[i]['week_start']} read **{fmt(rows[i]['value'], unit)}** for "
            f"{what} {cite(q, i)}.",
        }
        for i, row in enumerate(rows[-5:], start=max(0, len(rows) - 5)):
            extra = ""
            if stops and row.get("stops") is not None:
                extra = f" ({_count(row['stops'], 'stop')}, {fmt(row['stop_min'], 'min')})"
            out.append(
                finding(
                    f"Week of {row['week_start']} ({row['coverage']}): {{}}{extra}", row["value"], unit, q, i
                )
            )
    return head, out


def grades(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a grades result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = _ranked(env)
    head = None
    out: list[Section] = []
    if not rows:
        return None, out
    if env.get("measure") == "speed":
        order = (
            sorted(range(len(rows)), key=lambda i: rows[i]["pct_of_target"] or 0)
            if ranked
            else list(range(len(rows)))
        )
        i = order[0]
        lead = "The slowest grade" if ranked else "Grade"
        head = {
            "type": "headline",
            "text": f"{lead} {rows[i]['grade']} ran at **{fmt(rows[i]['pct_of_target'], '%')}** of its "
            f"{rows[i]['target_fpm']:,.0f} ft/min target {cite(q, i)}.",
        }
        for i in order[:3]:
            out.append(
                finding(
                    f"{rows[i]['grade']}: {{}} of its {rows[i]['target_fpm']:,.0f} ft/min target, running "
                    f"{rows[i]['running_fpm'] or 0:,.0f} ft/min without stops",
                    rows[i]["pct_of_target"],
                    "%",
                    q,
                    i,
                )
            )
    else:
        i = 0
        head = {
            "type": "headline",
            "text": f"{'The largest volume' if ranked else 'Volume'} was {rows[0]['grade']} at "
            f"**{fmt(rows[0]['volume_msf'], 'MSF')}** {cite(q, 0)}.",
        }
        for i, row in enumerate(rows[:4]):
            out.append(finding(f"{row['grade']}: {{}}", row["volume_msf"], "MSF", q, i))
    if not ranked:
        out.append({"type": "text", "text": WITHHELD})
    return head, out


def dollars(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a dollars result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    scope = f"shift {env['shift']}" if env.get("shift") else "the day"
    head = {
        "type": "headline",
        "text": f"Recorded losses on {scope} came to **{fmt(env.get('recorded_losses_usd'), '$')}** "
        f"(query {q}), {fmt(env.get('recorded_losses_per_year_usd'), '$')} a year at this rate.",
    }
    out: list[Section] = [{"type": "label", "text": "Where the money went"}]
    for i, row in enumerate(rows):
        if row["rank"] is not None and row["rank"] <= 5:
            out.append(
                finding(f"{row['item']}: {{}} ({fmt(row['quantity'], row['unit'])})", row["usd"], "$", q, i)
            )
    for i, row in enumerate(rows):
        if row["rank"] is None:
            out.append(finding(f"{row['item']} ({row['class']}, carried apart): {{}}", row["usd"], "$", q, i))
    if env.get("excluded_shifts"):
        out.append(
            {"type": "text", "text": f"Shifts with excluded records are not added: {env['excluded_shifts']}."}
        )
    out.append({"type": "caveat", "text": RATES.line()})
    out.append({"type": "caveat", "text": COST_NOTE})
    out.append({"type": "caveat", "text": f"Contribution: {env.get('contribution_status')}."})
    out.append({"type": "caveat", "text": f"Machine time is priced as {FORMULAS['downtime']}."})
    return head, out


def overrun(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an overrun result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    if not rows:
        return None, []
    last = len(rows) - 1
    head = {
        "type": "headline",
        "text": f"Across all knives, cuts ran at **{fmt(rows[last]['pct_of_nominal'], '%')}** of nominal against "
        f"the ±2 % band {cite(q, last)}.",
    }
    out = [
        finding(
            f"{r['knife'] if r['knife'] == 'all knives' else r['knife'] + ' knife'}: {{}} closed, "
            f"{r['inside']} inside the band",
            r["closed_lines"],
            "lines",
            q,
            i,
        )
        for i, r in enumerate(rows)
    ]
    return head, out


def rollstock(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a rollstock result: its headline, if any, and its findings."""
    q = env["query"]
    out = [
        finding(
            f"{r['grade']} at {r['width_in']:.0f} in: {{}} over {r['runs']} runs", r["lineal_ft"], "ft", q, i
        )
        for i, r in enumerate(env["rows"][:5])
    ]
    if not _ranked(env):
        out.append({"type": "text", "text": WITHHELD})
    out.append(
        {
            "type": "caveat",
            "text": "MSF is the paper footprint; the records carry no basis weight, so no tons.",
        }
    )
    return None, out


def review(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a review result: its headline, if any, and its findings."""
    q = env["query"]
    head = {
        "type": "headline",
        "text": f"Maintenance downtime was **{fmt(env['maintenance_pct'], '%')}** of scheduled minutes against "
        f"its 2.5 % band (query {q}).",
    }
    out: list[Section] = [
        finding(
            "Operator downtime {} of scheduled minutes against its 2.5 % band",
            env["operator_pct"],
            "%",
            q,
            None,
        )
    ]
    for i, r in enumerate(env["rows"][:4]):
        out.append(
            finding(
                f"{r['kind']} / {r['reason']} ({r['class']}): {{}} of scheduled minutes",
                r["pct_of_scheduled"],
                "%",
                q,
                i,
            )
        )
    for j, flag in enumerate(env.get("flags") or []):
        out.append(
            {
                "type": "finding",
                "text": f"- Shift {flag['shift']} {flag['kind'].lower()} downtime **{fmt(flag['pct_of_scheduled'], '%')}** "
                f"over its band; supervisor slot {flag['supervisor_slot']}, leading reason {flag['leading_reason']} "
                f"(query {q} · flag {j + 1})",
            }
        )
    return head, out


def speed_opportunity(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a speed opportunity result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = _ranked(env)
    order = (
        sorted(range(len(rows)), key=lambda i: -(rows[i]["opportunity_hours"] or 0))
        if ranked
        else list(range(len(rows)))
    )
    out = [
        finding(
            f"{rows[i]['grade']} / {rows[i]['slice']}: typical {rows[i]['typical_fpm']:,.0f} ft/min, {{}} of "
            f"opportunity, {_money(rows[i])}",
            rows[i]["opportunity_hours"],
            "h",
            q,
            i,
        )
        for i in order[:4]
    ]
    if not ranked:
        out.append({"type": "text", "text": WITHHELD})
    out.append({"type": "caveat", "text": str(env.get("note"))})
    return None, out


def variance(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a variance result: its headline, if any, and its findings."""
    q = env["query"]
    head = {
        "type": "headline",
        "text": f"Speed with stops was **{fmt(env['shift_fpm'], 'ft/min')}** against a reference of "
        f"{env['reference_fpm']:,.1f} ft/min ({env['against']}) (query {q}).",
    }
    out: list[Section] = [{"type": "label", "text": "Where the speed went"}]
    ranked = _ranked(env)
    order = list(range(len(env["rows"])))
    if ranked:
        order.sort(key=lambda i: -abs(env["rows"][i]["fpm"]))
    for i in order:
        r = env["rows"][i]
        if abs(r["fpm"]) >= 0.05:
            # A stop bucket names its leading reason (the tool lists them by minutes), so "why slow" over a
            # window says which stop it was; an unranked window lists, never leads.
            reasons = [d for d in r.get("details") or [] if d.get("reason")]
            led = f", led by {reasons[0]['reason']}" if ranked and reasons else ""
            out.append(finding(f"{r['bucket']} ({r['class']}){led}: {{}}", r["fpm"], "ft/min", q, i))
    return head, out


def opportunities(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an opportunities result: its headline, if any, and its findings."""
    q = env["query"]
    head = {
        "type": "headline",
        "text": f"The controllable levers come to **{fmt(env['levers_usd_per_year'], '$')}** a year (query {q}).",
    }
    out: list[Section] = [{"type": "label", "text": "Levers"}]
    for i, r in enumerate(env["rows"][:6]):
        tag = "" if r["class"] == "controllable" else f" ({r['class']}, carried apart)"
        out.append(
            finding(
                f"{r['item']}{tag}: {{}} a year from {r['records']} {r['record_unit']}",
                r["usd_per_year"],
                "$",
                q,
                i,
            )
        )
    if not _ranked(env):
        out.append({"type": "text", "text": WITHHELD})
    out.append({"type": "caveat", "text": RATES.line()})
    out.append({"type": "caveat", "text": COST_NOTE})
    out.append({"type": "caveat", "text": f"Contribution: {env.get('contribution_status')}."})
    return head, out


def build_sections(
    plan: Plan,
    evidence: list[dict[str, Any]],
    charts: list[dict[str, Any]],
    status: str,
    caveats: list[str],
    tools: Mapping[str, ToolAnswer],
    where: list[tuple[str, str, str]],
) -> list[Section]:
    """The answer's sections from the plan and its numbered evidence; ``tools`` is the tool catalog and
    ``where`` the places to look next with their addresses (``planning/where.py``)."""
    heads: list[Section] = []
    heads_for: list[Section] = []
    evidence_with_head: list[dict[str, Any]] = []
    owner: dict[int, str] = {}  # which tool each line came from
    body: list[Section] = []
    per_result: list[list[Section]] = []
    for env in evidence:
        entry = tools.get(env["tool"])
        shaper = entry.shape if entry is not None else None
        if plan.measure == "volume" and env["tool"] == "get_shift_kpis":
            shaper = _shift_volume  # a volume question leads with what was made, never with speed (#74)
        if shaper is None:
            continue
        head, lines = shaper(env)
        if head is not None:
            heads.append(head)
            heads_for.append(head)
            evidence_with_head.append(env)
        if plan.shift is None and env.get("shift") and entry is not None and entry.shift_labelled:
            body.append({"type": "label", "text": f"Shift {_word(env['shift'])}"})
        body.extend(lines)
        per_result.append(lines)
        owner.update({id(line): env["tool"] for line in lines})
    if plan.measure == "overview" and plan.shift is not None:
        body = _diagnosis(per_result)
    sections: list[Section] = []
    # The measure's own headline leads when its tool answered (the day's dollars, volume by grade).
    # Headline = the measure asked: a named entity's own finding, else the measure's leading tool (its
    # headline, or its first finding), else the first headline (docs/shifts-agent.md, "Reading").
    lead_tool = MEASURES[plan.measure].headline
    leading = [h for h, e in zip(heads_for, evidence_with_head, strict=True) if e["tool"] == lead_tool]
    named = plan.grade or plan.reason or plan.place or (f"/ {plan.crew}" if plan.crew else None)
    entity_line = next(
        (s for s in body if named and s["type"] == "finding" and str(named) in s["text"].split("**")[0]), None
    )
    promote_from = lead_tool if lead_tool and any(e["tool"] == lead_tool for e in evidence) else None
    cost = named_cost_headline(plan, evidence) if plan.measure == "named_cost" else None
    if cost is not None:
        sections.append(cost)
    elif entity_line is not None:
        body.remove(entity_line)
        sections.append({"type": "headline", "text": entity_line["text"][2:].rstrip(".") + "."})
    elif leading:
        sections.append(leading[0])
    elif heads and promote_from is None:
        sections.append(heads[0])
    else:
        # No tool-specific headline: the first finding leads, as a sentence rather than a bullet.
        first = next(
            (
                i
                for i, s in enumerate(body)
                if s["type"] == "finding" and (promote_from is None or owner.get(id(s)) == promote_from)
            ),
            None,
        )
        if first is not None:
            lead = body.pop(first)
            # Over several shifts the promoted finding keeps the shift its label gave it.
            shift_label = next(
                (
                    s["text"]
                    for s in reversed(body[:first])
                    if s["type"] == "label" and s["text"].startswith("Shift ")
                ),
                None,
            )
            prefix = f"{shift_label}: " if shift_label else ""
            sections.append({"type": "headline", "text": prefix + lead["text"][2:].rstrip(".") + "."})
        elif evidence:
            sections.append({"type": "text", "text": "The evidence below answers the question."})
    sections.extend(body)
    if plan.measure == "compare_shifts" and len(heads) > 1:
        sections.insert(1, {**heads[1], "type": "finding", "text": "- " + heads[1]["text"].rstrip(".")})
    for env in evidence:
        window = env.get("window") or {}
        cov = env.get("coverage") or {}
        if window:
            sections.append(
                {
                    "type": "text",
                    "text": f"Window: {window.get('label')}; coverage {cov.get('status', 'unknown')}.",
                }
            )
            break
    if any((e.get("coverage") or {}).get("status") == "incomplete" for e in evidence):
        sections.append(
            {
                "type": "caveat",
                "text": "A shift in this answer has excluded records: it is reported, never ranked.",
            }
        )
    for caveat in caveats:
        sections.append({"type": "caveat", "text": caveat})
    if any("usd" in row for e in evidence for row in e.get("rows", [])[:1]):
        sections.append({"type": "caveat", "text": RATES.line()})
        sections.append({"type": "caveat", "text": COST_NOTE})
        status_line = "margin not set" if RATES.margin_usd_per_msf is None else "margin set"
        sections.append({"type": "caveat", "text": f"Contribution: {status_line}."})
    if status in ("complete", "partial") and evidence:
        sections.append({"type": "label", "text": "Where to look"})
        for place, question, address in where:
            sections.append({"type": "where", "text": f"- {place} → “{question}”", "address": address})
    sections.append({"type": "caveat", "text": "A recorded symptom does not establish a mechanical cause."})
    return _dedupe(sections)


def _dedupe(sections: list[Section]) -> list[Section]:
    """Caveats and plain lines said once (several results share the rates line)."""
    seen: set[str] = set()
    out = []
    for section in sections:
        if section["type"] in ("caveat", "text"):
            if section["text"] in seen:
                continue
            seen.add(section["text"])
        out.append(section)
    return out


DIAGNOSIS_FINDINGS = 5


def _diagnosis(per_result: list[list[Section]]) -> list[Section]:
    """A diagnosis keeps three to five findings: the leading finding of each result in turn, then the next;
    its plain lines (crew, notes, withheld rankings) stay, its labels go with the findings they introduced."""
    queues = [[s for s in lines if s["type"] == "finding"] for lines in per_result]
    chosen: list[Section] = []
    while len(chosen) < DIAGNOSIS_FINDINGS and any(queues):
        for queue in queues:
            if queue and len(chosen) < DIAGNOSIS_FINDINGS:
                chosen.append(queue.pop(0))
    plain = [s for lines in per_result for s in lines if s["type"] in ("text", "caveat")]
    return chosen + plain


def _word(shift: int) -> str:
    return {1: "one", 2: "two", 3: "three"}[shift]


def group_comparison(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a shifts-or-crews comparison over a window: on a complete window the best shift (or the
    slowest crew) leads and every group follows, best first, labelled with which end is best; on a partial
    window the groups are listed in their own order with no ranking, and the headline says why."""
    q = env["query"]
    rows = env["rows"]
    group = env.get("group_by", "shift")
    plural = f"{group}s"
    out: list[Section] = []
    if not rows:
        return None, out
    if not _ranked(env):
        cov = env.get("coverage") or {}
        why = f"{cov.get('valid_days')} of {cov.get('expected_days')} production days complete"
        head = {
            "type": "headline",
            "text": f"The {plural} are compared, not ranked: the window is partial ({why}).",
        }
        for i, row in enumerate(rows):
            out.append(finding(_group_text(row, None, len(rows)), row["speed_to_target_pct"], "%", q, i))
        out.append({"type": "text", "text": WITHHELD})
        return head, out
    if group == "crew":
        i = len(rows) - 1
        while i > 0 and rows[i]["rank"] is None:
            i -= 1
        head = {
            "type": "headline",
            "text": f"{rows[i]['group']} was the slowest crew of the window at "
            f"**{fmt(rows[i]['speed_to_target_pct'], '%')}** speed to target {cite(q, i)}.",
        }
    else:
        head = {
            "type": "headline",
            "text": f"{rows[0]['group']} was the best shift of the window at "
            f"**{fmt(rows[0]['speed_to_target_pct'], '%')}** speed to target {cite(q, 0)}.",
        }
    out.append({"type": "label", "text": f"Ranked by {env.get('best', 'speed to target')}, best first"})
    for i, row in enumerate(rows):
        out.append(finding(_group_text(row, row["rank"], len(rows)), row["speed_to_target_pct"], "%", q, i))
    return head, out


def _group_text(row: dict[str, Any], rank: int | None, count: int) -> str:
    """One group's line: its name, its rank when ranked (with which end it is), then its figures."""
    end = ""
    if rank is not None:
        end = " (best)" if rank == 1 else (" (worst)" if rank == count else "")
        end = f", rank {rank} of {count}{end}"
    return (
        f"{row['group']}{end}: {{}} speed to target, shift speed {fmt(row['shift_fpm'], 'ft/min')}, "
        f"unplanned downtime {fmt(row['unplanned_downtime_pct'], '%')}, "
        f"dry-end waste {fmt(row['dry_end_pct'], '%')} over {_count(row['shifts_run'], 'shift')}"
    )


def named_cost_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """The headline of money asked for one named reason or place in a window: its dollars at the assumed
    rates, its minutes and stops, and the per-year figure scaled by the production days held."""
    named = plan.reason if plan.by != "place" else plan.place
    env = next((e for e in evidence if e["tool"] == "get_downtime_pareto"), None)
    if env is None or named is None:
        return None
    label = (env.get("window") or {}).get("label", "the window")
    held = (env.get("coverage") or {}).get("held_days")
    for i, row in enumerate(env["rows"]):
        if row["key"] == named and row.get("usd") is not None:
            per = row.get("usd_per_year")
            days = f", scaled from {_count(held, 'production day')} held" if held else ""
            year = f"; {fmt(per, '$')} a year at that rate{days}" if per is not None else ""
            return {
                "type": "headline",
                "text": f"{named} cost **{fmt(row['usd'], '$')}** in {label} at the assumed rates: "
                f"{fmt(row['minutes'], 'min')} over {_count(row['stops'], 'stop')}{year} {cite(env['query'], i)}.",
            }
    return {
        "type": "headline",
        "text": f"No {named} stops were recorded in {label}: there is nothing to price.",
    }
