"""The investigator's worker processes: they answer through a real server, and a server killed outright
(SIGKILL, no lifespan shutdown) leaves none of them, nor their fork server, behind (docs/security.md, "The
/shifts routes")."""

from __future__ import annotations

import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from shopfloor.shifts.pages.work import alive
from tests.e2e.conftest import free_port, python_command, serve
from tests.e2e.shifts.conftest import build_store, shifts_env


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def cmdline(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode(errors="replace")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table from /proc")
def test_a_killed_server_leaves_no_worker_processes(tmp_path: Path):
    store = build_store(tmp_path / "shifts.duckdb")
    port = free_port()
    env = shifts_env(tmp_path, store, SHOPFLOOR_WORKSHOP_DB=f"sqlite:///{tmp_path / 'w.db'}")
    with serve(
        python_command("serve", "--port", str(port)), env, port, "/healthz", tmp_path / "log"
    ) as server:
        address = f"{server.base_url}/shifts/a.json?day=2026-09-14&shift=2&measure=overview"
        with urllib.request.urlopen(address, timeout=60) as r:
            assert r.status == 200
        forkservers = [p for p in children(server.process.pid) if "multiprocessing.forkserver" in cmdline(p)]
        assert len(forkservers) == 1
        workers = children(forkservers[0])
        assert len(workers) >= 1  # the answer came from a worker process, not the server
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        deadline = time.monotonic() + 15
        while any(alive(p) for p in [*forkservers, *workers]) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [p for p in [*forkservers, *workers] if alive(p)] == []
