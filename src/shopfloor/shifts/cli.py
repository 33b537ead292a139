"""`shopfloor shifts ...` commands, `prepare` for `make run`, and `shopfloor eval shifts`."""

from __future__ import annotations

import typer

from shopfloor.settings import Settings

app = typer.Typer(help="Shift Investigator commands.", no_args_is_help=True)


@app.command()
def status() -> None:
    """Summarise the shifts store."""
    typer.echo("Shift Investigator: nothing prepared yet.")


def prepare(settings: Settings) -> None:
    """Prepare the embedded store with sample data (idempotent); called by `shopfloor prepare`."""


def eval_command() -> None:
    """Run the shifts evals."""
    typer.echo("No shifts evals yet.")
