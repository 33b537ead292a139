"""Idempotency keys on the workshop agent (docs/workshop.md, "Idempotency keys"): a note sent again with its
key makes one run and gets the first answer, on SQLite and PostgreSQL, through ``run_agent`` and over HTTP."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn
from shopfloor.web.errors import ApiError, BodyError
from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import ORPHANED_AFTER, RunRow, run_agent
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .helpers import assert_envelope, bearer, login

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
LUCIA = domain.Actor("u-admin", WORKSHOP_A, "admin", "Lucía")
PEDRO = domain.Actor("u-pedro", WORKSHOP_B, "member", "Pedro")
NOTE = "El TQ-7F3K2 pasó a lavado"
AGENT = "/workshop/functions/v1/workshop-agent"


def send(store: Store, actor: domain.Actor, body: dict[str, object], key: str | None = None, limit: int = 20):
    return run_agent(
        StoreAgentStore(store), actor, body, OfflineReader(), "req_idem00000000", limit, idempotency_key=key
    )


def runs_with(owner: Store, workshop: str, key: str) -> list[m.AgentRun]:
    with owner.transaction(workshop, write=False) as s:
        return list(
            s.scalars(
                select(m.AgentRun).where(
                    m.AgentRun.workshop_id == workshop, m.AgentRun.idempotency_key == key
                )
            )
        )


def count_runs(owner: Store, workshop: str) -> int:
    with owner.transaction(workshop, write=False) as s:
        return int(s.scalar(select(func.count()).where(m.AgentRun.workshop_id == workshop)) or 0)


def count_proposals(owner: Store, workshop: str) -> int:
    with owner.transaction(workshop, write=False) as s:
        return int(s.scalar(select(func.count()).where(m.Proposal.workshop_id == workshop)) or 0)


def test_a_note_sent_twice_makes_one_run_and_gets_the_same_answer(store: Store, owner: Store) -> None:
    said = datetime(2026, 11, 30, 9, 15, tzinfo=UTC)
    body = {"note": NOTE, "idempotency_key": "note-0001-abcdef", "said_at": said.isoformat()}
    first = send(store, ANA, body)
    before = (count_runs(owner, WORKSHOP_A), count_proposals(owner, WORKSHOP_A))
    second = send(store, ANA, body)
    assert second == first
    assert first["proposals"] and first["proposals"][0]["type"] == "advance_stage"
    assert (count_runs(owner, WORKSHOP_A), count_proposals(owner, WORKSHOP_A)) == before
    [run] = runs_with(owner, WORKSHOP_A, "note-0001-abcdef")
    assert run.id == first["run_id"] and run.said_at == said and run.created_at > said
    # The header carries the key just as well; a note without one runs every time.
    assert send(store, ANA, {"note": NOTE}, key="note-0001-abcdef") == first
    send(store, ANA, {"note": NOTE})
    send(store, ANA, {"note": NOTE})
    assert count_runs(owner, WORKSHOP_A) == before[0] + 2


def test_repeats_do_not_count_toward_the_hourly_limit(store: Store, owner: Store) -> None:
    body = {"note": NOTE, "idempotency_key": "limit-key-0001"}
    send(store, ANA, body, limit=1)
    for _ in range(3):
        send(store, ANA, body, limit=1)
    with pytest.raises(ApiError) as refused:
        send(store, ANA, {"note": NOTE, "idempotency_key": "limit-key-0002"}, limit=1)
    assert refused.value.status == 429
    assert runs_with(owner, WORKSHOP_A, "limit-key-0002") == []
    # The refused key made nothing, so it can be sent again once the limit allows it.
    assert send(store, ANA, {"note": NOTE, "idempotency_key": "limit-key-0002"}, limit=5)["run_id"]


def test_a_key_reused_for_another_note_or_by_another_person_is_refused(store: Store, owner: Store) -> None:
    send(store, ANA, {"note": NOTE, "idempotency_key": "reuse-key-0001"})
    before = count_runs(owner, WORKSHOP_A)
    for actor, body in (
        (ANA, {"note": "El TQ-2C5P0 ya está listo", "idempotency_key": "reuse-key-0001"}),
        (ANA, {"note": NOTE, "input_mode": "voice", "idempotency_key": "reuse-key-0001"}),
        (LUCIA, {"note": NOTE, "idempotency_key": "reuse-key-0001"}),
    ):
        with pytest.raises(ApiError) as refused:
            send(store, actor, body)
        assert (refused.value.status, refused.value.code) == (409, "idempotency_key_reused")
    assert count_runs(owner, WORKSHOP_A) == before
    # Keys are per workshop: the same key in workshop B is B's own note.
    assert send(store, PEDRO, {"note": "hola", "idempotency_key": "reuse-key-0001"})["run_id"]
    assert len(runs_with(owner, WORKSHOP_B, "reuse-key-0001")) == 1


def test_a_run_that_saved_nothing_gives_its_key_up(store: Store, owner: Store) -> None:
    body = {"note": NOTE, "idempotency_key": "stopped-key-01"}
    stop = threading.Event()
    stop.set()
    run_agent(StoreAgentStore(store), ANA, body, ScriptedProvider([text_turn("x")]), "req_stop", 20, stop)
    [stopped] = runs_with(owner, WORKSHOP_A, "stopped-key-01")
    assert stopped.status == "stopped"
    again = send(store, ANA, body)
    [keyed] = runs_with(owner, WORKSHOP_A, "stopped-key-01")
    assert keyed.id == again["run_id"] != stopped.id and keyed.status == "proposed"


def test_a_key_whose_run_is_still_going_is_busy(store: Store, owner: Store) -> None:
    started = threading.Event()
    release = threading.Event()

    class Slow(ScriptedProvider):
        def complete(self, request):  # type: ignore[no-untyped-def]
            started.set()
            release.wait(10)
            return super().complete(request)

    body = {"note": NOTE, "idempotency_key": "busy-key-00001"}
    answers: list[dict[str, object]] = []
    worker = threading.Thread(
        target=lambda: answers.append(
            run_agent(StoreAgentStore(store), ANA, body, Slow([text_turn("Nothing to do.")]), "req_slow", 20)
        )
    )
    worker.start()
    try:
        assert started.wait(10)
        with pytest.raises(ApiError) as busy:
            send(store, ANA, body)
        assert (busy.value.status, busy.value.code) == (409, "idempotency_in_progress")
    finally:
        release.set()
        worker.join(10)
    assert send(store, ANA, body) == answers[0]
    assert len(runs_with(owner, WORKSHOP_A, "busy-key-00001")) == 1


@pytest.mark.parametrize("age", [timedelta(minutes=10), timedelta(hours=3)])
def test_a_key_whose_run_a_killed_process_left_running_is_free_again(
    store: Store, owner: Store, age: timedelta
) -> None:
    # The process inserted its ``running`` row and was killed: nothing will ever finish that run. Past the run
    # budget the key is free again (within the hourly window and long after it, before any periodic sweep).
    key = f"killed-key-{age.seconds:05d}"
    long_ago = datetime.now(UTC) - ORPHANED_AFTER - age
    row = RunRow("run-killed-" + key, ANA, NOTE, "typed", None, "req_killed", "offline", long_ago, key)
    assert StoreAgentStore(store).insert_run(row, [], limit=20, window=timedelta(hours=1)) is True
    again = send(store, ANA, {"note": NOTE, "idempotency_key": key})
    assert again["run_id"] != row.run_id and again["proposals"]
    [keyed] = runs_with(owner, WORKSHOP_A, key)
    assert keyed.id == again["run_id"] and keyed.status == "proposed"
    with owner.transaction(WORKSHOP_A, write=False) as s:
        killed = s.get(m.AgentRun, row.run_id)
        assert killed is not None and killed.status == "failed" and killed.idempotency_key is None
        assert killed.error is not None and killed.error["type"] == "interrupted"


@pytest.mark.parametrize(
    ("fields", "key", "field", "message"),
    [
        ({"idempotency_key": "short"}, None, "idempotency_key", "8 to 80"),
        ({"idempotency_key": "has space in it"}, None, "idempotency_key", "8 to 80"),
        ({"idempotency_key": 12345678}, None, "idempotency_key", "must be a string"),
        ({"idempotency_key": "body-key-0001"}, "header-key-0001", "idempotency_key", "differ"),
        ({"said_at": "yesterday"}, None, "said_at", "ISO 8601"),
        ({"said_at": "2026-11-30T09:15:00"}, None, "said_at", "offset"),
        ({"said_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat()}, None, "said_at", "30 days"),
        ({"said_at": (datetime.now(UTC) - timedelta(days=31)).isoformat()}, None, "said_at", "30 days"),
    ],
)
def test_bad_keys_and_times_are_400_and_write_no_run(
    store: Store, owner: Store, fields: dict[str, object], key: str | None, field: str, message: str
) -> None:
    before = count_runs(owner, WORKSHOP_A)
    with pytest.raises(BodyError) as refused:
        send(store, ANA, {"note": NOTE, **fields}, key=key)
    assert (refused.value.status, refused.value.code, refused.value.field) == (400, "bad_request", field)
    assert message in refused.value.message
    assert count_runs(owner, WORKSHOP_A) == before


def test_over_http_the_header_and_the_body_field_make_one_run(client: TestClient, owner: Store) -> None:
    headers = bearer(client, "ana@taller.example")
    keyed = {**headers, "idempotency-key": "http-key-000001"}
    first = client.post(AGENT, json={"note": NOTE}, headers=keyed)
    assert first.status_code == 200
    second = client.post(AGENT, json={"note": NOTE, "idempotency_key": "http-key-000001"}, headers=headers)
    assert second.status_code == 200 and second.json() == first.json()
    assert len(runs_with(owner, WORKSHOP_A, "http-key-000001")) == 1
    reused = client.post(AGENT, json={"note": "otra nota distinta"}, headers=keyed)
    assert_envelope(reused, 409, "idempotency_key_reused")
    bad = client.post(AGENT, json={"note": NOTE}, headers={**headers, "idempotency-key": "no"})
    assert_envelope(bad, 400, "bad_request")


def test_the_notes_page_sends_a_note_once_and_never_as_someone_else(client: TestClient, owner: Store) -> None:
    csrf = login(client, "ana@taller.example")
    headers = {"x-csrf-token": csrf}
    form = {"note": NOTE, "idempotency_key": "page-key-000001", "said_at": "2026-12-01T08:00:00+00:00"}
    first = client.post("/workshop/notes", data=form, headers=headers)
    again = client.post("/workshop/notes", data=form, headers=headers)
    assert first.headers["x-note-outcome"] == again.headers["x-note-outcome"] == "sent"
    [run] = runs_with(owner, WORKSHOP_A, "page-key-000001")
    assert run.user_id == "u-ana" and run.said_at == datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert (
        '<time datetime="2026-12-01T08:00:00+00:00" data-local-time>2026-12-01 08:00 UTC</time>' in first.text
    )
    # An outbox note written by another person on this phone is refused, and makes no run.
    theirs = {**form, "idempotency_key": "page-key-000002", "author": "u-admin"}
    refused = client.post("/workshop/notes", data=theirs, headers=headers)
    assert refused.status_code == 200 and refused.headers["x-note-outcome"] == "other_user"
    assert runs_with(owner, WORKSHOP_A, "page-key-000002") == []
    # A refusal by the rules comes back in the page's language (a member's page is Spanish).
    long = client.post(
        "/workshop/notes",
        data={**form, "note": "x" * 1001, "idempotency_key": "page-key-03"},
        headers=headers,
    )
    assert long.headers["x-note-outcome"] == "refused"
    assert "Escriba una nota de 1 a 1000 caracteres." in long.text
    # Each refused field has its own sentence, whatever else the note carries (a good hat tag here).
    refusals = {
        "said_at": (
            {"said_at": "2020-01-01T00:00:00+00:00"},
            "No se acepta la hora en que se dijo esta nota",
        ),
        "hat_tag": ({"hat_tag": "sombrero"}, "Una etiqueta de sombrero se ve así: TQ-7F3K2."),
        "hat": ({"hat_tag": "tq-7f3k8"}, "No hay un sombrero TQ-7F3K8 en este taller."),
        "note": ({"note": "   "}, "Escriba una nota de 1 a 1000 caracteres."),
    }
    for n, (fields, sentence) in enumerate(refusals.values()):
        sent = client.post(
            "/workshop/notes",
            data={**form, "hat_tag": "TQ-7F3K2", "idempotency_key": f"page-key-1{n}", **fields},
            headers=headers,
        )
        assert sent.headers["x-note-outcome"] == "refused" and sentence in sent.text, fields
        assert runs_with(owner, WORKSHOP_A, f"page-key-1{n}") == []
    # The admin's run page shows when the note was said beside when it arrived.
    login(client, "admin@taller.example")
    page = client.get(f"/workshop/runs/{run.id}")
    said = '<dt>Said</dt><dd><time datetime="2026-12-01T08:00:00+00:00" data-local-time>2026-12-01 08:00 UTC</time>'
    assert page.status_code == 200 and said in page.text


def test_a_refused_note_says_its_reason_in_a_header_and_a_sent_one_is_shown_again_by_its_run(
    client: TestClient, owner: Store
) -> None:
    """The service worker sends the outbox with no page open and has no DOM to read a refusal's line from: the
    notes route gives the same sentence in ``X-Note-Reason`` (percent-encoded UTF-8), in the page's language,
    and ``GET /workshop/notes/{run}`` shows a sent note's answer again at the next visit (docs/workshop-pages.md,
    "Offline")."""
    headers = {"x-csrf-token": login(client, "ana@taller.example")}
    old = {"note": NOTE, "idempotency_key": "reason-key-0001", "said_at": "2020-01-01T00:00:00+00:00"}
    refused = client.post("/workshop/notes", data=old, headers=headers)
    assert refused.headers["x-note-outcome"] == "refused"
    header = refused.headers["x-note-reason"]
    assert header.isascii() and "%C3%A1" in header, "a header carries the accents percent-encoded"
    sentence = (
        "No se acepta la hora en que se dijo esta nota: hace más de 30 días, o la hora del teléfono está mal."
    )
    assert unquote(header) == sentence and sentence in refused.text
    theirs = client.post(
        "/workshop/notes",
        data={"note": NOTE, "idempotency_key": "reason-key-0002", "author": "u-admin"},
        headers=headers,
    )
    assert theirs.headers["x-note-outcome"] == "other_user"
    assert unquote(theirs.headers["x-note-reason"]) == "Esta nota no es suya."
    sent = client.post(
        "/workshop/notes", data={"note": NOTE, "idempotency_key": "reason-key-0003"}, headers=headers
    )
    assert sent.headers["x-note-outcome"] == "sent" and "x-note-reason" not in sent.headers
    [run] = runs_with(owner, WORKSHOP_A, "reason-key-0003")
    again = client.get(f"/workshop/notes/{run.id}", headers={"hx-request": "true"})
    assert again.status_code == 200 and again.headers["content-type"].startswith("text/html")
    assert f'id="panel-{run.id}"' in again.text and again.text.count('<article class="card') == len(
        re.findall(r'<article class="card', sent.text)
    )
    assert "<html" not in again.text, "the fragment, as the notes route answered"
    missing = client.get("/workshop/notes/no-such-run")
    assert missing.status_code == 404 and "No hay tal ejecución en este taller." in missing.text
    # For a person with no saved language (an admin), the request's language: the worker sends the language
    # of the page that kept the note.
    admin = {"x-csrf-token": login(client, "admin@taller.example")}
    long = {"note": "x" * 1001, "idempotency_key": "reason-key-0004"}
    for language, reason in (
        ("es", "Escriba una nota de 1 a 1000 caracteres."),
        ("en", "Write a note of 1 to 1000 characters."),
    ):
        answer = client.post("/workshop/notes", data=long, headers={**admin, "accept-language": language})
        assert unquote(answer.headers["x-note-reason"]) == reason, language
    client.cookies.clear()
    assert client.get(f"/workshop/notes/{run.id}", follow_redirects=False).status_code == 303


def test_every_card_of_a_run_says_when_its_note_was_said(client: TestClient, owner: Store) -> None:
    """The run keeps the time said; each of its cards shows it (in UTC here, the page's script says it again in
    the browser's time zone), also a card swapped alone after a decision, and no card of a note without one."""
    headers = {"x-csrf-token": login(client, "ana@taller.example")}
    said = (datetime.now(UTC) - timedelta(hours=2)).replace(second=0, microsecond=0)
    quito = timezone(timedelta(hours=-5))  # the phone's clock sends its own offset
    form = {
        "note": "El TQ-7F3K2 pasó a lavado y el TQ-2C5P0 ya está listo",
        "idempotency_key": "said-key-000001",
        "said_at": said.astimezone(quito).isoformat(),
    }
    sent = client.post("/workshop/notes", data=form, headers=headers)
    assert sent.headers["x-note-outcome"] == "sent"
    [run] = runs_with(owner, WORKSHOP_A, "said-key-000001")
    assert run.said_at == said
    line = (
        f'<p class="said">Nota dicha el <time datetime="{said.isoformat()}" data-local-time>'
        f"{said:%Y-%m-%d %H:%M} UTC</time></p>"
    )
    cards = re.findall(r'<article class="card.*?</article>', sent.text, re.S)
    assert len(cards) == 2 and all(line in card for card in cards)
    card_id = re.search(r'id="card-([^"]+)"', cards[0])
    assert card_id
    decided = client.post(f"/workshop/cards/{card_id.group(1)}", data={"action": "reject"}, headers=headers)
    assert decided.status_code == 200 and "outcome-rejected" in decided.text and line in decided.text
    assert client.get(f"/workshop/?run={run.id}").text.count(line) == 2
    # A note with no time said (the composer online without the outbox's fields) has no such line.
    plain = client.post("/workshop/notes", data={"note": "El TQ-7F3K2 pasó a lavado"}, headers=headers)
    assert plain.headers["x-note-outcome"] == "sent" and 'class="said"' not in plain.text
