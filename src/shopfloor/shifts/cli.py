"""`shopfloor shifts ...` commands (generate, ingest, export, status, ask, report), `prepare` for `make run`,
and `shopfloor eval shifts`."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from shopfloor.settings import Settings, get_settings
from shopfloor.shifts.plant.calendar import PERIODS
from shopfloor.shifts.plant.scope import Scope, ScopeError
from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest as loader
from shopfloor.shifts.records import store

app = typer.Typer(help="Shift Investigator commands.", no_args_is_help=True)
console = Console(stderr=True)
out = Console(soft_wrap=True)
MODEL_HELP = (
    "Planner: offline (default), a model name for its tool loop (claude-*, gpt-*, gemini-*), or "
    "analyst[:claude-*]; default SHOPFLOOR_MODEL."
)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar; yields a ``(done, total)`` callback."""
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield update


# Exit codes of `shopfloor shifts ingest` (docs/record-format.md, section 3): 0 every file loaded, 1 the ingest
# itself failed (the store cannot be opened or written; also Python's own code for a crash), 2 bad usage,
# 3 some files were rejected and the others loaded.
INGEST_CRASHED = 1
INGEST_SOME_REJECTED = 3


def _db_path(db: Path | None) -> Path:
    return db or get_settings().shifts_db_path()


@app.command()
def generate(
    as_of: str = typer.Option(
        gen.DEFAULT_AS_OF.isoformat(), help="Last production day (YYYY-MM-DD, Mon–Fri)."
    ),
    days: int = typer.Option(0, help="Only the last N production days (0 = the whole rolling year)."),
    seed: int = typer.Option(gen.DEFAULT_SEED, help="Base seed; the same seed gives the same bytes."),
    out: Path = typer.Option(None, help="Directory for the day files (default: var/shifts-xml)."),
    corrupt_days: int = typer.Option(gen.DEFAULT_CORRUPT_DAYS, help="Days with one corrupt setup."),
    keys: Path = typer.Option(
        None, help="Answer-key file (default: var/shifts-answer-keys.json, or beside --out DIR)."
    ),
) -> None:
    """Write the synthetic year: one XML file per production day, a manifest and the answer keys."""
    settings = get_settings()
    try:
        as_of_day = date.fromisoformat(as_of)
    except ValueError:
        raise typer.BadParameter(f"--as-of {as_of!r} is not a date (YYYY-MM-DD)") from None
    if days < 0 or corrupt_days < 0:
        raise typer.BadParameter("--days and --corrupt-days must not be negative")
    try:
        gen.check_as_of(as_of_day)  # before the progress bar opens
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    out_dir = out or settings.shifts_xml_dir()
    keys_path = keys or (settings.shifts_answer_keys_path() if out is None else None)
    try:
        with progress_bar("Generating days") as update:
            result = gen.generate(
                out_dir,
                as_of=as_of_day,
                days=days or None,
                seed=seed,
                corrupt_days=corrupt_days,
                answer_keys=keys_path,
                progress=update,
            )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    except OSError as exc:
        raise typer.BadParameter(f"cannot write {exc.filename}: {exc.strerror}") from None
    typer.echo(f"Wrote {len(result.days)} day files and {result.manifest.name} to {out_dir}/")
    typer.echo(f"Answer keys (for evals only): {result.answer_keys}")


@app.command()
def ingest(
    directory: Path = typer.Argument(..., help="Directory of YYYY-MM-DD.xml day files."),
    db: Path = typer.Option(None, help="DuckDB store (default: var/shifts.duckdb)."),
) -> None:
    """Load day files into the record store; each file gets its own verdict, each day lands whole and replaces
    that day. Exit 0: all loaded; 3: some files rejected, the others loaded; 1: the store failed."""
    if not directory.is_dir():
        raise typer.BadParameter(f"{directory} is not a directory")
    if not any(p.suffix.lower() == ".xml" for p in directory.iterdir()):  # ".XML" gets its own verdict
        raise typer.BadParameter(f"{directory} holds no YYYY-MM-DD.xml day files")
    try:
        conn = store.connect(_db_path(db))
    except (duckdb.Error, OSError) as exc:
        # Typically another process (a running server) holds the file; say so instead of a traceback.
        typer.echo(f"Cannot open the record store {_db_path(db)} for writing: {exc}", err=True)
        raise typer.Exit(code=INGEST_CRASHED) from None
    try:
        with progress_bar("Ingesting days") as update:
            report = loader.ingest_directory(conn, directory, progress=update)
    except (duckdb.Error, OSError) as exc:
        # The store failed, not a file: the day being written was rolled back, the days before it stay.
        typer.echo(f"The ingest stopped: the record store could not be written: {exc}", err=True)
        raise typer.Exit(code=INGEST_CRASHED) from None
    finally:
        conn.close()
    typer.echo(f"Loaded {len(report.loaded)} days; {report.excluded} setups excluded and kept.")
    for name, message in report.rejected:
        typer.echo(f"Rejected {name}: {message}", err=True)
    if report.rejected:
        raise typer.Exit(code=INGEST_SOME_REJECTED)


@app.command()
def export(
    db: Path = typer.Option(None, help="DuckDB store (default: var/shifts.duckdb)."),
    out: Path = typer.Option(None, help="Directory for the Parquet files (default: var/shifts-parquet)."),
) -> None:
    """Export every table of the record store to Parquet (one file per table)."""
    path = _db_path(db)
    out = out or get_settings().var_dir / "shifts-parquet"
    if not path.is_file():
        raise typer.BadParameter(f"no record store at {path}; run `shopfloor prepare` first")
    try:
        conn = store.open_existing(path)
    except store.StoreUnavailable as exc:
        raise typer.BadParameter(str(exc)) from None
    try:
        with progress_bar("Exporting tables") as update:
            written = store.export_parquet(conn, out, progress=update)
    except OSError as exc:
        raise typer.BadParameter(f"cannot write {exc.filename}: {exc.strerror}") from None
    finally:
        conn.close()
    typer.echo(f"Wrote {len(written)} Parquet files to {out}/")


def store_status(path: Path) -> dict[str, Any]:
    """Summary of the store at ``path`` (never the planted scenarios' answers)."""
    if not path.is_file():
        return {"store": str(path), "exists": False}
    conn = store.open_existing(path)
    try:
        meta = store.get_meta(conn)
        row = conn.execute(
            "SELECT min(day), max(day), count(*), coalesce(sum(setups), 0), coalesce(sum(excluded), 0) FROM days"
        ).fetchone()
        shifts_row = conn.execute("SELECT count(*) FROM shifts").fetchone()
    except duckdb.Error:
        raise store.StoreUnavailable(f"{path} is a DuckDB file but not a shift record store") from None
    finally:
        conn.close()
    assert row is not None and shifts_row is not None
    first, last, days, setups, excluded = row
    return {
        "store": str(path),
        "exists": True,
        "first_day": first.isoformat() if first else None,
        "last_day": last.isoformat() if last else None,
        "days": days,
        "shifts": shifts_row[0],
        "setups": int(setups),
        "excluded_records": int(excluded),
        "planted_scenarios": int(meta.get("planted_scenarios", "0") or 0),
        "size_bytes": path.stat().st_size,
        "generator": meta.get("generator"),
        "seed": meta.get("seed"),
        "as_of": meta.get("as_of"),
    }


@app.command()
def status(
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Path = typer.Option(None, help="DuckDB store (default: var/shifts.duckdb)."),
) -> None:
    """Summarise the record store: days, shifts, setups, excluded records, size, generator."""
    try:
        summary = store_status(_db_path(db))
    except store.StoreUnavailable as exc:
        raise typer.BadParameter(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(summary, indent=1))
        return
    if not summary["exists"]:
        typer.echo(f"No record store at {summary['store']}; run `shopfloor prepare`.")
        return
    size_mb = summary["size_bytes"] / 1_000_000
    typer.echo(
        f"Record store {summary['store']} ({size_mb:.1f} MB, generator {summary['generator']})\n"
        f"  production days {summary['first_day']} .. {summary['last_day']}: {summary['days']} days, "
        f"{summary['shifts']} shifts, {summary['setups']:,} valid setups\n"
        f"  excluded records: {summary['excluded_records']}; planted scenarios: {summary['planted_scenarios']}"
    )


def _store_matches(path: Path, seed: int, as_of: date) -> bool:
    try:
        summary = store_status(path)
    except store.StoreUnavailable:
        return False  # an unreadable file is rebuilt and replaced
    return bool(
        summary["exists"]
        and summary["days"]
        and summary["generator"] == gen.GENERATOR_VERSION
        and summary["seed"] == str(seed)
        and summary["as_of"] == as_of.isoformat()
    )


def prepare(settings: Settings) -> None:
    """Prepare the record store with the default synthetic year (skipped when the store already holds
    it: same generator version, seed and as-of date). Called by `shopfloor prepare`."""
    path = settings.shifts_db_path()
    seed, as_of = gen.DEFAULT_SEED, gen.DEFAULT_AS_OF
    if _store_matches(path, seed, as_of):
        typer.echo(f"Shift record store is current ({path}).")
        return
    xml_dir = settings.shifts_xml_dir()
    with progress_bar("Generating the synthetic year") as update:
        gen.generate(
            xml_dir, as_of=as_of, seed=seed, answer_keys=settings.shifts_answer_keys_path(), progress=update
        )
    # Build beside the target and move it into place, so a half-built store is never visible.
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_name = tempfile.mkstemp(prefix=".shifts-", suffix=".duckdb", dir=path.parent)
    os.close(handle)
    tmp = Path(tmp_name)
    tmp.unlink()
    try:
        conn = store.connect(tmp)
        try:
            with progress_bar("Loading the record store") as update:
                report = loader.ingest_directory(conn, xml_dir, progress=update)
        finally:
            conn.close()
        if report.rejected:
            raise RuntimeError(f"generated days were rejected: {report.rejected[:3]}")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
        Path(str(tmp) + ".wal").unlink(missing_ok=True)
    typer.echo(f"Shift record store ready: {len(report.loaded)} days in {path}")


def eval_command(
    golden: list[Path] = typer.Option(
        None, "--golden", help="Golden YAML files or folders (default: evals/shifts.yaml and evals/shifts/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    model: str = typer.Option(None, "--model", help=MODEL_HELP),
) -> None:
    """Run the shifts golden evals (scored in code) with the chosen planner; exit 1 when the bar is not met."""
    from shopfloor.agent.evals import EvalReport
    from shopfloor.shifts.evals import class_rates, golden_cases, run_golden

    paths = golden or [p for p in (Path("evals/shifts.yaml"), Path("evals/shifts")) if p.exists()]
    for path in paths:
        if not path.exists():
            raise typer.BadParameter(f"no golden file at {path}")
    planner = _planner(model)
    conn = _open_read_only(None)
    try:
        reports = [run_golden(conn, path, show_progress=not as_json, planner=planner) for path in paths]
    finally:
        conn.close()
    report = EvalReport([r for rep in reports for r in rep.results], 1, 1.0)
    rates = class_rates([c for path in paths for c in golden_cases(path)], report)
    if as_json:
        typer.echo(json.dumps({**report.to_json(), "classes": rates}, indent=1, default=str))
    else:
        from shopfloor.agent.evals import render_table

        render_table(report, "Shift Investigator golden set", console)
        from rich.table import Table

        classes = Table(title="Per class")
        for column in ("class", "passed", "rate", "confidently wrong"):
            classes.add_column(column)
        for name, (passed, total, wrong) in rates.items():
            classes.add_row(name, f"{passed}/{total}", f"{100 * passed / total:.0f} %", str(wrong))
        Console().print(classes)
    if not report.ok:
        raise typer.Exit(code=1)


def _planner(option: str | None) -> str:
    """The chosen planner's name, checked (a bad name, a missing key or a retired model: a bad parameter)."""
    from shopfloor.agent.capabilities import retirement_problem
    from shopfloor.settings import KEY_ENV, provider_key
    from shopfloor.shifts.live.live import PlannerError, chosen_planner

    try:
        choice = chosen_planner(option, get_settings())
    except PlannerError as error:
        raise typer.BadParameter(f"--model: {error}") from None
    if choice.kind != "offline" and choice.model is not None:
        retired = retirement_problem(choice.model, date.today())
        if retired:
            raise typer.BadParameter(f"--model: {retired}")
        if choice.provider in KEY_ENV and not provider_key(choice.provider):
            raise typer.BadParameter(
                f"--model {choice.name} needs {KEY_ENV[choice.provider]} in the environment"
            )
    return choice.name


def _open_read_only(db: Path | None) -> Any:
    path = _db_path(db)
    if not Path(path).is_file():
        raise typer.BadParameter(f"no record store at {path}; run `shopfloor prepare` first")
    return store.open_read_only(path)


def _parsed_scope(day: str, shift: int | None, include: str | None, period: str) -> Scope:
    """The command's scope options, each rule broken reported as a bad parameter (docs/shifts-agent.md)."""
    try:
        return Scope.parse(day, shift, include, period)
    except ScopeError as error:
        raise typer.BadParameter(f"--{error.option} {error.reason}") from None


def ask(
    question: str = typer.Argument(..., help="The question, e.g. “why was second shift slow”."),
    day: str = typer.Option(..., "--day", help="Production day (YYYY-MM-DD)."),
    shift: int = typer.Option(None, "--shift", help="Selected shift 1, 2 or 3."),
    include: str = typer.Option(None, "--include", help="shift (selected shift only) or day (every shift)."),
    period: str = typer.Option("day", "--period", help="Period control: day, week, month or fiscal."),
    after: str = typer.Option(None, "--after", help="Address of the answer a follow-up refers to."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole answer as JSON."),
    db: Path = typer.Option(None, "--db", help="DuckDB record store (default: var/shifts.duckdb)."),
    model: str = typer.Option(None, "--model", help=MODEL_HELP),
) -> None:
    """Answer one question: status, sections, evidence, charts, trace and its address (offline by default)."""
    from shopfloor.shifts.answers.render import print_answer
    from shopfloor.shifts.live.live import ask_live
    from shopfloor.shifts.planning.plans import AddressError

    scope = _parsed_scope(day, shift, include, period)
    planner = _planner(model)
    conn = _open_read_only(db)
    try:
        answer = ask_live(question, scope, conn, planner, get_settings(), after=after)
    except AddressError as error:
        raise typer.BadParameter(f"--after: {error}") from None
    finally:
        conn.close()
    if as_json:
        typer.echo(json.dumps(answer.as_dict(), indent=1, default=str))
        return
    print_answer(answer.as_dict(), out)


# The report's windows: the Period control's windows and the rolling year (the 52 weeks to the day's week).
REPORT_PERIODS = (*(p for p in PERIODS if p != "day"), "year")


def report(
    period: str = typer.Option("month", "--period", help="week, month, fiscal or year."),
    day: str = typer.Option(
        ..., "--day", help="Any date inside the window (YYYY-MM-DD); for a year, its last."
    ),
    shift: int = typer.Option(None, "--shift", help="One shift, or every shift when omitted."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    pdf: Path = typer.Option(None, "--pdf", help="Also write the report as a PDF to this path."),
    db: Path = typer.Option(None, "--db", help="DuckDB record store (default: var/shifts.duckdb)."),
) -> None:
    """The deterministic period report (no model): sections, tables, heatmap, charts, coverage, hashes."""
    from shopfloor.shifts.answers.render import print_report, report_pdf
    from shopfloor.shifts.answers.reports import period_report

    if period not in REPORT_PERIODS:
        raise typer.BadParameter("--period must be week, month, fiscal or year")
    # The year is no Period control of its own: its day and shift are checked as a day scope's.
    scope = _parsed_scope(day, shift, None, "day" if period == "year" else period)
    conn = _open_read_only(db)
    try:
        data = period_report(conn, period, scope.day, scope.shift)  # type: ignore[arg-type]
    finally:
        conn.close()
    if pdf is not None:
        pdf.write_bytes(report_pdf(data))
        console.print(f"Wrote {pdf}")
    if as_json:
        typer.echo(json.dumps(data, indent=1, default=str))
        return
    print_report(data, out)


app.command("ask")(ask)
app.command("report")(report)
