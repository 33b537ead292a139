"""The fuzz gate's loop, shared by the standing gate and the test that shows it can fail: schemathesis
generates requests from an OpenAPI document, a test client sends them, and schemathesis's own checks judge
each answer against the same document (docs/security.md, "Input limits").

The checks: no 5xx (``not_a_server_error``), the status is one the operation documents
(``status_code_conformance``), the media type is one documented for that status (``content_type_conformance``)
and the body matches the schema documented for it (``response_schema_conformance``): an error body must be the
``ErrorEnvelope`` component, a page ``text/html``.

Bounded so it stays a gate and not a soak: a fixed number of examples per operation and generation mode,
derandomized (the same requests every run, so a failure reproduces), and a time budget per operation (past it,
the operation's invalid requests are left out), so every operation is reached however slow the machine is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.errors import FailureGroup
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
REQUEST_KEYS = {"method", "url", "params", "headers", "json", "content", "data", "files"}


@dataclass
class Report:
    """What one run of the gate sent, the operations it reached ("GET /path") and what its checks found (one
    line per failed check)."""

    sent: int = 0
    reached: set[str] = field(default_factory=set)
    found: list[str] = field(default_factory=list)


def run_gate(
    document: dict[str, Any],
    client: TestClient,
    base_url: str,
    headers: dict[str, str] | None = None,
    examples: int = 4,
    budget_s: float = 5.0,
) -> Report:
    """Send ``examples`` generated requests for every operation of ``document`` (valid ones, then invalid ones
    unless the valid ones took ``budget_s``) through ``client`` at ``base_url`` and check every answer against
    ``document``. The client must not follow redirects: a 303 is an answer of the operation, checked as one."""
    schema = schemathesis.openapi.from_dict(document)
    report = Report()
    for result in schema.get_all_operations():
        operation = result.ok()
        started = time.monotonic()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            if time.monotonic() - started > budget_s:
                break

            @settings(
                max_examples=examples,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode))
            def send(case: Any) -> None:
                kwargs = case.as_transport_kwargs(base_url=base_url, headers=headers or {})
                # Cookies go on the client (one request's cookies only), not per request.
                client.cookies.clear()
                for name, value in (kwargs.pop("cookies", None) or {}).items():
                    client.cookies.set(name, str(value))
                if isinstance(kwargs.get("data"), (bytes, str)):
                    kwargs["content"] = kwargs.pop("data")  # raw bodies are content, form fields are data
                response = client.request(**{k: v for k, v in kwargs.items() if k in REQUEST_KEYS})
                report.sent += 1
                report.reached.add(f"{case.method.upper()} {case.operation.path}")
                try:
                    case.validate_response(response, checks=CHECKS)
                except FailureGroup as failures:
                    for failure in failures.exceptions:
                        report.found.append(
                            f"{case.method} {case.formatted_path} → {response.status_code}"
                            f" {response.headers.get('content-type', '-')}: {type(failure).__name__}:"
                            f" {failure.message[:300]} | {response.text[:200]}"
                        )

            try:
                send()
            except Unsatisfiable:
                pass  # nothing in this operation can be made invalid (no parameters, no body)
    return report
