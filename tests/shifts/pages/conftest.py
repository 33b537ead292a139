"""The hand-built record store of the investigation tests, for the page tests."""

from tests.shifts.investigation.conftest import store_path

__all__ = ["store_path"]
