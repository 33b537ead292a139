"""The work of the /shifts routes that runs in the investigator's worker processes (docs/shifts-agent.md,
"The page"): investigations, period reports, the page's layout and charts, and the PDFs.

Each function here is called by name in a worker process of :class:`~shopfloor.shifts.pages.runner.Runner`,
so everything it takes and returns is plain picklable data (an answer is its ``as_dict()``, a page its
text). Each job opens its own read-only connection to the record store and closes it when done, so the file
is never held between jobs (an ingest can take its write lock then) and no connection crosses a process.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from shopfloor.web.errors import ApiError

T = TypeVar("T")

# Investigations are the background of the server: a worker yields the processor to the process that
# answers the other apps' requests (docs/security.md, "The /shifts routes").
WORKER_NICENESS = 10
# How often a worker checks that the server process still runs.
SERVER_WATCH_S = 1.0
# How often a worker reads a running job's cancel flag (a client that left stops its model call this soon).
CANCEL_WATCH_S = 0.05

# The cancel flags the server process shares with this worker (runner.CancelFlags), and the abort event of the
# job running now (a worker runs one job at a time).
_flags: Any = None
_job_abort: threading.Event | None = None


def call(fn: Callable[..., T], *args: Any, cancel_slot: int | None = None) -> tuple[str, Any]:
    """``fn(*args)`` in the worker, its outcome as plain data: ``("ok", result)``, ``("error", (status, code,
    message, extra))`` for an :class:`ApiError` (which does not survive pickling on its own), or
    ``("crash", text)`` for anything else, so no exception object has to cross the process boundary.

    With ``cancel_slot``, the job's cancel flag is watched while it runs: once the server raises it (the
    client left), :func:`job_abort` is set."""
    global _job_abort
    abort, stop = _watch(cancel_slot)
    _job_abort = abort
    try:
        return "ok", fn(*args)
    except ApiError as error:
        return "error", (error.status, error.code, error.message, error.extra)
    except Exception:
        import traceback

        return "crash", traceback.format_exc()
    finally:
        _job_abort = None
        stop.set()


def job_abort() -> threading.Event | None:
    """The running job's abort event (set when its client left), or None when the job cannot be cancelled."""
    return _job_abort


def _watch(slot: int | None) -> tuple[threading.Event | None, threading.Event]:
    """An abort event that a thread sets when the cancel flag ``slot`` is raised, and the event that stops the
    thread (the job ended)."""
    stop = threading.Event()
    flags = _flags
    if slot is None or flags is None:
        return None, stop
    abort = threading.Event()

    def watch() -> None:
        while not stop.wait(CANCEL_WATCH_S):
            if flags[slot]:
                abort.set()
                return

    threading.Thread(target=watch, name="cancel-watch", daemon=True).start()
    return abort, stop


def outcome(result: tuple[str, Any]) -> Any:
    """The value of a job's outcome (:func:`call`), or its error raised again in the server process."""
    kind, value = result
    if kind == "ok":
        return value
    if kind == "error":
        status, code, message, extra = value
        raise ApiError(status, code, message, **extra)
    raise WorkerError(value)


class WorkerError(RuntimeError):
    """An unexpected error in a worker process, with the worker's traceback as text (answered 500)."""


def init_worker(server_pid: int, flags: Any = None) -> None:
    """A worker process's start: keep the cancel flags it shares with the server, lower its scheduling
    priority (best effort; a platform without ``nice`` keeps the default), and watch the server process: a
    worker is a child of the fork server, not of the server, so a server that is killed (SIGKILL) would leave
    its workers, and with them the fork server, running."""
    global _flags
    _flags = flags
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass
    threading.Thread(target=_exit_with, args=(server_pid,), name="server-watch", daemon=True).start()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # the number now belongs to another user's process
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True  # no /proc: the signal check is all there is


def _exit_with(server_pid: int) -> None:
    while alive(server_pid):
        time.sleep(SERVER_WATCH_S)
    os._exit(0)


def ready() -> bool:
    """Nothing: the job that starts a worker process before the first request needs it."""
    return True


def in_store(path: Path, fn: Callable[[Any], T]) -> T:
    """``fn`` over a read-only connection to the record store at ``path``; a missing or unopenable store is
    a 503 in the envelope, never a 500 (docs/errors.md)."""
    from shopfloor.shifts.records import store

    if not path.is_file():
        raise ApiError(503, "no_store", "The record store is not prepared; run `shopfloor prepare`.")
    try:
        conn = store.open_existing(path)
    except store.StoreUnavailable:
        # Held by a writer (an ingest) or not a record store.
        raise ApiError(
            503, "store_unavailable", "The record store cannot be opened now; try again shortly."
        ) from None
    try:
        return fn(conn)
    finally:
        conn.close()


def answer(path: Path, address: str) -> dict[str, Any]:
    """The answer at a canonical address."""
    from shopfloor.shifts.investigation import investigate_address

    return in_store(path, lambda conn: investigate_address(address, conn).as_dict())


def ask(path: Path, question: str, scope: Any, after: str | None = None) -> dict[str, Any]:
    """A question no address answers as asked (a refusal, or one the router did not read whole), answered in
    ``scope`` by the offline planner; ``after`` is the answer a follow-up refers to."""
    from shopfloor.shifts.investigation import investigate

    return in_store(path, lambda conn: investigate(question, scope, conn, after=after).as_dict())


def ask_live(
    path: Path, settings: Any, question: str, scope: Any, planner: str, after: str | None
) -> dict[str, Any]:
    """A question asked with the live planner ``planner`` (the page's planner control), its model calls held
    to the plant's monthly spend cap (docs/pricing.md, "Spend under a cap"); the same model writes the
    narrative. A client that leaves stops the run's model calls (:func:`job_abort`). A planner that cannot be built (no key, a retired model) is a 400, and nothing is called."""
    from shopfloor.agent.providers.factory import ProviderConfigError
    from shopfloor.agent.spend import budget_for
    from shopfloor.shifts.live.live import PlannerError, build_provider, investigate_live, parse_planner

    try:
        choice = parse_planner(planner, settings)
        provider = build_provider(choice, settings)
    except (PlannerError, ProviderConfigError) as error:
        raise ApiError(400, "bad_planner", f"The planner {planner} cannot run: {error}.") from None
    budget = budget_for(
        settings.workshop_db_url(), "shifts", settings.shifts_plant_id, settings.monthly_cap_usd
    )

    abort = job_abort()  # set when the asking client leaves: the run makes no further model call

    def run(conn: Any) -> dict[str, Any]:
        found = investigate_live(
            question,
            scope,
            conn,
            choice,
            provider,
            after=after,
            narrative=provider,
            budget=budget,
            abort=abort,
        )
        return found.as_dict()

    return in_store(path, run)


def report(path: Path, period: str, day: date, shift: int | None) -> dict[str, Any]:
    """The period report of ``period`` around ``day`` as JSON-ready data."""
    from fastapi.encoders import jsonable_encoder

    from shopfloor.shifts.answers.reports import period_report

    return in_store(path, lambda conn: jsonable_encoder(period_report(conn, period, day, shift)))  # type: ignore[arg-type]


def days(path: Path) -> dict[str, Any]:
    """The record store's span: its first and last production day, how many days it holds, whether they are
    all Monday to Friday, and the days themselves (``held``, in order: the page's nearest production day)."""
    import duckdb

    def read(conn: Any) -> dict[str, Any]:
        try:
            held = [row[0] for row in conn.execute("SELECT DISTINCT day FROM days ORDER BY day").fetchall()]
        except duckdb.CatalogException:
            # A DuckDB file that is not a record store (docs/errors.md, "no_store").
            raise ApiError(
                503, "no_store", "The file is not a record store; run `shopfloor prepare`."
            ) from None
        if not held:
            raise ApiError(503, "no_store", "The record store holds no days; run `shopfloor prepare`.")
        return {
            "first": held[0].isoformat(),
            "last": held[-1].isoformat(),
            "count": len(held),
            "weekdays_only": all(day.weekday() < 5 for day in held),
            "held": [day.isoformat() for day in held],
        }

    return in_store(path, read)


_PAGES: dict[tuple[Any, ...], Any] = {}


def render(view: dict[str, Any], template: str, parts: dict[str, Any]) -> str:
    """A page (``template`` ``index.html``) or an answer fragment (``_main.html``) as text, its request token
    left as :data:`~shopfloor.shifts.pages.views.TOKEN_SLOT` for the server to fill per response. ``parts``
    are the arguments of :meth:`~shopfloor.shifts.pages.views.Pages.context`."""
    from shopfloor.shifts.pages import views

    key = tuple(sorted((k, repr(v)) for k, v in view.items()))
    pages = _PAGES.get(key)
    if pages is None:
        pages = _PAGES[key] = views.Pages(view)
    ctx = pages.context(**parts)
    return str(pages.render(template, ctx, parts.get("locale", "en")))


def page(
    path: Path,
    view: dict[str, Any],
    template: str,
    parts: dict[str, Any],
    address: str | None = None,
    cards_address: str | None = None,
) -> dict[str, Any]:
    """A page (as :func:`render`) whose answer or cards are not kept yet, in one job over one connection.

    ``address``: the answer's address when ``parts`` hold no answer; it is investigated here. ``cards_address``:
    the KPI address whose answer gives the cards when ``parts`` hold none and the answer has no cards of its
    own; it is investigated here too, over the same connection, its statements read from the answer's run
    when that run already read them (``investigation.Run.statements``: the store does not change while the
    connection is open, so they are the rows a separate investigation reads, and its trace lists them all).
    Returns the page's ``text`` and the answers investigated here (``answer``, ``cards_answer``; None when
    given or not needed), for the server to keep by address."""
    from shopfloor.shifts.investigation import investigate_address
    from shopfloor.shifts.pages.card_view import kpi_groups

    parts = dict(parts)
    found: dict[str, Any] = {"answer": None, "cards_answer": None}
    if address is not None or cards_address is not None:

        def investigated(conn: Any) -> None:
            statements: dict[Any, Any] = {}
            if address is not None:
                parts["answer"] = found["answer"] = investigate_address(address, conn, statements).as_dict()
            answer = parts.get("answer")
            if answer is not None and kpi_groups(answer):
                parts["cards_answer"] = answer
            elif cards_address is not None and parts.get("cards_answer") is None:
                cards = investigate_address(cards_address, conn, statements).as_dict()
                parts["cards_answer"] = found["cards_answer"] = cards

        in_store(path, investigated)
    return {**found, "text": render(view, template, parts)}


def answer_pdf(data: dict[str, Any], locale: str = "en") -> bytes:
    """The PDF of a retained answer, in the page's language ``locale`` (``pages/pdf_view.py``)."""
    from shopfloor.shifts.answers.pdf import answer_pdf as draw
    from shopfloor.shifts.pages.pdf_view import answer_voice

    return draw(data, answer_voice(data, locale))


def report_pdf(data: dict[str, Any], shift: int | None = None, locale: str = "en") -> bytes:
    """The PDF of a period report (of ``shift``, or every shift), in the page's language ``locale``."""
    from shopfloor.shifts.answers.pdf import report_pdf as draw
    from shopfloor.shifts.pages.pdf_view import report_voice

    return draw(data, report_voice(data, shift, locale))


def guide(view: dict[str, Any], span: dict[str, Any], root: str = "", locale: str = "en") -> str:
    """The field guide as text in ``locale`` (its request token left as the slot; ``root``: the app's mount
    path)."""
    from shopfloor.shifts.pages import views

    return str(views.Pages(view).guide(span, root, locale))
