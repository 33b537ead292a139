"""The rules' English messages in the page's language: each message is built by the rules' own code, so a
change of wording there fails here instead of showing English on a Spanish page."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from shopfloor.workshop import domain
from shopfloor.workshop.pages.i18n import translations
from shopfloor.workshop.pages.messages import localize

NOW = datetime(2026, 5, 4, 12, tzinfo=UTC)
ACTOR = domain.Actor("u1", "ws-a")
WEAVER = domain.Weaver("w1", "Rosa Pillco", workshop_id="ws-a")
HAT = domain.Hat("TQ-2C5P0", "Washing", "Standard", 12, "ws-a", NOW - timedelta(days=30), weaver=WEAVER)


def es(message: str) -> str:
    return localize(message, translations("es").gettext)


def en(message: str) -> str:
    return localize(message, translations("en").gettext)


def _rule_messages() -> list[str]:
    move = domain.can_advance
    return [
        move(HAT, domain.stage_index("Blocking"), ACTOR)["message"],  # stage_skip
        move(HAT, domain.stage_index("Weaving"), ACTOR)["message"],  # backward
        move(HAT, domain.stage_index("Washing"), ACTOR)["message"],  # same_stage
        move(replace(HAT, archived=True), 2, ACTOR)["message"],
        move(replace(HAT, stage="Finished"), 4, ACTOR)["message"],
        move(replace(HAT, workshop_id="ws-b"), 2, ACTOR)["message"],  # not_owner
        domain.grade_mismatch_message("Fino", 12),
        domain.grade_mismatch_message("Fino", 44),
        domain.ROWS_ERROR,
        domain.QUANTITY_ERROR,
    ]


@pytest.mark.parametrize("message", _rule_messages())
def test_every_rule_message_reads_in_spanish_and_unchanged_in_english(message: str) -> None:
    assert en(message) == message
    assert es(message) != message


def test_parts_of_a_message_are_translated_and_codes_kept() -> None:
    skip = domain.can_advance(HAT, domain.stage_index("Blocking"), ACTOR)["message"]
    assert es(skip) == (
        "TQ-2C5P0 está en Lavado; la etapa siguiente es Blanqueo, así que no puede saltar a Hormado."
    )
    assert es(domain.grade_mismatch_message("Fino", 12)) == (
        "Fino necesita de 14 a 20 hileras por pulgada; 12 hileras es Estándar."
    )


def test_the_approvals_endings_are_translated_with_what_they_follow() -> None:
    refused = domain.grade_mismatch_message("Fino", 12) + " The card was not changed."
    assert es(refused).endswith("hileras es Estándar. La tarjeta no se cambió.")
    answered = "Answer saved; the card can be approved. Carmen Quizhpi was not one of the card's choices."
    assert es(answered) == (
        "Respuesta guardada; la tarjeta se puede aprobar. Carmen Quizhpi no era una de las opciones de la tarjeta."
    )
    assert es("Still missing: weaver_id, rows_per_inch.") == "Falta todavía: tejedora, hileras por pulgada."


def test_anomaly_messages_are_translated() -> None:
    hat = replace(HAT, grade="Fino", stage="Washing", created_at=NOW - timedelta(hours=5))
    events = [
        domain.HatEvent("created", NOW - timedelta(hours=5), None, "Weaving"),
        domain.HatEvent("stage_changed", NOW - timedelta(hours=2), "Weaving", "Washing"),
    ]
    messages = [a["message"] for a in domain.detect_anomalies(hat, events, NOW)]
    assert messages, "the record should look wrong"
    for message in messages:
        assert en(message) == message
        assert es(message) != message
    assert any("salió de Tejido 3 horas después de crearse" in es(m) for m in messages)


def test_a_message_that_is_not_ours_is_shown_as_it_came() -> None:
    assert es("Something the model wrote.") == "Something the model wrote."
    assert es("") == ""
