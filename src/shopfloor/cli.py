"""The ``shopfloor`` command: ``serve``, ``prepare``, ``mcp``, ``models``, ``spend``, ``record``,
``workshop ...``, ``shifts ...`` and ``eval ...``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from shopfloor.agent.providers import close_providers
from shopfloor.logs import configure_logging
from shopfloor.settings import get_settings
from shopfloor.shifts import cli as shifts_cli
from shopfloor.workshop import cli as workshop_cli

app = typer.Typer(help="shopfloor: governed LLM assistants for small manufacturers.", no_args_is_help=True)
eval_app = typer.Typer(help="Run an app's evals (deterministic scoring in code).", no_args_is_help=True)
app.add_typer(workshop_cli.app, name="workshop")
app.add_typer(shifts_cli.app, name="shifts")
app.add_typer(eval_app, name="eval")
eval_app.command("workshop")(workshop_cli.eval_command)
eval_app.command("shifts")(shifts_cli.eval_command)


@app.callback()
def _main(ctx: typer.Context) -> None:
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_file)
    ctx.call_on_close(close_providers)  # the shared model clients, when the command ends


@app.command()
def prepare() -> None:
    """Prepare both embedded stores with sample data (idempotent; cached after the first run)."""
    settings = get_settings()
    settings.var_dir.mkdir(parents=True, exist_ok=True)
    workshop_cli.prepare(settings)
    shifts_cli.prepare(settings)
    typer.echo(f"Prepared stores under {settings.var_dir}/")


@app.command()
def serve(
    host: str = typer.Option(None, help="Bind address (default: settings, 127.0.0.1)."),
    port: int = typer.Option(None, min=1, max=65535, help="Port (default: settings, 8000)."),
    workers: int = typer.Option(None, min=1, max=32, help="Server processes (default: settings, 1)."),
) -> None:
    """Serve both apps on one ASGI server (loopback by default)."""
    import uvicorn

    from shopfloor.server.app import create_app
    from shopfloor.server.http_limits import uvicorn_options
    from shopfloor.server.workers import REUSE_PORT_LOOP, run_workers, workers_bind_their_own_sockets

    settings = get_settings()
    bind_host = host or settings.host
    bind_port = port or settings.port
    processes = workers or settings.workers
    settings.session_secret()  # made once here, so the worker processes all read the same key
    plural = "process" if processes == 1 else "processes"
    typer.echo(f"shopfloor on http://{bind_host}:{bind_port}/, {processes} server {plural} (Ctrl+C stops)")
    limits = uvicorn_options(settings)
    if processes == 1:
        uvicorn.run(create_app(settings), host=bind_host, port=bind_port, log_level="warning", **limits)
        return
    factory = "shopfloor.server.app:create_app"  # each worker builds it from the same SHOPFLOOR_* environment
    options: dict[str, Any] = {
        "factory": True,
        "host": bind_host,
        "port": bind_port,
        "workers": processes,
        # The supervisor kills a worker that does not answer its ping within this many seconds; on a loaded
        # two-core machine workers still busy starting both apps were seen missing uvicorn's 5 s and replaced.
        "timeout_worker_healthcheck": 30,
        "log_level": "warning",
        **limits,
    }
    if workers_bind_their_own_sockets():
        # Each worker listens on its own SO_REUSEPORT socket, so the kernel spreads connections over them.
        run_workers(uvicorn.Config(factory, loop=REUSE_PORT_LOOP, **options))
    else:
        # No balancing SO_REUSEPORT here: the workers share the one socket uvicorn binds.
        uvicorn.run(factory, **options)


@app.command()
def mcp(
    as_email: str = typer.Option(
        ..., "--as", help="The workshop user the calls run as (their workshop and role)."
    ),
) -> None:
    """Serve both apps' guarded tools to a local MCP client over stdio (docs/mcp.md)."""
    import anyio

    from shopfloor.mcp.stdio import UnknownUser, serve_stdio

    try:
        anyio.run(serve_stdio, get_settings(), as_email)
    except UnknownUser as error:
        # stdout is the protocol: the reason goes to stderr.
        typer.echo(str(error), err=True)
        raise typer.Exit(2) from None


@app.command()
def models(
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    today: str = typer.Option(
        None, help="Judge the rows' age on this day, YYYY-MM-DD (default: today, UTC)."
    ),
) -> None:
    """The model table: provider, model, prices, limits, retirement, source and the day it was checked."""
    import json
    from datetime import UTC, date, datetime

    from rich.console import Console
    from rich.table import Table

    from shopfloor.agent.capabilities import MAX_ROW_AGE_DAYS, model_rows, stale_rows

    try:
        day = date.fromisoformat(today) if today else datetime.now(UTC).date()
    except ValueError:
        raise typer.BadParameter("today must look like 2026-12-01", param_hint="--today") from None
    rows = model_rows()
    stale = [info.name for info in stale_rows(day)]
    if as_json:
        typer.echo(json.dumps({"today": day.isoformat(), "stale": stale, "models": rows}, indent=2))
    else:
        table = Table("provider", "model", "input", "output", "cache read", "cache write", "context",
                      "max output", "retires", "source", "checked")  # fmt: skip
        table.columns[9].overflow = "fold"  # a URL is never cut short
        for row in [{**r, "source": r["source"].replace(" ; ", "\n")} for r in rows]:
            table.add_row(*(row[k] for k in ("provider", "model", "input", "output", "cache_read",
                          "cache_write", "context", "max_output", "retires", "source", "checked")))  # fmt: skip
        Console(width=200).print(table)
        typer.echo("USD per million tokens. Notes where sources disagree: docs/pricing.md.")
    if stale:
        typer.echo(
            f"warning: checked more than {MAX_ROW_AGE_DAYS} days before {day.isoformat()}, re-check: "
            + ", ".join(stale),
            err=True,
        )


@app.command()
def spend(
    month: str = typer.Option(None, help="The month as YYYY-MM (default: this month, UTC)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """The month's model spend of both apps by app, model and day, with each tenant's cap."""
    import json
    import re
    from datetime import UTC, datetime

    from rich.console import Console
    from sqlalchemy.exc import DBAPIError

    from shopfloor.agent import spend as ledger

    settings = get_settings()
    month = month or ledger.month_of(datetime.now(UTC).date())
    if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month):
        raise typer.BadParameter("month must look like 2026-12", param_hint="--month")
    book = ledger.ledger_at(settings.workshop_db_url())
    try:
        totals = book.months(month, settings.monthly_cap_usd)
        rows = book.by_day(month)
    except DBAPIError:
        typer.echo("No spend ledger in the workshop store yet; run `shopfloor prepare` first.", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps({"month": month, **ledger.as_json(totals, rows)}, indent=2))
        return
    ledger.render(Console(), month, totals, rows)


@app.command()
def record(
    provider: str = typer.Option(
        ..., "--provider", help="gemini, anthropic or openai (its key must be set)."
    ),
    model: str = typer.Option(None, "--model", help="The model (default: the provider's default model)."),
    into: Path = typer.Option(Path("tests"), "--into", help="The tests folder the recordings go under."),
    db: Path = typer.Option(None, "--db", help="Shifts record store (default: var/shifts.duckdb)."),
) -> None:
    """Run the workshop sample note and one shift question live and write their exchanges as recordings
    beside the hand-written ones, keys and auth headers removed (docs/providers.md, "Replay and record")."""
    from shopfloor.agent.providers import ProviderConfigError
    from shopfloor.record import record_live

    try:
        written = record_live(provider, get_settings(), into, model=model, shifts_db=db)
    except (ProviderConfigError, FileNotFoundError) as error:
        typer.echo(f"shopfloor record: {error}", err=True)
        raise typer.Exit(2) from None
    for run in written:
        typer.echo(f"{run.app}: {run.exchanges} exchanges, {run.status}; wrote {run.path}")
    typer.echo("Review them (a live answer differs from the hand-written one), then commit them.")
