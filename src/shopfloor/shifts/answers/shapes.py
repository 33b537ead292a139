"""Answer shapes (docs/shifts-agent.md, "Flow", step 7): sections built from the rows the answer already has.

No number is computed here: rows are chosen (the largest reason, the slowest run) and counted. A section
that states a figure carries it as data (``answers/findings.py``: its figure and its citation, query N and
row M of that result); its text writes the same sentence with a **figure** in bold and its evidence
``(query N · row M)``. Shapes:

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from shopfloor.shifts.answers import looking
from shopfloor.shifts.answers.asked_shapes import (
    SHARE_TOOLS,
    asked_headline,
    end_headline,
    listed,
    on_shift,
    over_window,
)
from shopfloor.shifts.answers.coverage import window_line, window_named
from shopfloor.shifts.answers.day_shapes import shift_volume
from shopfloor.shifts.answers.findings import Citation, Figure, Section, before_figure, fmt
from shopfloor.shifts.answers.sayings import N_, NN_, Phrase, phrase, prefixed, rewording, say, say_text
from shopfloor.shifts.answers.shaping import (
    Shaper,
    contribution,
    count_of,
    kpi_row,
    rates_lines,
    stops_of,
    term,
)
from shopfloor.shifts.answers.window_shapes import window_volume
from shopfloor.shifts.planning.measures import MEASURES
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.plant.catalog import PLACE_FAMILIES
from shopfloor.shifts.plant.money import RATES


class ToolAnswer(Protocol):
    """What the sections need to know of a tool (its catalog entry, docs/shifts-agent.md "Tools")."""

    @property
    def shape(self) -> Shaper | None: ...

    @property
    def shift_labelled(self) -> bool: ...


@dataclass
class _Shaped:
    """Each result's lines: the headlines (and the results they came from), the body and its owners."""

    heads: list[Section] = field(default_factory=list)
    evidence_with_head: list[dict[str, Any]] = field(default_factory=list)
    owner: dict[int, str] = field(default_factory=dict)  # which tool each line came from
    body: list[Section] = field(default_factory=list)
    per_result: list[list[Section]] = field(default_factory=list)


def build_sections(
    plan: Plan,
    evidence: list[dict[str, Any]],
    charts: list[dict[str, Any]],
    status: str,
    caveats: Sequence[str | Section],
    tools: Mapping[str, ToolAnswer],
    where: list[tuple[str, str, str]],
    asked: tuple[str, ...] = (),
) -> list[Section]:
    """The answer's sections from the plan and its numbered evidence; ``tools`` is the tool catalog and
    ``where`` the places to look next with their addresses (``planning/where.py``); ``asked`` the units or
    count the question asked for (``planning/accounting.asked_figures``: "hours", "msf", "count")."""
    shaped = _shape_results(plan, evidence, tools)
    if plan.measure == "overview" and plan.shift is not None:
        shaped.body = _diagnosis(shaped.per_result)
    sections = _yes_no(plan, _lead(plan, evidence, shaped, asked))
    # A comparison's side-by-side table follows its headline, before the detail (answers/comparison.py).
    sections += [s for s in shaped.body if s["type"] == "comparison"]
    sections += [s for s in shaped.body if s["type"] != "comparison"]
    sections += _closing(evidence, caveats)
    if status in ("complete", "partial") and evidence:
        sections.append(say_text("label", N_("Where to look")))
        for place, question, address in where:
            sections.append(looking.where(place, question, address))
    sections.append(say_text("caveat", N_("A recorded symptom does not establish a mechanical cause.")))
    return _dedupe(sections)


def _shape_results(plan: Plan, evidence: list[dict[str, Any]], tools: Mapping[str, ToolAnswer]) -> _Shaped:
    """Each result through its tool's answer builder, its lines labelled by shift when the answer spans
    several shifts."""
    shaped = _Shaped()
    for env in evidence:
        entry = tools.get(env["tool"])
        shaper = entry.shape if entry is not None else None
        if plan.measure == "volume" and env["tool"] == "get_shift_kpis":
            shaper = shift_volume  # a volume question leads with what was made, never with speed (#74)
        if plan.measure == "volume" and env["tool"] == "get_period_kpis":
            shaper = window_volume  # the window's own figures of what it made, beside the grades
        if shaper is None:
            continue
        head, lines = shaper(env)
        if head is not None:
            shaped.heads.append(head)
            shaped.evidence_with_head.append(env)
        labelled = plan.shift is None and env.get("shift") and entry is not None and entry.shift_labelled
        if labelled and lines:  # a result that says nothing gets no label of its own
            shaped.body.append(say_text("label", SHIFT_WORDS[env["shift"]]))
        shaped.body.extend(lines)
        shaped.per_result.append(lines)
        shaped.owner.update({id(line): env["tool"] for line in lines})
    return shaped


def _yes_no(plan: Plan, lead: list[Section]) -> list[Section]:
    """A yes/no question against the target is answered Yes or No first, from the headline's speed to target
    and the 100 % it is held to (docs/shifts-agent.md, the rules)."""
    if plan.ask not in ("below_target", "at_target") or not lead or "target" not in lead[0]["text"]:
        return lead
    figure = next((p for p in lead[0].get("parts", []) if isinstance(p, dict) and p.get("unit") == "%"), None)
    if figure is None or figure.get("value") is None:
        return lead
    below = float(figure["value"]) < 100
    head = prefixed(lead[0], YES if below == (plan.ask == "below_target") else NO)
    return [head, *lead[1:]]


# A yes/no question's answer, said before the headline.
YES, NO = N_("Yes: "), N_("No: ")


def share_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """The asked share first: the named reason, place or kind's share of all the downtime listed
    ("what percent of downtime was knife jams"), else the leading row's (docs/shifts-agent.md, the rules)."""
    env = next((e for e in evidence if e["tool"] in SHARE_TOOLS), None)
    if env is None:
        return None
    named = plan.reason or plan.place or plan.kind
    if not env["rows"] and not named:
        return say(
            "headline",
            N_("No downtime was recorded here: {figure} listed, so {named} was none of it (0 %) {cite}."),
            figure=Figure(0, "stops"),
            named=phrase(N_("no reason")),
            cite=Citation(env["query"]),
        )
    rows = env["rows"]
    members = PLACE_FAMILIES.get(plan.place or "", ())
    if members and plan.place is not None and named == plan.place:
        return _family_share_headline(plan.place, members, env)
    index = next((i for i, r in enumerate(rows) if named and str(r.get("key")) == named), None)
    if index is None and named is None:
        index = 0
    if index is None:
        # The named one has no stop listed: its share is of the whole recorded downtime, none of it, said
        # beside the minutes recorded (none at all when the place, shift or window had no stop).
        return _none_of_it(str(named), env)
    row = rows[index]
    if row.get("share_pct") is None:
        return None
    return say(
        "headline",
        N_("{key} was {figure} of the recorded downtime ({minutes} of it) {cite}."),
        key=term(row["key"]),
        figure=Figure(row["share_pct"], "%"),
        minutes=fmt(row["minutes"], "min"),
        cite=Citation(env["query"], index),
    )


def _none_of_it(named: str, env: dict[str, Any]) -> Section:
    """A named reason, place or kind with no stop listed: none of the recorded downtime, its minutes said."""
    if not env["rows"]:
        return say(
            "headline",
            N_(
                "{named} was none of the recorded downtime here (0 %): no stop at all was recorded, {figure} of "
                "downtime {cite}."
            ),
            named=term(named),
            figure=Figure(env["minutes_total"], "min"),
            cite=Citation(env["query"]),
        )
    return say(
        "headline",
        N_(
            "{named} was none of the recorded downtime here (0 %): no stop of it among the {figure} recorded over "
            "{stops} {cite}."
        ),
        named=term(named),
        figure=Figure(env["minutes_total"], "min"),
        stops=stops_of(env["stops_total"]),
        cite=Citation(env["query"]),
    )


def crew_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """A crew named over a window leads with its own speed to target against 100 % (the crews' comparison
    row), which a yes/no on target is answered from (docs/shifts-agent.md, the rules)."""
    env = next(
        (e for e in evidence if e["tool"] == "get_group_comparison" and e.get("group_by") == "crew"), None
    )
    # The crews compared on speed with one crew named ("same question, but crew B") lead with its row too.
    on_speed = plan.measure == "fpm" or (plan.measure == "compare_groups" and plan.metric in (None, "speed"))
    if env is None or plan.crew is None or not on_speed:
        return None
    window = window_named(env.get("window") or {})
    for i, row in enumerate(env["rows"]):
        if row.get("crew") == plan.crew:
            return say(
                "headline",
                N_(
                    "Crew {crew} ran at {figure} of grade target speed against {target} over {window} {cite}."
                ),
                crew=plan.crew,
                figure=Figure(row["speed_to_target_pct"], "%"),
                target="100 %",
                window=window,
                cite=Citation(env["query"], i),
            )
    cite = Citation(env["query"])
    return say(
        "headline",
        N_("Crew {crew} ran no shift in {window} {cite}."),
        crew=plan.crew,
        window=window,
        cite=cite,
    )


def window_target_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """A yes/no on target over a window ("was 2nd shift below target last week") leads with the window's speed
    to target held to 100 %, the window before beside it (docs/shifts-agent.md, rule 3); ``None`` otherwise."""
    env = next((e for e in evidence if e["tool"] == "get_period_kpis"), None)
    if plan.ask not in ("below_target", "at_target") or plan.window == "day" or env is None:
        return None
    kpi = kpi_row(env, "speed_to_target_pct")
    if kpi is None or kpi[1].get("current") is None:
        return None
    i, row = kpi
    before: Phrase | str = phrase("")
    if not env.get("deltas_withheld") and row.get("previous") is not None and env.get("previous_window"):
        before = phrase(
            N_(" ({previous} over {other})"),
            previous=fmt(row["previous"], "%"),
            other=window_named(env["previous_window"]),
        )
    return say(
        "headline",
        N_("Speed to target was {figure} over {window} against {target}{before} {cite}."),
        figure=Figure(row["current"], "%"),
        window=window_named(env.get("window") or {}),
        target="100 %",
        before=before,
        cite=Citation(env["query"], i),
    )


def reject_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """A share of the dry-end rejects asked, or one reject named, leads the waste breakdown: the named
    family's row, or the named reported reason's detail, with its part of the rejected area (``share_pct``);
    unnamed, the family with the most rejected area. One with no rejected area is none of it (0 %)."""
    env = next((e for e in evidence if e["tool"] == "get_waste_breakdown"), None)
    if env is None or plan.measure != "waste" or (plan.ask != "share" and plan.reject is None):
        return None
    q = env["query"]
    families = [
        (i, r) for i, r in enumerate(env["rows"]) if r["group"] == "dry-end" and r["item"] != "dry-end total"
    ]
    named = plan.reject
    found: tuple[int, dict[str, Any], str] | None = None
    if named is None:
        with_area = [(i, r) for i, r in families if (r["sqft"] or 0) > 0]
        if not with_area:
            return say(
                "headline",
                N_(
                    "No dry-end rejects were recorded here, so no reject was any of the rejected area (0 %) {cite}."
                ),
                cite=Citation(q),
            )
        i, row = max(with_area, key=lambda pair: pair[1]["sqft"])
        found, named = (i, row, "row"), str(row["item"])
    else:
        found = next(((i, r, "row") for i, r in families if r["item"] == named), None)
        details = env.get("details") or []
        found = found or next(((j, d, "detail") for j, d in enumerate(details) if d["reason"] == named), None)
    if found is None or not found[1]["sqft"]:
        return say(
            "headline",
            N_("{named} was none of the rejected area here (0 %) {cite}."),
            named=term(named),
            cite=Citation(q),
        )
    index, row, of = found
    if plan.ask == "share":
        return say(
            "headline",
            N_("{named} was {figure} of the rejected area ({area}) {cite}."),
            named=term(named),
            figure=Figure(row["share_pct"], "%"),
            area=fmt(row["sqft"], "sq ft"),
            cite=Citation(q, index, of),
        )
    return say(
        "headline",
        N_("{named}: {figure} of rejected area, {share} of the rejects {cite}."),
        named=term(named),
        figure=Figure(row["sqft"], "sq ft"),
        share=fmt(row["share_pct"], "%"),
        cite=Citation(q, index, of),
    )


TILE_LEADS = {
    "dry_end_pct": N_("Dry-end waste was {figure} of gross (flag above {band} %){over}{side} {cite}."),
    "trim_pct": N_("Side trim was {figure} of gross{over}{side} {cite}."),
    "maintenance_pct": N_(
        "Maintenance downtime was {figure} of scheduled minutes against its {band} % band{over}{side} {cite}."
    ),
    "operator_pct": N_(
        "Operator downtime was {figure} of scheduled minutes against its {band} % band{over}{side} {cite}."
    ),
}
BAND_SIDES = {
    "dry_end_pct": (N_(": over the flag"), N_(": under the flag")),
    "maintenance_pct": (N_(": over it"), N_(": within it")),
    "operator_pct": (N_(": over it"), N_(": within it")),
}


def tile_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """The KPI tile asked by its metric leads (``measure=kpis&metric=dry_end_pct``): one shift's, else the
    window's (or the whole day's, over every shift); a yes/no against the band (``ask=over_band`` or
    ``within_band``) is answered first from the tile's flag."""
    shifts = [e for e in evidence if e["tool"] == "get_shift_kpis"]
    windows = [e for e in evidence if e["tool"] == "get_period_kpis"]
    if plan.measure != "kpis" or plan.metric not in TILE_LEADS or not (len(shifts) == 1 or windows):
        return None
    env, key = (shifts[0], "value") if len(shifts) == 1 else (windows[0], "current")
    for i, row in enumerate(env["rows"]):
        if row.get("measure") == plan.metric and row.get(key) is not None:
            over, within = BAND_SIDES.get(plan.metric, ("", ""))
            side = over if row.get("flag") else within
            head = say(
                "headline",
                TILE_LEADS[plan.metric],
                figure=Figure(row[key], row["unit"]),
                band=f"{row.get('band') or 0:g}",
                over=over_window(env),
                side=phrase(side),
                cite=Citation(env["query"], i),
            )
            if plan.ask in ("over_band", "within_band"):
                return prefixed(head, YES if bool(row.get("flag")) == (plan.ask == "over_band") else NO)
            return head
    return None


def _named_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """A named reason or place's own downtime row first, even below the rows the findings list; one no
    row holds is said first too, with its count, none."""
    # The rows are grouped by one of them: the named one of that grouping is the one its rows can hold.
    grouped = {"place": plan.place, "reason": plan.reason, "kind": plan.kind}
    named = grouped.get(plan.by or "") or plan.reason or plan.place
    envs = [e for e in evidence if e["tool"] in SHARE_TOOLS]
    if not named or plan.measure not in ("downtime", "pareto") or not envs:
        return None
    # The rows by place kept only the named reason's stops: the headline names both ("Knife jam at Upper
    # knife"), so the filter the tool applied is said.
    filtered = (
        plan.reason and named != plan.reason and envs[0].get("filters", {}).get("reason") == plan.reason
    )
    label = (
        phrase(N_("{reason} at {place}"), reason=term(plan.reason), place=term(named))
        if filtered
        else term(named)
    )
    over = _named_over_day(named, label, envs)
    if over is not None:
        return over
    for env in envs:
        for i, row in enumerate(env["rows"]):
            if str(row.get("key")) == named:
                return say(
                    "headline",
                    N_("{named}: {figure} over {stops} {cite}."),
                    named=label,
                    figure=Figure(row["minutes"], "min"),
                    stops=stops_of(row["stops"]),
                    cite=Citation(env["query"], i),
                )
    members = PLACE_FAMILIES.get(named, ())
    if members:
        return _family_headline(named, members, envs)
    by_place = _reason_by_place(plan, envs) if named == plan.reason and plan.by == "place" else None
    if by_place is not None:
        return by_place
    return say(
        "headline",
        N_("{named}: no stop recorded here (0 stops) {cite}."),
        named=label,
        cite=Citation(envs[0]["query"]),
    )


def named_day_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """A named reason, place or kind over every shift of a day (each shift its own result): the day's total
    leads, before any one shift's own line could, whose lines stay under their shifts' labels
    (:func:`_named_over_shifts`, docs/shifts-agent.md, "Reading"); ``None`` otherwise."""
    envs = [e for e in evidence if e["tool"] in SHARE_TOOLS]
    if len(envs) < 2 or plan.measure not in ("downtime", "pareto"):
        return None
    headline = _named_headline(plan, evidence)
    if headline is None or not headline.get("over_shifts"):
        return None
    return {k: v for k, v in headline.items() if k != "over_shifts"}


def _named_over_day(named: str, label: Any, envs: list[dict[str, Any]]) -> Section | None:
    """The named row of every shift's result, when there are several shifts and any of them holds it."""
    if len(envs) < 2 or not all(env.get("shift") for env in envs):
        return None
    found = [
        (env, i, row) for env in envs for i, row in enumerate(env["rows"]) if str(row.get("key")) == named
    ]
    return {**_named_over_shifts(label, found), "over_shifts": True} if found else None


def _named_over_shifts(label: Any, found: list[tuple[dict[str, Any], int, dict[str, Any]]]) -> Section:
    """A named reason, place or kind over every shift of a day, where each shift is its own result: the day's
    minutes and stops over every shift lead, then each shift's own figure cited to its row (the sum is no
    row's value, so it is not bold; docs/shifts-agent.md, "Reading"). One shift alone is said as all on it."""
    if len(found) == 1:
        env, i, row = found[0]
        return say(
            "headline",
            N_("{named}: {figure} over {stops}, all on shift {shift} {cite}."),
            named=label,
            figure=Figure(row["minutes"], "min"),
            stops=stops_of(row["stops"]),
            shift=env["shift"],
            cite=Citation(env["query"], i),
        )
    each = [
        phrase(
            N_("{figure} over {stops} on shift {shift} {cite}"),
            figure=Figure(row["minutes"], "min"),
            stops=stops_of(row["stops"]),
            shift=env["shift"],
            cite=Citation(env["query"], i),
        )
        for env, i, row in found
    ]
    return say(
        "headline",
        N_("{named}: {minutes} over {stops} over every shift; {each}."),
        named=label,
        minutes=fmt(round(sum(row["minutes"] for _, _, row in found), 1), "min"),
        stops=stops_of(sum(row["stops"] for _, _, row in found)),
        each=listed(each),
    )


def _reason_by_place(plan: Plan, envs: list[dict[str, Any]]) -> Section | None:
    """A reason asked by place and no place named ("missed splices by place", "where did the knife jams
    happen"): the rows by place hold only that reason's stops (the tool's ``reason`` filter), so its own
    total leads, with the place that lost the most; ``None`` when no rows were kept, said as none."""
    kept = [e for e in envs if (e.get("filters") or {}).get("reason") == plan.reason and e["rows"]]
    if not kept:
        return None
    if len(kept) > 1 and all(e.get("shift") for e in kept):
        return _reason_by_place_over_shifts(plan, kept)
    env = kept[0]
    # Over every shift of a day each shift is its own result: one alone that stopped is cited, by name.
    on = on_shift(env["shift"]) if len(envs) > 1 and env.get("shift") else phrase("")
    # The place that lost the most is named only where the rows are ranked (a partial window is not).
    most = (
        phrase(N_(", the most at {place}"), place=term(env["rows"][0]["key"]))
        if env.get("ranked", True)
        else phrase("")
    )
    return say(
        "headline",
        N_("{reason} by place{on}: {figure} over {stops}{most} {cite}."),
        reason=term(plan.reason),
        on=on,
        figure=Figure(env["minutes_total"], "min"),
        stops=stops_of(env["stops_total"]),
        most=most,
        cite=Citation(env["query"]),
    )


def _reason_by_place_over_shifts(plan: Plan, kept: list[dict[str, Any]]) -> Section:
    """A reason by place over every shift of a day, several of which stopped for it: the day's minutes and
    stops lead, then each shift's own total cited to its result (the sum is no result's value, so it is not
    bold; docs/shifts-agent.md, "Reading")."""
    each = [
        phrase(
            N_("{figure} over {stops} on shift {shift} {cite}"),
            figure=Figure(env["minutes_total"], "min"),
            stops=stops_of(env["stops_total"]),
            shift=env["shift"],
            cite=Citation(env["query"]),
        )
        for env in kept
    ]
    return say(
        "headline",
        N_("{reason} by place: {minutes} over {stops} over every shift; {each}."),
        reason=term(plan.reason),
        minutes=fmt(round(sum(e["minutes_total"] for e in kept), 1), "min"),
        stops=stops_of(sum(e["stops_total"] for e in kept)),
        each=listed(each),
    )


# How many other members of a place family also stopped, by family (plant/catalog.py PLACE_FAMILIES).
OTHERS_STOPPED = {
    "Splicers": NN_("; {n} other splicer also stopped", "; {n} other splicers also stopped"),
}


def _others_stopped(family: str, others: int) -> Phrase | str:
    """The clause naming how many other members of a place family also stopped ("; 2 other splicers also
    stopped"), empty when none did."""
    if not others:
        return phrase("")
    if family in OTHERS_STOPPED:
        return phrase(OTHERS_STOPPED[family], others)
    return f"; {count_of(others, 'other ' + family.lower()[:-1])} also stopped"


def _family_share_headline(family: str, members: tuple[str, ...], env: dict[str, Any]) -> Section:
    """A place family's share asked ("what % of the downtime was the splicers"): the rows hold each member's
    share, never the family's, so the member that lost the most leads with its own share and the family's
    total is named as not applied (investigation.not_applied; docs/shifts-agent.md, "Known limits")."""
    found = [(i, row) for i, row in enumerate(env["rows"]) if str(row.get("key")) in members]
    if not found:
        return say(
            "headline",
            N_("{family}: no stop recorded at any of them, none of the recorded downtime (0 %) {cite}."),
            family=term(family),
            cite=Citation(env["query"]),
        )
    i, row = max(found, key=lambda f: (f[1]["minutes"], -f[0]))
    return say(
        "headline",
        N_(
            "{family}: {member} lost the most, {figure} of the recorded downtime ({minutes} of it) {cite}{rest}."
        ),
        family=term(family),
        member=term(row["key"]),
        figure=Figure(row["share_pct"], "%"),
        minutes=fmt(row["minutes"], "min"),
        cite=Citation(env["query"], i),
        rest=_others_stopped(family, len(found) - 1),
    )


def _family_headline(family: str, members: tuple[str, ...], envs: list[dict[str, Any]]) -> Section:
    """A place family named ("the splicers"): the rows hold each member, so the one that lost the most leads
    and the family's own total is named as not led (docs/shifts-agent.md, "Known limits"); none stopped is
    said as none of them."""
    found = [
        (env, i, row) for env in envs for i, row in enumerate(env["rows"]) if str(row.get("key")) in members
    ]
    if not found:
        return say(
            "headline",
            N_("{family}: no stop recorded at any of them (0 stops) {cite}."),
            family=term(family),
            cite=Citation(envs[0]["query"]),
        )
    env, i, row = max(found, key=lambda f: (f[2]["minutes"], -f[1]))
    return say(
        "headline",
        N_("{family}: {member} lost the most, {figure} over {stops} {cite}{rest}."),
        family=term(family),
        member=term(row["key"]),
        figure=Figure(row["minutes"], "min"),
        stops=stops_of(row["stops"]),
        cite=Citation(env["query"], i),
        rest=_others_stopped(family, len(found) - 1),
    )


def _lead(
    plan: Plan, evidence: list[dict[str, Any]], shaped: _Shaped, asked: tuple[str, ...] = ()
) -> list[Section]:
    """The headline: a named entity's own finding, else the measure's leading tool (its headline, or its
    first finding), else the first headline (docs/shifts-agent.md, "Reading"); taken out of the body."""
    body, heads = shaped.body, shaped.heads
    lead_tool = MEASURES[plan.measure].headline
    leading = [h for h, e in zip(heads, shaped.evidence_with_head, strict=True) if e["tool"] == lead_tool]
    named = plan.grade or plan.reason or plan.place or (f"/ {plan.crew}" if plan.crew else None)
    entity_line = next(
        (s for s in body if named and s["type"] == "finding" and str(named) in before_figure(s)), None
    )
    promote_from = lead_tool if lead_tool and any(e["tool"] == lead_tool for e in evidence) else None
    cost = named_cost_headline(plan, evidence) if plan.measure == "named_cost" else None
    # A named cost, a reject named, or the end of a comparison asked ("which shift had the most downtime").
    ahead = cost or reject_headline(plan, evidence) or end_headline(plan, evidence)
    if ahead is not None:
        return [ahead]
    share = share_headline(plan, evidence) if plan.ask == "share" else None
    if share is not None:
        return [share]
    crew = crew_headline(plan, evidence)
    if crew is not None:
        # The crew's own line leads; its finding among the crews, citing the same row, is not said twice.
        cite = crew["text"][crew["text"].rfind("(query") :].rstrip(".")
        body[:] = [s for s in body if not (s["type"] == "finding" and s["text"].endswith(cite))]
        return [crew]
    # A window's target asked, or a named reason, place or kind over every shift of a day with the day's total.
    target = window_target_headline(plan, evidence) or named_day_headline(plan, evidence)
    if target is not None:
        return [target]
    if entity_line is not None:
        body.remove(entity_line)
        return [rewording(entity_line, "headline", bullet=False)]
    tile = tile_headline(plan, evidence)
    if tile is not None:
        # The tile leads; its own finding, citing the same row, is not said twice.
        cite = tile["text"][tile["text"].rfind("(query") :].rstrip(".")
        body[:] = [s for s in body if not (s["type"] == "finding" and s["text"].endswith(cite))]
        return [tile]
    found = asked_headline(plan, evidence, asked)
    if found is not None:
        # The figure asked leads; a finding citing the same row is not said twice.
        cite = found["text"][found["text"].rfind("(query") :].rstrip(".")
        if "·" in cite:
            body[:] = [s for s in body if not (s["type"] == "finding" and s["text"].endswith(cite))]
        return [found]
    found = _named_headline(plan, evidence)
    if found is not None:
        return [found]
    if leading:
        return [leading[0]]
    if heads and promote_from is None:
        return [heads[0]]
    # No tool-specific headline: the first finding leads, as a sentence rather than a bullet.
    first = next(
        (
            i
            for i, s in enumerate(body)
            if s["type"] == "finding" and (promote_from is None or shaped.owner.get(id(s)) == promote_from)
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
        prefix = phrase(N_("{label}: "), label=phrase(shift_label)) if shift_label else None
        return [rewording(lead, "headline", prefix, bullet=False)]
    if evidence:
        return [say_text("text", N_("The evidence below answers the question."))]
    return []


def _closing(evidence: list[dict[str, Any]], caveats: Sequence[str | Section]) -> list[Section]:
    """The window and coverage line, the excluded-records caveat, the run's caveats and the cost basis."""
    out: list[Section] = []
    for env in evidence:
        window = env.get("window") or {}
        cov = env.get("coverage") or {}
        if window:
            out.append(window_line(window, cov.get("status", "unknown")))
            break
    if any((e.get("coverage") or {}).get("status") == "incomplete" for e in evidence):
        out.append(
            say_text(
                "caveat", N_("A shift in this answer has excluded records: it is reported, never ranked.")
            )
        )
    out += [caveat if isinstance(caveat, dict) else {"type": "caveat", "text": caveat} for caveat in caveats]
    if any("usd" in row for e in evidence for row in e.get("rows", [])[:1]):
        out += rates_lines()
        status_line = "margin not set" if RATES.margin_usd_per_msf is None else "margin set"
        out.append(contribution(status_line))
    return out


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


# A shift's label over its lines, when an answer spans several shifts.
SHIFT_WORDS = {1: N_("Shift one"), 2: N_("Shift two"), 3: N_("Shift three")}


def named_cost_headline(plan: Plan, evidence: list[dict[str, Any]]) -> Section | None:
    """The headline of money asked for one named reason or place in a window: its dollars at the assumed
    rates, its minutes and stops, and the per-year figure scaled by the production days held."""
    by_place = plan.by == "place" or (plan.by is None and plan.reason is None)
    named = plan.place if by_place else plan.reason
    env = next((e for e in evidence if e["tool"] == "get_downtime_pareto"), None)
    if env is None or named is None:
        return None
    window = window_named(env.get("window") or {})
    held = (env.get("coverage") or {}).get("held_days")
    for i, row in enumerate(env["rows"]):
        if row["key"] == named and row.get("usd") is not None:
            per = row.get("usd_per_year")
            days = (
                phrase(
                    N_(", scaled from {days} held"),
                    days=phrase(NN_("{n} production day", "{n} production days"), held),
                )
                if held
                else phrase("")
            )
            year = (
                phrase(N_("; {per} a year at that rate{days}"), per=fmt(per, "$"), days=days)
                if per is not None
                else phrase("")
            )
            return say(
                "headline",
                N_(
                    "{named} cost {figure} in {window} at the assumed rates: {minutes} over {stops}{year} {cite}."
                ),
                named=term(named),
                figure=Figure(row["usd"], "$"),
                window=window,
                minutes=fmt(row["minutes"], "min"),
                stops=stops_of(row["stops"]),
                year=year,
                cite=Citation(env["query"], i),
            )
    return say_text(
        "headline",
        N_("No {named} stops were recorded in {window}: there is nothing to price."),
        named=term(named),
        window=window,
    )
