"""One logging setup (JSON lines, the request id bound) and one settings object (SHOPFLOOR_*)."""

import json
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.logs import bound_request_id, configure_logging, get_logger
from shopfloor.server.app import create_app
from shopfloor.settings import Settings, get_settings, provider_key


@pytest.fixture
def log_file(tmp_path):
    """JSON-lines logging into a file for one test; the ``shopfloor`` logger is restored afterwards."""
    logger = logging.getLogger("shopfloor")
    saved = (list(logger.handlers), logger.propagate, logger.level)
    path = tmp_path / "logs" / "shopfloor.jsonl"
    configure_logging("INFO", path)
    yield path
    for handler in logger.handlers:
        handler.close()
    logger.handlers[:] = saved[0]
    logger.propagate, logger.level = saved[1], saved[2]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_record_is_one_json_line_with_the_bound_request_id_and_extra_keys(log_file):
    log = get_logger("demo")
    with bound_request_id("req_0123456789ab"):
        log.info("demo.event", extra={"tool": "lookup", "duration_ms": 3})
    log.warning("outside")
    first, second = lines(log_file)
    assert first["event"] == "demo.event" and first["logger"] == "shopfloor.demo"
    assert first["request_id"] == "req_0123456789ab" and first["level"] == "info"
    assert first["tool"] == "lookup" and first["duration_ms"] == 3
    assert second["request_id"] is None and second["level"] == "warning"


def test_an_exception_is_kept_in_one_line(log_file):
    try:
        raise ValueError("bad thing")
    except ValueError:
        get_logger("demo").exception("demo.failed")
    (record,) = lines(log_file)
    assert "ValueError: bad thing" in record["exc"]


def test_configuring_twice_keeps_one_handler_per_destination(log_file):
    configure_logging("DEBUG", log_file)
    ours = [h for h in logging.getLogger("shopfloor").handlers if getattr(h, "_shopfloor", False)]
    assert len(ours) == 2  # stderr and the file, not four
    get_logger("demo").debug("once")
    assert [r["event"] for r in lines(log_file)] == ["once"]


def test_a_request_binds_its_id_to_every_log_line_of_that_request(log_file):
    app = create_app(Settings())

    @app.get("/_log")
    def log_something() -> dict[str, bool]:
        get_logger("demo").info("inside.request")
        return {"ok": True}

    response = TestClient(app).get("/_log", headers={"x-request-id": "req_aaaabbbbcccc"})
    assert response.headers["x-request-id"] == "req_aaaabbbbcccc"
    (record,) = [r for r in lines(log_file) if r["event"] == "inside.request"]
    assert record["request_id"] == "req_aaaabbbbcccc"


def test_settings_come_from_shopfloor_variables(monkeypatch, tmp_path):
    monkeypatch.setenv("SHOPFLOOR_VAR_DIR", str(tmp_path))
    monkeypatch.setenv("SHOPFLOOR_PORT", "8123")
    settings = Settings()
    assert settings.port == 8123 and settings.host == "127.0.0.1" and settings.model == "offline"
    assert settings.shifts_db_path() == tmp_path / "shifts.duckdb"
    assert settings.workshop_db_url() == f"sqlite:///{(tmp_path / 'workshop.db').as_posix()}"
    monkeypatch.setenv("SHOPFLOOR_SHIFTS_DB", str(tmp_path / "elsewhere.duckdb"))
    assert Settings().shifts_db_path() == tmp_path / "elsewhere.duckdb"
    monkeypatch.setenv("SHOPFLOOR_PORT", "not a port")
    with pytest.raises(ValueError):
        Settings()


def test_get_settings_is_one_cached_object(monkeypatch):
    get_settings.cache_clear()
    try:
        assert get_settings() is get_settings()
    finally:
        get_settings.cache_clear()


def test_provider_keys_come_from_the_environment_only(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    assert provider_key("gemini") is None
    monkeypatch.setenv("GEMINI_API_KEY", "k-123")
    assert provider_key("gemini") == "k-123"
    assert provider_key("nobody") is None
    assert "k-123" not in repr(Settings())


def test_the_session_key_is_made_once_in_the_var_directory_unless_set(tmp_path):
    made = Settings(var_dir=tmp_path / "var").session_secret()
    path = tmp_path / "var" / "secret-key"
    assert len(made) >= 32 and path.read_text() == made
    assert path.stat().st_mode & 0o777 == 0o600
    assert Settings(var_dir=tmp_path / "var").session_secret() == made  # a restart or a second process
    assert Settings(var_dir=tmp_path / "other").session_secret() != made
    assert Settings(var_dir=tmp_path / "var", secret_key="from-the-environment").session_secret() == (
        "from-the-environment"
    )
    path.write_text("short")
    with pytest.raises(RuntimeError, match="no usable key"):
        Settings(var_dir=tmp_path / "var").session_secret()
