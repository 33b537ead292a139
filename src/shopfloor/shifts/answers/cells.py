"""The tools' own words in their rows' cells, said in another language (the trace's tables, a chart's points
and data table, the PDF's tables): a word a tool writes in one column, looked up in the catalogue with the
column's name as its context (a knife's "lower" is not a better side's "lower"); a cell in a fixed shape (a
lever's speed gap, a comparison's "Shift 2") said from its template; a KPI row's measure ("lineal_ft") named
as the column of that name is (context ``column``); a list of the records' words ("Maintenance, Operator")
word by word through their glossary. A unit's symbol ("ft/min", "sq ft") is written as it is in every
language. Anything else is the records' word (``answers/glossary.py``) or a code, said as it is.

The words are the tools' (``tools/``), as they write them; docs/shifts-agent.md, "Languages".
"""

from __future__ import annotations

from shopfloor.shifts.answers.glossary import RECORD_WORDS
from shopfloor.shifts.answers.sayings import N_, NP_, RECORD, Translator, template_pattern

# The words each column's cells hold, as the tools write them (tools/sums.py, period.py, levers.py,
# money.py, material.py, daily.py); each is looked up with its column's name as the context.
CELL_WORDS: dict[str, frozenset[str]] = {
    # Which way is better for a KPI, and how a delta went (tools/sums.py BETTER, change_label).
    "better": frozenset((NP_("better", "higher"), NP_("better", "lower"))),
    "change": frozenset((NP_("change", "better"), NP_("change", "worse"), NP_("change", "unchanged"))),
    # The knives of the order matrix and the overrun (with the overrun's total row).
    "knife": frozenset((NP_("knife", "upper"), NP_("knife", "lower"), NP_("knife", "all knives"))),
    # What a dollar figure is priced on, and the money's and the levers' categories.
    "basis": frozenset((NP_("basis", "board"), NP_("basis", "machine time"))),
    "category": frozenset(
        (
            NP_("category", "board"),
            NP_("category", "downtime"),
            NP_("category", "speed"),
            NP_("category", "trim"),
            NP_("category", "shear"),
            NP_("category", "dry-end"),
            NP_("category", "dry-end total"),
            NP_("category", "trim total"),
        )
    ),
    # The waste breakdown's groups and items, and the levers' items.
    "group": frozenset((NP_("group", "side trim"), NP_("group", "dry-end"), NP_("group", "unexplained"))),
    "item": frozenset(
        (
            NP_("item", "dry-end total"),
            NP_("item", "unexplained"),
            NP_("item", "run speed under its grade's trailing-year speed"),
            NP_("item", "tag scrap (dry-end, all kinds)"),
            NP_("item", "side trim (all)"),
        )
    ),
    # The largest losses of a shift's overview, and the speed bridge's buckets.
    "loss": frozenset((NP_("loss", "downtime"), NP_("loss", "dry-end"), NP_("loss", "speed"))),
    "bucket": frozenset((NP_("bucket", "external stops"),)),
    # A week's coverage in a trend.
    "coverage": frozenset(
        (
            NP_("coverage", "complete"),
            NP_("coverage", "partial"),
            NP_("coverage", "incomplete"),
            NP_("coverage", "unavailable"),
        )
    ),
    # How a dollar figure is computed (plant/money.py FORMULAS).
    "formula": frozenset(
        (
            NP_("formula", "minutes × machine $/h ÷ 60"),
            NP_(
                "formula",
                "(reference ft/min × running minutes − lineal ft) ÷ reference ft/min × machine $/h ÷ 60",
            ),
            NP_("formula", "sq ft ÷ 1,000 × board $/MSF"),
        )
    ),
    # A row's own note (the waste breakdown's unexplained waste).
    "note": frozenset(
        (NP_("note", "The records hold no measured good output, so unexplained waste is unavailable."),)
    ),
}

# Units a row writes in words, said as the column of that name is (a "% o" in a message id would read as a
# %-format).
UNIT_COLUMNS = {"% of target": "pct_of_target"}

# The cells in a fixed shape, by column: the template (its English as the tool writes it, each ``{name}`` a
# value kept as it is).
CELL_TEMPLATES: dict[str, tuple[str, ...]] = {
    "item": (N_("speed gap to {fpm} ft/min"), N_("trim over the {flag} flag")),
    "group": (N_("Shift {shift}"), N_("Crew {crew}")),
}
_PATTERNS = {
    column: tuple((template, template_pattern(template)) for template in templates)
    for column, templates in CELL_TEMPLATES.items()
}

# The columns whose cells list the records' words (a downtime row's kinds).
LISTS = frozenset(("kinds",))

# The KPIs a tool's KPI rows name in their ``measure`` column (tools/sums.py ``kpis``): fields, named as the
# columns of those names are (pages/columns.py).
MEASURE_FIELDS: frozenset[str] = frozenset(
    (
        NP_("column", "lineal_ft"),
        NP_("column", "gross_sqft"),
        NP_("column", "shift_fpm"),
        NP_("column", "speed_to_target_pct"),
        NP_("column", "running_fpm"),
        NP_("column", "downtime_pct"),
        NP_("column", "maintenance_pct"),
        NP_("column", "operator_pct"),
        NP_("column", "op_maint_pct"),
        NP_("column", "pm_pct"),
        NP_("column", "external_pct"),
        NP_("column", "trim_pct"),
        NP_("column", "shear_pct"),
        NP_("column", "dry_end_pct"),
        NP_("column", "dry_end_pct_of_yield"),
        NP_("column", "yield_sqft"),
        NP_("column", "estimated_good_sqft"),
        NP_("column", "throughput_in"),
        NP_("column", "valid_setups"),
        NP_("column", "setups_above_trim_flag"),
        NP_("column", "paper_changes"),
        NP_("column", "lineal_per_setup"),
        NP_("column", "lineal_per_paper_change"),
        NP_("column", "stops"),
        NP_("column", "downtime_min"),
    )
)

# The KPIs named in words where a person reads them (a chart's points over KPI rows: "Lineal feet", never
# "lineal_ft"); in another language each is said as the column of that name is (docs/shifts-agent.md,
# "Languages"), in English by these words.
KPI_NAMES: dict[str, str] = {
    "lineal_ft": "Lineal feet",
    "gross_sqft": "Gross area",
    "shift_fpm": "Shift speed",
    "speed_to_target_pct": "Speed to target",
    "running_fpm": "Running speed",
    "downtime_pct": "Downtime",
    "maintenance_pct": "Maintenance downtime",
    "operator_pct": "Operator downtime",
    "op_maint_pct": "Operator and maintenance downtime",
    "pm_pct": "Planned maintenance",
    "external_pct": "External downtime",
    "trim_pct": "Side trim",
    "shear_pct": "Shear",
    "dry_end_pct": "Dry-end waste",
    "dry_end_pct_of_yield": "Dry-end waste of yield",
    "yield_sqft": "Yield area",
    "estimated_good_sqft": "Estimated good area",
    "throughput_in": "Average width",
    "valid_setups": "Valid setups",
    "setups_above_trim_flag": "Setups above the trim flag",
    "paper_changes": "Paper changes",
    "lineal_per_setup": "Lineal feet per setup",
    "lineal_per_paper_change": "Lineal feet per paper change",
    "stops": "Stops",
    "downtime_min": "Downtime minutes",
}


def kpi_name(code: str, tr: Translator) -> str | None:
    """A KPI row's measure named in ``tr``'s language: the catalogue's name of the column of that name, or in
    English (where the catalogue says the code as it is) its words here; None for a code that is no KPI."""
    if code not in KPI_NAMES:
        return None
    said = tr.pgettext("column", code)
    return KPI_NAMES[code] if said == code else said


# Units written as symbols, the same in every language (tools/sums.py UNITS and the rows' units).
UNIT_SYMBOLS = frozenset(("ft/min", "min", "ft", "sq ft", "in", "%", "MSF", "$", "$/h"))


def said_cell(text: str, column: str | None, tr: Translator) -> str | None:
    """A tool's own words in a cell of ``column`` in ``tr``'s language, or None when they are not the tool's
    words this module knows (a record's word, a code, a figure, or words in another shape)."""
    if column is None:
        return None
    if text in CELL_WORDS.get(column, ()):
        return tr.pgettext(column, text)
    for template, pattern in _PATTERNS.get(column, ()):
        found = pattern.fullmatch(text)
        if found is not None and template.format(**found.groupdict()) == text:
            return tr.gettext(template).format(**found.groupdict())
    if column == "measure" and text in MEASURE_FIELDS:
        return tr.pgettext("column", text)
    if column == "unit" and text in UNIT_COLUMNS:
        return tr.pgettext("column", UNIT_COLUMNS[text])
    if column in LISTS:
        items = text.split(", ")
        if all(item in RECORD_WORDS for item in items):
            return ", ".join(tr.pgettext(RECORD, item) for item in items)
    return None
