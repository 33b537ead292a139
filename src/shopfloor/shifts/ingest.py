"""Load a directory of day files into the record store, one transaction per day."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from shopfloor.shifts import store
from shopfloor.shifts.intake import MAX_DAY_BYTES, DayRejected, iter_day_files, read_day


@dataclass
class IngestReport:
    """What an ingest run loaded, excluded and rejected."""

    loaded: list[date] = field(default_factory=list)
    excluded: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (file, message)
    manifest: dict[str, Any] | None = None


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The generator's manifest in ``directory``, or None when there is none."""
    path = directory / "manifest.json"
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def read_limited(path: Path) -> bytes:
    """At most one byte past the size limit, so an oversized file is refused without reading it all."""
    with path.open("rb") as handle:
        return handle.read(MAX_DAY_BYTES + 1)


def ingest_file(conn: duckdb.DuckDBPyConnection, path: Path, expected_sha256: str | None = None) -> int:
    """Ingest one day file (replacing that day). Returns excluded setups; raises ``DayRejected``."""
    raw = read_limited(path)
    if expected_sha256 is not None and len(raw) <= MAX_DAY_BYTES:
        actual = hashlib.sha256(raw).hexdigest()
        if actual != expected_sha256:
            raise DayRejected("contents do not match the manifest's sha256")
    result = read_day(raw, file_name=path.name, file_day=date.fromisoformat(path.stem))
    store.replace_day(conn, result.rows)
    return len(result.excluded)


def ingest_directory(
    conn: duckdb.DuckDBPyConnection,
    directory: Path,
    progress: Callable[[int, int], None] | None = None,
) -> IngestReport:
    """Ingest every ``YYYY-MM-DD.xml`` in ``directory``. A rejected day is reported and skipped; the
    store keeps whatever it held for that day."""
    report = IngestReport(manifest=read_manifest(directory))
    hashes = {e["file"]: e["sha256"] for e in (report.manifest or {}).get("days", [])}
    names = iter_day_files(p.name for p in directory.iterdir())
    previous_last = conn.execute("SELECT max(day) FROM days").fetchone()
    last_day = previous_last[0] if previous_last else None
    out_of_order = False
    for i, name in enumerate(names):
        try:
            report.excluded += ingest_file(conn, directory / name, hashes.get(name))
            day = date.fromisoformat(name[:10])
            report.loaded.append(day)
            if last_day is not None and day <= last_day:
                out_of_order = True
            last_day = day if last_day is None else max(last_day, day)
        except DayRejected as exc:
            report.rejected.append((name, str(exc)))
        if progress:
            progress(i + 1, len(names))
    if out_of_order:
        store.sort_tables(conn)
    if report.manifest:
        m = report.manifest
        store.set_meta(
            conn,
            {
                "schema_version": store.SCHEMA_VERSION,
                "generator": str(m.get("generator", "")),
                "seed": str(m.get("seed", "")),
                "as_of": str(m.get("as_of", "")),
                "planted_scenarios": str(m.get("planted_scenarios", 0)),
            },
        )
    return report
