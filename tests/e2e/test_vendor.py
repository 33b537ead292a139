"""The vendored browser files are exactly the ones the vendor README names (package, version, sha256)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "src" / "shopfloor" / "web" / "static" / "vendor"
ROW = re.compile(
    r"^\| `(?P<file>[^`]+)` \| `(?P<package>[^`]+)` \| (?P<version>[\d.]+) \| [^|]+ \| (?P<licence>[^|]+) \|"
    r" `(?P<sha>[0-9a-f]{64})` \|$"
)


def _rows() -> list[re.Match[str]]:
    return [m for line in (VENDOR / "README.md").read_text().splitlines() if (m := ROW.match(line))]


def test_every_vendored_file_matches_its_recorded_sha256() -> None:
    rows = _rows()
    assert {r["package"] for r in rows} == {"htmx.org", "jsqr", "axe-core"}
    for row in rows:
        path = ROOT / row["file"] if "/" in row["file"] else VENDOR / row["file"]
        assert path.is_file(), row["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == row["sha"], row["file"]
        assert row["version"] in path.name, "the file name carries the version it was copied from"


def test_every_shipped_vendor_file_is_listed() -> None:
    listed = {r["file"] for r in _rows()}
    shipped = {p.name for p in VENDOR.iterdir() if p.suffix == ".js"}
    assert shipped <= listed


def test_a_shipped_apache_licensed_file_travels_with_its_licence_text() -> None:
    rows = _rows()
    texts = {(r["package"], r["version"]) for r in rows if r["file"].endswith(".LICENSE")}
    shipped = [r for r in rows if "/" not in r["file"] and r["file"].endswith(".js")]
    assert any(r["licence"].startswith("Apache-2.0") for r in shipped)
    for row in shipped:
        if row["licence"].startswith("Apache-2.0"):
            assert (row["package"], row["version"]) in texts, row["file"]
    for package, version in texts:
        text = (VENDOR / f"{package}-{version}.LICENSE").read_text()
        assert "Apache License" in text and "Version 2.0" in text
