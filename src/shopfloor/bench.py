"""``make bench``: runs every ``benchmarks/bench_*.py`` and prints medians and ratios per figure.

A benchmark module defines ``FIGURES``: a list of ``Figure`` objects. A figure times a callable over
repeats and reports the median (and p95), optionally against a goal, or reports a value it measured itself.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table


@dataclass
class Figure:
    """One benchmark figure. ``fn`` is timed ``repeat`` times unless ``measure`` reports its own value."""

    name: str
    fn: Callable[[], object] | None = None
    repeat: int = 20
    unit: str = "ms"
    goal: float | None = None  # in `unit`; lower is better unless higher_is_better
    higher_is_better: bool = False
    goal_on: str = "median"  # which statistic the goal is about: "median" or "p95"
    measure: Callable[[], dict[str, float]] | None = None  # returns {"median": x, "p95": y, ...}
    per: int = 1  # divide each timing by this (e.g. per dispatch)
    setup: Callable[[], object] | None = None


def time_figure(fig: Figure) -> dict[str, float]:
    """Median and p95 of ``fig.fn`` in ``fig.unit`` (ms or us)."""
    assert fig.fn is not None
    scale = 1000.0 if fig.unit == "ms" else 1_000_000.0
    fig.fn()  # warm-up
    samples = []
    for _ in range(fig.repeat):
        t0 = time.perf_counter()
        fig.fn()
        samples.append((time.perf_counter() - t0) * scale / fig.per)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"median": statistics.median(samples), "p95": p95}


def load_figures(root: Path) -> list[tuple[str, Figure]]:
    """Every figure of every ``bench_*.py`` under ``root``, by module."""
    found: list[tuple[str, Figure]] = []
    for path in sorted(root.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.extend((path.stem, fig) for fig in getattr(module, "FIGURES", []))
    return found


def _table(module: str) -> Table:
    table = Table(title=f"{module.removeprefix('bench_')} (medians)", title_justify="left")
    # Long figure names fold onto more lines instead of being cut, so a narrow terminal still reads.
    table.add_column("figure", overflow="fold", ratio=1)
    for column in ("median", "p95", "goal", "ratio", "verdict"):
        table.add_column(column, no_wrap=True)
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks whose module or figure name contains any of ``argv``; one table per module."""
    argv = sys.argv[1:] if argv is None else argv
    # Piped into a file, Rich would assume 80 columns; give the tables room unless COLUMNS says otherwise.
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    console = Console(width=140) if wide else Console()
    tables: dict[str, Table] = {}
    for module, fig in load_figures(Path("benchmarks")):
        if argv and not any(a in module or a in fig.name for a in argv):
            continue
        if fig.setup is not None:
            fig.setup()
        with console.status(f"{module}: {fig.name}"):
            result = fig.measure() if fig.measure else time_figure(fig)
        table = tables.setdefault(module, _table(module))
        median = result["median"]
        ratio = verdict = ""
        if fig.goal:
            judged = result.get(fig.goal_on, median)
            ratio = f"{judged / fig.goal:.2f}×" + (" p95" if fig.goal_on == "p95" else "")
            ok = judged >= fig.goal if fig.higher_is_better else judged <= fig.goal
            verdict = "[green]meets[/green]" if ok else "[red]misses[/red]"
        p95 = result.get("p95")
        table.add_row(
            fig.name,
            f"{median:.3f} {fig.unit}",
            f"{p95:.3f} {fig.unit}" if p95 is not None else "",
            f"{fig.goal} {fig.unit}" if fig.goal else "",
            ratio,
            verdict,
        )
        for key, value in result.items():
            if key not in {"median", "p95"}:
                shown = f"{value:.3f}" if isinstance(value, float) else str(value)
                table.add_row(f"  {key}", shown, "", "", "", "")
    for table in tables.values():
        console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
