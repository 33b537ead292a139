"""Deciding cards as a person does, end to end: a note through the agent route, then each decision through
``POST /functions/v1/apply-proposals`` (the main app, middleware included), on SQLite and PostgreSQL.

Each test is one thing a new user met on the cards (docs/workshop.md, "Approving"): a refused edit, an answer
that must fill only what its question asked, a weaver the card did not offer, a hat delivered already woven,
and the words a person said about a flag.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from shopfloor.workshop.store import Store

from .conftest import snapshot
from .helpers import ANA, assert_envelope, bearer, card, make_run

AGENT = "/functions/v1/workshop-agent"
APPLY = "/functions/v1/apply-proposals"
SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)


def send_note(client: TestClient, headers: dict[str, str], note: str) -> list[dict[str, Any]]:
    """The cards the agent prepares for ``note`` (the offline reader: no key is set in tests)."""
    r = client.post(AGENT, json={"note": note}, headers=headers)
    assert r.status_code == 200, r.text
    return list(r.json()["proposals"])


def decide(client: TestClient, headers: dict[str, str], **decision: Any) -> Any:
    """One decision through the HTTP API; returns the response."""
    return client.post(APPLY, json={"decisions": [decision]}, headers=headers)


def only_result(r: Any) -> dict[str, Any]:
    """The one card result of a response, whatever its status."""
    [result] = r.json()["results"]
    return dict(result)


def card_of(client: TestClient, headers: dict[str, str], proposal_id: str) -> dict[str, Any]:
    """The card as the read API shows it now."""
    cards = client.get("/workshop/api/proposals", headers=headers).json()["proposals"]
    [found] = [c for c in cards if c["id"] == proposal_id]
    return dict(found)


def find(cards: list[dict[str, Any]], kind: str, **payload: Any) -> dict[str, Any]:
    """The one card of ``kind`` whose payload has the given values."""
    [found] = [
        c for c in cards if c["type"] == kind and all(c["payload"].get(k) == v for k, v in payload.items())
    ]
    return found


# --- a refused edit leaves the card as it was ----------------------------------------------------------------


def test_a_refused_edit_leaves_the_card_as_it_was(client: TestClient, owner: Store) -> None:
    h = bearer(client, "ana@taller.example")
    cards = send_note(client, h, SAMPLE_NOTE)
    washing = find(cards, "advance_stage", hat_code="TQ-7F3K2")
    skip = find(cards, "advance_stage", hat_code="TQ-2C5P0")
    assert (washing["status"], skip["status"]) == ("pending", "blocked")
    before = {pid: card_of(client, h, pid) for pid in (washing["id"], skip["id"])}
    rows_before = snapshot(owner)

    # A pending card edited to a stage the rules refuse: the answer says why, and the card is unchanged.
    r = decide(client, h, proposal_id=washing["id"], action="approve", edits={"to_stage": "Blocking"})
    body = assert_envelope(r, 422, "stage_skip")
    result = only_result(r)
    assert (result["outcome"], result["status"]) == ("invalid", "pending")
    assert result["message"] == (
        "TQ-7F3K2 is at Weaving; the next stage is Washing, so it cannot skip to Blocking. "
        "The card was not changed."
    )
    assert result["rule_result"]["fix"] == {"to_stage": "Washing"}
    assert body["error"]["message"] == result["message"]
    # A blocked card edited to another refused stage keeps its own reason, not the edit's.
    r = decide(client, h, proposal_id=skip["id"], action="approve", edits={"to_stage": "Blocking"})
    assert_envelope(r, 422, "stage_skip")
    assert only_result(r)["status"] == "blocked"
    assert {pid: card_of(client, h, pid) for pid in before} == before
    assert snapshot(owner) == rows_before

    # The cards still work as they were: the pending one applies as proposed, the blocked one with its fix.
    assert only_result(decide(client, h, proposal_id=washing["id"], action="approve"))["outcome"] == "applied"
    fixed = decide(client, h, proposal_id=skip["id"], action="approve", edits={"to_stage": "Bleaching"})
    assert only_result(fixed)["outcome"] == "applied"
    hat = client.get("/workshop/api/hats/TQ-2C5P0", headers=h).json()
    assert hat["stage"] == "Bleaching"


# --- an answer fills only what its question asked -----------------------------------------------------------


def test_an_answer_fills_only_what_the_question_asked(client: TestClient) -> None:
    h = bearer(client, "ana@taller.example")
    # The note names Manuel but not the rows: the card asks for the rows and already knows the weaver.
    [rows_card] = send_note(client, h, "Manuel entregó 2 superfinos")
    assert rows_card["status"] == "question"
    assert rows_card["payload"]["weaver_id"] == "w3"
    r = decide(client, h, proposal_id=rows_card["id"], action="answer", value={"rows_per_inch": 28})
    assert r.status_code == 200, r.text
    answered = only_result(r)
    assert (answered["outcome"], answered["status"]) == ("answered", "pending")
    applied = only_result(decide(client, h, proposal_id=rows_card["id"], action="approve"))
    assert applied["outcome"] == "applied"
    assert (applied["applied"]["weaver_id"], applied["applied"]["rows_per_inch"]) == ("w3", 28)
    assert len(applied["applied"]["hat_codes"]) == 2

    # "Which hat?" on a flag: choosing the hat is the whole answer; the flag keeps the note's words.
    [which] = send_note(client, h, "el TQ-7F3KZ tiene una mancha")
    assert which["status"] == "question" and which["type"] == "flag_issue"
    r = decide(client, h, proposal_id=which["id"], action="answer", choice=0)
    assert r.status_code == 200, r.text
    assert only_result(r)["status"] == "pending"
    flagged = only_result(decide(client, h, proposal_id=which["id"], action="approve"))
    assert flagged["outcome"] == "applied" and flagged["applied"]["hat_code"] == "TQ-7F3K2"

    # A question whose answer really is missing still says so, naming only what it asked.
    [unknown] = send_note(client, h, "Doña Mercedes terminó 2 finos de 18 hileras")
    r = decide(client, h, proposal_id=unknown["id"], action="answer", value={"straw": "Natural"})
    assert_envelope(r, 422, "answer_incomplete")
    assert only_result(r)["message"] == "Still missing: weaver_id."


# --- a weaver the card did not offer ------------------------------------------------------------------------


def test_a_weaver_the_card_did_not_offer_only_as_someone_else(client: TestClient, owner: Store) -> None:
    h = bearer(client, "ana@taller.example")
    [which] = send_note(client, h, "Rosa entregó 2 finos de 16 hileras")
    offered = [c["weaver_id"] for c in which["payload"]["question"]["choices"]]
    assert which["status"] == "question" and offered == ["w1", "w2"]
    before, rows_before = card_of(client, h, which["id"]), snapshot(owner)

    # Carmen (w4) was not offered: as a plain answer, or slipped into an approval's edits, it is refused.
    for decision in (
        {"action": "answer", "value": {"weaver_id": "w4"}},
        {"action": "approve", "edits": {"weaver_id": "w4"}},
    ):
        r = decide(client, h, proposal_id=which["id"], **decision)
        assert_envelope(r, 422, "not_offered")
        assert only_result(r)["message"] == (
            "Carmen Quizhpi is not one of this card's choices (Rosa Pillco, Rosa Guamán); pick one of them, "
            'or answer "someone else" to name another weaver.'
        )
    # "Someone else" needs the weaver it means, and cannot come with one of the choices.
    assert_envelope(decide(client, h, proposal_id=which["id"], action="answer", other=True), 400)
    both = decide(client, h, proposal_id=which["id"], action="answer", choice=0, other=True)
    assert_envelope(both, 400, "bad_request")
    assert card_of(client, h, which["id"]) == before and snapshot(owner) == rows_before

    # Explicitly someone else: accepted, and the card's outcome warns that the weaver was not offered.
    r = decide(client, h, proposal_id=which["id"], action="answer", other=True, value={"weaver_id": "w4"})
    assert r.status_code == 200, r.text
    answered = only_result(r)
    assert (answered["outcome"], answered["status"]) == ("answered", "pending")
    assert answered["rule_result"]["warnings"] == ["not_offered"]
    assert answered["message"] == (
        "Answer saved; the card can be approved. Carmen Quizhpi was not one of the card's choices."
    )
    assert card_of(client, h, which["id"])["rule_result"]["warnings"] == ["not_offered"]
    applied = only_result(decide(client, h, proposal_id=which["id"], action="approve"))
    assert applied["outcome"] == "applied" and applied["applied"]["weaver_id"] == "w4"
    assert applied["rule_result"]["warnings"] == ["not_offered"]

    # One of the choices needs no "someone else" and carries no warning.
    [again] = send_note(client, h, "Rosa entregó 3 finos de 15 hileras")
    r = decide(client, h, proposal_id=again["id"], action="answer", value={"weaver_id": "w2"})
    assert r.status_code == 200, r.text
    assert only_result(r)["rule_result"]["warnings"] == []


# --- a delivered hat was woven before it reached the workshop --------------------------------------------------


def test_a_delivered_hat_is_not_too_fast_on_its_first_move(client: TestClient) -> None:
    h = bearer(client, "ana@taller.example")
    [create] = send_note(client, h, "Doña Rosa Pillco terminó 3 finos de 18 hileras.")
    created = only_result(decide(client, h, proposal_id=create["id"], action="approve"))
    assert created["outcome"] == "applied"
    code = created["applied"]["hat_codes"][0]
    # The record says the hat arrived woven: its created event ends Weaving at the delivery.
    hat = client.get(f"/workshop/api/hats/{code}", headers=h).json()
    assert [(e["type"], e["from_stage"], e["to_stage"]) for e in hat["events"]] == [
        ("created", "Weaving", "Weaving")
    ]

    # Its first move to washing, right after the delivery, is neither warned on the card nor at approval.
    [move] = send_note(client, h, f"El {code} pasó a lavado")
    assert (move["status"], move["rule_result"]["warnings"]) == ("pending", [])
    moved = only_result(decide(client, h, proposal_id=move["id"], action="approve"))
    assert moved["outcome"] == "applied" and moved["rule_result"]["warnings"] == []
    assert client.get(f"/workshop/api/hats/{code}", headers=h).json()["anomalies"] == []

    # A hat whose weaving was really recorded (TQ-1P9KD, a Fino begun 2 days ago) is still too fast.
    [early] = send_note(client, h, "El TQ-1P9KD pasó a lavado")
    assert early["rule_result"]["warnings"] == ["too_fast"]
    warned = only_result(decide(client, h, proposal_id=early["id"], action="approve"))
    assert warned["outcome"] == "applied" and warned["rule_result"]["warnings"] == ["too_fast"]


# --- a flag keeps the words the person said --------------------------------------------------------------------


def open_flag(client: TestClient, headers: dict[str, str], code: str) -> dict[str, Any]:
    [flag] = client.get(f"/workshop/api/hats/{code}", headers=headers).json()["open_flags"]
    return dict(flag)


def test_a_flag_keeps_the_words_the_person_said(client: TestClient, store: Store) -> None:
    h = bearer(client, "ana@taller.example")
    [stain] = send_note(client, h, "El TQ-7F3K2 tiene una mancha en el ala")
    assert stain["type"] == "flag_issue" and stain["quote"] == "El TQ-7F3K2 tiene una mancha en el ala"
    assert only_result(decide(client, h, proposal_id=stain["id"], action="approve"))["outcome"] == "applied"
    # A card of the offline reader: its message is the kind's sentence and the words; the flag keeps the words.
    assert stain["payload"]["message"] == 'Problem reported in the note: "tiene una mancha en el ala"'
    assert open_flag(client, h, "TQ-7F3K2")["message"] == "tiene una mancha en el ala"

    # A card whose message is not the person's words keeps both: the words first, then the message.
    other = {"hat_code": "TQ-7F3KA", "kind": "other", "message": "Stain reported on the brim."}
    worded = {"hat_code": "TQ-1P9KD", "kind": "other", "message": "mancha en el ala"}
    typed = {"hat_code": "TQ-2C5P0", "kind": "other", "message": "The note reports a problem with this hat."}
    a, b, c = make_run(
        store,
        ANA,
        [
            card("flag_issue", other, quote="tiene una mancha en el ala"),
            card("flag_issue", worded, quote="tiene una mancha en el ala"),
            # A reader's card (its message said by a code) whose message the person then typed over.
            {
                **card("flag_issue", typed, quote="el ala está rota"),
                "texts": {"message": {"code": "flag.other", "params": {"words": "el ala está rota"}}},
            },
        ],
    )
    for pid in (a, b):
        assert only_result(decide(client, h, proposal_id=pid, action="approve"))["outcome"] == "applied"
    assert open_flag(client, h, "TQ-7F3KA")["message"] == (
        '"tiene una mancha en el ala" — Stain reported on the brim.'
    )
    # A message that already is the person's words is kept as it is.
    assert open_flag(client, h, "TQ-1P9KD")["message"] == "mancha en el ala"
    # A message the person typed on the card is theirs: it is stored as typed.
    edited = decide(
        client, h, proposal_id=c, action="approve", edits={"message": "Ala rota cerca de la copa"}
    )
    assert only_result(edited)["outcome"] == "applied"
    assert open_flag(client, h, "TQ-2C5P0")["message"] == "Ala rota cerca de la copa"
