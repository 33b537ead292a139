"""``shopfloor workshop note`` and ``shopfloor eval workshop``: the agent from the command line.

``note --json`` prints exactly the body the HTTP route answers (or its error envelope, with exit code 1), so
scripts and the route agree. Without ``--json`` the cards are shown as a table.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from shopfloor.agent.providers.factory import ProviderConfigError
from shopfloor.logs import bound_request_id, new_request_id
from shopfloor.settings import Settings, get_settings
from shopfloor.web.errors import ApiError
from shopfloor.workshop import accounts
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.provider_choice import choose_provider
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.store import Store, open_store

console = Console()


def body_json(data: dict[str, Any]) -> str:
    """JSON exactly as the HTTP route serialises it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


def error_body(error: ApiError, request_id: str) -> dict[str, Any]:
    """The error envelope of the HTTP route."""
    return {"error": {"code": error.code, "message": error.message, "request_id": request_id}, **error.extra}


def note_command(
    text: str = typer.Argument(..., help="The note, in Spanish or English."),
    as_email: str = typer.Option(..., "--as", help="Run as this user (email)."),
    mode: str = typer.Option("typed", "--mode", help="typed or voice."),
    hat_tag: str | None = typer.Option(None, "--hat-tag", help="The hat the note is about, e.g. TQ-7F3K2."),
    model: str | None = typer.Option(None, "--model", help="offline, or a live model name."),
    as_json: bool = typer.Option(False, "--json", help="Print the HTTP response body."),
) -> None:
    """Turn a note into proposal cards, exactly as POST /functions/v1/workshop-agent does."""
    settings = get_settings()
    request_id = new_request_id()
    store = open_store(settings.workshop_db_url())
    try:
        with bound_request_id(request_id):
            body = _run_note(settings, store, text, as_email, mode, hat_tag, model, request_id)
    except ApiError as error:
        envelope = error_body(error, request_id)
        if as_json:
            typer.echo(body_json(envelope))
        else:
            console.print(f"[red]{error.status} {error.code}[/red]: {error.message}")
        raise typer.Exit(1) from None
    finally:
        store.dispose()
    if as_json:
        typer.echo(body_json(body))
    else:
        show_cards(body)


def _run_note(
    settings: Settings,
    store: Store,
    text: str,
    email: str,
    mode: str,
    hat_tag: str | None,
    model: str | None,
    request_id: str,
) -> dict[str, Any]:
    actor = accounts.actor_by_email(store, email)
    if actor is None:
        raise ApiError(401, "unauthorized", f"No active user {email}.")
    try:
        provider = choose_provider(model, settings)
    except ProviderConfigError as error:
        # A --model the caller typed is a bad parameter; a model from the settings is the same
        # configuration error the HTTP route answers (docs/workshop-agent.md, "Contract").
        if model:
            raise ApiError(400, "bad_request", str(error)) from None
        raise ApiError(500, "model_not_configured", str(error)) from None
    body: dict[str, Any] = {"note": text, "input_mode": mode}
    if hat_tag:
        body["hat_tag"] = hat_tag
    return run_agent(
        StoreAgentStore(store), actor, body, provider, request_id, settings.workshop_rate_limit_per_hour
    )


def show_cards(body: dict[str, Any]) -> None:
    """The summary and one row per proposal card."""
    console.print(body["summary"] or "")
    table = Table(title=f"run {body['run_id']}")
    for column in ("type", "status", "confidence", "what", "quote", "rule"):
        table.add_column(column)
    for p in body["proposals"]:
        payload = {k: v for k, v in p["payload"].items() if v is not None and k != "question"}
        if "question" in p["payload"]:
            payload["question"] = p["payload"]["question"]["text"]
        rule = p["rule_result"] or {}
        table.add_row(
            p["type"],
            p["status"],
            p["confidence"],
            ", ".join(f"{k}={v}" for k, v in payload.items()),
            p["quote"],
            " ".join(str(x) for x in (rule.get("code"), rule.get("message")) if x) if rule else "",
        )
    console.print(table)
    meta = body["meta"]
    console.print(
        f"{meta['tool_calls']} tool calls, {meta['latency_ms']} ms, {meta['tokens_in']}/{meta['tokens_out']} "
        f"tokens, ${meta['cost_usd']}"
    )
