"""The answer builders of the daily tools (docs/shifts-agent.md, "Flow", step 7): one shift or day of
records, its headline (or None) and its findings.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.findings import Citation, Figure, Section, fmt
from shopfloor.shifts.answers.sayings import N_, NN_, Quoted, phrase, say, say_text
from shopfloor.shifts.answers.shaping import (
    Shaper,
    contribution,
    found,
    is_ranked,
    kpi_row,
    priced_of,
    quoted,
    rates_lines,
    stops_of,
    term,
    withheld,
)
from shopfloor.shifts.plant.money import FORMULAS

# --- per tool: the headline (optional) and findings ------------------------------------------------------


def shift_kpis(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a shift kpis result: its headline, if any, and its findings."""
    q = env["query"]
    head = None
    kpi = kpi_row(env, "speed_to_target_pct")
    if kpi:
        i, row = kpi
        head = say(
            "headline",
            N_("Shift {shift} ran at {speed} of grade target speed against 100 % {cite}."),
            shift=env["shift"],
            speed=Figure(row["value"], "%"),
            cite=Citation(q, i),
        )
    out = []
    cov = env.get("coverage") or {}
    if cov.get("crew"):
        out.append(
            say_text(
                "text",
                N_("Crew {crew}, supervisor slot {slot}."),
                crew=cov["crew"],
                slot=cov.get("supervisor_slot"),
            )
        )
    for measure, label in (
        ("shift_fpm", N_("Shift speed {figure} including stops")),
        ("lineal_ft", N_("Lineal footage {figure}")),
        ("maintenance_pct", N_("Maintenance downtime {figure} of scheduled minutes, band 2.5 %")),
        ("operator_pct", N_("Operator downtime {figure} of scheduled minutes, band 2.5 %")),
        ("trim_pct", N_("Side trim {figure} of gross")),
        ("dry_end_pct", N_("Dry-end waste {figure} of gross, flag above 1 %")),
    ):
        kpi = kpi_row(env, measure)
        if kpi:
            i, row = kpi
            out.append(found(label, Figure(row["value"], row["unit"]), Citation(q, i)))
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
        lead = (
            N_("The largest downtime was {reason} at {minutes} over {stops} {cite}.")
            if ranked
            else N_("Downtime was {reason} at {minutes} over {stops} {cite}.")
        )
        head = say(
            "headline",
            lead,
            reason=term(top["key"]),
            minutes=Figure(top["minutes"], "min"),
            stops=stops_of(top["stops"]),
            cite=Citation(q, i),
        )
        out.append(say_text("label", N_("Most downtime") if ranked else N_("Recorded downtime")))
    for i, row in controllable[:3]:
        out.append(
            found(
                N_("{reason}: {figure} over {stops}, {priced}"),
                Figure(row["minutes"], "min"),
                Citation(q, i),
                reason=term(row["key"]),
                stops=stops_of(row["stops"]),
                priced=priced_of(row),
            )
        )
    for i, row in enumerate(rows):
        if row["class"] != "controllable":
            out.append(apart(row["key"], row["class"], Figure(row["minutes"], "min"), Citation(q, i)))
    for j, flag in enumerate(env.get("flags") or []):
        out.append(
            found(
                N_(
                    "{kind} downtime at {figure} is over its band; supervisor slot {slot}, leading reason {reason}"
                ),
                Figure(flag["pct_of_scheduled"], "%"),
                Citation(q, j, "flag"),
                kind=term(flag["kind"]),
                slot=flag["supervisor_slot"],
                reason=term(flag["leading_reason"]),
            )
        )
    return head, out


def apart(key: Any, cls: Any, figure: Figure, cite: Citation) -> Section:
    """A row carried apart from the controllable ones: its name, its class and its figure."""
    return found(N_("{key} ({cls}, carried apart): {figure}"), figure, cite, key=term(key), cls=term(cls))


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
            found(
                N_("Slowest run {run} ({grade}) at {figure} of its grade target"),
                Figure(slow["pct_of_target"], "%"),
                Citation(q, i),
                run=slow["run_id"],
                grade=slow["grade"],
            )
        )
    else:
        for i, row in enumerate(rows[:3]):
            out.append(
                found(
                    N_("Run {run} ({grade}) at {figure} of target"),
                    Figure(row["pct_of_target"], "%"),
                    Citation(q, i),
                    run=row["run_id"],
                    grade=row["grade"],
                )
            )
    under = env["runs_under_baseline"]
    out.append(
        found(
            NN_(
                "{figure} run ran under its grade's trailing-year baseline",
                "{figure} runs ran under their grade's trailing-year baseline",
            ),
            Figure(under, ""),
            Citation(q, None),
            n=under,
        )
    )
    return None, out


def quality(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a quality result: its headline, if any, and its findings."""
    q = env["query"]
    out: list[Section] = []
    rows = env["rows"]
    if not rows:
        return None, [say_text("text", N_("No dry-end rejects were recorded for this shift."))]
    i, top = 0, rows[0]
    head = say(
        "headline",
        N_("Rejected area was led by {family} ({reason}) at {area} {cite}."),
        family=term(top["family"]),
        reason=_reported(top["reason"]),
        area=Figure(top["sqft"], "sq ft"),
        cite=Citation(q, i),
    )
    for i, row in enumerate(rows[:4]):
        out.append(
            found(
                N_("{family} / {reason}: {figure} of gross"),
                Figure(row["pct_of_gross"], "%"),
                Citation(q, i),
                family=term(row["family"]),
                reason=_reported(row["reason"]),
            )
        )
    out.append(say_text("caveat", N_("A reported reason is an attribution, not proof of cause.")))
    return head, out


def _reported(reason: Any) -> Any:
    """A reject's reported reason, or "not reported"."""
    return term(reason) if reason else phrase(N_("not reported"))


def shift_volume(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """A volume question's shift KPIs: the lineal footage leads, held against the owner's context for a shift
    (about 200,000 ft is a bad shift, 275,000–300,000 ft a good one); speed follows as one finding."""
    q = env["query"]
    head = None
    kpi = kpi_row(env, "lineal_ft")
    if kpi:
        i, row = kpi
        head = say(
            "headline",
            N_(
                "Shift {shift} ran {feet} lineal {cite}; about 200,000 ft is a bad shift and 275,000–300,000 ft "
                "a good one."
            ),
            shift=env["shift"],
            feet=Figure(row["value"], "ft"),
            cite=Citation(q, i),
        )
    out: list[Section] = []
    for measure, label in VOLUME_LABELS:
        kpi = kpi_row(env, measure)
        if kpi:
            i, row = kpi
            unit = row["unit"] if row["unit"] in ("sq ft", "%") else ""
            # One of a count is said in the singular ("1 setup", "1 paper change").
            out.append(found(label, Figure(row["value"], unit), Citation(q, i), n=row["value"]))
    return head, out


# What a shift made, in words (a count in its plural form).
VOLUME_LABELS: tuple[tuple[str, str | tuple[str, str]], ...] = (
    ("gross_sqft", N_("Gross area {figure}")),
    ("estimated_good_sqft", N_("Estimated good area {figure} after trim, shear and rejects")),
    ("valid_setups", NN_("{figure} setup", "{figure} setups")),
    ("paper_changes", NN_("{figure} paper change (wet-end run)", "{figure} paper changes (wet-end runs)")),
    ("speed_to_target_pct", N_("Speed to target {figure} of grade target")),
)


def overview(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of an overview result: its headline, if any, and its findings."""
    return shift_kpis(env)


def notes(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a notes result: its headline, if any, and its findings."""
    out: list[Section] = [say_text("label", N_("Reported notes"))]
    for row in env["rows"]:
        # Untrusted text: quoted as data, with the markers that shapes use removed.
        text = str(row["text"]).replace("**", "").replace("(query", "(q")
        out.append(say_text("text", N_("Reported note: “{note}”"), note=Quoted(text)))
    n = len(env["rows"])
    out.append(
        found(
            NN_("{figure} note recorded for the shift", "{figure} notes recorded for the shift"),
            Figure(n, ""),
            Citation(env["query"], None),
            n=n,
        )
    )
    stop_notes = env.get("stop_notes") or []
    if stop_notes:
        out.append(say_text("label", N_("Stop notes")))
        for row in stop_notes:
            text = quoted(row["text"])
            stops = quoted(row["on_stops"])
            out.append(
                say_text(
                    "text",
                    N_("Stop note on {stops} ({on}): “{note}”"),
                    stops=stops_of(row["stops"]),
                    on=_on_stops(stops),
                    note=Quoted(text),
                )
            )
        count = env.get("stop_notes_count", 0)
        out.append(
            found(
                NN_("{figure} stop carries a note", "{figure} stops carry a note"),
                Figure(count, ""),
                Citation(env["query"], None),
                n=count,
            )
        )
    return None, out


# The matrices' counts of their rows.
ORDER_RUNS = NN_("{figure} order run in the order matrix", "{figure} order runs in the order matrix")
SETUPS = NN_("{figure} setup in the matrix", "{figure} setups in the matrix")


def _on_stops(text: str) -> Any:
    """The stops a note is on ("D2-1 Knife jam, D2-2 Scheduled maintenance"), each reason a glossary term;
    text that does not read as that list is kept as it is."""
    items = [item.partition(" ") for item in text.split(", ")]
    if not all(stop and reason for stop, _, reason in items):
        return text
    template = ", ".join(f"{{stop{i}}} {{reason{i}}}" for i in range(len(items)))
    params: dict[str, Any] = {}
    for i, (stop, _, reason) in enumerate(items):
        params[f"stop{i}"], params[f"reason{i}"] = stop, term(reason)
    return phrase(template, **params)


def count_rows(forms: tuple[str, str]) -> Shaper:
    """An answer builder that counts a result's rows under its label, ``forms`` its singular and plural
    template (``{figure}`` the count; the order and setup matrices)."""

    def shape(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
        n = len(env["rows"])
        cite = Citation(env["query"], None)
        out = [found(forms, Figure(n, ""), cite, n=n)]
        if env.get("truncated"):
            out.append(say_text("text", N_("The list was cut at the 1,000-row limit.")))
        else:
            out.append(say_text("text", N_("Every row is listed.")))
        changes = env.get("paper_changes")
        if changes is not None:
            forms_changes = NN_(
                "{figure} paper change (wet-end runs)", "{figure} paper changes (wet-end runs)"
            )
            out.append(found(forms_changes, Figure(changes, ""), cite, n=changes))
        above = env.get("setups_above_trim_flag")
        if above is not None:
            forms_above = NN_(
                "{figure} setup over the 3.25 % trim flag", "{figure} setups over the 3.25 % trim flag"
            )
            out.append(found(forms_above, Figure(above, ""), cite, n=above))
        return None, out

    return shape


RANK_LABELS = {
    "speed": N_("Setups by speed to target, worst first (lowest is worst)"),
    "downtime": N_("Setups by allocated downtime, worst first (most minutes is worst)"),
    "quality": N_("Setups by rejected area, worst first (most area is worst)"),
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
        out.append(withheld())
    elif is_ranked(env):
        out.append(say_text("label", RANK_LABELS[env["metric"]]))
    for i, row in enumerate(env["rows"][:5]):
        line = (
            N_("#{rank} setup {record} ({grade}): {figure}")
            if "rank" in row
            else N_("setup {record} ({grade}): {figure}")
        )
        out.append(
            found(
                line,
                Figure(row[key[0]], key[1]),
                Citation(q, i),
                rank=row.get("rank"),
                record=row["record_id"],
                grade=row["grade"],
            )
        )
    return None, out


def dollars(env: dict[str, Any]) -> tuple[Section | None, list[Section]]:
    """Sections of a dollars result: its headline, if any, and its findings."""
    q = env["query"]
    rows = env["rows"]
    head = say(
        "headline",
        N_("Recorded losses on shift {shift} came to {usd} {cite}, {per} a year at this rate.")
        if env.get("shift")
        else N_("Recorded losses on the day came to {usd} {cite}, {per} a year at this rate."),
        shift=env.get("shift"),
        usd=Figure(env.get("recorded_losses_usd"), "$"),
        cite=Citation(q),
        per=fmt(env.get("recorded_losses_per_year_usd"), "$"),
    )
    out: list[Section] = [say_text("label", N_("Where the money went"))]
    for i, row in enumerate(rows):
        if row["rank"] is not None and row["rank"] <= 5:
            out.append(
                found(
                    N_("{item}: {figure} ({quantity})"),
                    Figure(row["usd"], "$"),
                    Citation(q, i),
                    item=term(row["item"]),
                    quantity=fmt(row["quantity"], row["unit"]),
                )
            )
    for i, row in enumerate(rows):
        if row["rank"] is None:
            out.append(apart(row["item"], row["class"], Figure(row["usd"], "$"), Citation(q, i)))
    if env.get("excluded_shifts"):
        out.append(
            say_text(
                "text",
                N_("Shifts with excluded records are not added: {shifts}."),
                shifts=env["excluded_shifts"],
            )
        )
    out += rates_lines()
    out.append(contribution(env.get("contribution_status")))
    out.append(machine_priced())
    return head, out


# How machine time is priced (plant/money.py FORMULAS), as a sentence says it.
MACHINE_FORMULA = N_("minutes × machine $/h ÷ 60")


def machine_priced() -> Section:
    """The caveat that says how machine time is priced; said from its template while the formula is the
    one written here, else as the money's formula writes it (English)."""
    if FORMULAS["downtime"] == MACHINE_FORMULA:
        return say_text("caveat", N_("Machine time is priced as {formula}."), formula=phrase(MACHINE_FORMULA))
    return {"type": "caveat", "text": f"Machine time is priced as {FORMULAS['downtime']}."}
