"""One logging setup: JSON lines on stderr (and optionally a file), with the request id bound per context.

Every log record carries ``request_id`` from a context variable that the web middleware (or a CLI run)
sets, so all events of one request or agent run share one id.
"""

from __future__ import annotations

import contextvars
import json
import logging
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

_RESERVED = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def new_request_id() -> str:
    """A fresh request id: ``req_`` and 12 hex digits (docs/architecture.md, "Errors")."""
    return f"req_{secrets.token_hex(6)}"


@contextmanager
def bound_request_id(request_id: str) -> Iterator[str]:
    """Bind ``request_id`` to every log record emitted inside the block."""
    token = request_id_var.set(request_id)
    try:
        yield request_id
    finally:
        request_id_var.reset(token)


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object per line; extra fields become keys."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id_var.get(),
        }
        for key, value in record.__dict__.items():
            if key not in _RESERVED and key not in data and not key.startswith("_"):
                data[key] = value
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


def configure_logging(level: str = "INFO", log_file: Path | None = None) -> None:
    """Install the JSON-lines handler on the root ``shopfloor`` logger (idempotent)."""
    logger = logging.getLogger("shopfloor")
    logger.setLevel(level.upper())
    logger.propagate = False
    for handler in list(logger.handlers):
        if getattr(handler, "_shopfloor", False):
            logger.removeHandler(handler)
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(JsonFormatter())
        handler._shopfloor = True  # type: ignore[attr-defined]
        logger.addHandler(handler)


def get_logger(name: str) -> logging.Logger:
    """A logger under the ``shopfloor`` namespace."""
    return logging.getLogger(name if name.startswith("shopfloor") else f"shopfloor.{name}")
