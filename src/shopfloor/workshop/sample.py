"""The sample data (docs/workshop.md, "Sample data"): two workshops, their users, weavers and hats.

Hats come with ages, owners, flags and events.

``load_sample`` inserts what is missing and leaves existing rows alone, so it is safe to run on every start.
``fresh_sample_store`` gives a new seeded SQLite file cheaply (a migrated, seeded template is copied), for
tests and eval cases that each need their own database.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from threading import Lock

from sqlalchemy import select

from shopfloor.workshop.passwords import cached_hash
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.engine import Store, open_store
from shopfloor.workshop.store.models import utcnow

WORKSHOP_A = "ws-sigsig"
WORKSHOP_B = "ws-pile"


@dataclass(frozen=True)
class DemoAccount:
    """A sample user with a documented demo password (local use only)."""

    user_id: str
    workshop_id: str
    email: str
    password: str
    name: str
    role: str


DEMO_ACCOUNTS: tuple[DemoAccount, ...] = (
    DemoAccount("u-ana", WORKSHOP_A, "ana@taller.example", "ana-toquilla-demo", "Ana Morocho", "member"),
    DemoAccount(
        "u-admin", WORKSHOP_A, "admin@taller.example", "admin-toquilla-demo", "Lucía Sarmiento", "admin"
    ),
    DemoAccount(
        "u-pedro", WORKSHOP_B, "pedro@pile.example", "pedro-toquilla-demo", "Pedro Anchundia", "member"
    ),
    DemoAccount("u-pile-admin", WORKSHOP_B, "admin@pile.example", "pile-admin-demo", "Marta Mero", "admin"),
)
WORKSHOPS = ((WORKSHOP_A, "Taller Sígsig"), (WORKSHOP_B, "Taller Pile"))

# (id, workshop, name, village, province, specialty)
WEAVERS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("w1", WORKSHOP_A, "Rosa Pillco", "Sígsig", "Azuay", "Fino"),
    ("w2", WORKSHOP_A, "Rosa Guamán", "Chordeleg", "Azuay", "Standard"),
    ("w3", WORKSHOP_A, "Manuel Delgado", "Pile", "Manabí", "Superfino"),
    ("w4", WORKSHOP_A, "Carmen Quizhpi", "Sígsig", "Azuay", "Fino"),
    ("wb1", WORKSHOP_B, "Rosa Chávez", "Pile", "Manabí", "Superfino"),
)


@dataclass(frozen=True)
class SampleHat:
    """A sample hat: its stage history is given as (stage, days after creation) after Weaving."""

    code: str
    workshop_id: str
    weaver_id: str
    grade: str
    rows: int
    created_days_ago: float
    moves: tuple[tuple[str, float], ...] = ()
    owner_type: str = "workshop"
    owner_name: str | None = None
    archived: bool = False
    straw: str = "Natural"
    open_flags: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @property
    def stage(self) -> str:
        """The current stage (the last move, or Weaving)."""
        return self.moves[-1][0] if self.moves else "Weaving"


HATS: tuple[SampleHat, ...] = (
    SampleHat("TQ-7F3K2", WORKSHOP_A, "w1", "Fino", 18, 30),
    SampleHat("TQ-2C5P0", WORKSHOP_A, "w2", "Standard", 12, 20, (("Washing", 10),)),
    # The record's grade does not fit its rows, and nobody has flagged it yet.
    SampleHat("TQ-4K9D1", WORKSHOP_A, "w4", "Fino", 12, 40, (("Washing", 10), ("Bleaching", 15))),
    SampleHat(
        "TQ-9M2XA",
        WORKSHOP_A,
        "w4",
        "Fino",
        11,
        35,
        (("Washing", 10),),
        open_flags=(("grade_mismatch", "Dice fino pero cuenta 11 hileras."),),
    ),
    SampleHat(
        "TQ-8H6RT",
        WORKSHOP_A,
        "w3",
        "Superfino",
        28,
        90,
        (("Washing", 30), ("Bleaching", 40), ("Blocking", 50)),
    ),
    SampleHat(
        "TQ-5B7NW",
        WORKSHOP_A,
        "w3",
        "Superfino",
        26,
        120,
        (("Washing", 30), ("Bleaching", 40), ("Blocking", 50), ("Finished", 60)),
    ),
    SampleHat(
        "TQ-3D8QV", WORKSHOP_A, "w1", "Fino", 20, 15, owner_type="seller", owner_name="Comercial Ortiz"
    ),
    SampleHat(
        "TQ-6J4YC", WORKSHOP_A, "w2", "Standard", 10, 50, (("Washing", 5), ("Bleaching", 10)), archived=True
    ),
    SampleHat("TQ-1P9KD", WORKSHOP_A, "w4", "Fino", 16, 2),
    SampleHat("TQ-7F3KA", WORKSHOP_A, "w1", "Fino", 19, 10),
    SampleHat("TQ-7F3K8", WORKSHOP_B, "wb1", "Fino", 18, 12),
    SampleHat("TQ-QR7YE", WORKSHOP_B, "wb1", "Superfino", 24, 40, (("Washing", 30),)),
)


@dataclass
class LoadReport:
    """What ``load_sample`` inserted (zeros on a second run)."""

    workshops: int = 0
    users: int = 0
    weavers: int = 0
    hats: int = 0
    events: int = 0
    flags: int = 0

    @property
    def total(self) -> int:
        """Rows inserted in all tables."""
        return self.workshops + self.users + self.weavers + self.hats + self.events + self.flags


def load_sample(store: Store, now: datetime | None = None) -> LoadReport:
    """Insert the sample rows that are missing (one transaction per workshop, bound to that workshop)."""
    now = now or utcnow()
    report = LoadReport()
    for workshop_id, name in WORKSHOPS:
        with store.transaction(workshop_id) as s:
            if s.get(m.Workshop, workshop_id) is None:
                s.add(m.Workshop(id=workshop_id, name=name, created_at=now - timedelta(days=365)))
                s.flush()
                report.workshops += 1
            for acc in DEMO_ACCOUNTS:
                if acc.workshop_id != workshop_id or s.get(m.Profile, acc.user_id) is not None:
                    continue
                s.add(
                    m.Profile(
                        id=acc.user_id,
                        workshop_id=workshop_id,
                        email=acc.email,
                        name=acc.name,
                        role=acc.role,
                        password_hash=cached_hash(acc.password),
                    )
                )
                report.users += 1
            for wid, wsid, wname, village, province, specialty in WEAVERS:
                if wsid != workshop_id or s.get(m.Weaver, wid) is not None:
                    continue
                s.add(
                    m.Weaver(
                        id=wid,
                        workshop_id=wsid,
                        name=wname,
                        village=village,
                        province=province,
                        specialty=specialty,
                        created_at=now - timedelta(days=300),
                    )
                )
                report.weavers += 1
            s.flush()
            existing = set(s.scalars(select(m.Hat.code).where(m.Hat.workshop_id == workshop_id)))
            for sample in HATS:
                if sample.workshop_id != workshop_id or sample.code in existing:
                    continue
                _add_hat(s, sample, now, report)
    return report


def _add_hat(s: object, sample: SampleHat, now: datetime, report: LoadReport) -> None:
    from sqlalchemy.orm import Session

    assert isinstance(s, Session)
    created = now - timedelta(days=sample.created_days_ago)
    last = created + timedelta(days=sample.moves[-1][1]) if sample.moves else created
    hat = m.Hat(
        id=f"hat-{sample.code[3:].lower()}",
        workshop_id=sample.workshop_id,
        code=sample.code,
        weaver_id=sample.weaver_id,
        grade=sample.grade,
        rows_per_inch=sample.rows,
        straw=sample.straw,
        stage=sample.stage,
        owner_type=sample.owner_type,
        owner_name=sample.owner_name,
        archived=sample.archived,
        version=1 + len(sample.moves),
        created_at=created,
        updated_at=last,
    )
    s.add(hat)
    s.flush()
    report.hats += 1
    s.add(
        m.HatEvent(
            workshop_id=hat.workshop_id, hat_id=hat.id, type="created", to_stage="Weaving", created_at=created
        )
    )
    report.events += 1
    previous = "Weaving"
    for stage, days in sample.moves:
        s.add(
            m.HatEvent(
                workshop_id=hat.workshop_id,
                hat_id=hat.id,
                type="stage_changed",
                from_stage=previous,
                to_stage=stage,
                created_at=created + timedelta(days=days),
            )
        )
        previous = stage
        report.events += 1
    for kind, message in sample.open_flags:
        raised = last + timedelta(days=1)
        s.add(
            m.HatFlag(
                workshop_id=hat.workshop_id, hat_id=hat.id, kind=kind, message=message, created_at=raised
            )
        )
        s.add(m.HatEvent(workshop_id=hat.workshop_id, hat_id=hat.id, type="flag_raised", created_at=raised))
        report.flags += 1
        report.events += 1


_TEMPLATE_LOCK = Lock()
_TEMPLATE: dict[str, Path] = {}


def _template() -> Path:
    with _TEMPLATE_LOCK:
        path = _TEMPLATE.get("path")
        if path is None or not path.exists():
            directory = Path(tempfile.mkdtemp(prefix="shopfloor-workshop-template-"))
            path = directory / "template.db"
            store = open_store(f"sqlite:///{path}")
            store.migrate()
            load_sample(store)
            with store.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            store.dispose()
            _TEMPLATE["path"] = path
        return path


def fresh_sample_store(path: Path | str) -> Store:
    """A new SQLite store at ``path`` holding the migrated schema and the sample data.

    The first call in a process builds a template; later calls copy it (a few milliseconds). Sample ages are
    relative to when the template was built.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_template(), target)
    return open_store(f"sqlite:///{target}")
