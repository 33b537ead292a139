"""Golden evals of the investigator, scored in code, and the global invariants checked on every answer.

Invariants: every bold figure is a value of the row it cites; a partial window (or an unranked result) is
never ranked; every chart equals the rows it was drawn from. Scenario cases compare the answer with the
planted cause from the generator's answer-key file, which this module, and nothing else under
``shopfloor/shifts/``, may read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from shopfloor.agent.evals import CaseResult, EvalCase, EvalReport, load_cases, run_evals

BOLD = re.compile(r"\*\*([^*]+)\*\*")
CITE = re.compile(r"\(query (\d+)(?: · (row|detail|weekday|flag) (\d+))?\)")
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
RANK_WORDS = re.compile(r"\b(slowest|fastest|largest|the most of|the top|#\d)\b", re.IGNORECASE)
SUBLISTS = {"detail": "details", "weekday": "weekday_profile", "flag": "flags"}


def _numbers(values: Any) -> list[float]:
    out: list[float] = []
    items = values.values() if isinstance(values, dict) else values
    for value in items:
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            out.append(float(value))
    return out


def _matches(figure: str, candidates: list[float]) -> bool:
    match = NUMBER.search(figure)
    if match is None:
        return figure.strip() == "Unavailable"
    text = match.group(0).replace(",", "")
    decimals = len(text.split(".")[1]) if "." in text else 0
    value = float(text)
    tolerance = 0.5 * 10**-decimals + 1e-9
    return any(abs(c - value) <= tolerance for c in candidates)


def check_figures(answer: dict[str, Any]) -> list[str]:
    """Every finding has one bold figure, and every bold figure cited to a row is a value of that row: the
    citation a figure is held to is the first one after it (the last one before it when none follows), so a
    sentence or a table that cites several rows holds each figure to its own."""
    problems = []
    evidence = {e["query"]: e for e in answer.get("evidence", [])}
    for section in answer.get("sections", []):
        text = section["text"]
        bolds = list(BOLD.finditer(text))
        if section["type"] == "finding" and len(bolds) != 1:
            problems.append(f"finding without exactly one bold figure: {text}")
            continue
        if not bolds:
            continue
        cites = list(CITE.finditer(text))
        if not cites:
            problems.append(f"bold figure without a citation: {text}")
            continue
        for bold in bolds:
            cite = next((c for c in cites if c.start() >= bold.end()), cites[-1])
            problem = _figure_problem(bold.group(1), cite, evidence, text)
            if problem is not None:
                problems.append(problem)
                if problem.startswith("citation"):
                    break
    return problems


def _figure_problem(figure: str, cite: re.Match[str], evidence: dict[int, Any], text: str) -> str | None:
    """What is wrong with one bold figure against the citation it is held to, or None."""
    env = evidence.get(int(cite.group(1)))
    if env is None:
        return f"citation of a query that is not evidence: {text}"
    kind, index = cite.group(2), cite.group(3)
    if kind is None:
        candidates = [*_numbers(env), float(len(env["rows"]))]
    else:
        rows = env["rows"] if kind == "row" else env.get(SUBLISTS[kind]) or []
        position = int(index) - 1
        if not 0 <= position < len(rows):
            return f"citation of a row that does not exist: {text}"
        candidates = _numbers(rows[position])
    if not _matches(figure, candidates):
        return f"bold figure {figure!r} is not a value of its cited row: {text}"
    return None


def check_ranking(answer: dict[str, Any]) -> list[str]:
    """No rank words when any evidence is partial or unranked."""
    partial = any(
        (e.get("coverage") or {}).get("status") not in ("complete", None) or e.get("ranked") is False
        for e in answer.get("evidence", [])
    )
    if not partial:
        return []
    return [
        f"rank word on an incomplete window: {s['text']}"
        for s in answer.get("sections", [])
        if RANK_WORDS.search(s["text"])
    ]


def check_charts(answer: dict[str, Any]) -> list[str]:
    """Each chart's points are the (x, y) values of the rows of its source result."""
    problems = []
    by_id = {e["result_id"]: e for e in answer.get("evidence", [])}
    for chart in answer.get("charts", []):
        env = by_id.get(chart["source"])
        if env is None:
            problems.append(f"chart {chart['chart_id']} cites a result that is not evidence")
            continue
        rows = env["rows"]
        if chart.get("component"):
            rows = next((c["rows"] for c in env.get("components", []) if c["id"] == chart["component"]), [])
        for point in chart["points"]:
            row = rows[point["row"]] if point["row"] < len(rows) else None
            if row is None or str(row[chart["x"]]) != point["x"] or row[chart["y"]] != point["y"]:
                problems.append(f"chart {chart['chart_id']} point {point} differs from its row")
    return problems


def check_labels(answer: dict[str, Any]) -> list[str]:
    """Labels are short lines without digits or final punctuation."""
    return [
        f"label with digits or final punctuation: {s['text']}"
        for s in answer.get("sections", [])
        if s["type"] == "label" and (re.search(r"\d", s["text"]) or s["text"].rstrip()[-1:] in ".:;!?")
    ]


def invariants(answer: dict[str, Any]) -> list[str]:
    """Every global invariant's problems (empty when the answer holds them all)."""
    return check_figures(answer) + check_ranking(answer) + check_charts(answer) + check_labels(answer)


# --- the golden set ----------------------------------------------------------------------------------------


def score(case: EvalCase, answer: dict[str, Any], keys: list[dict[str, Any]] | None = None) -> list[str]:
    """Failures of one answer against its case's expectations plus the invariants."""
    expect = case.data.get("expect") or {}
    failures = invariants(answer)
    tools = [s["tool"] for s in answer.get("trace", []) if s.get("kind") == "tool_call"]
    if "status" in expect and answer["status"] != expect["status"]:
        failures.append(f"status {answer['status']} != {expect['status']}")
    if "status_in" in expect and answer["status"] not in expect["status_in"]:
        failures.append(f"status {answer['status']} not in {expect['status_in']}")
    if "read_as" in expect and answer.get("read_as") != expect["read_as"]:
        failures.append(f"read as {answer.get('read_as')!r} != {expect['read_as']!r}")
    shown = " ".join(s["text"] for s in answer.get("sections", []) if s["type"] in ("read_as", "caveat"))
    for entity in expect.get("entities", []):
        # Every entity named is in the reading, or in the one line saying it was not applied.
        if entity.lower() not in shown.lower():
            failures.append(f"entity {entity!r} neither read nor named as not applied")
    if "url" in expect and answer.get("address") != expect["url"]:
        failures.append(f"address {answer.get('address')} != {expect['url']}")
    for tool in expect.get("tools_include", []):
        if tool not in tools:
            failures.append(f"tool {tool} not called")
    for tool in expect.get("tools_exclude", []):
        if tool in tools:
            failures.append(f"tool {tool} called")
    if len(answer.get("charts", [])) < expect.get("charts_min", 0):
        failures.append(f"{len(answer.get('charts', []))} charts < {expect['charts_min']}")
    text = "\n".join(s["text"] for s in answer.get("sections", []))
    for needle in expect.get("text_includes", []):
        if needle.lower() not in text.lower():
            failures.append(f"text lacks {needle!r}")
    for needle in expect.get("text_excludes", []):
        if needle.lower() in text.lower():
            failures.append(f"text has {needle!r}")
    if "cause" in expect:
        failures += _check_cause(expect["cause"], text, keys)
    return failures


def surface_words(entry: dict[str, Any]) -> list[str]:
    """What a good answer must say for a planted scenario, from its answer-key entry."""
    scenario = entry.get("id")
    if scenario == "slow_crew":
        return [f"Crews on duty in this window: {entry['crew']}"]
    if scenario == "upper_knife_jam":
        return ["Upper knife"]
    if scenario == "humid_month_warp":
        return [str(entry.get("family", "warp"))]
    if scenario == "bad_paper_lot":
        return [str(entry["reason"])]
    if scenario == "power_outage":
        return ["Power outage"]
    if scenario == "pm_schedule":
        return ["Scheduled maintenance"]
    if scenario == "corrupt_setup":
        return ["excluded records"]
    return [str(entry.get("cause", scenario))]


def _check_cause(cause: str, text: str, keys: list[dict[str, Any]] | None) -> list[str]:
    """The planted scenario's surfacing words (from the answer key) appear in the answer."""
    if keys is None:
        return ["no answer key to check the planted cause against"]
    entry = next((k for k in keys if k.get("id") == cause), None)
    if entry is None:
        return [f"planted scenario {cause!r} is not in the answer key"]
    missing = [w for w in surface_words(entry) if w.lower() not in text.lower()]
    return [f"planted cause {cause!r} not surfaced: {missing}"] if missing else []


def load_answer_key(path: Path) -> list[dict[str, Any]] | None:
    """The generator's answer key (the eval runner alone reads it)."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if isinstance(data, dict):
        data = data.get("scenarios", [])
    return list(data)


def case_runner(
    ask: Callable[[EvalCase], dict[str, Any]], keys: list[dict[str, Any]] | None
) -> Callable[[EvalCase], CaseResult]:
    """A run_case function for ``run_evals``: ask, then score in code."""

    def run_case(case: EvalCase) -> CaseResult:
        answer = ask(case)
        failures = score(case, answer, keys)
        usage = answer.get("usage") or {}
        return CaseResult(
            case.id,
            not failures,
            failures,
            # A failed case whose answer said ``complete`` is the failure a supervisor trusts: counted apart.
            confidently_wrong=bool(failures) and answer.get("status") == "complete",
            tokens_in=int(usage.get("tokens_in") or 0),
            tokens_out=int(usage.get("tokens_out") or 0),
            cost_usd=usage.get("cost_usd", 0.0),
            latency_ms=float(usage.get("latency_ms") or 0.0),
        )

    return run_case


def golden_cases(path: Path) -> list[EvalCase]:
    """The cases of one golden file, or of every ``*.yaml`` in a folder (each file one class)."""
    if path.is_dir():
        return [case for file in sorted(path.glob("*.yaml")) for case in load_cases(file)]
    return load_cases(path)


def case_class(case: EvalCase) -> str:
    """A case's class: its ``class`` field, else the part of its id before the first dash."""
    return str(case.data.get("class") or case.id.split("-")[0])


def class_rates(cases: list[EvalCase], report: EvalReport) -> dict[str, tuple[int, int, int]]:
    """Passed, total and confidently wrong cases per class, in class order."""
    by_id = {case.id: case_class(case) for case in cases}
    rates: dict[str, list[int]] = {}
    for result in report.results:
        counts = rates.setdefault(by_id.get(result.case_id, "other"), [0, 0, 0])
        counts[0] += int(result.passed)
        counts[1] += 1
        counts[2] += int(result.confidently_wrong)
    return {name: (passed, total, wrong) for name, (passed, total, wrong) in sorted(rates.items())}


def parse_case_day(value: Any) -> date:
    """A case's day (YAML may give a date or a string)."""
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def run_golden(conn: Any, path: Path, *, show_progress: bool = True, planner: str = "offline") -> EvalReport:
    """Run every golden case with ``planner`` (offline by default, or a live planner's name,
    docs/shifts-agent.md) against the store at ``conn`` and score it (answer key included)."""
    from shopfloor.settings import get_settings
    from shopfloor.shifts.live.live import ask_live
    from shopfloor.shifts.plant.scope import Scope

    cases = golden_cases(path)
    keys = load_answer_key(get_settings().shifts_answer_keys_path())

    def ask(case: EvalCase) -> dict[str, Any]:
        data = case.data
        scope = Scope(
            day=parse_case_day(data["day"]),
            shift=data.get("shift"),
            include=data.get("include") or ("shift" if data.get("shift") else "day"),
            period=data.get("period", "day"),
        )
        question, after = str(data["question"]), data.get("after")
        return ask_live(question, scope, conn, planner, get_settings(), after=after).as_dict()

    return run_evals(cases, case_runner(ask, keys), overall_bar=1.0, show_progress=show_progress)
