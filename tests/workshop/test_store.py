"""The store: migrations, sample data, and the actor-scoped repository on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, func, inspect, make_url, select, text

from shopfloor.workshop import domain
from shopfloor.workshop.sample import DEMO_ACCOUNTS, WORKSHOP_A, WORKSHOP_B, load_sample
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo, open_store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.engine import normalize_url
from shopfloor.workshop.store.migrate import current_revision, downgrade, head_revision, migrate

from .conftest import PG_URL
from .helpers import card, make_run

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
A_CODES = ("TQ-7F3K2", "TQ-2C5P0", "TQ-4K9D1", "TQ-9M2XA", "TQ-8H6RT")
A_CODES += ("TQ-5B7NW", "TQ-3D8QV", "TQ-6J4YC", "TQ-1P9KD", "TQ-7F3KA")
PEDRO = domain.Actor("u-pedro", WORKSHOP_B, "member", "Pedro Anchundia")


def test_migrations_match_the_models(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    store.migrate()
    assert current_revision(store.engine) == head_revision()
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), m.Base.metadata)
    assert diff == []
    tables = set(inspect(store.engine).get_table_names())
    assert {
        "workshops",
        "profiles",
        "api_tokens",
        "weavers",
        "hats",
        "hat_events",
        "hat_flags",
        "agent_runs",
        "proposals",
        "app_logs",
    } <= tables
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.dispose()


@pytest.mark.postgres
def test_migrations_match_the_models_on_postgres(pg_owner: Store) -> None:
    assert current_revision(pg_owner.engine) == head_revision()
    with pg_owner.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, m.Base.metadata) == []


def test_upgrade_to_0003_fills_proposal_hat_codes_from_payloads(tmp_path: Path) -> None:
    """Proposals written before revision 0003 get their hat code from the payload, so the duplicate check
    still finds them; payloads without a usable code stay NULL. Downgrading drops the column again."""
    store = open_store(f"sqlite:///{tmp_path / 'up.db'}")
    migrate(store.engine, "0002")
    load_sample(store)
    rows = [
        ("p-hat", '{"hat_code": "TQ-7F3K2", "to_stage": "Washing"}'),
        ("p-none", '{"weaver_id": "w-rosa"}'),
        ("p-long", '{"hat_code": "TQ-7F3K2-AND-MORE"}'),
    ]
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO agent_runs (id, workshop_id, user_id, agent, input, input_mode, status, steps, "
            "tokens_in, tokens_out, latency_ms, cost_usd, created_at, updated_at) VALUES ('r-old', ?, 'u-ana', "
            "'workshop', 'x', 'typed', 'proposed', '[]', 0, 0, 0, 0, '2026-11-01 00:00:00', '2026-11-01 00:00:00')",
            (WORKSHOP_A,),
        )
        for pid, payload in rows:
            conn.exec_driver_sql(
                "INSERT INTO proposals (id, run_id, workshop_id, position, type, payload, status, why, quote, "
                "confidence, created_at) VALUES (?, 'r-old', ?, 0, 'advance_stage', ?, 'pending', '', '', "
                "'high', '2026-11-01 00:00:00')",
                (pid, WORKSHOP_A, payload),
            )
    migrate(store.engine, "0003")
    with store.engine.connect() as conn:
        codes = dict(conn.exec_driver_sql("SELECT id, hat_code FROM proposals").all())
    assert codes == {"p-hat": "TQ-7F3K2", "p-none": None, "p-long": None}
    downgrade(store.engine, "0002")
    assert "hat_code" not in {c["name"] for c in inspect(store.engine).get_columns("proposals")}
    store.dispose()


@contextmanager
def _bare_database(kind: str, tmp_path: Path) -> Iterator[Store]:
    """An empty store of ``kind`` (a throw-away PostgreSQL database, dropped after)."""
    if kind == "sqlite":
        store = open_store(f"sqlite:///{tmp_path / 'bare.db'}")
        yield store
        store.dispose()
        return
    admin = create_engine(make_url(normalize_url(PG_URL)), isolation_level="AUTOCOMMIT")
    name = f"sf_w9_{secrets.token_hex(4)}"
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except Exception as exc:  # no server: skip as the other PostgreSQL tests do
        admin.dispose()
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL} ({type(exc).__name__})")
    store = open_store(admin.url.set(database=name).render_as_string(hide_password=False))
    try:
        yield store
    finally:
        store.dispose()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


_OLD_CARD = (
    "INSERT INTO agent_runs (id, workshop_id, user_id, agent, input, input_mode, status, steps, tokens_in, "
    "tokens_out, latency_ms, cost_usd, created_at, updated_at) VALUES ('r-old', :w, 'u-ana', 'workshop', 'x', "
    "'typed', 'proposed', '[]', 0, 0, 0, 0, :t, :t)",
    "INSERT INTO proposals (id, run_id, workshop_id, position, type, payload, status, why, quote, confidence, "
    "created_at) VALUES ('p-old', 'r-old', :w, 0, 'advance_stage', '{\"hat_code\": \"TQ-2C5P0\"}', "
    "'pending', 'The note says TQ-2C5P0 is now at Washing.', '', 'high', :t)",
)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_upgrade_to_0009_keeps_cards_stored_before_without_text_codes(kind: str, tmp_path: Path) -> None:
    """Cards stored before revision 0009 have no text codes (NULL: the page shows their English as it came);
    cards after keep theirs as JSON. Downgrading drops the column again."""
    with _bare_database(kind, tmp_path) as store:
        migrate(store.engine, "0008")
        load_sample(store)
        with store.engine.begin() as conn:
            for sql in _OLD_CARD:
                conn.execute(text(sql), {"w": WORKSHOP_A, "t": datetime(2026, 11, 1)})
        migrate(store.engine, "0009")
        said = {"why": {"code": "why.advance", "params": {"code": "TQ-2C5P0", "stage": "Washing"}}}
        [new] = make_run(store, ANA, [{**card("advance_stage", {"hat_code": "TQ-7F3K2"}), "texts": said}])
        with store.transaction(WORKSHOP_A, write=False) as session:
            repo = WorkshopRepo(session, ANA)
            assert repo.proposal("p-old").texts is None
            assert repo.proposal(new).texts == said
        downgrade(store.engine, "0008")
        assert "texts" not in {c["name"] for c in inspect(store.engine).get_columns("proposals")}


def test_a_proposal_row_takes_its_hat_code_from_its_payload(store: Store) -> None:
    cards = [card("advance_stage", {"hat_code": "TQ-2C5P0"}), card("create_hat", {"weaver_id": "w1"})]
    ids = make_run(store, ANA, cards)
    with store.transaction(WORKSHOP_A, write=False) as session:
        repo = WorkshopRepo(session, ANA)
        saved = [repo.proposal(pid) for pid in ids]
        assert [p.hat_code for p in saved] == ["TQ-2C5P0", None]
        assert [p.id for p in repo.open_proposals_for_hat("TQ-2C5P0")] == [ids[0]]
        assert repo.open_proposals_for_hat("TQ-2C5P0", exclude_run=saved[0].run_id) == []


def test_sample_loading_is_idempotent(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    store.migrate()
    first = load_sample(store)
    assert (first.workshops, first.users, first.weavers, first.hats, first.flags) == (2, 4, 5, 12, 1)
    assert load_sample(store).total == 0
    with store.transaction(WORKSHOP_A) as s:
        assert s.scalar(select(func.count()).select_from(m.Hat)) == 12
    store.dispose()


def test_sample_hats_of_workshop_a(store: Store) -> None:
    now = datetime.now(UTC)
    with store.transaction(WORKSHOP_A, write=False) as s:
        repo = WorkshopRepo(s, ANA)
        hats = {h.code: h for h in repo.hats()}
        assert sorted(hats) == sorted(A_CODES)
        table = {
            c: (h.weaver_id, h.stage, h.grade, h.rows_per_inch, h.owner_type, h.archived)
            for c, h in hats.items()
        }
        assert table["TQ-7F3K2"] == ("w1", "Weaving", "Fino", 18, "workshop", False)
        assert table["TQ-2C5P0"] == ("w2", "Washing", "Standard", 12, "workshop", False)
        assert table["TQ-4K9D1"] == ("w4", "Bleaching", "Fino", 12, "workshop", False)
        assert table["TQ-9M2XA"] == ("w4", "Washing", "Fino", 11, "workshop", False)
        assert table["TQ-8H6RT"] == ("w3", "Blocking", "Superfino", 28, "workshop", False)
        assert table["TQ-5B7NW"] == ("w3", "Finished", "Superfino", 26, "workshop", False)
        assert table["TQ-3D8QV"] == ("w1", "Weaving", "Fino", 20, "seller", False)
        assert table["TQ-6J4YC"] == ("w2", "Bleaching", "Standard", 10, "workshop", True)
        assert table["TQ-1P9KD"] == ("w4", "Weaving", "Fino", 16, "workshop", False)
        assert table["TQ-7F3KA"] == ("w1", "Weaving", "Fino", 19, "workshop", False)
        age = now - hats["TQ-7F3K2"].created_at
        assert timedelta(days=29) < age < timedelta(days=31)
        age = now - hats["TQ-1P9KD"].created_at
        assert timedelta(days=1) < age < timedelta(days=3)
        flags = repo.flags()
        assert [(f.hat_id, f.kind) for f in flags] == [(hats["TQ-9M2XA"].id, "grade_mismatch")]
        kinds = [a["kind"] for a in repo.anomalies(hats["TQ-4K9D1"])]
        assert kinds == ["grade_mismatch"]
        assert [a["kind"] for a in repo.anomalies(hats["TQ-7F3K2"])] == []
        assert [w.id for w in repo.weavers()] == ["w1", "w2", "w3", "w4"]
        assert [w.id for w in repo.find_weavers("Doña Rosa")] == ["w1", "w2"]
        events = repo.events(hats["TQ-8H6RT"].id)
        assert [(e.type, e.to_stage) for e in events] == [
            ("created", "Weaving"),
            ("stage_changed", "Washing"),
            ("stage_changed", "Bleaching"),
            ("stage_changed", "Blocking"),
        ]
        assert hats["TQ-8H6RT"].version == 4
        assert "TQ-5B7NW" not in repo.hat_codes(open_only=True)
        assert "TQ-6J4YC" not in repo.hat_codes(open_only=True)


def test_repository_never_crosses_workshops(store: Store) -> None:
    with store.transaction(WORKSHOP_B, write=False) as s:
        repo = WorkshopRepo(s, PEDRO)
        assert [h.code for h in repo.hats()] == ["TQ-7F3K8", "TQ-QR7YE"]
        assert [w.name for w in repo.find_weavers("Rosa")] == ["Rosa Chávez"]
        for call in (
            lambda: repo.hat_by_code("TQ-7F3K2"),
            lambda: repo.weaver("w1"),
            lambda: repo.profile("u-ana"),
            lambda: repo.hat("hat-7f3k2"),
        ):
            try:
                call()
            except NotFound:
                continue
            raise AssertionError("a workshop-A row reached workshop B")
        assert repo.events("hat-7f3k2") == []
        assert repo.flags(["hat-9m2xa"]) == []


def test_runs_and_proposals_saved_together(store: Store) -> None:
    cards = [
        card(
            "advance_stage",
            {"hat_code": "TQ-7F3K2", "to_stage": "Washing", "hat_version": 1},
            why="The note says it moved to washing.",
            quote="El TQ-7F3K2 pasó a lavado",
            rule_result={"allowed": True, "code": None, "message": "ok", "fix": None},
        )
    ]
    [proposal_id] = make_run(store, ANA, cards, note="El TQ-7F3K2 pasó a lavado")
    with store.transaction(WORKSHOP_A, write=False) as s:
        repo = WorkshopRepo(s, ANA)
        run_id = repo.proposal(proposal_id).run_id
        run = repo.run(run_id)
        assert (run.status, run.input, run.summary) == (
            "proposed",
            "El TQ-7F3K2 pasó a lavado",
            "I understood.",
        )
        assert [p.id for p in repo.proposals(run_id=run_id)] == [proposal_id]
        assert [p.id for p in repo.open_proposals_for_hat("TQ-7F3K2")] == [proposal_id]
        assert [r.id for r in repo.runs(user_id=ANA.user_id)] == [run_id]
    with store.transaction(WORKSHOP_B, write=False) as s:
        repo = WorkshopRepo(s, PEDRO)
        assert repo.proposals() == [] and repo.runs() == []


def test_demo_accounts_are_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "workshop.md").read_text(encoding="utf-8")
    for account in DEMO_ACCOUNTS:
        assert account.email in doc and account.password in doc
