"""Load a directory of day files into the record store: each file gets its own verdict, and each day lands
whole or not at all (docs/record-format.md, section 3)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from shopfloor.shifts.records import store
from shopfloor.shifts.records.intake import (
    MAX_DAY_BYTES,
    DayRejected,
    IntakeResult,
    iter_day_files,
    parse_date,
    read_day,
)

log = logging.getLogger("shopfloor.shifts.ingest")

BATCH_DAYS = 20
MAX_MANIFEST_BYTES = 10_000_000  # a year's manifest is about 60 KB


@dataclass
class IngestReport:
    """What an ingest run loaded, excluded and rejected."""

    loaded: list[date] = field(default_factory=list)
    excluded: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (file, message)
    manifest: dict[str, Any] | None = None


class BadManifest(Exception):
    """``manifest.json`` is there but unreadable: the day hashes cannot be checked, so nothing loads."""


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The generator's manifest in ``directory``, or None when there is none. Raises ``BadManifest``
    when it is not JSON or its ``days`` entries lack a ``file`` and ``sha256``."""
    path = directory / "manifest.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes()[:MAX_MANIFEST_BYTES].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadManifest(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("days", []), list):
        raise BadManifest("expected an object with a list of days")
    for entry in data.get("days", []):
        if not (isinstance(entry, dict) and isinstance(entry.get("file"), str)):
            raise BadManifest("every day entry needs a file name and a sha256")
        if not isinstance(entry.get("sha256"), str):
            raise BadManifest("every day entry needs a file name and a sha256")
    return data


def read_limited(path: Path) -> bytes:
    """At most one byte past the size limit, so an oversized file is refused without reading it all.

    Only a regular file is read: a FIFO or device is refused before it is opened (opening a FIFO waits for a
    writer), and the file is opened without blocking and checked again, in case it was swapped meanwhile."""
    _regular(os.stat(path).st_mode)
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _regular(os.fstat(handle).st_mode)
        with os.fdopen(handle, "rb", closefd=False) as file:
            return file.read(MAX_DAY_BYTES + 1)
    finally:
        os.close(handle)


_KINDS = {stat.S_IFDIR: "a directory", stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket"}


def _regular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = _KINDS.get(stat.S_IFMT(mode), "a device")
        raise DayRejected(f"cannot be read: not a regular file ({kind})")


def file_day(name: str) -> date:
    """The production day a ``YYYY-MM-DD.xml`` file name says; raises ``DayRejected`` for a date that does not
    exist (``2026-02-30.xml``)."""
    try:
        return parse_date(name.removesuffix(".xml"))
    except ValueError as error:
        raise DayRejected(f"file name {error}") from None


def read_file(path: Path, expected_sha256: str | None = None) -> IntakeResult:
    """Read and check one day file (nothing is written). Raises ``DayRejected``."""
    day = file_day(path.name)
    try:
        raw = read_limited(path)
    except OSError as exc:
        raise DayRejected(f"cannot be read: {exc.strerror}") from None
    if expected_sha256 is not None and len(raw) <= MAX_DAY_BYTES:
        actual = hashlib.sha256(raw).hexdigest()
        if actual != expected_sha256:
            raise DayRejected("contents do not match the manifest's sha256")
    return read_day(raw, file_name=path.name, file_day=day)


def check_file(path: Path, expected_sha256: str | None = None) -> IntakeResult:
    """:func:`read_file`, with any other failure while checking the file turned into its rejection: one file's
    fault never stops the others (the traceback goes to the log)."""
    try:
        return read_file(path, expected_sha256)
    except DayRejected:
        raise
    except Exception as error:
        log.exception("shifts.ingest.check_failed", extra={"file": path.name})
        raise DayRejected(f"could not be checked ({type(error).__name__}: {error})") from None


def ingest_file(conn: duckdb.DuckDBPyConnection, path: Path, expected_sha256: str | None = None) -> int:
    """Ingest one day file in one transaction (replacing that day). Returns the excluded setups;
    raises ``DayRejected`` and writes nothing for a structural fault."""
    result = read_file(path, expected_sha256)
    store.replace_day(conn, result.rows)
    return len(result.excluded)


def ingest_directory(
    conn: duckdb.DuckDBPyConnection,
    directory: Path,
    progress: Callable[[int, int], None] | None = None,
) -> IngestReport:
    """Ingest every ``YYYY-MM-DD.xml`` in ``directory``. Each file gets its own verdict: a rejected day is
    reported with its reason and skipped, and the store keeps whatever it held for that day. Checked days
    are written in groups of ``BATCH_DAYS``, each group in one transaction; a group the store refuses is
    written again one day per transaction, so every day lands whole or not at all and a day that cannot be
    written is reported alone. A store error that is not about one day (the disk is gone) is raised."""
    report = IngestReport()
    try:
        report.manifest = read_manifest(directory)
    except BadManifest as exc:
        report.rejected.append(("manifest.json", str(exc)))
        return report
    hashes = {e["file"]: e["sha256"] for e in (report.manifest or {}).get("days", [])}
    names = _day_names(directory, report)
    previous_last = conn.execute("SELECT max(day) FROM days").fetchone()
    last_day = previous_last[0] if previous_last else None
    out_of_order = False
    pending: list[IntakeResult] = []
    for i, name in enumerate(names):
        try:
            result = check_file(directory / name, hashes.get(name))
        except DayRejected as exc:
            report.rejected.append((name, str(exc)))
        else:
            pending.append(result)
            if last_day is not None and result.day <= last_day:
                out_of_order = True
            last_day = result.day if last_day is None else max(last_day, result.day)
            if len(pending) >= BATCH_DAYS:
                _write_batch(conn, pending, report)
        if progress:
            progress(i + 1, len(names))
    _write_batch(conn, pending, report)
    if out_of_order:
        store.sort_tables(conn)
    if report.manifest:
        _record_manifest(conn, report.manifest)
    return report


def _day_names(directory: Path, report: IngestReport) -> list[str]:
    """The day files of ``directory`` in date order; any other name ending in any case of ".xml" is added to
    the report's rejections with its reason, never skipped in silence ("2026-09-14.XML")."""
    all_names = [p.name for p in directory.iterdir()]
    names = iter_day_files(all_names)
    for stray in sorted(n for n in all_names if n.lower().endswith(".xml") and n not in names):
        reason = "file name must be YYYY-MM-DD.xml (the production day)"
        if not stray.endswith(".xml"):
            reason = "file name must end in lower-case .xml (YYYY-MM-DD.xml, the production day)"
        report.rejected.append((stray, reason))
    return names


def _loaded(report: IngestReport, result: IntakeResult) -> None:
    report.loaded.append(result.day)
    report.excluded += len(result.excluded)


def _write_batch(conn: duckdb.DuckDBPyConnection, pending: list[IntakeResult], report: IngestReport) -> None:
    """Write the checked days in ``pending`` in one transaction and empty it. If the store refuses the group,
    write it again one day per transaction so a day the store refuses is named alone; when it refuses every
    day, the store itself is at fault (full, gone), and that is raised."""
    try:
        store.replace_days(conn, [r.rows for r in pending])
    except duckdb.Error:
        refused: list[tuple[IntakeResult, duckdb.Error]] = []
        written: list[IntakeResult] = []
        for r in pending:
            try:
                store.replace_day(conn, r.rows)
            except duckdb.Error as error:
                refused.append((r, error))
            else:
                written.append(r)
        if not written:
            raise
        for r in written:
            _loaded(report, r)
        for r, problem in refused:
            report.rejected.append((f"{r.day.isoformat()}.xml", f"could not be written: {problem}"))
    else:
        for r in pending:
            _loaded(report, r)
    pending.clear()


def _record_manifest(conn: duckdb.DuckDBPyConnection, m: dict[str, Any]) -> None:
    """The manifest's generator, seed, date and planted scenarios, with the schema version, in the store's
    meta table."""
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
