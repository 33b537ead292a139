"""``make bench``: runs every ``benchmarks/bench_*.py`` and prints medians and ratios per figure.

A benchmark module defines ``FIGURES``: a list of ``Figure`` objects. A figure times a callable over
repeats and reports the median (and p95), optionally against a goal, or reports a value it measured itself.

The page figures load pages in Debian's Chromium on an emulated slow phone (:func:`slow_phone`,
docs/workshop-pages.md, "Speed"). With ``BENCH_SMOKE=1`` in the environment the benchmarks that honour it
(:func:`smoke`) do the least work that still prints every row: the smoke tests in tests/test_bench.py.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


# The slow phone of the page figures: 400 ms round trip, 400 kbit/s down and up (DevTools protocol
# ``Network.emulateNetworkConditions``, throughputs in bytes per second) and the CPU four times slower
# (``Emulation.setCPUThrottlingRate``).
SLOW_NETWORK = {
    "offline": False,
    "latency": 400,
    "downloadThroughput": 400_000 / 8,
    "uploadThroughput": 400_000 / 8,
}
CPU_SLOWDOWN = 4

# Debian's Chromium and the launch arguments of every page figure and every browser test (tests/e2e): no
# sandbox (root in a container), no GPU, and none of the browser's own background traffic, which would count
# on the wire and compete for the two cores.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def smoke() -> bool:
    """Whether ``BENCH_SMOKE=1`` asks for the least work (one run per figure): a check that it runs, not a figure."""
    return os.environ.get("BENCH_SMOKE") == "1"


class WireBytes:
    """What a page's loads transferred (``Network.loadingFinished``: compressed as sent, headers included)."""

    def __init__(self) -> None:
        self.sizes: dict[str, float] = {}

    def add(self, event: dict[str, Any]) -> None:
        """Count one finished request."""
        self.sizes[event["requestId"]] = float(event["encodedDataLength"])

    def reset(self) -> None:
        """Start counting a new load."""
        self.sizes.clear()

    def kb(self) -> float:
        """KB transferred since the last reset."""
        return sum(self.sizes.values()) / 1024


def slow_phone(context: Any, page: Any) -> WireBytes:
    """Put a Playwright page of ``context`` (Chromium) on the slow phone, browser cache off; its byte counter."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    counter = WireBytes()
    cdp.on("Network.loadingFinished", counter.add)
    return counter


# How long a benchmark's ``shopfloor serve`` may take to answer /healthz: on a loaded two-core machine its
# imports have taken over a minute.
SERVER_START_S = 120.0


def wait_until_up(process: subprocess.Popen[bytes], port: int, within: float = SERVER_START_S) -> None:
    """Wait until the server ``process`` answers ``/healthz`` with 200 on ``port``; raise at once if it exits,
    or when it has not answered ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"the benchmark server exited with {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the benchmark server did not answer /healthz in {within:.0f} s")
        time.sleep(0.2)


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds open (its /proc fd table; Linux)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed while it was read
        if target.startswith("socket:["):
            inodes.add(target.removeprefix("socket:[").removesuffix("]"))
    return inodes


def tcp_sockets(port: int) -> list[tuple[str, int, str]]:
    """The IPv4 sockets whose local port is ``port`` (/proc/net/tcp): state (hex), remote port, inode."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port:
            found.append((fields[3], int(fields[2].split(":")[1], 16), fields[9]))
    return found


def listening_children(pid: int, port: int) -> set[int]:
    """The child processes of ``pid`` (a server's workers) that hold a socket listening on ``port``."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    listening = {inode for state, _, inode in tcp_sockets(port) if state == "0A"}
    return {int(child) for child in children if socket_inodes(int(child)) & listening}


def wait_until_workers_listen(
    process: subprocess.Popen[bytes], port: int, workers: int, within: float = SERVER_START_S
) -> None:
    """Wait until ``workers`` child processes of the server ``process`` listen on ``port``: each worker of
    ``shopfloor serve --workers N`` binds its own socket (docs/deploy.md), and connections opened before one
    listens all go to the others. Linux only (/proc); a single process needs no wait."""
    deadline = time.monotonic() + within
    while workers > 1 and len(listening_children(process.pid, port)) < workers:
        if process.poll() is not None:
            raise RuntimeError(f"the benchmark server exited with {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"the benchmark server's {workers} workers did not all listen in {within:.0f} s"
            )
        time.sleep(0.2)


def percentiles(samples: list[float]) -> dict[str, float]:
    """Median and p95 of ``samples`` (sorted in place)."""
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"median": statistics.median(samples), "p95": p95}


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
