"""The agent's persistence over the workshop store: read-only record views and its own rows.

The agent reads weavers, hats, events, flags and proposals through the actor-scoped repository, and writes
only ``agent_runs``, ``proposals`` and ``app_logs``. There is deliberately no method here that touches a
hat, weaver, hat event or hat flag row for writing (a test greps this package to keep it so).
"""

from __future__ import annotations

import sys
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    BindParameter,
    Connection,
    Integer,
    Table,
    bindparam,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from shopfloor.workshop import domain
from shopfloor.workshop.agent.context import BufferedProposal, OpenFlag
from shopfloor.workshop.agent.run import (
    AGENT,
    INTERRUPTED,
    ORPHANED_AFTER,
    KeyedRun,
    LogRow,
    RunResult,
    RunRow,
)
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import new_id, utcnow
from shopfloor.workshop.store.prepared import all_rows, first_row, scalar, write
from shopfloor.workshop.store.repo import NotFound, aware_utc, hat_value, weaver_view

HATS = cast(Table, m.Hat.__table__)
WEAVERS = cast(Table, m.Weaver.__table__)
EVENTS = cast(Table, m.HatEvent.__table__)
FLAGS = cast(Table, m.HatFlag.__table__)
RUNS = cast(Table, m.AgentRun.__table__)
PROPOSALS = cast(Table, m.Proposal.__table__)
LOGS = cast(Table, m.AppLog.__table__)


# Every read is built once with bound parameters: building a statement costs more than running it here.
_W: BindParameter[str] = bindparam("workshop_id")
_WEAVERS_OF = select(WEAVERS).where(WEAVERS.c.workshop_id == _W).order_by(WEAVERS.c.id)
_HATS_OF = select(HATS).where(HATS.c.workshop_id == _W).order_by(HATS.c.code)
_HAT_BY_CODE = select(HATS).where(HATS.c.workshop_id == _W, HATS.c.code == bindparam("code"))
_OPEN_HAT_COUNTS = (
    select(HATS.c.weaver_id, func.count())
    .where(HATS.c.workshop_id == _W, HATS.c.archived.is_(False), HATS.c.stage != "Finished")
    .group_by(HATS.c.weaver_id)
)
_LATEST_EVENTS = (
    select(EVENTS.c.type, EVENTS.c.created_at, EVENTS.c.from_stage, EVENTS.c.to_stage)
    .where(EVENTS.c.hat_id == bindparam("hat_id"), EVENTS.c.workshop_id == _W)
    .order_by(EVENTS.c.created_at.desc(), EVENTS.c.id)
    .limit(bindparam("limit", type_=Integer))
)
_OPEN_FLAGS = (
    select(FLAGS.c.kind, FLAGS.c.message)
    .where(FLAGS.c.workshop_id == _W, FLAGS.c.hat_id == bindparam("hat_id"), FLAGS.c.status == "open")
    .order_by(FLAGS.c.created_at, FLAGS.c.id)
)
_OPEN_PROPOSAL = (
    select(PROPOSALS.c.id)
    .where(
        PROPOSALS.c.workshop_id == _W,
        PROPOSALS.c.type == bindparam("type"),
        # Two bound literals, not a list: a list is an "expanding" parameter, re-rendered into the SQL on every
        # execution (the SQL sent is the same `IN (?, ?)`).
        PROPOSALS.c.status.in_([literal("pending"), literal("question")]),
        PROPOSALS.c.run_id != bindparam("run_id"),
        PROPOSALS.c.hat_code == bindparam("code"),
    )
    .limit(1)
)
_RECENT_RUNS = select(func.count()).where(
    RUNS.c.workshop_id == _W,
    RUNS.c.user_id == bindparam("user_id"),
    RUNS.c.agent == AGENT,
    RUNS.c.created_at > bindparam("since", type_=RUNS.c.created_at.type),
)
# A user's runs of the window that a crash interrupted: they do not count toward the hourly limit. Counted
# only when the plain count (the index alone) reaches the limit.
_RECENT_INTERRUPTED = _RECENT_RUNS.where(
    RUNS.c.status == "failed", func.coalesce(RUNS.c.error["type"].as_string(), "") == INTERRUPTED["type"]
)
# The run an idempotency key names in the workshop, and a key given up by a run that saved nothing.
_KEYED_RUN = select(
    RUNS.c.id,
    RUNS.c.user_id,
    RUNS.c.status,
    RUNS.c.input,
    RUNS.c.input_mode,
    RUNS.c.hat_code,
    RUNS.c.response,
).where(RUNS.c.workshop_id == _W, RUNS.c.idempotency_key == bindparam("key"))
_RELEASE_KEY = (
    update(RUNS)
    .where(RUNS.c.workshop_id == bindparam("b_workshop_id"), RUNS.c.id == bindparam("b_id"))
    .values(idempotency_key=None)
)
# Runs that saved nothing: a repeat of their key runs the note again.
_RERUNNABLE = ("failed", "stopped")
_ORPHAN_VALUES = {
    "status": "failed",
    "error": bindparam("v_error", type_=RUNS.c.error.type),
    "updated_at": bindparam("v_now", type_=RUNS.c.updated_at.type),
}
_CUTOFF: BindParameter[datetime] = bindparam("cutoff", type_=RUNS.c.created_at.type)
# The user's orphaned runs within the rate-limit window (read through the runs index), swept as a run starts.
_FAIL_USERS_ORPHANS = (
    update(RUNS)
    .where(
        RUNS.c.workshop_id == bindparam("b_workshop_id"),
        RUNS.c.user_id == bindparam("b_user_id"),
        RUNS.c.agent == AGENT,
        RUNS.c.created_at > bindparam("b_since", type_=RUNS.c.created_at.type),
        RUNS.c.created_at < _CUTOFF,
        RUNS.c.status == "running",
    )
    .values(_ORPHAN_VALUES)
)
# The run an idempotency key names, when a crash left it ``running`` (read through the unique key index).
_FAIL_KEYED_ORPHAN = (
    update(RUNS)
    .where(
        RUNS.c.workshop_id == bindparam("b_workshop_id"),
        RUNS.c.idempotency_key == bindparam("b_key"),
        RUNS.c.status == "running",
        RUNS.c.created_at < _CUTOFF,
    )
    .values(_ORPHAN_VALUES)
)
_FAIL_WORKSHOPS_ORPHANS = (
    update(RUNS)
    .where(
        RUNS.c.workshop_id == bindparam("b_workshop_id"),
        RUNS.c.status == "running",
        RUNS.c.created_at < _CUTOFF,
    )
    .values(_ORPHAN_VALUES)
)
_FAIL_ALL_ORPHANS = (
    update(RUNS).where(RUNS.c.status == "running", RUNS.c.created_at < _CUTOFF).values(_ORPHAN_VALUES)
)
_INSERT_RUN = insert(RUNS)
_INSERT_PROPOSALS = insert(PROPOSALS)
_INSERT_LOGS = insert(LOGS)
_SAVED_COLUMNS = (
    "status",
    "summary",
    "steps",
    "tokens_in",
    "tokens_out",
    "latency_ms",
    "cost_usd",
    "error",
    "response",
)
_UPDATE_RUN = (
    update(RUNS)
    .where(RUNS.c.id == bindparam("b_id"), RUNS.c.workshop_id == bindparam("b_workshop_id"))
    .values(
        {
            **{name: bindparam(f"v_{name}", type_=RUNS.c[name].type) for name in _SAVED_COLUMNS},
            "updated_at": bindparam("v_updated_at", type_=RUNS.c.updated_at.type),
            # A run that reports no model keeps the one it started with.
            "model": func.coalesce(bindparam("v_model", type_=RUNS.c.model.type), RUNS.c.model),
        }
    )
)
_USER_LOCK = text("SELECT pg_advisory_xact_lock(hashtext(:u))")


class StoreReads:
    """Read-only views of one actor's workshop for one run.

    Reads run in short read transactions on a pooled connection: one per call, or one shared by the tool
    calls of a model turn inside :meth:`batch`. Between turns nothing is held, so a run waiting for a model
    holds no connection, and each turn sees the database as it is then (a hat reloaded before a proposal is
    fresh). Weavers and the workshop's hat list (what ``find_hats`` searches) are read once per run; the
    single hat a proposal is about is always re-read. These are plain column selects: this is the hot path
    of every tool, and no ORM identity map is needed for rows that are never written.
    """

    def __init__(self, store: Store, actor: domain.Actor) -> None:
        if not actor.workshop_id:
            raise ValueError("An actor without a workshop can read nothing.")
        self.store = store
        self.actor = actor
        self.workshop_id = actor.workshop_id
        self._weavers: dict[str, domain.Weaver] | None = None
        self._hats: list[domain.Hat] | None = None
        self._held: Connection | None = None

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One read transaction shared by every read until the block ends (the tool calls of one turn)."""
        with self.store.reading(self.workshop_id) as conn:
            self._held = conn
            try:
                yield
            finally:
                self._held = None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """The batch's connection, or a read transaction of its own; nothing is ever written through it."""
        held = self._held
        if held is None:
            with self.store.reading(self.workshop_id) as conn:
                yield conn
            return
        try:
            yield held
        except DBAPIError:
            # On PostgreSQL a failed statement spoils the shared transaction: the turn's later reads take
            # their own, so one failing tool call does not fail the others.
            self._held = None
            raise

    def close(self) -> None:
        """Nothing is held between turns; kept for the :class:`WorkshopReads` protocol."""

    def _weaver_views(self, conn: Connection) -> dict[str, domain.Weaver]:
        if self._weavers is None:
            rows = all_rows(conn, _WEAVERS_OF, {"workshop_id": self.workshop_id})
            self._weavers = {w.id: weaver_view(w) for w in rows}
        return self._weavers

    def weavers(self) -> list[domain.Weaver]:
        """Every weaver of the workshop (read once per run)."""
        if self._weavers is None:
            with self._read() as conn:
                self._weaver_views(conn)
        assert self._weavers is not None
        return list(self._weavers.values())

    def hats(self) -> list[domain.Hat]:
        """Every hat of the workshop with its weaver (read once per run; proposals re-read their hat)."""
        if self._hats is None:
            with self._read() as conn:
                weavers = self._weaver_views(conn)
                rows = all_rows(conn, _HATS_OF, {"workshop_id": self.workshop_id})
                self._hats = [hat_value(h, weavers.get(h.weaver_id or "")) for h in rows]
        return list(self._hats)

    def open_hat_counts(self) -> dict[str, int]:
        """Open (not finished, not archived) hats per weaver id, counted in the database."""
        with self._read() as conn:
            rows = all_rows(conn, _OPEN_HAT_COUNTS, {"workshop_id": self.workshop_id})
            return {wid: n for wid, n in rows if wid is not None}

    def hat_by_code(self, code: str) -> domain.Hat | None:
        """The hat with exactly this code, read fresh, or None."""
        with self._read() as conn:
            row = first_row(conn, _HAT_BY_CODE, {"workshop_id": self.workshop_id, "code": code})
            return None if row is None else hat_value(row, self._weaver_views(conn).get(row.weaver_id or ""))

    def events(self, hat: domain.Hat, limit: int) -> list[domain.HatEvent]:
        """The hat's latest events, oldest first."""
        params = {"workshop_id": self.workshop_id, "hat_id": hat.id, "limit": limit}
        with self._read() as conn:
            rows = all_rows(conn, _LATEST_EVENTS, params)
        return [
            domain.HatEvent(r.type, aware_utc(r.created_at), r.from_stage, r.to_stage) for r in reversed(rows)
        ]

    def open_flags(self, hat: domain.Hat) -> list[OpenFlag]:
        """The hat's open flags."""
        with self._read() as conn:
            rows = all_rows(conn, _OPEN_FLAGS, {"workshop_id": self.workshop_id, "hat_id": hat.id})
            return [OpenFlag(r.kind, r.message) for r in rows]

    def open_proposal_exists(self, hat_code: str, proposal_type: str, exclude_run_id: str) -> bool:
        """Whether an earlier run left a pending or question proposal of this type for this hat."""
        params = {
            "workshop_id": self.workshop_id,
            "type": proposal_type,
            "run_id": exclude_run_id,
            "code": hat_code,
        }
        with self._read() as conn:
            return first_row(conn, _OPEN_PROPOSAL, params) is not None


def _log_values(row: LogRow) -> dict[str, Any]:
    return {
        "ts": row.ts,
        "level": row.level,
        "source": row.source,
        "event": row.event,
        "request_id": row.request_id,
        "user_id": row.user_id,
        "workshop_id": row.workshop_id,
        "run_id": row.run_id,
        "payload": row.payload,
    }


def _insert_logs(conn: Connection, logs: list[LogRow]) -> None:
    """All log rows of a step in one statement."""
    if logs:
        write(conn, _INSERT_LOGS, [_log_values(log) for log in logs])


class StoreAgentStore:
    """:class:`~shopfloor.workshop.agent.run.AgentStore` on the workshop store.

    Writes are plain Core statements (one ``INSERT`` per table with all its rows) inside the store's
    transactions, so the workshop scope (and row-level security on PostgreSQL) applies as for every write.
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    def reads(self, actor: domain.Actor) -> StoreReads:
        """Read-only views of the actor's workshop."""
        return StoreReads(self.store, actor)

    def insert_run(self, row: RunRow, logs: list[LogRow], limit: int, window: timedelta) -> bool | KeyedRun:
        """ONE write transaction: the run its idempotency key already names (returned, nothing written), or
        the rate-limit count, then the ``running`` run row and its first log rows (nothing is written when
        the user already started ``limit`` runs within ``window``).

        On SQLite the write lock is taken before the count (``BEGIN IMMEDIATE``); on PostgreSQL a transaction
        advisory lock on the user does the same, so two requests of one user never both take the last slot
        nor both insert one key. Two people sending one key at once meet at the unique (workshop, key)
        constraint: the second finds the first's run.
        """
        try:
            return self._insert_run(row, logs, limit, window)
        except IntegrityError:
            if row.idempotency_key is None:
                raise
            with self.store.reading(row.actor.workshop_id) as conn:
                keyed = self._keyed(conn, row)
            if keyed is None:
                raise
            return keyed

    def _keyed(self, conn: Connection, row: RunRow) -> KeyedRun | None:
        found = conn.execute(_KEYED_RUN, {"workshop_id": row.actor.workshop_id, "key": row.idempotency_key})
        hit = found.first()
        if hit is None:
            return None
        return KeyedRun(
            hit.id, hit.user_id, hit.status, hit.input, hit.input_mode, hit.hat_code, hit.response
        )

    def _insert_run(self, row: RunRow, logs: list[LogRow], limit: int, window: timedelta) -> bool | KeyedRun:
        actor = row.actor
        now = utcnow()
        params = {"workshop_id": actor.workshop_id, "user_id": actor.user_id, "since": now - window}
        with self.store.writing(actor.workshop_id) as conn:
            if not self.store.is_sqlite:
                conn.execute(_USER_LOCK, {"u": actor.user_id})
            # The sweep comes before the key lookup: a run whose process was killed is failed first, so its
            # key is given up below instead of answering "in progress" for ever.
            orphans = _orphan_params(now)
            sweep = {"b_workshop_id": actor.workshop_id, "b_user_id": actor.user_id, "b_since": now - window}
            write(conn, _FAIL_USERS_ORPHANS, {**sweep, **orphans})
            if row.idempotency_key is not None:
                # The key's own run may be older than the window the user's sweep reads.
                conn.execute(
                    _FAIL_KEYED_ORPHAN,
                    {"b_workshop_id": actor.workshop_id, "b_key": row.idempotency_key, **orphans},
                )
                keyed = self._keyed(conn, row)
                if keyed is not None and keyed.status not in _RERUNNABLE:
                    return keyed
                if keyed is not None:
                    conn.execute(_RELEASE_KEY, {"b_workshop_id": actor.workshop_id, "b_id": keyed.run_id})
            recent = int(scalar(conn, _RECENT_RUNS, params) or 0)
            if recent >= limit:
                recent -= int(scalar(conn, _RECENT_INTERRUPTED, params) or 0)
            if recent >= limit:
                return False
            write(
                conn,
                _INSERT_RUN,
                {
                    "id": row.run_id,
                    "workshop_id": row.actor.workshop_id,
                    "user_id": row.actor.user_id,
                    "agent": AGENT,
                    "request_id": row.request_id,
                    "input": row.note,
                    "input_mode": row.input_mode,
                    "hat_code": row.hat_code,
                    "model": row.model,
                    "status": "running",
                    "steps": [],
                    "tokens_in": 0,
                    "tokens_out": 0,
                    "latency_ms": 0,
                    "cost_usd": 0.0,
                    "created_at": row.created_at,
                    "updated_at": row.created_at,
                    "idempotency_key": row.idempotency_key,
                    "said_at": row.said_at,
                },
            )
            _insert_logs(conn, logs)
        remember_workshop(self.store, actor.workshop_id)
        return True

    def save_agent_run(self, actor: domain.Actor, result: RunResult, logs: list[LogRow]) -> list[str]:
        """ONE transaction: the run row update, every proposal, and the run's log rows.

        The same writes as ``WorkshopRepo.save_agent_run`` (docs/workshop-agent.md, "One run", step 6), as one
        ``UPDATE`` and one multi-row ``INSERT`` per table; a run row missing from the actor's workshop rolls everything back.
        """
        values: dict[str, Any] = {
            "b_id": result.run_id,
            "b_workshop_id": actor.workshop_id,
            "v_status": result.status,
            "v_summary": result.summary,
            "v_steps": result.steps,
            "v_tokens_in": result.tokens_in,
            "v_tokens_out": result.tokens_out,
            "v_latency_ms": result.latency_ms,
            "v_cost_usd": result.cost_usd if result.cost_usd is not None else 0.0,
            "v_error": result.error,
            "v_model": result.model,
            "v_response": result.response,
            "v_updated_at": utcnow(),
        }
        ids = list(result.proposal_ids) or [new_id() for _ in result.proposals]
        with self.store.writing(actor.workshop_id) as conn:
            if write(conn, _UPDATE_RUN, values) != 1:
                raise NotFound(f"run {result.run_id}")
            if result.proposals:
                now = utcnow()
                write(
                    conn,
                    _INSERT_PROPOSALS,
                    [
                        {
                            "id": pid,
                            "run_id": result.run_id,
                            "workshop_id": actor.workshop_id,
                            "position": position,
                            "type": p.type,
                            "payload": p.payload,
                            # The column's default, given here so the insert needs no per-row default.
                            "hat_code": m.proposal_hat_code(p.payload),
                            "status": p.status,
                            "why": p.why,
                            "quote": p.quote,
                            "confidence": p.confidence,
                            "rule_result": p.rule_result,
                            "texts": p.texts,
                            "created_at": now,
                        }
                        for position, (pid, p) in enumerate(zip(ids, result.proposals, strict=True))
                    ],
                )
            _insert_logs(conn, logs)
        return ids

    def write_logs(self, actor: domain.Actor, logs: list[LogRow]) -> None:
        """Insert log rows that belong to no run (validation and rate-limit errors)."""
        if not logs:
            return
        with self.store.writing(actor.workshop_id) as conn:
            _insert_logs(conn, logs)


def _orphan_params(now: datetime) -> dict[str, Any]:
    return {"cutoff": now - ORPHANED_AFTER, "v_error": INTERRUPTED, "v_now": now}


# The workshops each store started runs for in this process, by store: on PostgreSQL row-level security lets
# the app role see one workshop at a time and never list them, so the periodic sweep visits these.
_SEEN: dict[int, set[str]] = {}
_SEEN_LOCK = threading.Lock()


def remember_workshop(store: Store, workshop_id: str | None) -> None:
    """Note that ``workshop_id`` started a run on ``store`` (a workshop the periodic sweep visits)."""
    if workshop_id:
        with _SEEN_LOCK:
            _SEEN.setdefault(id(store), set()).add(workshop_id)


def fail_orphaned_runs(store: Store, workshop_id: str | None = None, now: datetime | None = None) -> int:
    """Mark every run still ``running`` well past the run budget (``ORPHANED_AFTER``) as ``failed`` with the
    ``interrupted`` error, and return how many; such a run's process is gone (docs/security.md).

    ``workshop_id`` None sweeps every workshop the store lets this process see: all of them on SQLite; on
    PostgreSQL, where row-level security shows one workshop per transaction, the workshops this process
    started runs for (each workshop's own runs are also swept whenever one of its users starts a run)."""
    params = _orphan_params(now or utcnow())
    if workshop_id is not None:
        with store.writing(workshop_id) as conn:
            return int(
                conn.execute(_FAIL_WORKSHOPS_ORPHANS, {"b_workshop_id": workshop_id, **params}).rowcount
            )
    if store.is_sqlite:
        with store.writing(None) as conn:
            return int(conn.execute(_FAIL_ALL_ORPHANS, params).rowcount)
    with _SEEN_LOCK:
        seen = sorted(_SEEN.get(id(store), ()))
    return sum(fail_orphaned_runs(store, w, now) for w in seen)


def save_proposed_run(
    store: Store, actor: domain.Actor, cards: Sequence[dict[str, Any]], note: str = "nota"
) -> list[str]:
    """Save a finished ``proposed`` run holding ``cards`` through the agent's own writes, outside the hourly
    limit: cards for sample data, benchmarks and tests. Each card is a dict with ``type``, ``payload`` and
    ``status`` (and optionally ``why``, ``quote``, ``confidence``, ``rule_result``, ``texts``). Returns the proposal
    ids."""
    agent_store = StoreAgentStore(store)
    run_id = str(uuid.uuid4())
    row = RunRow(run_id, actor, note, "typed", None, "req_" + run_id[:12], "offline", utcnow())
    agent_store.insert_run(row, [], limit=sys.maxsize, window=timedelta(hours=1))
    proposals = [
        BufferedProposal(
            temp_id=f"p{i + 1}",
            type=card["type"],
            status=card["status"],
            payload=card["payload"],
            why=card.get("why", ""),
            quote=card.get("quote", ""),
            confidence=card.get("confidence", "high"),
            rule_result=card.get("rule_result"),
            dedupe_key=(i,),
            texts=card.get("texts"),
        )
        for i, card in enumerate(cards)
    ]
    result = RunResult(run_id, "proposed", "I understood.", [], proposals, 0, 0, 0, 0.0, "offline", None)
    return agent_store.save_agent_run(actor, result, [])
