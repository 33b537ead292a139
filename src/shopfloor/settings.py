"""The one settings object. Every knob is an environment variable with the ``SHOPFLOOR_`` prefix.

Provider keys are the exception: they keep their providers' usual names (``GEMINI_API_KEY``,
``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY``) and are read from the environment only, never from files,
and never logged or echoed.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

KEY_ENV = {"gemini": "GEMINI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


class Settings(BaseSettings):
    """Runtime configuration, read from ``SHOPFLOOR_*`` environment variables."""

    model_config = SettingsConfigDict(env_prefix="SHOPFLOOR_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    var_dir: Path = Path("var")
    log_level: str = "INFO"
    log_file: Path | None = None

    # Signs session cookies; the default is only for local use and is replaced on first `prepare`.
    secret_key: SecretStr = SecretStr("dev-only-change-me")

    # Workshop store: SQLite file by default, PostgreSQL URL for many users.
    workshop_db: str | None = None
    # Shifts record store (DuckDB file).
    shifts_db: Path | None = None

    # "offline" (deterministic planners, the default), or a model name such as gemini-2.5-flash-lite.
    model: str = "offline"
    # Which provider serves a live model when `model` does not say; gemini is the default live provider.
    provider: str | None = None

    max_body_bytes: int = Field(default=64 * 1024, description="Largest accepted request body")
    workshop_rate_limit_per_hour: int = 20

    def workshop_db_url(self) -> str:
        """The SQLAlchemy URL of the workshop store."""
        if self.workshop_db:
            return self.workshop_db
        return f"sqlite:///{(self.var_dir / 'workshop.db').as_posix()}"

    def shifts_db_path(self) -> Path:
        """The DuckDB file of the shifts record store."""
        return self.shifts_db or self.var_dir / "shifts.duckdb"

    def shifts_xml_dir(self) -> Path:
        """Where the generated day files of the shifts record store are written."""
        return self.var_dir / "shifts-xml"

    def shifts_answer_keys_path(self) -> Path:
        """The planted scenarios' answer keys (read by the shifts eval runner only)."""
        return self.var_dir / "shifts-answer-keys.json"


def provider_key(provider: str) -> str | None:
    """The API key for ``provider`` from the environment, or None. Never log the result."""
    name = KEY_ENV.get(provider)
    return os.environ.get(name) or None if name else None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (cached; tests call ``get_settings.cache_clear()`` after changing env)."""
    return Settings()
