"""`shopfloor workshop ...` commands, `prepare` for `make run`, and `shopfloor eval workshop`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from shopfloor.settings import Settings, get_settings
from shopfloor.workshop.agent import cli as agent_cli
from shopfloor.workshop.sample import DEMO_ACCOUNTS, LoadReport, load_sample
from shopfloor.workshop.store import Store, WorkshopRepo, open_store
from shopfloor.workshop.store.rls import provision_app_role

app = typer.Typer(help="Toquilla Trace commands.", no_args_is_help=True)
app.command("note")(agent_cli.note_command)
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
        from shopfloor.workshop import domain
        from shopfloor.workshop.sample import WORKSHOPS

        for workshop_id, name in WORKSHOPS:
            with store.transaction(workshop_id, write=False) as s:
                repo = WorkshopRepo(s, domain.Actor("cli", workshop_id, "admin"))
                typer.echo(
                    f"{name}: {len(repo.hats())} hats, {len(repo.weavers())} weavers, {len(repo.runs())} runs"
                )
    finally:
        store.dispose()


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
