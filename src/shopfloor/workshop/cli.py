"""`shopfloor workshop ...` commands, `prepare` for `make run`, and `shopfloor eval workshop`."""

from __future__ import annotations

import typer

from shopfloor.settings import Settings

app = typer.Typer(help="Toquilla Trace commands.", no_args_is_help=True)


@app.command()
def status() -> None:
    """Summarise the workshop store."""
    typer.echo("Toquilla Trace: nothing prepared yet.")


def prepare(settings: Settings) -> None:
    """Prepare the embedded store with sample data (idempotent); called by `shopfloor prepare`."""


def eval_command() -> None:
    """Run the workshop evals."""
    typer.echo("No workshop evals yet.")
