"""The eval harness: cases as data, a runner with repeats, a Rich table and a JSON report.

Apps supply the cases and a function that runs and scores one case in code (no model judge). Safety cases
must pass on every repeat; the overall bar is a pass ratio over all runs. The exit code says whether the
bar was met.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.progress import Progress
from rich.table import Table


@dataclass(frozen=True)
class EvalCase:
    """One case: an id, whether it is a safety case, and the app's own fields."""

    id: str
    safety: bool
    data: dict[str, Any]


@dataclass
class CaseResult:
    """The score of one run of one case."""

    case_id: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = 0.0
    latency_ms: float = 0.0
    safety: bool = False
    repeat: int = 0
    # A failed run whose answer claimed certainty (a pending card at ``high``, an answer marked ``complete``):
    # the app's scorer sets it; the report counts it apart, because it is the failure a busy person trusts.
    confidently_wrong: bool = False


@dataclass
class EvalReport:
    """All runs of all cases, with the bar they are held to."""

    results: list[CaseResult]
    repeat: int
    overall_bar: float

    @property
    def safety_ok(self) -> bool:
        """Every safety case passed on every repeat."""
        return all(r.passed for r in self.results if r.safety)

    @property
    def pass_ratio(self) -> float:
        """Passed runs over all runs."""
        return sum(r.passed for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def confidently_wrong(self) -> int:
        """Runs that failed while claiming certainty (``CaseResult.confidently_wrong``)."""
        return sum(r.confidently_wrong for r in self.results)

    @property
    def ok(self) -> bool:
        """The bar was met: enough runs passed, every safety run passed, none was confidently wrong."""
        return (
            bool(self.results)
            and self.safety_ok
            and self.pass_ratio >= self.overall_bar
            and self.confidently_wrong == 0
        )

    def latency_percentile(self, pct: float) -> float:
        """Latency percentile in milliseconds over all runs."""
        values = sorted(r.latency_ms for r in self.results)
        if not values:
            return 0.0
        if len(values) == 1:
            return values[0]
        return statistics.quantiles(values, n=100, method="inclusive")[int(pct) - 1]

    def to_json(self) -> dict[str, Any]:
        """The machine-readable report."""
        costs = [r.cost_usd for r in self.results]
        return {
            "ok": self.ok,
            "safety_ok": self.safety_ok,
            "pass_ratio": round(self.pass_ratio, 4),
            "confidently_wrong": self.confidently_wrong,
            "overall_bar": self.overall_bar,
            "repeat": self.repeat,
            "tokens_in": sum(r.tokens_in for r in self.results),
            "tokens_out": sum(r.tokens_out for r in self.results),
            "cost_usd": None if any(c is None for c in costs) else round(sum(c or 0.0 for c in costs), 6),
            "latency_ms": {"p50": self.latency_percentile(50), "p95": self.latency_percentile(95)},
            "results": [asdict(r) for r in self.results],
        }


def load_cases(path: Path) -> list[EvalCase]:
    """Read cases from a YAML file holding a list of mappings with ``id`` and ``safety`` (a ``known_gap``
    case is no safety case while it is marked)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = raw.get("cases", raw) if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a list of cases")
    cases = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, dict) or "id" not in item:
            raise ValueError(f"{path}: every case needs an id")
        case_id = str(item["id"])
        if case_id in seen:
            raise ValueError(f"{path}: duplicate case id {case_id!r}")
        seen.add(case_id)
        # A case marked ``known_gap`` (read wrong today, with its reason) is held to failing safely, the
        # confidently-wrong count, not to the safety bar of passing (evals/README.md).
        safety = bool(item.get("safety", False)) and not item.get("known_gap")
        cases.append(EvalCase(case_id, safety, item))
    return cases


def run_evals(
    cases: Sequence[EvalCase],
    run_case: Callable[[EvalCase], CaseResult],
    repeat: int = 1,
    overall_bar: float = 0.9,
    show_progress: bool = True,
) -> EvalReport:
    """Run every case ``repeat`` times (with a progress bar) and collect the scores."""
    results: list[CaseResult] = []
    with Progress(transient=True, disable=not show_progress) as progress:
        task = progress.add_task("evaluating", total=len(cases) * repeat)
        for rep in range(1, repeat + 1):
            for case in cases:
                t0 = time.perf_counter()
                try:
                    result = run_case(case)
                except Exception as error:  # a crashing case is a failed case, not a crashed run
                    result = CaseResult(case.id, False, [f"crashed: {type(error).__name__}: {error}"])
                if not result.latency_ms:
                    result.latency_ms = (time.perf_counter() - t0) * 1000
                result.safety = case.safety
                result.repeat = rep
                results.append(result)
                progress.advance(task)
    return EvalReport(results, repeat, overall_bar)


def render_table(report: EvalReport, title: str, console: Console | None = None) -> None:
    """Print pass/fail per case with tokens, cost and latency, then the totals and the verdict."""
    console = console or Console()
    table = Table(title=title)
    for column in ("case", "S", "passed", "CW", "tokens in/out", "cost $", "p50 ms", "failures"):
        table.add_column(column)
    by_case: dict[str, list[CaseResult]] = {}
    for r in report.results:
        by_case.setdefault(r.case_id, []).append(r)
    for case_id, runs in by_case.items():
        passed = sum(r.passed for r in runs)
        costs = [r.cost_usd for r in runs]
        cost = "?" if any(c is None for c in costs) else f"{sum(c or 0.0 for c in costs):.4f}"
        failures = "; ".join(dict.fromkeys(f for r in runs for f in r.failures))
        table.add_row(
            case_id,
            "S" if runs[0].safety else "",
            f"{passed}/{len(runs)}",
            str(sum(r.confidently_wrong for r in runs) or ""),
            f"{sum(r.tokens_in for r in runs)}/{sum(r.tokens_out for r in runs)}",
            cost,
            f"{statistics.median(r.latency_ms for r in runs):.1f}",
            failures[:160],
        )
    console.print(table)
    data = report.to_json()
    verdict = "[green]PASS[/green]" if report.ok else "[red]FAIL[/red]"
    console.print(
        f"{verdict} pass ratio {data['pass_ratio']:.0%} (bar {report.overall_bar:.0%}), "
        f"confidently wrong {report.confidently_wrong}, "
        f"safety {'ok' if report.safety_ok else 'FAILED'}, p50 {data['latency_ms']['p50']:.1f} ms, "
        f"p95 {data['latency_ms']['p95']:.1f} ms, cost ${data['cost_usd'] if data['cost_usd'] is not None else '?'}"
    )


def subset_match(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Fields of ``expected`` whose values differ in ``actual`` (fields not given are not checked)."""
    return [f"{k}: expected {v!r}, got {actual.get(k)!r}" for k, v in expected.items() if actual.get(k) != v]


def match_all(expected: Iterable[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    """Match expected items to actual items one-to-one, in any order; return what did not match."""
    remaining = list(actual)
    problems = []
    for want in expected:
        hit = next((a for a in remaining if not subset_match(want, a)), None)
        if hit is None:
            problems.append(f"missing {want}")
        else:
            remaining.remove(hit)
    problems.extend(f"unexpected {a}" for a in remaining)
    return problems
