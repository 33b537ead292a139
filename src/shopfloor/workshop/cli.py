"""`shopfloor workshop ...` commands, `prepare` for `make run`, and `shopfloor eval workshop`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from shopfloor.settings import Settings, get_settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.agent import cli as agent_cli
from shopfloor.workshop.sample import DEMO_ACCOUNTS, LoadReport, load_sample
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo, open_store
from shopfloor.workshop.store.rls import provision_app_role

app = typer.Typer(help="Toquilla Trace commands.", no_args_is_help=True)
app.command("note")(agent_cli.note_command)
tokens_app = typer.Typer(help="List and revoke bearer tokens.", no_args_is_help=True)
app.add_typer(tokens_app, name="tokens")
console = Console()


def init_store(settings: Settings, sample: bool = True) -> LoadReport | None:
    """Migrate the workshop store (as the owner), grant the app role on PostgreSQL, load the sample data."""
    url = settings.workshop_db_url()
    owner = open_store(settings.workshop_db_owner or url)
    try:
        owner.migrate()
        if not owner.is_sqlite:
            provision_app_role(owner.engine, settings.workshop_app_role)
        return load_sample(owner) if sample else None
    finally:
        owner.dispose()


@app.command()
def init(
    sample: bool = typer.Option(True, help="Load the sample workshops, users, weavers and hats."),
) -> None:
    """Create or upgrade the workshop store and load the sample data (idempotent)."""
    settings = get_settings()
    with console.status("Migrating the workshop store..."):
        report = init_store(settings, sample)
    console.print(f"Workshop store ready: {settings.workshop_db_url().split('@')[-1]}")
    if report is not None:
        console.print(
            f"Sample data: {report.workshops} workshops, {report.users} users, {report.weavers} weavers, "
            f"{report.hats} hats, {report.events} events, {report.flags} flags added."
        )
        print_demo_accounts()


def print_demo_accounts() -> None:
    """Print the demo accounts and their passwords (local demo only)."""
    table = Table(title="Demo accounts (local use only)")
    for column in ("workshop", "email", "password", "role"):
        table.add_column(column)
    for acc in DEMO_ACCOUNTS:
        table.add_row(acc.workshop_id, acc.email, acc.password, acc.role)
    console.print(table)


@app.command()
def seed() -> None:
    """Load the sample data (same as `init`)."""
    init(sample=True)


@app.command()
def status() -> None:
    """Summarise the workshop store."""
    settings = get_settings()
    store: Store = open_store(settings.workshop_db_url())
    try:
        from shopfloor.workshop.sample import WORKSHOPS

        for workshop_id, name in WORKSHOPS:
            with store.transaction(workshop_id, write=False) as s:
                repo = WorkshopRepo(s, domain.Actor("cli", workshop_id, "admin"))
                typer.echo(
                    f"{name}: {len(repo.hats())} hats, {len(repo.weavers())} weavers, {len(repo.runs())} runs"
                )
    finally:
        store.dispose()


@contextmanager
def _acting_as(email: str) -> Iterator[tuple[Store, domain.Actor]]:
    """The app's store and the active user ``email`` (exit 1 if there is none)."""
    store = open_store(get_settings().workshop_db_url())
    try:
        actor = accounts.actor_by_email(store, email)
        if actor is None:
            typer.echo(f"No active user {email}.", err=True)
            raise typer.Exit(1)
        yield store, actor
    finally:
        store.dispose()


@tokens_app.command("list")
def tokens_list(
    email: str = typer.Option(..., "--as", help="The user whose tokens to list (an admin, with --all)."),
    everyone: bool = typer.Option(False, "--all", help="Every token of the workshop (admins)."),
    as_json: bool = typer.Option(False, "--json", help="Print the tokens as JSON."),
) -> None:
    """List bearer tokens, newest first (never their secrets)."""
    with _acting_as(email) as (store, actor):
        if everyone and not actor.is_admin:
            typer.echo("Only a workshop admin can list everyone's tokens.", err=True)
            raise typer.Exit(1)
        tokens = accounts.list_tokens(store, actor, everyone=everyone)
    if as_json:
        typer.echo(json.dumps({"tokens": [t.as_json() for t in tokens]}, ensure_ascii=False))
        return
    # One plain line per token (id first), so the list reads in any terminal width and in scripts.
    minute = "%Y-%m-%d %H:%M"
    for t in tokens:
        expires = t.expires_at.strftime(minute) if t.expires_at else "-"
        typer.echo(
            f"{t.id}  {t.status:<7}  {t.user_name}  {t.name!r}  created {t.created_at.strftime(minute)}"
            f"  expires {expires}"
        )
    if not tokens:
        typer.echo("No tokens.")


@tokens_app.command("revoke")
def tokens_revoke(
    token_id: str = typer.Argument(..., help="The token's id (from `tokens list`)."),
    email: str = typer.Option(..., "--as", help="The token's user, or an admin of its workshop."),
) -> None:
    """Revoke one bearer token; it is refused from the next request on."""
    with _acting_as(email) as (store, actor):
        try:
            info = accounts.revoke_token(store, actor, token_id)
        except NotFound:
            typer.echo(f"No such token {token_id} for {email}.", err=True)
            raise typer.Exit(1) from None
    typer.echo(f"Token {info.id} ({info.name}, {info.user_name}) is revoked.")


def prepare(settings: Settings) -> None:
    """Prepare the embedded store with sample data (idempotent); called by `shopfloor prepare`."""
    init_store(settings, sample=True)


def eval_command(
    model: str | None = typer.Option(None, "--model", help="offline, or a live model name."),
    repeat: int = typer.Option(1, "--repeat", min=1, help="Run every case this many times."),
    cases: Path | None = typer.Option(
        None, "--cases", help="YAML file of cases (default evals/workshop.yaml)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run the workshop evals on a fresh seeded database per case; exit 1 when the bar is not met."""
    from shopfloor.workshop.agent.evals import eval_workshop

    raise typer.Exit(eval_workshop(model, repeat, cases, as_json))
