"""Workshop evals: each case runs the real agent on a fresh seeded database and is scored in code.

Scoring compares the *saved* proposals (any order, complete list) and the run's tool-call log with the
case's expectations using the core's ``match_all``, checks every saved quote with ``quote_in_note`` and the
summary against the prompt's shape (and any words a case expects in it or not). No model judges anything.

Cases are grouped by class, one file per class (``evals/workshop*.yaml``, each with a top-level ``class``);
the table prints the pass rate per class (docs/workshop-agent.md, "Evals").
"""

from __future__ import annotations

import json
import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
import yaml
from rich.console import Console
from rich.table import Table
from sqlalchemy import select

from shopfloor.agent.evals import (
    CaseResult,
    EvalCase,
    EvalReport,
    load_cases,
    match_all,
    render_table,
    run_evals,
    subset_match,
)
from shopfloor.agent.providers.base import Provider
from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.logs import new_request_id
from shopfloor.settings import get_settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.provider_choice import choose_provider, chosen_model
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

EVALS_DIR = Path(__file__).resolve().parents[4] / "evals"
DEFAULT_CASES = EVALS_DIR / "workshop.yaml"
EVAL_USER = "u-ana"  # ana@taller.example, a member of the sample workshop
EVAL_RATE_LIMIT = 1_000_000  # eval runs are not user traffic
OVERALL_BAR = 0.95
SUMMARY_STARTS = ("I understood: ", "Entendí: ")
console = Console()

# Expected fields a case may give, read from a saved proposal (fields not given are not checked).
FIELDS = (
    "type",
    "status",
    "confidence",
    "hat_code",
    "to_stage",
    "rule_code",
    "weaver_id",
    "quantity",
    "grade",
    "rows_per_inch",
    "flag_kind",
    "choices_weaver_ids",
    "choices_hat_codes",
    "fix_to_stage",
    "fix_grade",
    "confirmed_by_record",
    "code_heard",
    "flag_words",
)


def flatten(proposal: dict[str, Any]) -> dict[str, Any]:
    """A saved proposal as the flat fields eval cases name; each warning becomes a ``warning:<name>`` key."""
    payload = proposal.get("payload") or {}
    rule = proposal.get("rule_result") or {}
    fix = rule.get("fix") or {}
    question = payload.get("question") or {}
    choices = question.get("choices") or []
    flat: dict[str, Any] = {
        "type": proposal.get("type"),
        "status": proposal.get("status"),
        "confidence": proposal.get("confidence"),
        "hat_code": payload.get("hat_code"),
        "to_stage": payload.get("to_stage"),
        "rule_code": rule.get("code"),
        "weaver_id": payload.get("weaver_id"),
        "quantity": payload.get("quantity"),
        "grade": payload.get("grade"),
        "rows_per_inch": payload.get("rows_per_inch"),
        "flag_kind": payload.get("kind"),
        "choices_weaver_ids": sorted(c["weaver_id"] for c in choices if c.get("weaver_id")),
        "choices_hat_codes": sorted(c["hat_code"] for c in choices if c.get("hat_code")),
        "fix_to_stage": fix.get("to_stage"),
        "fix_grade": fix.get("grade"),
        "confirmed_by_record": rule.get("confirmed_by_record"),
        "code_heard": payload.get("code_heard"),
        "flag_words": flag_words(payload.get("message")),
    }
    for warning in rule.get("warnings") or []:
        flat[f"warning:{warning}"] = True
    return flat


def flag_words(message: object) -> str | None:
    """The person's own words in a flag's message (the text between its first and last double quote), or
    None: a case checks what the flag says without tying itself to the message's wording around it."""
    if not isinstance(message, str) or message.count('"') < 2:
        return None
    return message[message.index('"') + 1 : message.rindex('"')]


HAS_WORDS = "flag_words has:"


def flat_cards(saved: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The saved cards in the flat form, with the phrases the expected items look for in a flag's words."""
    phrases = {key[len(HAS_WORDS) :] for item in wanted for key in item if key.startswith(HAS_WORDS)}
    cards = []
    for proposal in saved:
        flat = flatten(proposal)
        words = (flat.get("flag_words") or "").casefold()
        for phrase in phrases:
            flat[f"{HAS_WORDS}{phrase}"] = phrase.casefold() in words
        cards.append(flat)
    return cards


def expected_item(raw: dict[str, Any]) -> dict[str, Any]:
    """An expected proposal in the flat form (unknown fields are a case error, not a silent pass)."""
    unknown = set(raw) - set(FIELDS) - {"warnings_include"}
    if unknown:
        raise ValueError(f"unknown expected field(s): {', '.join(sorted(unknown))}")
    item = {k: v for k, v in raw.items() if k != "warnings_include"}
    if isinstance(item.get("flag_words"), list):
        # A list of phrases: each must be in the flag's words, as the person said it ("mancha en el ala").
        for phrase in item.pop("flag_words"):
            item[f"{HAS_WORDS}{phrase}"] = True
    for key in ("choices_weaver_ids", "choices_hat_codes"):
        if key in item:
            item[key] = sorted(item[key])
    for warning in raw.get("warnings_include") or []:
        item[f"warning:{warning}"] = True
    return item


def case_files(path: Path | None = None) -> list[Path]:
    """The case files: one file, every ``workshop*.yaml`` of a directory, or (default) all of ``evals/``."""
    path = path or EVALS_DIR
    if path.is_dir():
        return sorted(path.glob("workshop*.yaml"))
    return [path]


def load_workshop_cases(path: Path | None = None) -> list[EvalCase]:
    """Every case of the case files, each with its class (the file's ``class``, "spec" when it has none);
    an id used twice across files is an error."""
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for file in case_files(path):
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
        group = str(raw.get("class", "spec")) if isinstance(raw, dict) else "spec"
        for case in load_cases(file):
            if case.id in seen:
                raise ValueError(f"{file}: case id {case.id!r} is used twice")
            seen.add(case.id)
            cases.append(EvalCase(case.id, case.safety, {"class": group, **case.data}))
    return cases


def summary_problems(summary: str | None, expect: dict[str, Any]) -> list[str]:
    """What is wrong with a run's summary: the prompt's shape (starts "I understood:", at most two
    sentences, no markup or escapes, no cut words) and the words a case expects in it or not."""
    if summary is None:
        return []
    problems = []
    if not summary.startswith(SUMMARY_STARTS):
        problems.append(f"summary does not start with 'I understood:': {summary[:60]!r}")
    if summary.count(". ") > 1 or "\n" in summary or not summary.endswith("."):
        problems.append(f"summary is not at most two sentences: {summary!r}")
    for bad in ("&lt;", "&gt;", "&amp;", "<", ">", "because "):
        if bad in summary:
            problems.append(f"summary contains {bad!r}: {summary!r}")
    folded = summary.casefold()
    for words in expect.get("summary_has") or []:
        if str(words).casefold() not in folded:
            problems.append(f"summary lacks {words!r}: {summary!r}")
    for words in expect.get("summary_lacks") or []:
        if str(words).casefold() in folded:
            problems.append(f"summary should not say {words!r}: {summary!r}")
    return problems


@dataclass(frozen=True)
class CaseRun:
    """What one run of one case produced: the response (or error) and what the database holds."""

    response: dict[str, Any] | None
    error: ApiError | None
    saved: list[dict[str, Any]]
    tools_called: list[str]
    latency_ms: float
    steps: list[dict[str, Any]] = field(default_factory=list)


def score(case: EvalCase, run: CaseRun) -> CaseResult:
    """Score one run against the case's expectations."""
    data = case.data
    expect = data.get("expect") or {}
    note = str(data["note"])
    failures: list[str] = []
    if run.error is not None:
        failures.append(f"request failed: {run.error.status} {run.error.code}: {run.error.message}")
    try:
        wanted = [expected_item(item) for item in expect.get("proposals", [])]
    except ValueError as problem:
        wanted = []
        failures.append(str(problem))
    if "proposals" in expect:  # a case about the summary alone may leave the cards unchecked
        failures.extend(match_all(wanted, flat_cards(run.saved, wanted)))
    for proposal in run.saved:
        if not domain.quote_in_note(str(proposal.get("quote", "")), note):
            failures.append(f"quote not in note: {proposal.get('quote')!r}")
    for tool in expect.get("tools_called") or []:
        if tool not in run.tools_called:
            failures.append(f"tool not called: {tool}")
    for tool in expect.get("tools_not_called") or []:
        if tool in run.tools_called:
            failures.append(f"tool called but should not be: {tool}")
    failures.extend(summary_problems((run.response or {}).get("summary"), expect))
    reading = "\n".join(str(s.get("text") or "") for s in run.steps if s.get("kind") == "model_call")
    for line in expect.get("trace_has") or []:
        if str(line) not in reading:
            failures.append(f"the run's trace lacks {line!r}")
    meta = (run.response or {}).get("meta") or {}
    return CaseResult(
        case.id,
        not failures,
        failures,
        confidently_wrong=bool(confidently_wrong(expect, wanted, run.saved)),
        tokens_in=int(meta.get("tokens_in") or 0),
        tokens_out=int(meta.get("tokens_out") or 0),
        cost_usd=meta.get("cost_usd", 0.0),
        latency_ms=run.latency_ms,
    )


# The tool that saves each card type, so a case that forbids a tool also forbids its cards.
PROPOSE_TOOLS = {
    "create_hat": "propose_create_hats",
    "advance_stage": "propose_advance_stage",
    "flag_issue": "propose_flag",
}


def confidently_wrong(
    expect: dict[str, Any], wanted: list[dict[str, Any]], saved: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The saved cards a busy person would approve unread although they differ from the expectation: a
    pending card at confidence ``high`` that no expected item matches (nor one matched only with wrong
    fields); with no expected list, a pending ``high`` card of a type whose propose tool the case forbids."""
    flat = flat_cards(saved, wanted)
    sure = [f for f in flat if f["status"] == "pending" and f["confidence"] == "high"]
    if not sure:
        return []
    if "proposals" not in expect:
        forbidden = set(expect.get("tools_not_called") or [])
        return [f for f in sure if PROPOSE_TOOLS.get(str(f["type"])) in forbidden]
    remaining = list(flat)
    for want in wanted:  # the same one-to-one matching as ``match_all``
        hit = next((a for a in remaining if not subset_match(want, a)), None)
        if hit is not None:
            remaining.remove(hit)
    return [f for f in remaining if f in sure]


RunOne = Callable[..., CaseRun]  # (body, provider, language="en") -> CaseRun


def case_body(case: EvalCase) -> dict[str, Any]:
    """The request body of a case."""
    body: dict[str, Any] = {"note": case.data["note"], "input_mode": case.data.get("input_mode", "typed")}
    if case.data.get("hat_tag"):
        body["hat_tag"] = case.data["hat_tag"]
    return body


def make_case_runner(
    fresh_run: Callable[[], AbstractContextManager[RunOne]], provider_factory: Callable[[], Provider]
) -> Callable[[EvalCase], CaseResult]:
    """A ``run_case`` for the core harness: a fresh database per case, the real run, scoring in code."""

    def run_case(case: EvalCase) -> CaseResult:
        with fresh_run() as run_one:
            t0 = time.perf_counter()
            run = run_one(case_body(case), provider_factory(), case.data.get("language", "en"))
            result = score(case, run)
            result.latency_ms = run.latency_ms or (time.perf_counter() - t0) * 1000
            return result

    return run_case


def tool_names(steps: list[dict[str, Any]]) -> list[str]:
    """Tool names of a run's steps, in order."""
    return [str(s["tool"]) for s in steps if s.get("kind") == "tool_call"]


@contextmanager
def fresh_eval_run() -> Iterator[RunOne]:
    """A freshly seeded SQLite database for one eval case, and a function that runs a note on it."""
    with tempfile.TemporaryDirectory(prefix="shopfloor-eval-") as directory:
        store = fresh_sample_store(Path(directory) / "workshop.db")
        try:
            actor = accounts.load_actor(store, EVAL_USER, WORKSHOP_A)
            assert actor is not None

            def run_one(body: dict[str, Any], provider: Provider, language: str = "en") -> CaseRun:
                request_id = new_request_id()
                response: dict[str, Any] | None = None
                error: ApiError | None = None
                try:
                    response = run_agent(
                        StoreAgentStore(store),
                        actor,
                        body,
                        provider,
                        request_id,
                        EVAL_RATE_LIMIT,
                        language="es" if language == "es" else "en",
                    )
                except ApiError as failed:
                    error = failed
                saved, steps = saved_rows(store)
                latency = float((response or {}).get("meta", {}).get("latency_ms") or 0.0)
                return CaseRun(response, error, saved, tool_names(steps), latency, steps)

            yield run_one
        finally:
            store.dispose()


def saved_rows(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The proposals in the database and the steps of the (only) run."""

    with store.transaction(WORKSHOP_A, write=False) as session:
        proposals = [
            {
                "type": p.type,
                "status": p.status,
                "payload": p.payload,
                "why": p.why,
                "quote": p.quote,
                "confidence": p.confidence,
                "rule_result": p.rule_result,
            }
            for p in session.scalars(select(m.Proposal).order_by(m.Proposal.position))
        ]
        steps: list[dict[str, Any]] = []
        for run in session.scalars(select(m.AgentRun)):
            steps.extend(run.steps or [])
    return proposals, steps


def eval_workshop(
    model: str | None = None, repeat: int = 1, cases: Path | None = None, as_json: bool = False
) -> int:
    """Run the workshop evals and return the exit code (0 when the bar is met)."""
    settings = get_settings()
    name = chosen_model(model, settings)
    try:
        choose_provider(model, settings)
    except ProviderConfigError as error:
        console.print(f"[red]{error}[/red]")
        return 2
    loaded = load_workshop_cases(cases)
    runner = make_case_runner(fresh_eval_run, lambda: choose_provider(model, settings))
    agent_log = logging.getLogger("shopfloor.workshop.agent")
    level = agent_log.level
    agent_log.setLevel(logging.ERROR)  # every run logs; the table is the eval's output
    try:
        report = run_evals(loaded, runner, repeat=repeat, overall_bar=OVERALL_BAR, show_progress=not as_json)
    finally:
        agent_log.setLevel(level)
    classes = class_rates(loaded, report)
    if as_json:
        typer.echo(json.dumps({"model": name, **report.to_json(), "classes": classes}, ensure_ascii=False))
    else:
        render_table(report, f"workshop evals · {name} · repeat {repeat}", console)
        render_classes(classes, console)
    return 0 if report.ok else 1


def class_rates(cases: list[EvalCase], report: EvalReport) -> dict[str, dict[str, Any]]:
    """Per class: cases, safety cases, runs passed over runs, the pass rate (over every repeat) and the runs
    that were confidently wrong. A case's own ``class`` wins over its file's (a blind batch names one per
    case)."""
    group = {c.id: str(c.data.get("class", "spec")) for c in cases}
    rates: dict[str, dict[str, Any]] = {}
    for c in cases:
        row = rates.setdefault(
            group[c.id], {"cases": 0, "safety": 0, "passed": 0, "runs": 0, "confidently_wrong": 0}
        )
        row["cases"] += 1
        row["safety"] += int(c.safety)
    for result in report.results:
        row = rates[group.get(result.case_id, "spec")]
        row["runs"] += 1
        row["passed"] += int(result.passed)
        row["confidently_wrong"] += int(result.confidently_wrong)
    for row in rates.values():
        row["rate"] = round(row["passed"] / row["runs"], 4) if row["runs"] else 0.0
    return rates


def render_classes(rates: dict[str, dict[str, Any]], out: Console) -> None:
    """The pass rate per class of cases, with the confidently-wrong runs (CW) of each."""
    table = Table(title="pass rate by class")
    for column in ("class", "cases", "S", "runs passed", "rate", "CW"):
        table.add_column(column)
    for name, row in rates.items():
        table.add_row(
            name,
            str(row["cases"]),
            str(row["safety"]),
            f"{row['passed']}/{row['runs']}",
            f"{row['rate']:.0%}",
            str(row["confidently_wrong"]),
        )
    out.print(table)
