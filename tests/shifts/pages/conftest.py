"""The hand-built record store of the investigation tests, and a client of the app over it, for the page tests."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from tests.shifts.investigation.conftest import store_path

__all__ = ["page_client", "store_path"]

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def page_client(store_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Both apps over the hand-built store, with a var directory of the module's own."""
    app = create_app(Settings(shifts_db=store_path, var_dir=tmp_path_factory.mktemp("var")))
    with TestClient(app, raise_server_exceptions=False, base_url=BASE) as c:
        yield c
