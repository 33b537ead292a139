"""The answer builders of the daily tools (docs/shifts-agent.md, "Flow", step 7): one shift or day of
records, its headline (or None) and its findings.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.findings import Citation, Figure, Section, fmt, said
from shopfloor.shifts.answers.shaping import (
    WITHHELD,
    Shaper,
    count_of,
    finding,
    is_ranked,
    kpi_row,
    priced,
    quoted,
)
from shopfloor.shifts.plant.money import COST_NOTE, FORMULAS, RATES

# --- per tool: the headline (optional) and findings ------------------------------------------------------


def shift_kpis(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a shift kpis result: its headline, if any, and its findings."""
    q = env["query"]
    head = None
    found = kpi_row(env, "speed_to_target_pct")
    if found:
        i, row = found
        head = said(
            "headline",
            f"Shift {env['shift']} ran at ",
            Figure(row["value"], "%"),
            " of grade target speed against 100 % ",
            Citation(q, i),
            ".",
        )
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
        found = kpi_row(env, measure)
        if found:
            i, row = found
            out.append(finding(label, row["value"], row["unit"], q, i))
    return head, out


def downtime(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a downtime result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    ranked = is_ranked(env)
    head = None
    out: list[Section] = []
    controllable = [(i, r) for i, r in enumerate(rows) if r["class"] == "controllable"]
    if controllable:
        i, top = controllable[0]
        lead = "The largest downtime" if ranked else "Downtime"
        head = said(
            "headline",
            f"{lead} was {top['key']} at ",
            Figure(top["minutes"], "min"),
            f" over {count_of(top['stops'], 'stop')} ",
            Citation(q, i),
            ".",
        )
        out.append({"type": "label", "text": "Most downtime" if ranked else "Recorded downtime"})
    for i, row in controllable[:3]:
        out.append(
            finding(
                f"{row['key']}: {{}} over {count_of(row['stops'], 'stop')}, {priced(row)}",
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
            said(
                "finding",
                f"- {flag['kind']} downtime at ",
                Figure(flag["pct_of_scheduled"], "%"),
                f" is over its band; supervisor slot {flag['supervisor_slot']}, leading reason "
                f"{flag['leading_reason']} ",
                Citation(q, j, "flag"),
            )
        )
    return head, out


def wet_end(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a wet end result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    out: list[Section] = []
    if not rows:
        return None, out
    if is_ranked(env):
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
    under = env["runs_under_baseline"]
    out.append(
        finding(
            "{} run ran under its grade's trailing-year baseline"
            if under == 1
            else "{} runs ran under their grade's trailing-year baseline",
            under,
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
    head = said(
        "headline",
        f"Rejected area was led by {top['family']} ({top['reason'] or 'not reported'}) at ",
        Figure(top["sqft"], "sq ft"),
        " ",
        Citation(q, i),
        ".",
    )
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


def shift_volume(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """A volume question's shift KPIs: the lineal footage leads, held against the owner's context for a shift
    (about 200,000 ft is a bad shift, 275,000–300,000 ft a good one); speed follows as one finding."""
    q = env["query"]
    head = None
    found = kpi_row(env, "lineal_ft")
    if found:
        i, row = found
        head = said(
            "headline",
            f"Shift {env['shift']} ran ",
            Figure(row["value"], "ft"),
            " lineal ",
            Citation(q, i),
            "; about 200,000 ft is a bad shift and 275,000–300,000 ft a good one.",
        )
    out: list[Section] = []
    for measure, label in (
        ("gross_sqft", "Gross area {}"),
        ("estimated_good_sqft", "Estimated good area {} after trim, shear and rejects"),
        ("valid_setups", "{} setups"),
        ("paper_changes", "{} paper changes (wet-end runs)"),
        ("speed_to_target_pct", "Speed to target {} of grade target"),
    ):
        found = kpi_row(env, measure)
        if found:
            i, row = found
            unit = row["unit"] if row["unit"] in ("sq ft", "%") else ""
            # One of a count is said in the singular ("1 setup", "1 paper change").
            label = SINGULAR.get(label, label) if row["value"] == 1 else label
            out.append(finding(label, row["value"], unit, q, i))
    return head, out


SINGULAR = {"{} setups": "{} setup", "{} paper changes (wet-end runs)": "{} paper change (wet-end run)"}


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
            text = quoted(row["text"])
            stops = quoted(row["on_stops"])
            out.append(
                {"type": "text", "text": f"Stop note on {count_of(row['stops'], 'stop')} ({stops}): “{text}”"}
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


def count_rows(one: str, many: str) -> Shaper:
    """An answer builder that counts a result's rows under its label, ``one`` for a single row and ``many``
    otherwise (the order and setup matrices)."""

    def shape(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
        n = len(env["rows"])
        out = [finding(one if n == 1 else many, n, "", env["query"], None)]
        cut = "The list was cut at the 1,000-row limit." if env.get("truncated") else "Every row is listed."
        out.append({"type": "text", "text": cut})
        changes = env.get("paper_changes")
        if changes is not None:
            noun = "paper change" if changes == 1 else "paper changes"
            out.append(finding(f"{{}} {noun} (wet-end runs)", changes, "", env["query"], None))
        if env.get("setups_above_trim_flag") is not None:
            out.append(
                finding(
                    "{} setup over the 3.25 % trim flag"
                    if env["setups_above_trim_flag"] == 1
                    else "{} setups over the 3.25 % trim flag",
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
    elif is_ranked(env):
        out.append({"type": "label", "text": RANK_LABELS[env["metric"]]})
    for i, row in enumerate(env["rows"][:5]):
        prefix = f"#{row['rank']} " if "rank" in row else ""
        out.append(
            finding(f"{prefix}setup {row['record_id']} ({row['grade']}): {{}}", row[key[0]], key[1], q, i)
        )
    return None, out


def dollars(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a dollars result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    scope = f"shift {env['shift']}" if env.get("shift") else "the day"
    head = said(
        "headline",
        f"Recorded losses on {scope} came to ",
        Figure(env.get("recorded_losses_usd"), "$"),
        " ",
        Citation(q),
        f", {fmt(env.get('recorded_losses_per_year_usd'), '$')} a year at this rate.",
    )
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
