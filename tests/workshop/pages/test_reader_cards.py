"""Cards on a Spanish page, server-rendered: the offline reader's questions, reasons and flag messages are said
from their codes in Spanish; a live model's words, and a card stored before the codes, are shown as they came
(docs/workshop-pages.md, "Cards")."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from shopfloor.workshop.store import Store

from ..helpers import ANA, card, login, make_run
from .test_messages import english_words

SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo y "
    "el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)


def cards(page: str) -> list[str]:
    return re.findall(r'<article class="card.*?</article>', page, re.S)


def said(card_html: str, what: str) -> str:
    """The text of one part of a card: ``why``, ``question`` or ``flag-message``."""
    pattern = {
        "why": r'<details class="why">.*?<p>(.*?)</p>',
        "question": r'<p class="question"><strong>[^<]*</strong>\s*(.*?)</p>',
        "flag-message": r'<p class="flag-message">(.*?)</p>',
    }[what]
    found = re.search(pattern, card_html, re.S)
    assert found is not None, (what, card_html)
    return html.unescape(found.group(1)).strip()


def test_the_readers_cards_from_a_spanish_note_speak_spanish(client: TestClient) -> None:
    headers = {"x-csrf-token": login(client, "ana@taller.example")}  # a member: Spanish pages
    page = client.post("/workshop/notes", data={"note": SAMPLE_NOTE}, headers=headers).text
    create, washing, _, flag = cards(page)
    assert said(create, "why") == "Rosa Pillco entregó 3 sombreros Fino nuevos de 18 hileras por pulgada."
    assert said(washing, "why") == "La nota dice que TQ-7F3K2 ahora está en Lavado."
    assert said(flag, "why").startswith("La nota reporta un grado que no coincide con las hileras en ")
    assert said(flag, "flag-message").startswith("El grado no coincide con las hileras, dice la nota: «")
    # A question: which Rosa (two weavers answer to the name), and why it asks.
    page = client.post(
        "/workshop/notes", data={"note": "Rosa terminó 2 finos de 18 hileras"}, headers=headers
    ).text
    [question] = cards(page)
    assert said(question, "question") == "¿Qué tejedora es Rosa?"
    assert (
        said(question, "why")
        == "La nota menciona sombreros nuevos de Rosa, y 2 tejedoras coinciden con ese nombre."
    )
    for part in (said(question, "question"), said(question, "why"), said(flag, "why"), said(create, "why")):
        assert english_words(part, ("Rosa Pillco", "Fino", "TQ-7F3K2", "TQ-4K9D1", "TQ-8H6RT")) == set(), part


def test_a_live_models_words_and_a_card_stored_before_the_codes_are_shown_as_they_came(
    client: TestClient, store: Store
) -> None:
    headers = {"x-csrf-token": login(client, "ana@taller.example")}
    model, old = make_run(
        store,
        ANA,
        [
            card(
                "advance_stage",
                {"hat_code": "TQ-7F3K2", "to_stage": "Washing"},
                why="Rosa says it was washed.",
            ),
            # The reader's own English, saved before its cards kept codes: never parsed back.
            card(
                "advance_stage",
                {"hat_code": "TQ-2C5P0", "to_stage": "Blocking"},
                why="The note says TQ-2C5P0 is now at Blocking.",
            ),
        ],
    )
    assert (
        said(client.get(f"/workshop/cards/{model}", headers=headers).text, "why")
        == "Rosa says it was washed."
    )
    assert said(client.get(f"/workshop/cards/{old}", headers=headers).text, "why") == (
        "The note says TQ-2C5P0 is now at Blocking."
    )


def test_a_flag_approved_from_a_readers_card_keeps_the_persons_words(client: TestClient) -> None:
    """The record keeps the person's words alone; the hat page says the kind by its label, in Spanish."""
    headers = {"x-csrf-token": login(client, "ana@taller.example")}
    page = client.post(
        "/workshop/notes", data={"note": "El TQ-7F3K2 tiene una mancha en el ala"}, headers=headers
    )
    [flag] = cards(page.text)
    assert said(flag, "flag-message") == "Problema reportado en la nota: «tiene una mancha en el ala»"
    card_id = re.search(r'id="card-([^"]+)"', flag)
    assert card_id is not None
    decided = client.post(f"/workshop/cards/{card_id.group(1)}", data={"action": "approve"}, headers=headers)
    assert decided.status_code == 200 and "outcome-applied" in decided.text
    hat = client.get("/workshop/hats/TQ-7F3K2", headers=headers).text
    item = re.search(r'<li class="flag-item">\s*<p>(.*?)</p>', hat, re.S)
    assert item is not None
    assert (
        re.sub(r"<[^>]+>", "", html.unescape(item.group(1))).strip()
        == "⚑ Otro problema: tiene una mancha en el ala"
    )
