"""The spend ledger: monthly caps, atomic reservations and settled costs in SQL, for both apps.

Three tables in the database the app gives the ledger — both apps give the workshop's SQL store, which
creates them (migration 0005; docs/pricing.md, "Spend under a cap"):

* ``spend_months`` — one row per app, tenant (workshop id or plant id) and month: spent and reserved money;
* ``spend_caps`` — a tenant's own monthly cap, overriding ``Settings.monthly_cap_usd``;
* ``spend_calls`` — one row per model call: the model, the day, the worst case reserved, the real cost and
  what counted against the cap.

A reservation is ONE conditional ``UPDATE`` of the month row (``... WHERE spent + reserved + amount <= cap``):
on PostgreSQL concurrent updates of the row queue on its row lock and each re-checks the condition against
the committed row; on SQLite the write lock serializes them. Either way, threads and server processes can
never reserve past the cap together. Money is whole nanodollars (``shopfloor.agent.budget``).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Index,
    MetaData,
    String,
    Table,
    create_engine,
    text,
)

from shopfloor.agent.budget import BudgetExhausted, Hold, to_nano, to_usd, worst_case_usd
from shopfloor.logs import get_logger

log = get_logger("shopfloor.agent.spend")

# A reservation is a lease: an open call older than this was left by a process that died before settling it
# (no call of ours lives this long: a run's budget is under a minute, docs/architecture.md "Bounds"). The next
# reservation of its tenant releases it, counted as spent at its hold, since the request may have reached the
# provider and been billed (docs/pricing.md, "Leases").
LEASE_S = 15 * 60

METADATA = MetaData()

SPEND_MONTHS = Table(
    "spend_months",
    METADATA,
    Column("app", String(20), primary_key=True),
    Column("tenant", String(64), primary_key=True),
    Column("month", String(7), primary_key=True),  # YYYY-MM, UTC
    Column("spent_nano", BigInteger, nullable=False),
    Column("reserved_nano", BigInteger, nullable=False),
)
SPEND_CAPS = Table(
    "spend_caps",
    METADATA,
    Column("app", String(20), primary_key=True),
    Column("tenant", String(64), primary_key=True),
    Column("cap_nano", BigInteger, nullable=False),
)
SPEND_CALLS = Table(
    "spend_calls",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("app", String(20), nullable=False),
    Column("tenant", String(64), nullable=False),
    Column("month", String(7), nullable=False),
    Column("day", String(10), nullable=False),  # YYYY-MM-DD, UTC
    Column("model", String(120), nullable=False),
    Column("reserved_nano", BigInteger, nullable=False),  # the worst case held (0 for an unknown price)
    Column("cost_nano", BigInteger, nullable=True),  # the real cost; NULL while open or when unknown
    Column("charged_nano", BigInteger, nullable=True),  # what counted against the cap; NULL while open
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("settled_at", DateTime(timezone=True), nullable=True),
    Index("ix_spend_calls_month", "app", "tenant", "month"),
)

APPS = ("workshop", "shifts")

_ENSURE_MONTH = text(
    "INSERT INTO spend_months (app, tenant, month, spent_nano, reserved_nano) "
    "VALUES (:app, :tenant, :month, 0, 0) ON CONFLICT (app, tenant, month) DO NOTHING"
)
_CAP = (
    "COALESCE((SELECT c.cap_nano FROM spend_caps c WHERE c.app = :app AND c.tenant = :tenant), "
    "CAST(:default_cap AS BIGINT))"
)
# The check and the reservation in one statement: the cap is never passed, whoever else reserves at once.
_RESERVE = text(
    "UPDATE spend_months SET reserved_nano = reserved_nano + :amount "
    "WHERE app = :app AND tenant = :tenant AND month = :month "
    f"AND ({_CAP} IS NULL OR spent_nano + reserved_nano + :amount <= {_CAP})"
)
# A call whose price is unknown cannot be held under a cap: it is let through only when no cap is in force.
_RESERVE_UNPRICED = text(
    "UPDATE spend_months SET reserved_nano = reserved_nano "
    f"WHERE app = :app AND tenant = :tenant AND month = :month AND {_CAP} IS NULL"
)
_STANDING = text(
    f"SELECT spent_nano, reserved_nano, {_CAP} FROM spend_months "
    "WHERE app = :app AND tenant = :tenant AND month = :month"
)
_OPEN_CALL = text(
    "INSERT INTO spend_calls (id, app, tenant, month, day, model, reserved_nano, created_at) "
    "VALUES (:id, :app, :tenant, :month, :day, :model, :amount, :now)"
)
# Settling twice counts once: the call row is closed only while it is open.
_CLOSE_CALL = text(
    "UPDATE spend_calls SET cost_nano = :cost, charged_nano = :charged, settled_at = :now "
    "WHERE id = :id AND charged_nano IS NULL"
)
_SETTLE_MONTH = text(
    "UPDATE spend_months SET reserved_nano = reserved_nano - :reserved, spent_nano = spent_nano + :charged "
    "WHERE app = :app AND tenant = :tenant AND month = :month"
)

# Expired leases of one tenant: closed with an unknown cost, their hold charged as spent in the month that
# held it. Read in this month and in every earlier month still holding money (a lease open across a month
# boundary is released by the next call, whenever it comes), through the month index, never the whole history.
_EXPIRED = text(
    "SELECT id, month, reserved_nano FROM spend_calls WHERE app = :app AND tenant = :tenant "
    "AND (month = :month OR month IN (SELECT m.month FROM spend_months m "
    "WHERE m.app = :app AND m.tenant = :tenant AND m.reserved_nano > 0)) "
    "AND charged_nano IS NULL AND created_at < :before"
)

_SET_CAP = text(
    "INSERT INTO spend_caps (app, tenant, cap_nano) VALUES (:app, :tenant, :cap) "
    "ON CONFLICT (app, tenant) DO UPDATE SET cap_nano = excluded.cap_nano"
)


def money(usd: float | None) -> str:
    """Dollars for people: cents from a cent up, else six decimals (a cap can be a fraction of a cent)."""
    if usd is None:
        return "no cap"
    return f"${usd:,.2f}" if usd >= 0.01 or usd == 0 else f"${usd:.6f}"


def month_of(day: date) -> str:
    """``YYYY-MM`` of ``day``."""
    return f"{day.year:04d}-{day.month:02d}"


@dataclass(frozen=True)
class MonthTotal:
    """One app and tenant's month: spent, still reserved, and the cap in force (None: no cap)."""

    app: str
    tenant: str
    month: str
    spent_usd: float
    reserved_usd: float
    cap_usd: float | None


@dataclass(frozen=True)
class SpendRow:
    """Calls of one app, tenant, model and day: their count, what counted against the cap (open calls at
    their worst case), the known cost, and how many are still open or of unknown cost."""

    app: str
    tenant: str
    model: str
    day: str
    calls: int
    charged_usd: float
    cost_usd: float
    open_calls: int
    unknown_cost_calls: int


class SqlLedger:
    """The ledger on one database. ``begin`` opens one write transaction (the workshop store passes its own,
    which queues SQLite writers); by default ``engine.begin``."""

    def __init__(
        self,
        engine: Engine,
        begin: Callable[[], AbstractContextManager[Connection]] | None = None,
        lease_s: float = LEASE_S,
    ):
        self.engine = engine
        self._begin = begin or engine.begin
        self.lease_s = lease_s

    def reserve(
        self,
        app: str,
        tenant: str,
        day: date,
        model: str,
        amount_nano: int | None,
        default_cap_nano: int | None,
    ) -> Hold:
        """Hold ``amount_nano`` (None: unknown price) for one call, or raise :class:`BudgetExhausted`."""
        month = month_of(day)
        keys = {"app": app, "tenant": tenant, "month": month, "default_cap": default_cap_nano}
        with self._begin() as conn:
            conn.execute(_ENSURE_MONTH, keys)
            self._release_expired(conn, keys)
            if amount_nano is None:
                held = conn.execute(_RESERVE_UNPRICED, keys).rowcount == 1
            else:
                held = conn.execute(_RESERVE, {**keys, "amount": amount_nano}).rowcount == 1
            if held:
                call_id = secrets.token_hex(16)
                conn.execute(
                    _OPEN_CALL,
                    {
                        **keys,
                        "id": call_id,
                        "day": day.isoformat(),
                        "model": model[:120],
                        "amount": amount_nano or 0,
                        "now": datetime.now(UTC),
                    },
                )
                return Hold(call_id, month, model, amount_nano or 0)
            spent, reserved, cap = conn.execute(_STANDING, keys).one()
        cap_usd, used_usd = to_usd(cap), to_usd(spent + reserved) or 0.0
        if amount_nano is None:
            message = (
                f"The model {model} has no known price, so its calls cannot be kept under the monthly cap of "
                f"{money(cap_usd)}; no call was made."
            )
        else:
            message = (
                f"The monthly model budget is spent: {money(used_usd)} of {money(cap_usd)} is used or held "
                f"for calls in progress, and this call could cost up to {money(to_usd(amount_nano))}; "
                "no call was made."
            )
        raise BudgetExhausted(message, cap_usd, to_usd(spent))

    def _release_expired(self, conn: Connection, keys: dict[str, Any]) -> None:
        """Close the tenant's open calls older than the lease (their process died mid-call), each in its own
        month."""
        now = datetime.now(UTC)
        before = now - timedelta(seconds=self.lease_s)
        tenant = {"app": keys["app"], "tenant": keys["tenant"]}
        expired = conn.execute(_EXPIRED, {**tenant, "month": keys["month"], "before": before}).all()
        for call_id, month, reserved in expired:
            closed = conn.execute(_CLOSE_CALL, {"id": call_id, "cost": None, "charged": reserved, "now": now})
            if closed.rowcount == 1:
                conn.execute(
                    _SETTLE_MONTH, {**tenant, "month": month, "reserved": reserved, "charged": reserved}
                )
                log.warning(
                    "agent.spend.lease_expired",
                    extra={
                        "app": keys["app"],
                        "tenant": keys["tenant"],
                        "call": call_id,
                        "held_nano": reserved,
                    },
                )

    def settle(self, app: str, tenant: str, hold: Hold, cost_nano: int | None) -> None:
        """Close the call: charge ``cost_nano`` (None: unknown, the worst case stays charged).

        A cost above the hold (a provider that reported more output than the request's ``max_tokens``) is
        recorded as it is, but only the hold counts against the cap, so settling never passes it; the
        overrun is logged as ``agent.spend.overrun`` and shows in ``shopfloor spend`` (cost above charged).
        """
        charged = hold.reserved_nano if cost_nano is None else cost_nano
        if cost_nano is not None and hold.reserved_nano and cost_nano > hold.reserved_nano:
            charged = hold.reserved_nano
            log.warning(
                "agent.spend.overrun",
                extra={
                    "app": app,
                    "tenant": tenant,
                    "model": hold.model,
                    "held_nano": hold.reserved_nano,
                    "cost_nano": cost_nano,
                },
            )
        now = datetime.now(UTC)
        with self._begin() as conn:
            closed = conn.execute(
                _CLOSE_CALL, {"id": hold.id, "cost": cost_nano, "charged": charged, "now": now}
            )
            if closed.rowcount == 1:
                conn.execute(
                    _SETTLE_MONTH,
                    {
                        "app": app,
                        "tenant": tenant,
                        "month": hold.month,
                        "reserved": hold.reserved_nano,
                        "charged": charged,
                    },
                )

    def set_cap(self, app: str, tenant: str, cap_usd: float | None) -> None:
        """Set the tenant's own monthly cap; None removes it (back to ``Settings.monthly_cap_usd``; this needs
        DELETE on the table, which the PostgreSQL app role does not have: the owner does it)."""
        with self._begin() as conn:
            if cap_usd is None:
                conn.execute(
                    SPEND_CAPS.delete().where(SPEND_CAPS.c.app == app, SPEND_CAPS.c.tenant == tenant)
                )
                return
            conn.execute(_SET_CAP, {"app": app, "tenant": tenant, "cap": to_nano(cap_usd)})

    def cap(self, app: str, tenant: str, default_cap_usd: float | None) -> float | None:
        """The cap in force for a tenant: its own row, else ``default_cap_usd`` (None: no cap)."""
        query = SPEND_CAPS.select().where(SPEND_CAPS.c.app == app, SPEND_CAPS.c.tenant == tenant)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return to_usd(row.cap_nano) if row is not None else default_cap_usd

    def months(
        self, month: str, default_cap_usd: float | None, app: str | None = None, tenant: str | None = None
    ) -> list[MonthTotal]:
        """Every app and tenant's totals of ``month`` (or one app and tenant's)."""
        sql = (
            "SELECT m.app, m.tenant, m.spent_nano, m.reserved_nano, c.cap_nano FROM spend_months m "
            "LEFT JOIN spend_caps c ON c.app = m.app AND c.tenant = m.tenant WHERE m.month = :month"
            + (" AND m.app = :app AND m.tenant = :tenant" if app is not None else "")
            + " ORDER BY m.app, m.tenant"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(text(sql), {"month": month, "app": app, "tenant": tenant}).all()
        return [
            MonthTotal(
                row[0],
                row[1],
                month,
                to_usd(row[2]) or 0.0,
                to_usd(row[3]) or 0.0,
                to_usd(row[4]) if row[4] is not None else default_cap_usd,
            )
            for row in rows
        ]

    def by_day(self, month: str, app: str | None = None, tenant: str | None = None) -> list[SpendRow]:
        """The month's calls by app, tenant, model and day."""
        sql = (
            "SELECT app, tenant, model, day, COUNT(*), "
            "SUM(COALESCE(charged_nano, reserved_nano)), SUM(COALESCE(cost_nano, 0)), "
            "SUM(CASE WHEN charged_nano IS NULL THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN charged_nano IS NOT NULL AND cost_nano IS NULL THEN 1 ELSE 0 END) "
            "FROM spend_calls WHERE month = :month"
            + (" AND app = :app AND tenant = :tenant" if app is not None else "")
            + " GROUP BY app, tenant, model, day ORDER BY app, tenant, day, model"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(text(sql), {"month": month, "app": app, "tenant": tenant}).all()
        return [
            SpendRow(
                r[0],
                r[1],
                r[2],
                r[3],
                int(r[4]),
                to_usd(int(r[5])) or 0.0,
                to_usd(int(r[6])) or 0.0,
                int(r[7]),
                int(r[8]),
            )
            for r in rows
        ]


class LedgerBudget:
    """A :class:`~shopfloor.agent.budget.Budget` for one app and tenant on a :class:`SqlLedger`."""

    def __init__(
        self,
        ledger: SqlLedger,
        app: str,
        tenant: str,
        default_cap_usd: float | None,
        today: Callable[[], date] = lambda: datetime.now(UTC).date(),
    ) -> None:
        self.ledger = ledger
        self.app = app
        self.tenant = tenant
        self.default_cap_nano = None if default_cap_usd is None else to_nano(default_cap_usd)
        self.today = today

    def reserve(self, model: str, prompt_bytes: int, max_tokens: int) -> Hold | None:
        """Hold the call's worst case against the tenant's cap (nothing for a free model)."""
        worst = worst_case_usd(model, prompt_bytes, max_tokens)
        if worst == 0.0:
            return None  # the offline planners: never counted, never refused
        amount = None if worst is None else to_nano(worst, round_up=True)
        return self.ledger.reserve(self.app, self.tenant, self.today(), model, amount, self.default_cap_nano)

    def settle(self, hold: Hold, cost_usd: float | None) -> None:
        """Charge the real cost in place of the worst case."""
        self.ledger.settle(self.app, self.tenant, hold, None if cost_usd is None else to_nano(cost_usd))


def normalize_url(url: str) -> str:
    """The psycopg 3 driver for plain ``postgresql://`` URLs (as the workshop store uses)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()


def ledger_at(url: str) -> SqlLedger:
    """The ledger in the database at ``url`` (one engine per URL per process), for an app without the
    workshop store at hand (the Shift Investigator, the ``shopfloor spend`` command)."""
    with _engines_lock:
        engine = _engines.get(url)
        if engine is None:
            sqlite = url.startswith("sqlite")
            engine = create_engine(
                normalize_url(url), connect_args={"timeout": 30} if sqlite else {}, pool_pre_ping=not sqlite
            )
            _engines[url] = engine
    return SqlLedger(engine)


def budget_for(url: str, app: str, tenant: str, default_cap_usd: float | None) -> LedgerBudget:
    """The budget of ``app``'s ``tenant`` on the ledger in the database at ``url``, which the app names (the
    Shift Investigator's live planners pass the workshop store's URL and ``Settings.monthly_cap_usd``)."""
    return LedgerBudget(ledger_at(url), app, tenant, default_cap_usd)


def as_json(totals: list[MonthTotal], rows: list[SpendRow]) -> dict[str, Any]:
    """The month's spend as JSON: totals per app and tenant, and rows by app, model and day."""
    return {
        "totals": [t.__dict__ for t in totals],
        "rows": [r.__dict__ for r in rows],
    }


def render(console: Any, month: str, totals: list[MonthTotal], rows: list[SpendRow]) -> None:
    """The month on a Rich console: totals per app and tenant with the cap, the calls by app, model and day,
    and a bar per day (``shopfloor spend``)."""
    from rich.table import Table as RichTable

    head = RichTable(title=f"Model spend, {month} (UTC)")
    for name in ("app", "tenant", "spent", "held now", "cap", "left"):
        head.add_column(name, justify="right" if name not in ("app", "tenant") else "left")
    for t in totals:
        left = "-" if t.cap_usd is None else money(max(0.0, t.cap_usd - t.spent_usd - t.reserved_usd))
        head.add_row(t.app, t.tenant, money(t.spent_usd), money(t.reserved_usd), money(t.cap_usd), left)
    console.print(head)
    table = RichTable(title="By app, model and day")
    for name in ("app", "tenant", "model", "day", "calls", "charged", "unknown cost", "open"):
        table.add_column(
            name, justify="right" if name in ("calls", "charged", "unknown cost", "open") else "left"
        )
    for r in rows:
        table.add_row(
            r.app,
            r.tenant,
            r.model,
            r.day,
            str(r.calls),
            money(r.charged_usd),
            str(r.unknown_cost_calls),
            str(r.open_calls),
        )
    console.print(table)
    days: dict[str, float] = {}
    for r in rows:
        days[r.day] = days.get(r.day, 0.0) + r.charged_usd
    top = max(days.values(), default=0.0)
    for day in sorted(days):
        width = round(40 * days[day] / top) if top else 0
        console.print(f"{day} {'█' * width} {money(days[day])}")
